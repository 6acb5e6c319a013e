#!/usr/bin/env python
"""A player's score by the first move of its games: does one opening cost it games?

    python bench/go_openings.py RUN_DIR [RUN_DIR ...] [--player LABEL] [--plies N] [--json]

RUN_DIR is a run of bench/go_strength.py or `corvid arena gtp` (its games.jsonl). The player
(default: corvid if it plays, else the first player of each game) is scored by the first
move of each game, up to the board's 8 symmetries: as black by its own first move, as white
by the opponent's. A class is named by its point in the lower-left quarter (on 9x9: E5 the
centre, D5 the four points beside it, D4 the four diagonal to it, C3 the 3-3 points, ...).
One line per colour and class: games, W-D-L, the score (a jigo is half) and its Wilson 95 %
interval. --json: {"black": {class: [w, d, l]}, "white": {...}} last.

--plies N classes a game by its first N moves instead (the same symmetry applied to all of
them; the class is named by its lowest image, moves compared in order, a pass lowest), so a
line such as "D5 F5 E4" (black beside the centre, white opposite, black below the centre)
can be told from "D5 F5 E3"; games shorter than N moves are left out. --plies 1 is the
default.

The first move is the player's own choice (or the opponent's) before the game says anything
about the opponent, so a class that scores clearly below the others against one opponent
says how that opponent handles the positions that follow, not how lucky the player was.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from _common import emit_json  # also puts the repository on sys.path

from knowledge.go.patterns import board_image
from protocols.gtp.common import GtpError, format_vertex, parse_vertex
from servers.arena.stats import wilson

OUTCOME = {1.0: 0, 0.5: 1, 0.0: 2}


def opening_class(moves: list[str], size: int) -> str:
    """The class of the moves (vertices) under the 8 symmetries of the board, one symmetry
    for all of them, named by the lowest image (by column, then row, move by move; a pass
    lowest). The class of one move is named by its image in the lower-left quarter."""
    points = [parse_vertex(v, size) for v in moves]
    lowest = min([(-1, -1) if p is None else board_image(t, *p, size) for p in points]
                 for t in range(8))
    return " ".join("pass" if p == (-1, -1) else format_vertex(p) for p in lowest)


def tally(runs: list[Path], player: str | None, plies: int = 1
          ) -> dict[str, dict[str, list[int]]]:
    """{colour: {class: [wins, draws, losses]}} of the player over the runs' games."""
    out: dict[str, dict[str, list[int]]] = {"black": defaultdict(lambda: [0, 0, 0]),
                                            "white": defaultdict(lambda: [0, 0, 0])}
    for run in runs:
        for line in (run / "games.jsonl").read_text(encoding="utf-8").splitlines():
            g = json.loads(line)
            players, result, moves = g.get("players"), g.get("result"), g.get("moves")
            if not players or result is None or len(moves or []) < plies:
                continue
            me = player if player else ("corvid" if "corvid" in players else players[0])
            if me not in players or result[players.index(me)] not in OUTCOME:
                continue
            i = players.index(me)
            size = int(g.get("options", {}).get("size", 9))
            try:
                cls = opening_class(moves[:plies], size)
            except GtpError:
                continue
            out["black" if i == 0 else "white"][cls][OUTCOME[result[i]]] += 1
    return {k: dict(v) for k, v in out.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", type=Path, nargs="+", help="run directories (games.jsonl)")
    p.add_argument("--player", help="the label scored (default: corvid, else the first)")
    p.add_argument("--plies", type=int, default=1,
                   help="class the games by their first N moves (default 1)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.plies < 1:
        p.error("--plies must be at least 1")
    missing = [r for r in args.runs if not (r / "games.jsonl").is_file()]
    if missing:
        print(f"go_openings: no games.jsonl in {', '.join(map(str, missing))}", file=sys.stderr)
        return 2
    table = tally(args.runs, args.player, args.plies)
    width = max(10, 4 * args.plies - 1)
    head = "first move" if args.plies == 1 else f"first {args.plies} moves"
    print(f"{'colour':<6} {head:>{width}} {'games':>6} {'W-D-L':>12} {'score':>6}  95 %")
    for colour in ("black", "white"):
        for cls, (w, d, l) in sorted(table[colour].items(), key=lambda kv: -sum(kv[1])):
            n = w + d + l
            lo, hi = wilson(w + d / 2, n)
            print(f"{colour:<6} {cls:>{width}} {n:>6} {f'{w}-{d}-{l}':>12} {(w + d / 2) / n:>6.3f}"
                  f"  [{lo:.2f}, {hi:.2f}]")
    if args.json:
        emit_json(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
