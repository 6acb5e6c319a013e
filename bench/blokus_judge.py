"""How good each player's Blokus Duo moves are by a strong engine's judgement.

    python bench/blokus_judge.py --records DIR --judge "pentobi-gtp --game duo --nobook \\
        --level 6" --player v3=preset=v3@8000 --player fast=preset=v3@1000 --player judge \\
        --positions 200 --out FILE --json

Positions are drawn (``--seed``) from the recorded games under ``--records`` (Blokus SGF, as
the arena and the host write them), plies ``--plies`` (2-20), where the mover has two
placements or more. In each position every ``--player`` chooses a move: ``LABEL=SETTINGS@
BUDGET`` is ``corvid blokus`` with those settings (comma-separated ``key=value``, presets
included; a fresh tree) searching BUDGET (playouts, or seconds with an ``s`` suffix; default
``--budget``), and ``judge`` is the judge engine's own move at its level. The judge then
searches the position after the move for the other side; one minus its value is the move's
value. A move two players both chose is judged once.

The judge is Pentobi's GTP engine (``pentobi-gtp``): the value is the ``Val`` of the search
report it writes to its standard error (other engines do not report one), the positions are
loaded with ``loadsgf``. Its value runs a few hundredths from a search of its own, so read
the paired differences: for each player after the first, the mean difference of its moves'
values from the first player's over the same positions, with a 95 % interval (normal, over
positions), and how often the two chose the same move.

How well each player knows its positions is shown too, as in ``bench/go_judge.py``: its
search's value of its move (corvid's, or the judge's ``Val`` for its own move: the judge's
noise) against the judge's value of that move, as a mean error above or below zero with a
95 % interval, a mean absolute error and a correlation over the positions.

Every judged move is a JSON line in ``--out`` (``own``: the player's own value), and a rerun
with the same ``--out`` resumes. ``--json``: ``{"positions", "judge", "players": [{"label",
"spec", "value", "playouts", "seconds", "diff", "ci95", "same_move", "own", "own_error",
"own_ci95", "own_mae", "own_corr"}]}`` last (``diff``, ``ci95`` and ``same_move`` against
the first player, none for it; the ``own`` keys for players that report a value).
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from _common import (  # also puts the repository on sys.path
    GtpPipe,
    JudgedMoves,
    add_judge_arguments,
    judge_setup,
)
from blokus_match import parse_budget, settings

from clients.blokus.config import load_player_config
from clients.blokus.player import Core
from games.blokus_duo import BlokusState
from search.budget import Budget
from servers.blokus.sgf import read_moves

_VAL = re.compile(r"\s*Val ([-+0-9.eE]+)")


class Judge(GtpPipe):
    """A Pentobi GTP process: loads record positions, plays moves, reports search values."""

    def load(self, record: str, ply: int) -> None:
        """The position before the record's move ``ply`` (0-based, passes not counted)."""
        self.ask(f"loadsgf {record} {ply + 1}")

    def search(self, colour: int) -> tuple[str, float | None]:
        """The engine's move for ``colour`` (0: b, 1: w) and its search's value for it."""
        move, report = self.ask(f"reg_genmove {'bw'[colour]}")
        vals = [float(m.group(1)) for line in report if (m := _VAL.match(line))]
        return move, (min(1.0, max(0.0, vals[-1])) if vals else None)

    def value_after(self, record: str, ply: int, s: BlokusState, move: int) -> float | None:
        """The value for the colour to move in ``s`` (the record's position before ``ply``)
        of the position after ``move``: one minus the judge's value for the other colour,
        or its value for the mover when the other has no placement left (the judge refuses
        to search for a colour that cannot move), or the game's result when neither has."""
        colour = s.to_move_colour
        after = s.clone()
        after.play(move)
        self.load(record, ply)
        self.ask(f"play {'bw'[colour]} {s.geo.pentobi(move)}")
        if after.legal_placements(1 - colour):
            v = self.search(1 - colour)[1]
            return None if v is None else 1.0 - v
        if after.legal_placements(colour):
            return self.search(colour)[1]
        mine, theirs = after.score(colour), after.score(1 - colour)
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


