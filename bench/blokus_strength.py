"""Strength of the Blokus Duo player on the mock ICFPT host, at the host's time per move,
played on the arena (`corvid arena blokus`).

The player under test (`corvid blokus`, its default player unless ``--core`` or ``--set``)
meets a built-in opponent of the host (``first-legal``, ``biggest``), a second ``corvid
blokus`` with another core (``uct``, ``alphabeta``, ``abucb``, ``flat``, ``greedy``), a
release's player (``v1``: ``--set preset=v1``, the first release; ``v2``; ``v3``: the defaults) or a
GTP Blokus engine driven by the host (``gtp:COMMAND``, e.g. Pentobi's ``pentobi-gtp``; its
level and time are its own command line, and it answers within the host's time per move
like any player, or within ``--opponent-time``); seats alternate every game and the player
moving first every two games.

    python bench/blokus_strength.py --games 10 --opponent biggest  # the default player
    python bench/blokus_strength.py --games 4 --opponent uct --core alphabeta --json
    python bench/blokus_strength.py --games 200 --opponent v1 --json
    python bench/blokus_strength.py --games 40 --json --opponent \\
        gtp:"pentobi-gtp --game duo --nobook --noresign --level 6"
    python bench/blokus_strength.py --resume runs/blokus-strength-20261124-221500

Prints the host's line per game (the seat of the player under test, who moved first, the
result, both scores, plies, how it ended), the arena's table and, with ``--json``, the
figures of the player under test as the last line: ``{"games", "wins", "draws", "losses",
"win_rate", "ci95", "timeouts", "violations", "opponent_violations", "answer_max",
"answer_p99", "answer_mean", "opponent_answer_max", "opponent_answer_mean", "core",
"opponent", "time", "opponent_time", "dialect", "seconds"}`` (answer times in seconds as
the host measured them, from the end of its prompt to the answer; a built-in opponent's are
0).
Every game is recorded in the run directory (``--out``, default
``runs/blokus-strength-TIME``: Pentobi SGFs and games.jsonl), so an interrupted run
continues with ``--resume DIR``; ``--parallel J`` plays J games at once (or ``--backend
ray``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from _common import (  # also puts the repository on sys.path
    add_arena_arguments,
    arena_out,
    emit_json,
    play_on_arena,
)

from clients.blokus.config import BLOKUS_CORES, PRESETS, PlayerConfig
from clients.logs import setup_logging
from servers.arena import GameRecord
from servers.arena.standings import format_table
from servers.arena.stats import wilson
from servers.blokus.host import answer_figures
from servers.blokus.opponents import OPPONENTS
from servers.blokus.players import GTP_PREFIX

BUILTIN = tuple(sorted(OPPONENTS))
PLAYER, OPPONENT = "player", "opponent"  # the labels of the two
NAME = "blokus-strength"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--opponent", default="biggest", type=opponent_arg,
                    help=f"{', '.join([*BUILTIN, *BLOKUS_CORES, *PRESETS])} or "
                    f"{GTP_PREFIX}COMMAND (default biggest)")
    ap.add_argument("--core", default="", choices=["", *BLOKUS_CORES],
                    help="core of the player under test (default: the client's, "
                    f"{PlayerConfig().core})")
    ap.add_argument("--time", type=float, default=1.0, help="host seconds per move")
    ap.add_argument("--opponent-time", type=float, default=None, metavar="S",
                    help="seconds per move of a gtp: opponent (default: --time), for an "
                    "engine level that needs more")
    ap.add_argument("--dialect", default="2014", choices=["2014", "2013"])
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="extra setting for the player under test (e.g. preset=v1)")
    ap.add_argument("--opponent-set", action="append", default=[], metavar="KEY=VALUE",
                    help="extra setting for a client opponent")
    ap.add_argument("--sgf-dir", metavar="DIR", help="also write the records here "
                    "(game-NNN.blksgf)")
    ap.add_argument("--seed", type=int, default=0)
    add_arena_arguments(ap, NAME)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    setup_logging("warning")

    mine = ([f"core={args.core}"] if args.core else []) + args.set
    player = f"{PLAYER}=corvid" + (":" + ",".join(mine) if mine else "")
    if args.opponent in BUILTIN or args.opponent.startswith(GTP_PREFIX):
        opponent = f"{OPPONENT}={args.opponent}"
    else:
        key = "preset" if args.opponent in PRESETS else "core"
        opponent = f"{OPPONENT}=corvid:" + ",".join([f"{key}={args.opponent}",
                                                      *args.opponent_set])
    args.out = arena_out(args, NAME) if not args.resume else None
    if args.resume:
        print(f"resuming the run in {args.resume} (its players, games and options)")
    else:
        label = describe([player, opponent])[0]
        print(f"player under test: {label}  opponent: {args.opponent}  {args.time:g} s per "
              f"move  dialect {args.dialect}; records in {args.out}")
    print(f"{'game':>4} {'seat':>4} {'first':>5} {'result':>6} {'p1':>4} {'p2':>4} "
          f"{'plies':>5}  end", flush=True)
    sgf_dir = Path(args.sgf_dir) if args.sgf_dir else None

    def on_game(r: GameRecord) -> None:
        print(game_line(r), flush=True)
        if sgf_dir is not None and r.text:
            sgf_dir.mkdir(parents=True, exist_ok=True)
            (sgf_dir / f"game-{r.index + 1:03d}.blksgf").write_text(r.text, encoding="utf-8")

    options: dict[str, Any] = {"timeout": args.time, "dialect": args.dialect}
    if args.opponent_time is not None:
        options["engine_timeout"] = args.opponent_time
    res = play_on_arena(args, "blokus", [player, opponent], options, on_game, NAME)
    if res is None:
        return 2
    fig = figures(res.records)
    opts = res.config.options
    label, opponent_name = describe(res.config.players)  # a resumed run's own players
    fig.update(core=label, opponent=opponent_name, time=opts["timeout"],
               opponent_time=opts.get("engine_timeout") or opts["timeout"],
               dialect=opts["dialect"], seconds=round(res.seconds, 1))
    print(format_table(res.standings()))
    print(f"games {fig['games']}  wins {fig['wins']}  draws {fig['draws']}  losses "
          f"{fig['losses']}  win rate {fig['win_rate']:.3f}  timeouts {fig['timeouts']}  "
          f"violations {fig['violations']}  answer max {fig['answer_max']:.3f} s "
          f"p99 {fig['answer_p99']:.3f} s  opponent's answers mean "
          f"{fig['opponent_answer_mean']:.3f} s max {fig['opponent_answer_max']:.3f} s",
          flush=True)
    if args.json:
        emit_json(fig)
    return 0 if not fig["failed"] else 1


def opponent_arg(text: str) -> str:
    """``--opponent``: a built-in, a core, a preset or ``gtp:COMMAND`` (argparse type)."""
    if text in (*BUILTIN, *BLOKUS_CORES, *PRESETS) or (
            text.startswith(GTP_PREFIX) and text[len(GTP_PREFIX):].strip()):
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r}: use one of {', '.join([*BUILTIN, *BLOKUS_CORES, *PRESETS])} or "
        f"{GTP_PREFIX}COMMAND")


def describe(players: list[str]) -> tuple[str, str]:
    """The player under test's label (its core and settings) and the opponent's name, from
    the arena's player specs (``player=corvid:core=alphabeta``, ``opponent=corvid:preset=v1``,
    ``opponent=biggest``, ``opponent=gtp:COMMAND``: the command)."""
    specs = dict(p.split("=", 1) for p in players)
    _, _, mine = specs[PLAYER].partition(":")
    settings = [kv for kv in mine.split(",") if kv]
    core = next((kv[5:] for kv in settings if kv.startswith("core=")), PlayerConfig().core)
    label = " ".join([core, *(kv for kv in settings if not kv.startswith("core="))])
    kind, _, theirs = specs[OPPONENT].partition(":")
    if kind == GTP_PREFIX[:-1]:
        return label, specs[OPPONENT]
    return label, (theirs.split(",")[0].split("=", 1)[1] if theirs else kind)


def game_line(r: GameRecord) -> str:
    if r.status != "ok":
        return f"{r.index + 1:>4} not played: {r.error}"
    seat = r.players.index(PLAYER)
    outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[r.result[seat]]
    first = (r.first or 0) + 1
    p1, p2 = _scores(r)
    return (f"{r.index + 1:>4} {seat + 1:>4} {first:>5} {outcome:>6} {p1:>4} {p2:>4} "
            f"{len(r.moves):>5}  {r.reason}" + (f" ({r.detail})" if r.detail else ""))


def _scores(r: GameRecord) -> tuple[str, str]:
    """The two scores are in the SGF's comment; the record keeps their difference."""
    for line in r.text.splitlines():
        if line.startswith("scores: player 1 "):
            a, _, b = line.removeprefix("scores: player 1 ").partition(", player 2 ")
            return a, b
    return "-", "-"


