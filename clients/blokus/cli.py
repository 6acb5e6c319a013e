"""``corvid blokus``: the Blokus Duo player for the ICFPT host (TCP or serial). Its
subcommands ``learn`` and ``book`` are the pipelines of ``training/blokus``, registered through
the ``corvid.blokus`` entry points."""

from __future__ import annotations

import argparse
import time
from typing import Any

import structlog

from clients.blokus.config import PlayerConfig, load_player_config, preset_help
from clients.cli import add_plugins
from clients.config import add_config_arguments

log = structlog.get_logger()


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "blokus",
        help="Blokus Duo player for the ICFPT host (TCP or serial)",
        description="Connect to an ICFPT Blokus Duo host (TCP, or a serial device) and play. "
        "Core and time are settings: --set core=uct|alphabeta|flat|abucb|greedy (default "
        "uct: UCT with RAVE and the knowledge priors), --set workers=N (uct, flat, abucb), "
        "--set time=1.0, --set margin=0.25, --set weights=FILE, --set book=none|FILE (the "
        "opening book; default the bundled one), --set seed=N. A preset names a whole "
        "player beneath the settings given (--set preset=v1: the wave-1 default, alphabeta "
        "over the bundled evaluation).",
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=10000)
    p.add_argument("--serial", metavar="DEVICE", help="a serial device instead of TCP "
                   "(115200 8N1)")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--dialect", choices=["2014", "2013"], default="2014")
    p.add_argument("--team-code", metavar="XX", help="two characters (default: config "
                   "team_code)")
    p.add_argument("--games", type=int, default=1,
                   help="games to play, reconnecting for each over TCP (0: until refused)")
    p.add_argument("--wait", type=float, default=10.0,
                   help="keep retrying a refused TCP connection this many seconds")
    add_config_arguments(p, PlayerConfig)
    p.epilog = f"{p.epilog}\n\npresets:\n  {preset_help()}"
    p.set_defaults(func=run_play)
    sub = p.add_subparsers(dest="blokus_command", metavar="{learn,book}")
    add_plugins(sub, "corvid.blokus")  # training/blokus: learn, book


def run_play(args: argparse.Namespace) -> int:
    from clients.blokus.player import BlokusPlayer

    cfg = load_player_config(args.config, args.set)
    team = args.team_code if args.team_code is not None else cfg.team_code
    player = BlokusPlayer(cfg)
    try:
        return _play(args, cfg, player, team)
    finally:
        player.core.close()  # the worker processes, if any


def _play(args: argparse.Namespace, cfg: PlayerConfig, player: Any, team: str) -> int:
    from clients.blokus.agent import play_game
    from protocols.transport import SerialTransport, TcpTransport, TransportError

    if cfg.warmup:
        _warmup(player)
    player.core.start()
    log.info("blokus_player", core=cfg.core, workers=cfg.workers, time=cfg.time,
             margin=cfg.margin, weights=player.core.weights or None,
             book=player.core.book_file, dialect=args.dialect,
             team_code=team)
    if args.serial:
        transport = SerialTransport(args.serial, baudrate=args.baud)
        log.info("serial_open", device=args.serial, baud=args.baud)
        try:
            n = 0
            while args.games == 0 or n < args.games:
                s = play_game(transport, player, args.dialect, team)
                n += 1
                if s.ended not in ("game_over",):
                    break
        finally:
            transport.close()
        return 0
    n = 0
    while args.games == 0 or n < args.games:
        deadline = time.monotonic() + args.wait
        while True:
            try:
                tcp = TcpTransport(args.host, args.port)
                break
            except TransportError as e:
                if time.monotonic() >= deadline or (args.games == 0 and n > 0):
                    if args.games == 0 and n > 0:
                        return 0
                    log.error("connect_failed", error=str(e))
                    return 1
                time.sleep(0.1)  # retry pacing for a host that is not listening yet
        try:
            play_game(tcp, player, args.dialect, team)
        finally:
            tcp.close()
        n += 1
    return 0


def _warmup(player: object) -> None:
    """Compile or load the kernels and touch the core once before the clock runs."""
    from clients.blokus.player import BlokusPlayer
    from games.blokus_duo import BlokusState
    from search.budget import Budget

    assert isinstance(player, BlokusPlayer)
    t = time.perf_counter()
    s = BlokusState(config=player.cfg.game)
    s.play(s.legal_placements()[0])
    try:
        player.core.search(s, Budget(playouts=8), player.rng)
    finally:
        player.core.reset()
    log.info("warmup", seconds=round(time.perf_counter() - t, 3))
