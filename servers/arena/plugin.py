"""What a game plug-in of the arena provides: ``servers/arena/<game>.py`` defines ``GAME``, a
:class:`GameSpec`, and ``register(subparsers)`` for ``corvid arena <game>``."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from servers.arena.players import Alias, Player, parse_player
from servers.arena.records import Piece
from servers.arena.schedule import Task


@dataclass(frozen=True)
class GameSpec:
    name: str
    seats: int  # players at a table
    options: type[msgspec.Struct]  # the game's settings (server, time limits, board ...)
    play: Callable[[Task], Iterator[Piece]]  # play one task's games, yielding each
    chunk_cap: int  # most games in one task
    default_games: int = 10  # per pairing
    servers: tuple[str, ...] = ()  # opponents the server plays itself
    aliases: Mapping[str, Alias] = field(default_factory=dict)  # named client players
    gtp: bool = False  # the server drives GTP engines itself (``gtp:COMMAND`` players)
    # checks the options against the run's player labels (SpecError names the fault)
    check_players: Callable[[Mapping[str, Any], list[str]], None] | None = None

    def parse(self, text: str) -> Player:
        return parse_player(text, self.servers, self.aliases, self.gtp)

    def make_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The game's options with defaults filled in, checked (ValueError names the bad
        one)."""
        known = {f.name for f in msgspec.structs.fields(self.options)}
        unknown = sorted(set(given or {}) - known)
        if unknown:
            raise ValueError(f"unknown {self.name} option(s) {', '.join(unknown)}; known: "
                             f"{', '.join(sorted(known))}")
        try:
            obj = msgspec.convert(dict(given or {}), self.options)
        except msgspec.ValidationError as e:
            raise ValueError(f"{self.name} options: {e}") from None
        out: dict[str, Any] = msgspec.to_builtins(obj)
        return out


def game_modules() -> list[str]:
    here = str(Path(__file__).resolve().parent)  # this package's folder, not its __init__
    return sorted(m.name for m in pkgutil.iter_modules([here])
                  if not m.name.startswith("_") and
                  hasattr(importlib.import_module(f"servers.arena.{m.name}"), "GAME"))


def get_game(name: str) -> GameSpec:
    if name not in game_modules():
        raise ValueError(f"unknown game {name!r}; the arena has {', '.join(game_modules())}")
    spec: GameSpec = importlib.import_module(f"servers.arena.{name}").GAME
    return spec
