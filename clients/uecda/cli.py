"""``corvid uecda``: play a UECda match as a client; ``corvid uecda replay LOG...``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import structlog

from clients.config import add_config_arguments
from clients.uecda.config import ClientConfig, load_client_config, preset_help
from knowledge.daihinmin.style import STYLES
from knowledge.style import style_help
from protocols.transport import tcp_port

log = structlog.get_logger()


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "uecda",
        help="UECda (Daihinmin) tournament client, protocol 20070",
        usage="%(prog)s [OPTIONS]\n       %(prog)s replay LOG [LOG ...]",
        description="Connect to a UECda server (the official tndhms or `corvid serve uecda`) "
        "and play the whole match. `corvid uecda replay LOG...` checks server logs instead. "
        "Exit status 1 when the server broke the match (closed it early, sent what protocol "
        "20070 does not allow, or was silent past the recv_timeout setting) or could not be "
        "reached.",
    )
    p.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    p.add_argument("--port", type=tcp_port, default=42485, help="server port (default 42485)")
    p.add_argument("--name", default="corvid", help="client name sent in the profile "
                   "(default corvid; the server keeps 9 characters)")
    p.add_argument("--wait", type=float, default=10.0, metavar="SECONDS",
                   help="keep retrying a refused connection this many seconds (default 10: "
                   "the client may start before the server)")
    add_config_arguments(p, ClientConfig, example="core=uct")
    p.epilog += ("\n\npresets (the settings you give win over the preset's):\n  "
                 + "\n  ".join(preset_help().splitlines())
                 + "\n\n" + style_help(STYLES, cores="flat, uct")
                 + "\n\nseconds=S alone means a time-only budget of S per decision; with "
                 "playouts=N too, whichever ends first.\nplayouts=0: no playout limit "
                 "(needs seconds). Every decision stops at max_seconds.")
    p.set_defaults(func=run)
    sub = p.add_subparsers(dest="uecda_command", metavar="replay", title="log replay")
    r = sub.add_parser("replay", help="replay tndhms server logs through the rules engine",
                       description="Replay every game of each log and print, per log, ok or "
                       "the first divergence (the game and the play). Exit status: 0 all ok, "
                       "1 a log diverged, 2 a log could not be read.")
    r.add_argument("logs", nargs="+", metavar="LOG")
    r.set_defaults(func=replay)


def run(args: argparse.Namespace) -> int:
    from clients.uecda.agent import UecdaPlayer, play_match
    from protocols.transport import connect_tcp

    cfg = load_client_config(args.config, args.set)
    player = UecdaPlayer(cfg, args.name)
    log.info("uecda_connect", host=args.host, port=args.port, name=args.name, core=cfg.core,
             preset=cfg.preset, playouts=cfg.playouts, seconds=cfg.seconds, alpha=cfg.alpha,
             workers=cfg.workers)
    player.warm_up()  # before connecting: the first game may start when the last player is in
    try:
        transport = connect_tcp(args.host, args.port, args.wait)
    except BaseException:
        player.close()
        raise
    if cfg.recv_timeout:
        transport.set_timeout(cfg.recv_timeout)
    try:
        games = play_match(player, transport, cfg.recv_timeout or None)
    finally:
        transport.close()
    log.info("uecda_match_over", games=games, rejected=player.rejected,
             resyncs=player.tracker.resyncs, contradictions=player.contradictions)
    return 0


def replay(args: argparse.Namespace) -> int:
    from games.daihinmin.replay import replay_log

    missing = [path for path in args.logs if not Path(path).is_file()]
    if missing:
        print(f"corvid uecda replay: no such log file: {', '.join(missing)}", file=sys.stderr)
        return 2
    status = 0
    for path in args.logs:  # every log is checked; the status says whether one diverged
        res = replay_log(path)
        if res.ok:
            print(f"{path}: ok, {res.games} games, {res.plays} plays")
        else:
            print(f"{path}: DIVERGES after {res.games} clean games: {res.first_divergence}")
            status = 1
    sys.stdout.flush()
    return status
