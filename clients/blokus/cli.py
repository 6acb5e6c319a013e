"""``corvid blokus``: the Blokus Duo player for the ICFPT host (TCP or serial). Its
subcommands ``learn`` and ``book`` are the pipelines of ``training/blokus``, registered through
the ``corvid.blokus`` entry points."""

from __future__ import annotations

import argparse
import time
from typing import Any

import structlog

from clients.blokus.config import (
    PlayerConfig,
    check_team_code,
    load_player_config,
    preset_help,
)
from clients.cli import add_plugins
from clients.config import ConfigError, add_config_arguments
from knowledge.blokus_duo.style import STYLES
from knowledge.style import style_help
from protocols.transport import tcp_port

log = structlog.get_logger()


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "blokus",
        help="Blokus Duo player for the ICFPT host (TCP or serial)",
        usage="%(prog)s [OPTIONS]\n       %(prog)s learn --out FILE [LEARN OPTIONS]\n"
              "       %(prog)s book --out FILE [BOOK OPTIONS]",
        description="Connect to an ICFPT Blokus Duo host (TCP, or a serial device) and play. "
        "Core and time are settings (listed with their defaults below): --set "
        "core=uct|alphabeta|flat|abucb|greedy (default uct: UCT with RAVE and the knowledge "
        "priors), --set workers=N (uct, flat, abucb), --set seconds=1.0 (the host's limit "
        "per move), --set margin=0.25, --set playouts=N (a cap per move; default none), "
        "--set weights=FILE (alphabeta, greedy), --set book=none|replies|FILE (the opening "
        "book; default the bundled one; replies: the bundled one with the second mover's "
        "reply to every first move), --set endgame_nodes=N (the exact endgame solver, any "
        "core, within N nodes a move once both sides have at most endgame_moves legal "
        "placements; default 0: off), --set seed=N. A setting of a core not in use is refused. "
        "A preset names a release's player beneath the settings given (--set preset=v1: "
        "the first release, alphabeta over the bundled evaluation; v2: UCT with the knowledge "
        "priors; v3: the current player, the defaults). Exit status 1 "
        "when the host broke a game (closed early, garbage, silent past --idle-timeout) or "
        "could not be reached.",
    )
    p.add_argument("--host", default="127.0.0.1", help="host address (default 127.0.0.1)")
    p.add_argument("--port", type=tcp_port, default=10000, help="host port (default 10000)")
    p.add_argument("--serial", metavar="DEVICE", help="a serial device instead of TCP "
                   "(8N1, no flow control)")
    p.add_argument("--baud", type=int, default=115200, help="serial speed (default 115200)")
    p.add_argument("--dialect", choices=["2014", "2013"], default="2014",
                   help="the contest year's host protocol (default 2014)")
    p.add_argument("--team-code", metavar="XX", help="two characters (default: the "
                   "team_code setting)")
    p.add_argument("--games", type=int, default=1,
                   help="games to play, reconnecting for each over TCP (default 1; 0: until "
                   "the host stops listening)")
    p.add_argument("--wait", type=float, default=10.0, metavar="SECONDS",
                   help="keep retrying a refused TCP connection this many seconds (default "
                   "10)")
    p.add_argument("--idle-timeout", type=float, default=0.0, metavar="SECONDS",
                   help="give up a game when the host sends nothing for this long (default "
                   "0: wait for ever); the exit status is then 1")
    add_config_arguments(p, PlayerConfig, example="seconds=0.5")
    p.epilog = (f"{p.epilog}\n\npresets:\n  " + "\n  ".join(preset_help().splitlines())
                + "\n\n" + style_help(STYLES, cores="uct, abucb"))
    p.set_defaults(func=run_play)
    sub = p.add_subparsers(dest="blokus_command", metavar="{learn,book}", title="training",
                           prog="corvid blokus")
    add_plugins(sub, "corvid.blokus")  # training/blokus: learn, book