@dataclass
class Player:
    label: str
    spec: str
    core: Core | None  # None: the judge's own move
    budget: Budget | None


def parse_player(text: str, default_budget: str) -> Player:
    """``judge`` or ``LABEL=SETTINGS[@BUDGET]``."""
    if text == "judge":
        return Player("judge", "judge", None, None)
    label, sep, rest = text.partition("=")
    if not sep or not label:
        raise ValueError(f"--player {text!r}: LABEL=SETTINGS[@BUDGET] or judge")
    spec, _, budget = rest.partition("@")
    try:
        core = Core(load_player_config(None, settings(spec)))
        return Player(label, spec, core, parse_budget(budget or default_budget))
    except ValueError as e:
        raise ValueError(f"--player {text!r} (LABEL=SETTINGS[@BUDGET]): {e}") from None


def sample_positions(records: list[Path], plies: tuple[int, int], seed: int
                     ) -> list[tuple[str, int]]:
    """Every (record, ply) of the records within ``plies``, shuffled by ``seed``."""
    out = []
    for f in records:
        _, moves = read_moves(f.read_text())
        out += [(str(f), k) for k in range(plies[0], min(plies[1], len(moves) - 1) + 1)]
    random.Random(seed).shuffle(out)
    return out


def position(record: str, ply: int) -> BlokusState:
    """The record's position before its move ``ply``, the mover to move."""
    _, moves = read_moves(Path(record).read_text())
    s = BlokusState(first=moves[0][0])
    for colour, m in moves[:ply]:
        s.pass_to(colour)
        s.play(m)
    s.pass_to(moves[ply][0])
    return s


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    add_judge_arguments(
        ap, records="*.blksgf",
        judge="Pentobi's GTP engine, e.g. \"pentobi-gtp --game duo --nobook --level 6\"",
        player="LABEL=SETTINGS[@BUDGET] or judge", budget="8000", plies="2-20")
    args = ap.parse_args(argv)
    try:
        plies, players = judge_setup(args, parse_player)
    except ValueError as e:
        print(f"blokus_judge: {e}", file=sys.stderr)
        return 2
    records = sorted(f for d in args.records for f in d.rglob("*.blksgf"))
    if not records:
        print(f"blokus_judge: no .blksgf records under {args.records}", file=sys.stderr)
        return 2
    judged_moves = JudgedMoves(args.out)
    judge = Judge(args.judge)
    n = 0
    try:
        for record, ply in sample_positions(records, plies, args.seed):
            if n >= args.positions:
                break
            s = position(record, ply)
            colour = s.to_move_colour
            if len(s.legal_placements()) < 2:
                continue
            n += 1
            judged: dict[int, float | None] = {}
            for p in players:
                if judged_moves.done(record, ply, p.label):
                    continue
                t = time.perf_counter()
                if p.core is None or p.budget is None:  # the judge's own move
                    judge.load(record, ply)
                    answer, own = judge.search(colour)
                    move, playouts = s.geo.parse_pentobi(answer), 0
                else:
                    p.core.reset()
                    res = p.core.search(s.clone(), p.budget,
                                        np.random.default_rng(args.seed * 100003 + n))
                    move, playouts = int(res.move), int(res.playouts)  # type: ignore[call-overload,unused-ignore]
                    # a book move has no search value
                    own = round(float(res.value), 4) if math.isfinite(res.value) else None
                dt = time.perf_counter() - t
                if move not in judged:
                    judged[move] = judge.value_after(record, ply, s, move)
                row = {"record": record, "ply": ply, "label": p.label, "spec": p.spec,
                       "move": s.geo.pentobi(move), "value": judged[move], "own": own,
                       "playouts": playouts, "seconds": round(dt, 4)}
                judged_moves.add(row)
            judged_moves.progress(n, players)
    finally:
        judge.close()
    judged_moves.finish(players, {"judge": args.judge, "seed": args.seed,
                                  "plies": args.plies}, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
