"""``corvid arena GAME``: tournaments between client programs, with confidence intervals.

The arena starts the game's mock server in this process and every player as a separate
``corvid ...`` client process (servers never import the search or the clients).
"""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "arena",
        help="run a tournament between client programs on a local mock server",
        description="Run many games between configured programs and report points with "
        "95%% confidence intervals.",
    )
    sub = p.add_subparsers(dest="arena_game", metavar="GAME", required=True)
    from servers.arena import uecda

    uecda.register(sub)
