"""``corvid serve GAME``: the mock servers, each registered through ``corvid.serve``."""

from __future__ import annotations

import argparse

from clients.cli import add_plugins


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "serve",
        help="run a local mock server / referee",
        description="Run a local mock server that behaves like the real tournament server.",
    )
    sub = p.add_subparsers(dest="game", metavar="GAME", required=True)
    add_plugins(sub, "corvid.serve")