def run_play(args: argparse.Namespace) -> int:
    from clients.blokus.player import BlokusPlayer

    cfg = load_player_config(args.config, args.set)
    team = args.team_code if args.team_code is not None else cfg.team_code
    try:
        check_team_code(team, "--team-code")
    except ValueError as e:
        raise ConfigError(str(e)) from None
    player = BlokusPlayer(cfg)
    try:
        return _play(args, cfg, player, team)
    finally:
        player.core.close()  # the worker processes, if any


def _play(args: argparse.Namespace, cfg: PlayerConfig, player: Any, team: str) -> int:
    from clients.blokus.agent import GameSummary, play_game
    from clients.faults import ServerFault
    from protocols.transport import SerialTransport, TransportError, connect_tcp

    if args.serial:
        import serial  # noqa: F401 - pyserial, the serial extra: if missing, say so before the warm-up
    if cfg.warmup:
        warm_up(player)
    player.core.start()
    log.info("blokus_player", core=cfg.core, workers=cfg.workers, seconds=cfg.seconds,
             margin=cfg.margin, weights=player.core.weights or None,
             book=player.core.book_file, dialect=args.dialect,
             team_code=team)
    idle = args.idle_timeout if args.idle_timeout > 0 else None
    faults: list[str] = []

    def check(n: int, s: GameSummary) -> None:
        if s.fault is not None:
            faults.append(f"game {n}: {s.fault}")
            log.error("host_fault", game=n, fault=s.fault)

    n = 0
    if args.serial:
        transport = SerialTransport(args.serial, baudrate=args.baud, timeout=idle)
        log.info("serial_open", device=args.serial, baud=args.baud)
        try:
            while args.games == 0 or n < args.games:
                n += 1
                s = play_game(transport, player, args.dialect, team, args.idle_timeout)
                check(n, s)
                if s.fault is not None:
                    break  # one line for every game: nothing to reconnect
        finally:
            transport.close()
    else:
        while args.games == 0 or n < args.games:
            try:
                tcp = connect_tcp(args.host, args.port,
                                  0.0 if args.games == 0 and n > 0 else args.wait)
            except TransportError as e:
                if args.games == 0 and n > 0:
                    break  # --games 0: play until the host stops listening
                raise ServerFault(f"{e}" + (f" (after {n} games)" if n else "")) from e
            n += 1
            tcp.set_timeout(idle)
            try:  # the host may break a game: reconnect for the next one, as it expects
                check(n, play_game(tcp, player, args.dialect, team, args.idle_timeout))
            finally:
                tcp.close()
    if faults:
        raise ServerFault(f"{len(faults)} of {n} games broken by the host; "
                          + "; ".join(faults[:5]))
    return 0


def warm_up(player: object) -> None:
    """Compile or load the kernels before the clock runs: two searches of the core's
    searcher, a move apart so that the second re-roots the tree, the endgame solver when it
    is on, and a lookup in the book (its table of the board's symmetries). From a cold
    compile cache a path first met in a timed move costs seconds: a fallback move."""
    from clients.blokus.player import BlokusPlayer
    from games.blokus_duo import BlokusState
    from knowledge.blokus_duo.endgame import solve
    from knowledge.blokus_duo.position import BlokusPosition
    from search.budget import Budget

    assert isinstance(player, BlokusPlayer)
    t = time.perf_counter()
    s = BlokusPosition(BlokusState(), player.cfg.game)
    s.play(s.state.legal_placements()[0])
    s.clone()  # each move clones the state for the search thread
    try:
        for _ in range(2):
            res = player.core.searcher.search(s, s.to_move, Budget(playouts=8), player.rng)
            s.play(int(res.move))  # type: ignore[call-overload,unused-ignore]
        if player.cfg.endgame_nodes:
            solve(s.state, 1)  # the endgame solver's kernel
        if player.core.book is not None:
            player.core.book.lookup(s.state)
    finally:
        player.core.reset()
    log.info("warmup", seconds=round(time.perf_counter() - t, 3))
