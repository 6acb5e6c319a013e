"""Built-in opponents of the mock host (no search: servers never import search)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from games.blokus_duo import PASS, BlokusState

Opponent = Callable[[BlokusState, np.random.Generator], int]


def first_legal(state: BlokusState, rng: np.random.Generator) -> int:
    """The first legal placement in scan order (placement ids: piece a..u, then orientation,
    then row and column), or a pass."""
    moves = state.legal_placements()
    return moves[0] if moves else PASS


def biggest(state: BlokusState, rng: np.random.Generator) -> int:
    """A placement of the biggest piece size that fits, chosen uniformly at random among
    those (so repeated games differ), or a pass."""
    moves = state.legal_placements()
    if not moves:
        return PASS
    sizes = state.geo.ncells[np.asarray(moves)]
    best = np.flatnonzero(sizes == sizes.max())
    return moves[int(best[int(rng.integers(len(best)))])]


OPPONENTS: dict[str, Opponent] = {"first-legal": first_legal, "biggest": biggest}
