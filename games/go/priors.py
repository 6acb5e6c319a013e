"""Prior knowledge for new UCT nodes (placeholder: even-game prior; heuristics follow)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from games.contract import Priors

if TYPE_CHECKING:
    from games.go.state import GoState


def go_priors(state: GoState) -> Priors:
    moves = state.legal_moves()
    n = len(moves)
    return Priors(moves, np.full(n, 0.5), np.full(n, 10.0))
