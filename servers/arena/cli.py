"""The options every ``corvid arena GAME`` shares, and the command itself: plan the run,
show it, play it with live progress, print the table (``--json``: its last line), plot."""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import sys
from typing import Any

from servers.arena.api import BACKENDS, ArenaError, execute, prepare, workers_of
from servers.arena.plugin import GameSpec
from servers.arena.progress import Progress
from servers.arena.records import RunDir, RunDirError
from servers.arena.standings import format_table

COMMON = """\
players (--player SPEC, repeatable; LABEL=SPEC names one):
  corvid[:key=value,...]   the corvid client, each pair passed as --set key=value
                           (corvid:playouts=5000,preset=v1); the client checks them
  {builtins}
  cmd:PROGRAM ARGS...      any other program; {{host}}, {{port}}, {{name}} are replaced

schedules: roundrobin (every pair; for UECda every table of five), gauntlet (the first
player against each of the others), --sweep KEY=V1,V2,... (the first player once per value,
against the others). Colours, seats and move orders alternate within a pairing.

Every game is recorded in the run directory (--out, default runs/arena-GAME-TIME):
{formats}, one JSON line per game in games.jsonl,
the run's settings in run.json. An interrupted run continues with --resume DIR.

--backend ray runs each task (a few consecutive games on their own loopback ports) as a
Ray task, on a local Ray or on the cluster at --ray-address (see docs/arena.md); a failed
task is retried once, then its games are recorded as failed.
"""

FORMATS = {"uecda": "tndhms server logs (uecda/*.log)", "gtp": "SGF (sgf/*.sgf)",
           "blokus": "Pentobi's Blokus SGF (blokus/*.blksgf)"}
BUILTINS = {
    "uecda": "baseline                 corvid:core=baseline (sample-client-like)\n"
             "  standin                  the server's rule-based stand-in (no process)",
    "gtp": "gnugo[:level=N]          GNU Go (gnugo --mode gtp --chinese-rules "
           "--capture-all-dead\n                           --positional-superko --level N, "
           "default 10)",
    "blokus": "first-legal, biggest     the host's built-in opponents (no process)\n"
              "  gtp:PROGRAM ARGS...      a GTP Blokus engine in Pentobi's notation, driven by "
              "the host\n                           (pentobi-gtp --game duo --level 6)",
}


def add_game_parser(subparsers: argparse._SubParsersAction, game: GameSpec,  # type: ignore[type-arg]
                    help_text: str, description: str, examples: str = ""
                    ) -> argparse.ArgumentParser:
    """``corvid arena <game>`` with the common options; the game adds its own and sets
    ``options_of(args) -> dict`` (and optionally ``after_run(args, result)``)."""
    common = COMMON.format(builtins=BUILTINS.get(game.name, ""),
                           formats=FORMATS.get(game.name, ""))
    p = subparsers.add_parser(game.name, help=help_text,
                              description=description.replace("``", "") + "\n" + common,
                              epilog=examples,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--player", action="append", default=[], metavar="SPEC",
                   help="a player (repeatable; see above)")
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help=f"games per pairing (default {game.default_games})")
    p.add_argument("--schedule", choices=["roundrobin", "gauntlet"], default=None,
                   help="who meets whom (default roundrobin)")
    p.add_argument("--sweep", metavar="KEY=V1,V2,...",
                   help="vary a setting of the first (corvid) player against the others")
    p.add_argument("--seed", type=int, default=None,
                   help="the run's seed (default: drawn at random and recorded)")
    p.add_argument("--chunk", type=int, default=None, metavar="K",
                   help=f"games per task (default: the games split over the workers, at most "
                   f"{game.chunk_cap})")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--out", metavar="DIR",
                       help="run directory for the records (default runs/arena-GAME-TIME)")
    where.add_argument("--resume", metavar="DIR",
                       help="complete the run in DIR (its settings are kept)")
    p.add_argument("--backend", choices=BACKENDS, default="inprocess",
                   help="inprocess: tasks in threads of this process; ray: Ray tasks "
                   "(default inprocess)")
    p.add_argument("--parallel", type=int, default=None, metavar="J",
                   help="tasks at once (inprocess, default 1) or the local Ray's CPUs "
                   "(default: all cores)")
    p.add_argument("--ray-address", metavar="ADDR",
                   help="with --backend ray: join this cluster (auto, HOST:PORT or "
                   "ray://HOST:PORT) instead of starting a local Ray")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw the ratings (with a sweep: the result against the swept value)")
    p.add_argument("--progress-every", type=int, default=None, metavar="N",
                   help="when stderr is not a terminal, a progress line every N games "
                   "(default: about 20 lines per run)")
    p.add_argument("--json", action="store_true",
                   help="print the table as one JSON object on the last line")
    p.set_defaults(func=main, arena_game=game.name)
    parser: argparse.ArgumentParser = p
    return parser


