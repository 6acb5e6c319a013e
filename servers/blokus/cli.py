"""``corvid serve blokus``: the mock ICFPT Blokus Duo host."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from protocols.transport import tcp_port
from servers.blokus.host import GameResult, Host, HostConfig, summary
from servers.blokus.opponents import OPPONENTS
from servers.blokus.players import GTP_PREFIX
from servers.blokus.sgf import write_sgf
from servers.gtp.process import EngineError


def opponent_spec(text: str) -> str:
    """A built-in opponent's name or ``gtp:COMMAND`` (argparse type)."""
    if text in OPPONENTS or (text.startswith(GTP_PREFIX) and text[len(GTP_PREFIX):].strip()):
        return text
    raise argparse.ArgumentTypeError(f"{text!r}: use one of {', '.join(sorted(OPPONENTS))} "
                                     f"or {GTP_PREFIX}COMMAND")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "blokus",
        help="mock ICFPT Blokus Duo host (TCP on 127.0.0.1)",
        description="A mock of the ICFPT/HEART/REC Blokus Duo host: prompts the player on "
        "--port (and a second player on --port2, else a built-in opponent or a GTP Blokus "
        "engine), 1 s per move, violations lose at once. The client on --port is the one "
        "the results are about.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default "
                   "127.0.0.1)")
    p.add_argument("--port", type=tcp_port, default=10000, help="the player under test (default "
                   "10000; 0: any free port, printed on the first line)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--port2", type=tcp_port, default=None, help="a second client player (default: "
                   "none, the --opponent plays)")
    g.add_argument("--opponent", type=opponent_spec, default="first-legal", metavar="OPPONENT",
                   help=f"the opponent when there is no --port2: {', '.join(sorted(OPPONENTS))} "
                   "(built in) or gtp:COMMAND, a GTP Blokus engine speaking Pentobi's "
                   "notation, e.g. gtp:\"pentobi-gtp --game duo --nobook --noresign --level 3\" "
                   "(default first-legal)")
    p.add_argument("--games", type=int, default=1, metavar="N", help="games (default 1)")
    p.add_argument("--first", choices=["1", "2", "alternate"], default="1",
                   help="which player moves first (default 1; alternate: every two games)")
    p.add_argument("--seat", choices=["1", "2", "alternate"], default="alternate",
                   help="the player number of the client on --port (default alternate: "
                   "every game)")
    p.add_argument("--dialect", choices=["2014", "2013"], default="2014",
                   help="the contest year's protocol (default 2014)")
    p.add_argument("--timeout", type=float, default=1.0, metavar="SECONDS",
                   help="seconds per move (default 1, as on the contest host)")
    p.add_argument("--opponent-timeout", type=float, default=None, metavar="SECONDS",
                   help="seconds per move of a gtp: opponent (default: --timeout), for an "
                   "engine level that needs more")
    p.add_argument("--connect-timeout", type=float, default=60.0,
                   help="seconds to wait for a connection and its team code (default 60)")
    p.add_argument("--seed", type=int, default=0, help="seed of the built-in opponent (default 0)")
    p.add_argument("--sgf-dir", metavar="DIR", help="write each game as DIR/game-NNN.blksgf")
    p.add_argument("--json", action="store_true", help="print the figures as JSON last")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for name, ok in (("--games", args.games >= 1), ("--timeout", args.timeout > 0),
                     ("--connect-timeout", args.connect_timeout > 0),
                     ("--opponent-timeout", args.opponent_timeout is None or
                      args.opponent_timeout > 0)):
        if not ok:
            print(f"corvid serve blokus: {name} must be positive", file=sys.stderr)
            return 2
    cfg = HostConfig(host=args.host, port=args.port, port2=args.port2, opponent=args.opponent,
                     games=args.games, first=args.first, seat=args.seat, dialect=args.dialect,
                     timeout=args.timeout, connect_timeout=args.connect_timeout,
                     opponent_timeout=args.opponent_timeout, seed=args.seed)
    try:
        host = Host(cfg)
    except EngineError as e:
        print(f"corvid serve blokus: the opponent cannot play: {e}", file=sys.stderr)
        return 2
    ports = ",".join(str(p) for p in host.ports)
    print(f"# listening {cfg.host}:{ports}", flush=True)
    if host.engine is not None:
        print(f"# opponent {host.engine.name}", flush=True)
    sgf_dir = Path(args.sgf_dir) if args.sgf_dir else None
    if sgf_dir is not None:
        sgf_dir.mkdir(parents=True, exist_ok=True)
    print(f"{'game':>4} {'seat':>4} {'first':>5} {'result':>6} {'p1':>4} {'p2':>4} "
          f"{'plies':>5}  end", flush=True)

    def on_game(r: GameResult) -> None:
        rec = r.record
        s = rec.scores or (0, 0)
        end = rec.reason + (f" by player {rec.violator + 1}" if rec.violator is not None
                            else "")
        print(f"{r.index + 1:>4} {r.seat:>4} {r.first:>5} {r.outcome:>6} {s[0]:>4} {s[1]:>4} "
              f"{len(rec.moves):>5}  {end}", flush=True)
        if sgf_dir is not None:
            (sgf_dir / f"game-{r.index + 1:03d}.blksgf").write_text(write_sgf(rec),
                                                                   encoding="utf-8")

    try:
        results = host.run(on_game)
    finally:
        host.close()
    figures = summary(results)
    print(f"games {figures['games']}  wins {figures['wins']}  draws {figures['draws']}  "
          f"losses {figures['losses']}  win rate {figures['win_rate']:.3f}  "
          f"timeouts {figures['timeouts']}  violations {figures['violations']}  "
          f"answer time max {figures['answer_max']:.3f} s, p99 {figures['answer_p99']:.3f} s")
    if args.json:
        print(json.dumps(figures))
    sys.stdout.flush()
    return 0
