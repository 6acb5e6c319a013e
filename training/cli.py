"""``corvid learn GAME``: the learning pipelines, each registered through ``corvid.learn``."""

from __future__ import annotations

import argparse

from clients.cli import add_plugins


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "learn",
        help="learning pipelines: generate games, train, ship weights",
        description="Learning pipelines (training/): each stage reads and writes files, can "
        "be rerun alone and resumes after an interruption.",
    )
    sub = p.add_subparsers(dest="game", metavar="GAME", required=True)
    add_plugins(sub, "corvid.learn")
