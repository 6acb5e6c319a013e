"""Where corvid's lost games were lost (a deep search values every position of them), and
whether its resignations were right (--play-on).

    python bench/go_losses.py RUN_DIR [--games 8] [--playouts 10000] [--json]

RUN_DIR is a run of bench/go_strength.py (its games.jsonl and SGFs). For each of the first
--games games corvid lost, `corvid gtp`'s search (its defaults, --playouts per position, a
fresh tree each) values the position after every move, from corvid's side. One line per
game: corvid's colour, the moves, its best value in the first 20 moves, the last move after
which the value was still 0.4 or more and the first after which it was below 0.2 (where the
game was lost), and the largest drop across one of corvid's own moves. A search's value
for the side to move runs a few hundredths high, so drops across one move of that size are
noise; the drops that matter are tenths. --json: {"games": n, "lost_at": [...],
"collapse": [...], "worst_own_drop": [...]} last (collapse: the first move below 0.2 minus
the last at 0.4 or more; negative when the value dipped below 0.2 before its last 0.4).

    python bench/go_losses.py RUN_DIR --play-on [--games 40] [--json]

Were the resignations right? For each of the first --games games corvid resigned, corvid
(the run's settings, never resigning) and the run's opponent play on from the position where
corvid resigned, to the end (two passes, Tromp-Taylor). One line per game, and the W-D-L of
the games played on: a win or jigo there is a point the resignation gave away. --json:
{"games": n, "wins": w, "draws": d, "losses": l} last.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import numpy as np
from _common import emit_json  # also puts the repository on sys.path

from clients.gtp.config import GtpConfig
from clients.gtp.player import make_core, search_position
from clients.logs import setup_logging
from search.budget import Budget
from training.go.label import position_at


def values(sgf: Path, moves: int, me: int, cfg: GtpConfig, seed: int) -> list[float]:
    """corvid's value after each of the game's first ``moves`` moves (index k: after k)."""
    out = []
    for k in range(moves):
        s = search_position(position_at(sgf, k), cfg)
        if s.is_terminal() or len(list(s.legal_moves())) <= 1:
            break
        v = make_core(cfg, s.size).search(s, s.to_move, Budget(playouts=cfg.playouts),
                                          np.random.default_rng([seed, k])).value
        out.append(v if s.to_move == me else 1.0 - v)
    return out


def play_on(run: Path, resigned: list[tuple[dict[str, Any], int]], seed: int
            ) -> list[float]:
    """corvid's result in each resigned game played on from its resignation."""
    from games.go import BLACK, PASS, row_col
    from servers.arena.gtp import ALIASES
    from servers.arena.players import parse_player
    from servers.gtp.match import MatchConfig, play_game
    from servers.gtp.process import EngineProcess
    from training.go.dataset import replay

    out = []
    for k, (g, me) in enumerate(resigned):
        start, history = replay((run / g["record"]).read_bytes())
        size = start.size
        # the referee's colours (0 black) and vertices ((col, row); None for a pass)
        moves = [(0 if c == BLACK else 1, None if p == PASS else row_col(size, p)[::-1])
                 for c, p in history]
        players = [parse_player(spec, aliases=ALIASES) for spec in g["specs"]]
        players[me] = players[me].with_setting("resign_threshold", "0")
        argv = [shlex.join(pl.argv(["gtp"], seed=seed + k)) for pl in players]
        cfg = MatchConfig(size=size, komi=start.komi, timeout=600.0)
        engines = [EngineProcess(cmd, label) for cmd, label in zip(argv, g["players"],
                                                                  strict=True)]
        try:
            result = play_game(engines[0], engines[1], cfg, opening=moves)
        finally:
            for e in engines:
                e.close()
        r = 0.5 if result.winner is None else float(result.winner == me)
        if result.reason not in ("score", "resign"):
            r = float("nan")
        print(f"{g['record']:<22} {'BW'[me]:>2} resigned after {len(moves):>3} moves; "
              f"played on: {result.result_text} ({result.reason}), corvid {r:g}", flush=True)
        out.append(r)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", type=Path, help="a bench/go_strength.py run directory")
    p.add_argument("--games", type=int, default=8, help="lost games to value (the first N)")
    p.add_argument("--playouts", type=int, default=10000, help="playouts per position")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--play-on", action="store_true",
                   help="play the resigned games on from the resignation instead")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    setup_logging("warning")
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
    if args.play_on:
        lost = [(g, me) for g, me in lost if g.get("reason") == "resign"]
    lost = lost[:args.games]
    if not lost:
        what = "resigned" if args.play_on else "lost"
        print(f"go_losses: no {what} game of corvid in {index}", file=sys.stderr)
        return 2
    if args.play_on:
        if any("specs" not in g for g, _ in lost):
            print(f"go_losses: {index} does not name the players' settings (specs); "
                  "--play-on needs a run of the arena's bench/go_strength.py", file=sys.stderr)
            return 2
        res = play_on(args.run, lost, args.seed)
        wins, draws = res.count(1.0), res.count(0.5)
        losses = res.count(0.0)
        print(f"({len(res)} resigned games played on: {wins}-{draws}-{losses}"
              f"{'' if wins + draws + losses == len(res) else ', the rest unfinished'})")
        if args.json:
            emit_json({"games": len(res), "wins": wins, "draws": draws, "losses": losses})
        return 0
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
