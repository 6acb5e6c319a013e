"""The arena: runs of many games between programs, for the three games, with ratings.

``corvid arena uecda | gtp | blokus`` on the command line, :func:`run` from Python (the
learning pipelines generate their games this way). The game's server or referee runs in the
task's process and every client player as a process of its own (servers never import the
search or the clients); built-in opponents are played by the servers themselves.

* :mod:`.players`: ``--player`` specs; :mod:`.schedule`: pairings, seeds, tasks;
  :mod:`.records`: game records and the run directory; :mod:`.backends`: in-process
  threads or Ray tasks; :mod:`.standings`: ratings and intervals; :mod:`.progress`,
  :mod:`.plot`; :mod:`.api`: :func:`run`; :mod:`.cli`: the common options.
* Games plug in as modules of this package that define ``GAME`` (a
  :class:`~servers.arena.plugin.GameSpec`) and ``register(subparsers)``: :mod:`.uecda`,
  :mod:`.gtp`, :mod:`.blokus`.
"""

from __future__ import annotations

import argparse

from servers.arena.api import ArenaError, RunResult, execute, prepare, run
from servers.arena.records import GameRecord, RunConfig

__all__ = ["ArenaError", "GameRecord", "RunConfig", "RunResult", "execute", "prepare",
           "register", "run"]


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    import importlib

    from servers.arena.plugin import game_modules

    p = subparsers.add_parser(
        "arena",
        help="runs of many games between programs: ratings, progress, plots, Ray",
        description="Run many games between programs on the local servers and report "
        "results with 95% intervals and openskill ratings. One subcommand per game; see "
        "docs/arena.md.",
    )
    sub = p.add_subparsers(dest="arena_game", metavar="GAME", required=True)
    for name in game_modules():
        importlib.import_module(f"servers.arena.{name}").register(sub)
