"""How good each player's Go moves are by a strong engine's judgement.

    python bench/go_judge.py --records RUN/sgf --judge "sh -c 'cd PACHI_DIR && exec \\
        ./pachi -t =10000 threads=1'" --player v6=@3000 --player mse=rave_mse=true@3000 \\
        --player judge --positions 200 --out FILE --json
    python bench/go_judge.py --records RUN/sgf --judge "..." --player v8=@3000 \\
        --player p7=playout_policy=7@3000 --player judge --playout-values 2000 --json

Positions are drawn (``--seed``) from the recorded games under ``--records`` (SGF, as
``bench/go_strength.py`` and the arena write them): a random game, then a random move in
``--plies`` before the game's first pass; games with setup stones are left out. In each
position every ``--player`` chooses a move: ``LABEL=SETTINGS@BUDGET`` is ``corvid gtp``'s
search with those settings (comma-separated ``key=value``, presets included; empty: the
defaults) on a fresh tree, searching BUDGET (playouts, or seconds with an ``s`` suffix;
default ``--budget``); ``LABEL=gtp:CMD`` is another GTP engine's move (``genmove``: Pachi
at 3000 playouts beside corvid at 3000, say); ``judge`` is the judge engine's own move. The
judge then searches the position after the move for the other side; one minus its value is
the move's value. A move two players both chose is judged once.

The judge is a GTP engine that reports its search's value on its standard error as Pachi
does (``*** WINNER is D4 with score 51.2%``); the positions reach it as ``clear_board`` and
the game's moves. Pachi's dynamic komi moves its value by a little and equally for every
move of a position; its value of one search runs a few hundredths from the next, so read
the paired differences: for each player after the first, the mean difference of its moves'
values from the first player's over the same positions, with a 95 % interval (normal, over
positions), and how often the two chose the same move.

Each player also shows how well it knows its positions: its own search's value of the move
it chose (corvid's; a GTP engine's as it reports it, the judge's own move included, whose
figures then measure the judge's noise) beside the judge's value of that move: over its
positions the mean error (above zero: it thinks its positions better than the judge does)
with a 95 % interval, the mean absolute error and the correlation. A search that misjudges
one kind of position the same way every time shows there, where its play against itself
cannot show it.

``--playout-values N`` asks the same of the playouts alone: each corvid player's N playouts
of its policy from the position (no tree), the share its side wins, beside the judge's own
value of the position (so ``--player judge`` must be given). A playout policy that lets a
dead group live, or kills a live one, is read there position by position.

Every judged move is a JSON line in ``--out`` (``own``: the player's own value;
``playout_value``: its playouts'), and a rerun with the same ``--out`` resumes. ``--json``:
``{"positions", "judge", "players": [{"label", "spec", "value", "playouts", "seconds",
"diff", "ci95", "same_move", "own", "own_error", "own_ci95", "own_mae", "own_corr",
"playout", "playout_error", "playout_ci95", "playout_mae", "playout_corr"}]}`` last
(``diff``, ``ci95`` and ``same_move`` against the first player, none for it; the ``own``
keys for players that report a value, the ``playout`` keys with ``--playout-values``).
"""

from __future__ import annotations

import argparse
import math
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

from clients.gtp.config import GtpConfig, load_gtp_config
from clients.gtp.player import make_core, search_position
from games.go.coords import PASS, point_to_vertex
from search.budget import Budget
from training.go.dataset import replay, sgf_files

_WINNER = re.compile(r"\*\*\* WINNER is (\S+) with score ([0-9.]+)%")
_BEST = re.compile(r"\[\d+\] best ([0-9.]+)%")


class Judge(GtpPipe):
    """A GTP process (Pachi): sets up record positions, plays moves, reports search values."""

    def load(self, size: int, komi: float, moves: list[tuple[int, int]]) -> None:
        """The position after ``moves`` ((colour 1 black / 2 white, point) pairs)."""
        self.ask(f"boardsize {size}")
        self.ask("clear_board")
        self.ask(f"komi {komi}")
        for colour, p in moves:
            self.ask(f"play {'bw'[colour - 1]} {point_to_vertex(p, size)}")

    def search(self, colour: int) -> tuple[str, float | None]:
        """The engine's move for ``colour`` (1 black, 2 white) and its search's value for it
        (None when it reported none)."""
        move, report_lines = self.ask(f"genmove {'bw'[colour - 1]}")
        value = None
        for line in report_lines:
            if (m := _WINNER.search(line)) or (m := _BEST.search(line)):
                value = float(m.group(m.lastindex or 1)) / 100.0
        return move, (None if value is None else min(1.0, max(0.0, value)))


@dataclass
class Player:
    label: str
    spec: str
    config: GtpConfig | None  # None: a GTP engine's move
    budget: Budget | None
    command: str = ""  # with no config: a GTP engine's command line ("": the judge's)


def parse_player(text: str, default_budget: str) -> Player:
    """``judge``, ``LABEL=gtp:CMD`` or ``LABEL=SETTINGS[@BUDGET]``."""
    if text == "judge":
        return Player("judge", "judge", None, None)
    label, sep, rest = text.partition("=")
    if not sep or not label:
        raise ValueError(f"--player {text!r}: LABEL=SETTINGS[@BUDGET], LABEL=gtp:CMD or judge")
    if rest.startswith("gtp:"):
        if not rest[4:].strip():
            raise ValueError(f"--player {text!r}: gtp: needs the engine's command line")
        return Player(label, rest, None, None, rest[4:])
    spec, _, budget = rest.partition("@")
    try:
        config = load_gtp_config(overrides=["warmup=false", *settings(spec)])
        return Player(label, spec, config, parse_budget(budget or default_budget))
    except ValueError as e:
        raise ValueError(f"--player {text!r} (LABEL=SETTINGS[@BUDGET]): {e}") from None