def figures(records: list[GameRecord]) -> dict[str, Any]:
    """The player under test's games, wins, draws, losses, win rate (draws half) with its
    Wilson 95 % interval, its timeouts and violations, the opponent's violations, and the
    games that could not be played."""
    ok = [r for r in records if r.status == "ok"]
    mine = [r.players.index(PLAYER) for r in ok]
    res = [r.result[s] for r, s in zip(ok, mine, strict=True)]
    games, wins, draws = len(res), res.count(1.0), res.count(0.5)
    lo, hi = wilson(wins + draws / 2, games)
    faults = [(r.faults[s], r.faults[1 - s]) for r, s in zip(ok, mine, strict=True)
              if r.faults]
    return {"games": games, "wins": wins, "draws": draws, "losses": games - wins - draws,
            "win_rate": round((wins + draws / 2) / games, 4) if games else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "timeouts": sum(1 for f, _ in faults if f == "timeout"),
            "violations": sum(1 for f, _ in faults if f),
            "opponent_violations": sum(1 for _, f in faults if f),
            **answer_figures(_answer_times(ok, mine)),
            **{f"opponent_{k}": v for k, v in answer_figures(
                _answer_times(ok, [1 - s for s in mine])).items() if k != "answer_p99"},
            "failed": len(records) - len(ok)}


def _answer_times(records: list[GameRecord], seats: list[int]) -> list[float]:
    """The answer times of the given seat of each game, sorted."""
    return sorted(t for r, s in zip(records, seats, strict=True)
                  for t in (r.answer_times[s] if r.answer_times else []))


if __name__ == "__main__":
    sys.exit(main())