def main(args: argparse.Namespace) -> int:
    try:
        return _main(args)
    except ArenaError as e:
        print(f"corvid arena {args.arena_game}: {e}", file=sys.stderr)
        return 2


def _check_optional(args: argparse.Namespace) -> None:
    """Fail now if a package of the ``arena`` extra this run will use is missing, rather than
    after its games (the console script names the extra). Found, not imported: Ray reads its
    settings from the environment when it is imported, which ``start_ray`` prepares first."""
    needed = ["openskill"]  # the ratings of the standings
    if args.backend == "ray":
        needed.append("ray")
    if args.plot:
        needed.append("matplotlib")
    for module in needed:
        if importlib.util.find_spec(module) is None:
            raise ModuleNotFoundError(f"No module named {module!r}", name=module)


def _main(args: argparse.Namespace) -> int:
    _check_optional(args)
    name = args.arena_game
    options: dict[str, Any] = args.options_of(args)
    if args.ray_address and args.backend != "ray":
        raise ArenaError("--ray-address needs --backend ray")
    workers = workers_of(args.backend, args.parallel)
    if args.resume:
        if args.player:
            raise ArenaError("--resume keeps the run's players: give no --player")
        try:
            saved = RunDir(args.resume).load_config()
        except RunDirError as e:
            raise ArenaError(str(e)) from None
        if saved.game != name:
            raise ArenaError(f"{args.resume} holds a {saved.game} run, not {name}")
        p = prepare(resume=args.resume, games=args.games, schedule=args.schedule,
                    sweep=args.sweep, seed=args.seed, chunk=args.chunk, options=options)
    else:
        if not args.player:
            raise ArenaError("give the players with --player SPEC (see --help)")
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        p = prepare(name, args.player, games=args.games, schedule=args.schedule,
                    sweep=args.sweep, seed=args.seed, chunk=args.chunk, options=options,
                    out=args.out or f"runs/arena-{name}-{stamp}", workers=workers)
    cfg, where = p.config, p.rundir.path if p.rundir else None
    if args.backend == "inprocess":
        backend = f"in process, {workers} at a time"
    elif args.ray_address:
        backend = f"the Ray cluster at {args.ray_address}"
    else:
        backend = f"a local Ray with {workers} CPUs"
    print(f"arena {name}: {len(p.participants)} players, {len(p.pairings)} pairing(s) x "
          f"{cfg.games} games, seed {cfg.seed}; {p.total - p.done} games to play in "
          f"{len(p.tasks)} task(s), {backend}; records in {where}", file=sys.stderr, flush=True)
    bar = Progress(p.total, f"arena {name}", every=args.progress_every, done=p.done)
    try:
        result = execute(p, backend=args.backend, parallel=args.parallel,
                         ray_address=args.ray_address, progress=bar)
    except KeyboardInterrupt:
        bar.close()
        print(f"\ninterrupted; the games played are in {where}: continue with "
              f"corvid arena {name} --resume {where}", file=sys.stderr)
        return 130
    finally:
        bar.close()
    st = result.standings()
    print(f"arena {name}: {st.games} games, seed {cfg.seed}, {result.seconds:.0f} s; "
          f"records in {where}")
    print(format_table(st))
    if hasattr(args, "after_run"):
        args.after_run(args, result)
    if args.plot:
        from servers.arena.plot import plot

        plot(result, args.plot)
        print(f"plot: {args.plot}")
    if args.json:
        table = st.to_json()
        for row in table["players"]:
            row["points_per_game" if st.metric == "points/game" else "win_rate"] = row["result"]
        print(json.dumps({"game": name, "seed": cfg.seed, "directory": str(where),
                          "seconds": round(result.seconds, 1), **table}))
    sys.stdout.flush()
    return 0 if st.failed == 0 else 1
