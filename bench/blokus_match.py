"""Two Blokus Duo players in one process at a fixed budget per move: the tuning match.

Each player is a set of ``corvid blokus`` settings (``--a`` and ``--b``, comma-separated
``key=value`` items as ``--set`` takes them, presets included) searching a fixed budget per
move: a number of playouts (α-β reads it as nodes) or, with an ``s`` suffix, seconds.
Strength at a fixed number of playouts does not depend on the machine's load, so settings
can be compared on a busy machine; seconds give the time-limited view (then note the load).

    python bench/blokus_match.py --a core=uct --b preset=v1 --a-budget 0.75s --b-budget 0.75s
    python bench/blokus_match.py --a core=uct,playout=weighted --b core=uct \\
        --budget 2000 --games 100 --out runs/weighted.jsonl --json

Game i: A plays colour i mod 2, colour (i div 2) mod 2 moves first (both seats and both move
orders every four games), seeds ``seed + i``; ``--random-plies K`` starts each game from K
uniformly random moves (the same for the pair of games that swaps the colours), for
diversity between deterministic players. With ``--out FILE`` each finished game is a JSON
line and a rerun resumes after the games done. Prints W-D-L for A with a Wilson interval,
the mean score margin, and each player's mean playouts (or nodes) and seconds per move; with
``--json`` those figures are the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (sys.path)
import numpy as np

from clients.blokus.config import PlayerConfig, load_player_config
from clients.blokus.player import Core, fallback_move
from games.blokus_duo import PASS, BlokusState
from search.budget import Budget
from servers.arena.stats import wilson


def parse_budget(text: str) -> Budget:
    """``2000`` = 2000 playouts (nodes for α-β); ``0.75s`` = 0.75 seconds."""
    if text.endswith("s"):
        return Budget(seconds=float(text[:-1]))
    return Budget(playouts=int(text))


def settings(spec: str) -> list[str]:
    """``key=value,key=value``; a list value keeps its commas (``size_weights=[1,2,3,4,5]``)."""
    return [s for s in (x.strip() for x in re.split(r",(?![^\[]*\])", spec)) if s]


class Side:
    """A player: its settings, its core (tree kept between its moves) and its budget."""

    def __init__(self, spec: str, budget: str) -> None:
        self.cfg: PlayerConfig = load_player_config(None, settings(spec))
        self.core = Core(self.cfg)
        self.budget = parse_budget(budget)
        self.rng = np.random.default_rng(self.cfg.seed)

    def new_game(self, seed: int) -> None:
        self.core.reset()
        self.rng = np.random.default_rng(seed)

    def move(self, state: BlokusState) -> tuple[int, dict[str, float]]:
        moves = state.legal_placements()
        if not moves:
            return PASS, {}
        if len(moves) == 1:
            return moves[0], {}
        t = time.perf_counter()
        # the core plays the position with the player's own playout policy and priors
        res = self.core.search(state.clone(), self.budget, self.rng)
        dt = time.perf_counter() - t
        move = int(res.move)  # type: ignore[call-overload,unused-ignore]
        if move not in moves:
            move = fallback_move(state)
        return move, {"playouts": float(res.playouts), "seconds": dt}


def play(a: Side, b: Side, i: int, seed: int, random_plies: int) -> dict[str, Any]:
    a_colour = i % 2
    first = (i // 2) % 2
    a.new_game(seed + i)
    b.new_game(seed + i + 7919)
    state = BlokusState(first=first)
    rng = np.random.default_rng(seed + 104729 * (i // 2))  # the same opening for a pair
    for _ in range(random_plies):
        moves = state.legal_moves()
        if state.is_terminal() or not moves:
            break
        state.play(moves[int(rng.integers(len(moves)))])
    stats: dict[str, list[float]] = {"a_playouts": [], "a_seconds": [], "b_playouts": [],
                                     "b_seconds": []}
    while not state.is_terminal():
        side, tag = (a, "a") if state.to_move_colour == a_colour else (b, "b")
        move, info = side.move(state)
        for k, v in info.items():
            stats[f"{tag}_{k}"].append(v)
        state.play(move)
    sc = state.scores()
    margin = sc[a_colour] - sc[1 - a_colour]
    return {"game": i, "a_colour": a_colour, "first": first, "scores": list(sc),
            "margin": margin, "score": 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5,
            "plies": len(state.history),
            **{k: (float(np.mean(v)) if v else 0.0) for k, v in stats.items()}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, metavar="SETTINGS", help="player A, e.g. core=uct")
    ap.add_argument("--b", required=True, metavar="SETTINGS", help="player B, e.g. preset=v1")
    ap.add_argument("--budget", default="1000", help="per move for both: playouts, or "
                    "seconds with an s suffix (default %(default)s)")
    ap.add_argument("--a-budget", help="A's budget (default --budget)")
    ap.add_argument("--b-budget", help="B's budget (default --budget)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--random-plies", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", metavar="FILE", help="JSON lines of finished games (resume)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    a = Side(args.a, args.a_budget or args.budget)
    b = Side(args.b, args.b_budget or args.budget)
    key = {"a": args.a, "b": args.b, "a_budget": args.a_budget or args.budget,
           "b_budget": args.b_budget or args.budget, "random_plies": args.random_plies,
           "seed": args.seed}
    done: list[dict[str, Any]] = []
    out = Path(args.out) if args.out else None
    if out is not None and out.exists():
        for line in out.read_text().splitlines():
            rec = json.loads(line)
            if rec.get("key") != key:
                print(f"{out} holds another match ({rec.get('key')}); use another --out",
                      file=sys.stderr)
                return 2
            done.append(rec)
    t0 = time.monotonic()
    load0 = os.getloadavg()[0]
    print(f"A: {args.a} ({key['a_budget']})  B: {args.b} ({key['b_budget']})", flush=True)
    for i in range(len(done), args.games):
        rec = play(a, b, i, args.seed, args.random_plies)
        rec["key"] = key
        done.append(rec)
        print(f"game {i + 1:>4}: A colour {rec['a_colour']} first {rec['first']} "
              f"scores {rec['scores'][0]:>4} {rec['scores'][1]:>4}  A {rec['score']:.1f}  "
              f"A {rec['a_playouts']:.0f}/{rec['a_seconds']:.2f}s  "
              f"B {rec['b_playouts']:.0f}/{rec['b_seconds']:.2f}s", flush=True)
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            with out.open("a") as f:
                f.write(json.dumps(rec) + "\n")
    n = len(done)
    score = sum(r["score"] for r in done)
    wins = sum(r["score"] == 1.0 for r in done)
    draws = sum(r["score"] == 0.5 for r in done)
    fig = {"games": n, "wins": wins, "draws": draws, "losses": n - wins - draws,
           "score": round(score / n, 4) if n else 0.0,
           "ci95": [round(x, 4) for x in wilson(score, n)],
           "margin": round(float(np.mean([r["margin"] for r in done])), 2) if n else 0.0,
           **{k: round(float(np.mean([r[k] for r in done])), 3) if n else 0.0
              for k in ("a_playouts", "a_seconds", "b_playouts", "b_seconds")},
           "load": [round(load0, 2), round(os.getloadavg()[0], 2)],
           "seconds": round(time.monotonic() - t0, 1), **key}
    print(f"A {fig['wins']}-{fig['draws']}-{fig['losses']}  score {fig['score']:.3f} "
          f"(95% {fig['ci95'][0]:.3f}..{fig['ci95'][1]:.3f})  margin {fig['margin']:+.1f}  "
          f"load {fig['load'][0]:.1f}..{fig['load'][1]:.1f}")
    if args.json:
        print(json.dumps(fig))
    return 0


if __name__ == "__main__":
    sys.exit(main())