def sample_positions(records: list[Path], plies: tuple[int, int], n: int, seed: int
                     ) -> list[tuple[Path, int]]:
    """Up to ``n`` distinct (record, ply): a random game, then a random ply within
    ``plies`` before its first pass (games with setup stones or too short left out)."""
    games: dict[Path, int] = {}
    for f in records:
        start, history = replay(f.read_bytes())
        if not start.is_empty():
            continue
        first_pass = next((i for i, (_, p) in enumerate(history) if p == PASS), len(history))
        if min(plies[1], first_pass - 1) >= plies[0]:
            games[f] = min(plies[1], first_pass - 1)
    rng = np.random.default_rng(seed)
    files = sorted(games)
    chosen: list[tuple[Path, int]] = []
    seen: set[tuple[Path, int]] = set()
    tries = 0
    while files and len(chosen) < n and tries < 50 * n:
        tries += 1
        f = files[int(rng.integers(len(files)))]
        k = int(rng.integers(plies[0], games[f] + 1))
        if (f, k) not in seen:
            seen.add((f, k))
            chosen.append((f, k))
    return chosen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    add_judge_arguments(
        ap, records="*.sgf",
        judge="Pachi's GTP engine at a fixed number of playouts, e.g. "
        "\"sh -c 'cd PACHI_DIR && exec ./pachi -t =10000 threads=1'\"",
        player="LABEL=SETTINGS[@BUDGET], LABEL=gtp:CMD or judge", budget="3000",
        plies="4-60", plies_help="first-last ply, before the game's first pass")
    ap.add_argument("--playout-values", type=int, default=0, metavar="N",
                    help="also each corvid player's playouts' value of the position (N "
                    "playouts of its policy, no tree) against the judge's own value of it; "
                    "needs the judge among the players")
    args = ap.parse_args(argv)
    try:
        plies, players = judge_setup(args, parse_player)
    except ValueError as e:
        print(f"go_judge: {e}", file=sys.stderr)
        return 2
    if args.playout_values < 0 or (args.playout_values and "judge" not in
                                   {p.label for p in players}):
        print("go_judge: --playout-values N takes N >= 0 and the judge among the players "
              "(--player judge): its value of the position is the reference", file=sys.stderr)
        return 2
    records = [f for d in args.records for f in sgf_files(d)]
    if not records:
        print(f"go_judge: no .sgf records under {args.records}", file=sys.stderr)
        return 2
    judged_moves = JudgedMoves(args.out)
    judge = Judge(args.judge)
    engines = {p.label: Judge(p.command) for p in players if p.command}
    try:
        positions = sample_positions(records, plies, args.positions, args.seed)
        for n, (record, ply) in enumerate(positions, 1):
            start, history = replay(record.read_bytes())
            moves = history[:ply]
            state = start
            for colour, p in moves:
                state.play_colour(colour, p)
            colour = history[ply][0]  # the player of the record's move (ply < first pass)
            state.to_play = colour
            judged: dict[str, float | None] = {}
            for pl in players:
                if judged_moves.done(str(record), ply, pl.label):
                    continue
                t = time.perf_counter()
                playout_value: float | None = None
                if pl.config is None or pl.budget is None:  # a GTP engine's own move
                    engine = engines.get(pl.label, judge)
                    engine.load(state.size, state.komi, moves)
                    move, own = engine.search(colour)
                    move, playouts = move.upper(), 0
                else:
                    pos = search_position(state.clone(), pl.config)
                    res = make_core(pl.config, state.size).search(
                        pos, pos.to_move, pl.budget, np.random.default_rng([args.seed, n]))
                    move = point_to_vertex(int(res.move), state.size).upper()  # type: ignore[call-overload,unused-ignore]
                    playouts = int(res.playouts)  # an opening rule's move has no value
                    own = round(float(res.value), 4) if math.isfinite(res.value) else None
                dt = time.perf_counter() - t
                if pl.config is not None and args.playout_values:
                    playout_value = round(search_position(state.clone(), pl.config).win_share(
                        np.random.default_rng([args.seed, n, 1]), args.playout_values), 4)
                if move not in judged:
                    if move == "RESIGN":
                        judged[move] = 0.0
                    else:
                        judge.load(state.size, state.komi, moves)
                        judge.ask(f"play {'bw'[colour - 1]} {move}")
                        v = judge.search(3 - colour)[1]
                        judged[move] = None if v is None else round(1.0 - v, 4)
                row = {"record": str(record), "ply": ply, "label": pl.label, "spec": pl.spec,
                       "move": move, "value": judged[move], "own": own,
                       "playouts": playouts, "seconds": round(dt, 4)}
                if playout_value is not None:
                    row["playout_value"] = playout_value
                judged_moves.add(row)
            judged_moves.progress(n, players)
    finally:
        for engine in [judge, *engines.values()]:
            engine.close()
    judged_moves.finish(players, {"judge": args.judge, "seed": args.seed,
                                  "plies": args.plies}, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
