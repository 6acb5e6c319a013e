"""``corvid compile``: every kernel of every core of the three clients compiled ahead into
numba's on-disk cache, by each client's own warm-up, so that a client started afterwards
loads them at once instead of compiling them in its first minute.

numba keeps the cache beside the sources (or in ``NUMBA_CACHE_DIR``); corvid drops a cached
kernel whose sources changed (:mod:`clients.jitcache`), so run this again after an upgrade.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable


def warm_gtp(core: str) -> None:
    from clients.gtp.config import load_gtp_config
    from clients.gtp.player import SearchPlayer
    from clients.gtp.warmup import warm_up

    config = load_gtp_config(None, [f"core={core}"])
    player = SearchPlayer(config)
    try:
        warm_up(player, config.default_size)
    finally:
        player.close()


def warm_uecda(core: str) -> None:
    from clients.uecda.agent import UecdaPlayer
    from clients.uecda.config import load_client_config

    player = UecdaPlayer(load_client_config(None, [f"core={core}"]), "corvid")
    try:
        player.warm_up()
    finally:
        player.close()


def warm_blokus(core: str) -> None:
    from clients.blokus.cli import warm_up
    from clients.blokus.config import load_player_config
    from clients.blokus.player import BlokusPlayer

    # the endgame solver on, so that its kernel is compiled too
    player = BlokusPlayer(load_player_config(None, [f"core={core}", "endgame_nodes=1"]))
    try:
        warm_up(player)
    finally:
        player.core.close()


def cores() -> dict[str, tuple[str, ...]]:
    """Each client's cores, as its settings accept them."""
    from clients.blokus.config import BLOKUS_CORES
    from clients.gtp.config import GO_CORES
    from clients.uecda.config import CORES

    return {"gtp": GO_CORES, "uecda": CORES, "blokus": BLOKUS_CORES}


WARM_UPS: dict[str, Callable[[str], None]] = {
    "gtp": warm_gtp, "uecda": warm_uecda, "blokus": warm_blokus}


DESCRIPTION = """\
Compile every kernel of every core of the three clients ahead, by each client's own
warm-up, into numba's on-disk cache (beside the sources, or in NUMBA_CACHE_DIR), so that a
client started afterwards loads them at once instead of compiling them in its first minute.
A kernel whose sources changed is compiled again: run this after every upgrade."""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "compile", help="compile every kernel ahead, so the clients start at once",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("clients", nargs="*", type=_client, metavar="CLIENT",
                   help=f"only these clients ({', '.join(WARM_UPS)}; default: all)")
    p.set_defaults(func=run)


def _client(name: str) -> str:
    if name not in WARM_UPS:
        raise argparse.ArgumentTypeError(f"no client {name!r} (one of {', '.join(WARM_UPS)})")
    return name


def run(args: argparse.Namespace) -> int:
    """Warm every core of each client asked for (all by default); one line per core."""
    chosen = args.clients or list(WARM_UPS)
    every = cores()
    t_all = time.perf_counter()
    for client in chosen:
        for core in every[client]:
            t0 = time.perf_counter()
            WARM_UPS[client](core)
            seconds = time.perf_counter() - t0
            print(f"{client} {core}: {seconds:.1f} s", flush=True)
    print(f"compiled in {time.perf_counter() - t_all:.1f} s", flush=True)
    return 0
