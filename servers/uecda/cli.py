"""``corvid serve uecda``: the mock UECda server on TCP."""

from __future__ import annotations

import argparse
import json
import sys

from protocols.transport import tcp_port
from servers.arena.progress import Progress
from servers.uecda.config import ServerConfig
from servers.uecda.match import NP, MatchRecord, serve
from servers.uecda.net import Listener


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "uecda",
        help="mock UECda (Daihinmin) server, compatible with tndhms",
        description="A mock UECda server speaking protocol 20070 with the official rules. "
        "Player number = accept order; the match starts when the fifth client connects. A "
        "client that disconnects, sends garbage or stays silent past --timeout is replaced "
        "by a built-in stand-in and the match goes on.",
    )
    d = ServerConfig()
    p.add_argument("--games", type=int, default=d.games, metavar="N",
                   help=f"games in the match (default {d.games})")
    p.add_argument("--seed", type=int, default=None,
                   help="random seed of deals and seats (default: a fresh one, in the log)")
    p.add_argument("--host", default=d.host, help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=tcp_port, default=d.port, help="TCP port (default 42485)")
    p.add_argument("--timeout", type=float, default=d.timeout, metavar="SECONDS",
                   help="seconds per move / exchange before a stand-in takes the seat "
                   f"(default {d.timeout:g})")
    p.add_argument("--accept-timeout", type=float, default=None, metavar="SECONDS",
                   help="seconds to wait for five clients (default: forever)")
    p.add_argument("--log", "--game-log", dest="log", metavar="FILE",
                   help="write the game log (tndhms format)")
    p.add_argument("--reset-every", type=int, default=d.reset_every, metavar="N",
                   help=f"ranks reset every N games (default {d.reset_every})")
    p.add_argument("--pub", metavar="ENDPOINT",
                   help="publish live game events on a ZeroMQ PUB socket "
                   "bound at ENDPOINT, e.g. tcp://127.0.0.1:5556")
    p.add_argument("--pub-wait", type=float, default=0.0, metavar="SECONDS",
                   help="with --pub: wait up to this long for a subscriber before playing "
                   "(default 0: do not wait)")
    p.add_argument("--progress-every", type=int, default=None, metavar="N",
                   help="when stderr is not a terminal, a progress line every N games "
                   "(default: about 20 lines per match); on a terminal a progress bar")
    p.add_argument("--json", action="store_true",
                   help="print the result as one JSON object on the last line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    cfg = ServerConfig(games=args.games, seed=args.seed, host=args.host, port=args.port,
                       timeout=args.timeout, accept_timeout=args.accept_timeout, log=args.log,
                       reset_every=args.reset_every)
    for name, ok in (("--games", cfg.games >= 1), ("--timeout", cfg.timeout > 0),
                     ("--reset-every", cfg.reset_every >= 1),
                     ("--accept-timeout", cfg.accept_timeout is None or cfg.accept_timeout > 0)):
        if not ok:
            print(f"corvid serve uecda: {name} must be positive", file=sys.stderr)
            return 2
    listener = Listener(cfg.host, cfg.port)
    bar = Progress(cfg.games, "serve uecda", every=args.progress_every)
    pub = None

    def on_game(game: int, record: MatchRecord) -> None:
        bar.update(game, "  ".join(f"{p}:{name} {t / game:.2f}" for p, (name, t) in
                                   enumerate(zip(record.names, record.totals, strict=True))))

    try:
        if args.pub:
            from servers.uecda.publish import Publisher

            pub = Publisher(args.pub)
            if args.pub_wait > 0:
                pub.wait_subscriber(args.pub_wait)
        bar.write(f"corvid serve uecda: listening on {listener.host}:{listener.port}, "
                  f"waiting for {NP} clients")
        rec = serve(cfg, listener, on_game, events=pub)
    finally:
        bar.close()
        listener.close()
        if pub is not None:
            pub.close()
    totals = rec.totals
    print(f"{'player':>6}  {'name':<10} {'points':>7} {'per game':>9}")
    for p, name in enumerate(rec.names):
        print(f"{p:>6}  {name:<10} {totals[p]:>7} {totals[p] / len(rec.points):>9.3f}")
    for d in rec.drops:
        print(f"stand-in for player {d.player} from game {d.game}: {d.reason}")
    if args.json:
        print(json.dumps({"seed": rec.seed, "games": len(rec.points), "names": rec.names,
                          "points": totals,
                          "drops": [[d.game, d.player, d.reason] for d in rec.drops]}))
    return 0
