"""``corvid arena GAME``: many games between configured programs, with confidence intervals."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("arena", help="run a tournament between client programs")
    p.set_defaults(func=lambda args: 2)
