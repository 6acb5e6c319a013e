"""Where corvid's lost games were lost: a deep search values every position of them.

    python bench/go_losses.py RUN_DIR [--games 8] [--playouts 10000] [--json]

RUN_DIR is a run of bench/go_strength.py (its games.jsonl and SGFs). For each of the first
--games games corvid lost, `corvid gtp`'s search (its defaults, --playouts per position, a
fresh tree each) values the position after every move, from corvid's side. One line per
game: corvid's colour, the moves, its best value in the first 20 moves, the last move after
which the value was still 0.4 or more and the first after which it was below 0.2 (where the
game was lost), and the largest drop across one of corvid's own moves. A search's value
for the side to move runs a few hundredths high, so drops across one move of that size are
noise; the drops that matter are tenths. --json: {"games": n, "lost_at": [...],
"collapse": [...], "worst_own_drop": [...]} last.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from _common import emit_json  # also puts the repository on sys.path

from clients.gtp.config import GtpConfig
from clients.gtp.knowledge import prepare_state
from clients.gtp.player import make_core
from search.budget import Budget
from training.go.label import position_at


def values(sgf: Path, moves: int, me: int, cfg: GtpConfig, seed: int) -> list[float]:
    """corvid's value after each of the game's first ``moves`` moves (index k: after k)."""
    out = []
    for k in range(moves):
        s = position_at(sgf, k)
        prepare_state(s, cfg)
        if s.is_terminal() or len(list(s.legal_moves())) <= 1:
            break
        v = make_core(cfg).search(s, s.to_move, Budget(playouts=cfg.playouts),
                                  np.random.default_rng([seed, k])).value
        out.append(v if s.to_move == me else 1.0 - v)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", type=Path, help="a bench/go_strength.py run directory")
    p.add_argument("--games", type=int, default=8, help="lost games to value (the first N)")
    p.add_argument("--playouts", type=int, default=10000, help="playouts per position")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    index = args.run / "games.jsonl"
    if not index.is_file():
        print(f"go_losses: {index} not found (a bench/go_strength.py run?)", file=sys.stderr)
        return 2
    lost = []
    for line in index.read_text().splitlines():
        g = json.loads(line)
        if "corvid" in g["players"]:
            me = g["players"].index("corvid")
            if g["result"][me] == 0.0 and g.get("record"):
                lost.append((g, me))
    lost = lost[:args.games]
    if not lost:
        print(f"go_losses: no lost game of corvid in {index}", file=sys.stderr)
        return 2
    cfg = GtpConfig(playouts=args.playouts, warmup=False)
    lost_at, collapse, worst = [], [], []
    print(f"{'game':<22} {'as':>2} {'moves':>5} {'best<20':>7} {'last>=.4':>8} "
          f"{'first<.2':>8} {'worst own drop':>15}")
    for g, me in lost:
        v = values(args.run / g["record"], len(g["moves"]), me, cfg, args.seed)
        last_ok = max((k for k, x in enumerate(v) if x >= 0.4), default=0)
        first_low = min((k for k, x in enumerate(v) if x < 0.2), default=len(v))
        # corvid plays move k+1 (1-based) from position k when k % 2 == me
        drops = [(v[k + 1] - v[k], k + 1) for k in range(len(v) - 1) if k % 2 == me]
        drop, at = min(drops, default=(0.0, 0))
        lost_at.append(last_ok)
        collapse.append(first_low - last_ok)
        worst.append(round(drop, 3))
        print(f"{g['record']:<22} {'BW'[me]:>2} {len(g['moves']):>5} {max(v[:20]):>7.2f} "
              f"{last_ok:>8} {first_low:>8} {drop:>+8.2f} at {at:<3}", flush=True)
    print(f"({len(lost)} lost games, {args.playouts} playouts per position; median move of "
          f"the last value >= 0.4: {float(np.median(lost_at)):.0f})")
    if args.json:
        emit_json({"games": len(lost), "playouts": args.playouts, "lost_at": lost_at,
                   "collapse": collapse, "worst_own_drop": worst})
    return 0


if __name__ == "__main__":
    sys.exit(main())
