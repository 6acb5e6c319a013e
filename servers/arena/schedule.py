"""Who meets whom: participants, pairings (tables), the games' seeds, and tasks.

* **round robin**: every pair of players (two-player games); for UECda every table of five
  out of the players (one table when five are given).
* **gauntlet**: the first player against each of the others; at a UECda table the first
  player sits with four copies of the other.
* **sweep** (``key=v1,v2,...``): the first player (a corvid one) once per value, each variant
  against the fixed field of the other players (for UECda the others, repeated to fill four
  seats).

Game ``i`` of a pairing (0-based) has its seats balanced by the game: in two-player games
the pairing's first player takes the first colour (Go: black; Blokus: player 1) in even
games; Blokus also alternates the player that moves first every two games, so every four
games cover both seats and both move orders. A pairing's games are cut into tasks of up to
``chunk`` consecutive games; each task is one isolated set of processes (one UECda match).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from servers.arena.players import Player, SpecError

MAX_TABLES = 200  # a round robin with more tables than this is surely a mistake


@dataclass(frozen=True)
class Pairing:
    index: int
    seats: tuple[int, ...]  # participant per slot: UECda player numbers, else (first, second)


@dataclass(frozen=True)
class Task:
    """One unit of work: consecutive games of one pairing, played by one set of processes."""

    id: int
    game: str
    pairing: int
    players: tuple[Player, ...]  # per slot of the pairing
    indices: tuple[int, ...]  # game numbers within the pairing (0-based)
    seed: int
    options: dict[str, Any]
    cwd: str = "."
    attempt: int = 1

    @property
    def cpus(self) -> int:
        """Cores the task needs: its players take turns, so one, unless a corvid player
        searches in several processes (``workers=N``)."""
        need = 1
        for p in self.players:
            w = p.setting("workers")
            if w is not None and w.isdigit():
                need = max(need, int(w))
        return need


def derive_seed(seed: int, *keys: int) -> int:
    """A seed in [0, 2^31) for one game or task, from the run's seed and its coordinates."""
    return int(np.random.SeedSequence([seed, *keys]).generate_state(1)[0] >> 1)


def sweep_participants(players: Sequence[Player], key: str,
                       values: Sequence[str]) -> list[Player]:
    """The first player once per value (label ``LABEL key=value``), then the others."""
    base = players[0]
    if base.kind != "corvid":
        raise SpecError(f"--sweep varies a corvid player's setting; the first player is "
                        f"{base.spec!r}")
    if len(players) < 2:
        raise SpecError("--sweep needs a fixed opponent: give a second --player")
    variants = []
    for v in values:
        p = base.with_setting(key, v)
        label = f"{base.label} {key}={v}" if base.label != base.spec else p.spec
        variants.append(Player(label, p.spec, p.kind, p.settings))
    return [*variants, *players[1:]]


def pairings(n_players: int, seats: int, schedule: str, sweep_variants: int = 0
             ) -> list[Pairing]:
    """The tables of a run over participants ``0 .. n_players - 1``. With a sweep the first
    ``sweep_variants`` participants are the variants and the rest the fixed field."""
    if sweep_variants:
        field = list(range(sweep_variants, n_players))
        return [Pairing(i, (v, *_fill(field, seats - 1))) for i, v in enumerate(
            range(sweep_variants))]
    if n_players < 2:
        raise SpecError("give at least two players")
    if schedule == "gauntlet":
        return [Pairing(j - 1, (0, *[j] * (seats - 1))) for j in range(1, n_players)]
    if schedule != "roundrobin":
        raise SpecError(f"unknown schedule {schedule!r}: roundrobin or gauntlet")
    if seats == 2:
        return [Pairing(i, t) for i, t in enumerate(itertools.combinations(range(n_players), 2))]
    if n_players < seats:
        raise SpecError(f"a round robin needs at least {seats} players (give a player more "
                        f"than once to have it sit twice), or use --schedule gauntlet")
    tables = list(itertools.combinations(range(n_players), seats))
    if len(tables) > MAX_TABLES:
        raise SpecError(f"{n_players} players make {len(tables)} tables of {seats}; "
                        "use --schedule gauntlet or fewer players")
    return [Pairing(i, t) for i, t in enumerate(tables)]


def _fill(field: list[int], n: int) -> list[int]:
    """``n`` seats from ``field``, repeated in order."""
    return [field[i % len(field)] for i in range(n)]


def chunks(indices: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """Runs of consecutive indices, each at most ``size`` long."""
    out: list[list[int]] = []
    for i in sorted(indices):
        if out and i == out[-1][-1] + 1 and len(out[-1]) < size:
            out[-1].append(i)
        else:
            out.append([i])
    return [tuple(c) for c in out]
