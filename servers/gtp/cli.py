"""``corvid serve gtp``: referee a match between two GTP engines (like gogui-twogtp)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import structlog

from protocols.gtp import RemoteProtocolError
from servers.arena.stats import wilson
from servers.gtp.match import BLACK, GameResult, MatchConfig, run_match
from servers.gtp.process import EngineError, EngineProcess

DESCRIPTION = """\
Run two GTP engines as subprocesses and referee N games between them: boardsize / komi /
clear_board, every move validated (positional superko, suicide illegal), a game ends on two
passes, a resignation, an illegal move, a timeout or a crash (the culprit loses). Finished
games are scored by Tromp-Taylor area (no dead-stone removal, like CGOS) or by an external
scorer's final_score (e.g. --scorer "gnugo --mode gtp --chinese-rules"). One SGF per game
with --sgf-dir. Prints a results table with the first (--black) engine's win rate and a
Wilson 95% interval; with --json the last line is
{"games":..,"wins":..,"draws":..,"losses":..,"win_rate":..,"ci95":[lo,hi]}.

Example:
  corvid serve gtp --black "corvid gtp --set playouts=1000" \\
      --white "gnugo --mode gtp --level 0 --chinese-rules" --games 10 --alternate --json
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "gtp", help="referee games between two GTP engines", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--black", required=True, metavar="CMD",
                   help="first engine's command line (black in game 1)")
    p.add_argument("--white", required=True, metavar="CMD", help="second engine's command line")
    p.add_argument("--games", type=int, default=1, metavar="N", help="games (default 1)")
    p.add_argument("--size", type=int, default=9, help="board size (default 9)")
    p.add_argument("--komi", type=float, default=7.0, help="komi (default 7)")
    p.add_argument("--alternate", action="store_true", help="swap colours every game")
    p.add_argument("--sgf-dir", type=Path, metavar="DIR", help="write game-NNNN.sgf files here")
    p.add_argument("--scorer", metavar="CMD", help="GTP engine whose final_score scores "
                   "games (default: Tromp-Taylor area here)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds an engine may take for one move (default 60)")
    p.add_argument("--startup-timeout", type=float, default=300.0, metavar="S",
                   help="seconds an engine may take to answer its first command (default "
                        "300: a cold start may compile kernels)")
    p.add_argument("--main-time", type=float, default=0.0, metavar="S",
                   help="sudden-death clock per engine and game, sent as time_settings S 0 0 "
                        "and time_left before each genmove (default: untimed)")
    p.add_argument("--max-moves", type=int, default=0, metavar="N", help="end and score after "
                   "this many moves (default 0: 3 x size^2)")
    p.add_argument("--engine-stderr", action="store_true",
                   help="let the engines write to our stderr (default: discarded)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON last")
    p.set_defaults(func=run)


def _label(engine: EngineProcess, fallback: str, timeout: float) -> str:
    try:
        r = engine.command("name", timeout=timeout)
    except (EngineError, RemoteProtocolError):
        return fallback
    return r.text.strip() if r.ok and r.text.strip() else fallback


def run(args: argparse.Namespace) -> int:
    log = structlog.get_logger()
    for name, ok in (("--games", args.games >= 1), ("--size", 2 <= args.size <= 25),
                     ("--timeout", args.timeout > 0), ("--startup-timeout",
                                                       args.startup_timeout > 0),
                     ("--main-time", args.main_time >= 0), ("--max-moves", args.max_moves >= 0)):
        if not ok:
            print(f"corvid serve gtp: {name} is out of range", file=sys.stderr)
            return 2
    cfg = MatchConfig(size=args.size, komi=args.komi, timeout=args.timeout,
                      main_time=args.main_time, max_moves=args.max_moves)
    stderr = None if not args.engine_stderr else sys.stderr.buffer
    engines: list[EngineProcess] = []
    try:
        first = EngineProcess(args.black, "first", stderr)
        engines.append(first)
        second = EngineProcess(args.white, "second", stderr)
        engines.append(second)
        scorer = EngineProcess(args.scorer, "scorer", stderr) if args.scorer else None
        if scorer is not None:
            engines.append(scorer)
    except EngineError as e:
        for started in engines:
            started.close()
        print(f"corvid serve gtp: {e}", file=sys.stderr)
        return 2
    first.label = _label(first, "first", args.startup_timeout)
    second.label = _label(second, "second", args.startup_timeout)
    if first.label == second.label:
        first.label += " #1"
        second.label += " #2"

    def on_game(g: int, result: GameResult, first_colour: int) -> None:
        col = "B" if first_colour == BLACK else "W"
        print(f"game {g + 1:4d}  {first.label} as {col}  {result.result_text:>8}  "
              f"{len(result.moves):3d} moves  {result.reason}"
              + (f" ({result.detail})" if result.detail and result.reason != "score" else ""),
              flush=True)

    try:
        stats = run_match(first, second, args.games, cfg, alternate=args.alternate,
                          scorer=scorer, sgf_dir=args.sgf_dir, on_game=on_game)
    finally:
        for engine in engines:
            engine.close()
    summary = stats.summary()
    lo, hi = wilson(stats.wins + 0.5 * stats.draws, stats.games)
    print()
    print(f"{'engine':<24} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} "
          f"{'win rate':>8}  95% CI")
    print(f"{first.label:<24} {stats.games:5d} {stats.wins:5d} {stats.draws:5d} "
          f"{stats.losses:6d} {stats.win_rate:8.3f}  [{lo:.3f}, {hi:.3f}]")
    print(f"(vs {second.label}; as black {stats.wins_as_black}/{stats.games_as_black}; "
          f"endings: {', '.join(f'{k} {v}' for k, v in sorted(stats.reasons.items()))})")
    log.info("referee_match_over", **summary)
    if args.json:
        print(json.dumps(summary, separators=(",", ":")))
    return 0
