"""Blokus Duo endgame solver: nodes per second, and how far from the end it proves games.

Usage: python bench/blokus_endgame.py [--games N] [--cap NODES] [--budget NODES]
                                      [--moves N] [--seed N] [--json]

Plays ``--games`` games of a fixed policy (each colour places one of its biggest placements
that fit, 80 % of the time, else any), then solves their positions from the last one back
(``knowledge.blokus_duo.endgame.solve``, up to ``--cap`` nodes each) until one fails.
Reports the solver's nodes per second (CPU time of this process, over the solves up to
``--cap``), and for a budget of ``--budget`` nodes tried where both colours together have at
most ``--moves`` legal placements and the mover more than one placement (the player's
``endgame_nodes``, ``endgame_moves``): the positions tried, those whose margin it proved
(``exact``), those where it proved a win only (``wins``), and per game how many plies before
the end the first proof comes.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import _common  # noqa: F401  (the repository on sys.path; stale numba caches dropped)
import numpy as np

from games.blokus_duo import PASS, BlokusState
from knowledge.blokus_duo.endgame import endgame_ready, solve


def game(seed: int) -> list[BlokusState]:
    """The positions of one game of the biggest-placement policy."""
    rng = random.Random(seed)
    s = BlokusState(first=seed % 2)
    out = []
    while not s.is_terminal():
        out.append(s.clone())
        moves = s.legal_placements()
        if not moves:
            s.play(PASS)
            continue
        sizes = s.geo.ncells[np.asarray(moves)]
        big = [m for m, z in zip(moves, sizes, strict=True) if z == sizes.max()]
        s.play(rng.choice(big) if rng.random() < 0.8 else rng.choice(moves))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--cap", type=int, default=2_000_000, help="nodes per solve at most")
    ap.add_argument("--budget", type=int, default=100_000, help="the player's endgame_nodes")
    ap.add_argument("--moves", type=int, default=100, help="the player's endgame_moves")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    solve(BlokusState(), 1)  # compile / load the kernel
    nodes = 0
    cpu = 0.0
    tried = exact = wins = 0
    first: list[int] = []  # per game: plies before the end of the first proof
    for g in range(args.games):
        positions = game(args.seed * 1000 + g)
        earliest = 0
        for ply in range(len(positions) - 1, -1, -1):
            s = positions[ply]
            t = time.process_time()
            sol = solve(s, args.cap)
            cpu += time.process_time() - t
            nodes += sol.nodes
            if len(s.legal_placements()) > 1 and endgame_ready(s, args.moves):
                tried += 1
                within = solve(s, args.budget)
                exact += within.exact
                wins += within.solved and not within.exact
                if within.solved:
                    earliest = len(positions) - ply
            if not sol.solved:
                break
        first.append(earliest)
        if not args.json:
            print(f"game {g + 1}: {len(positions)} plies, first proof within the budget "
                  f"{earliest} plies before the end")
    out = {"games": args.games, "nodes": nodes, "cpu_s": round(cpu, 2),
           "nodes_per_s": round(nodes / cpu), "budget": args.budget, "moves": args.moves,
           "tried": tried, "exact": exact, "wins": wins, "first_proof_plies_before_end": first}
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
