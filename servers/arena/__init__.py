"""``corvid arena GAME``: tournaments between client programs, with confidence intervals.

The arena starts the game's mock server in this process and every player as a separate
``corvid ...`` client process (servers never import the search or the clients).

Games plug in as modules of this package: every ``servers/arena/<game>.py`` that defines
``register(subparsers)`` becomes ``corvid arena <game>`` (``uecda`` is the first).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil

_HELPERS = {"stats"}  # modules of this package that are not games


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "arena",
        help="run a tournament between client programs on a local mock server",
        description="Run many games between configured programs and report points with "
        "95%% confidence intervals.",
    )
    sub = p.add_subparsers(dest="arena_game", metavar="GAME", required=True)
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name in _HELPERS or mod.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{mod.name}")
        if hasattr(module, "register"):
            module.register(sub)
