"""The learned linear evaluation on Blokus Duo, with a compiled path for the children, and
its bundled weights (``data/weights.npz``, made by ``corvid blokus learn``).

:class:`BlokusEval` is a :class:`search.selective.LinearEval` over the game's evaluation feature
vector (``position.features()``, from the mover's view) whose ``child_values(position,
moves)`` values every child ``position + move`` for the mover in one numba call, without
building the children: each move is applied to scratch copies of the board, forbidden and
attach-point arrays (the rules' ``k_cover``, as ``k_play`` does), the opponent's features are
computed with ``k_features`` and dotted with the weights. The plain-Python reference is
``LinearEval.child_values`` (clone, play, features); tests compare the two. The positions are
:class:`knowledge.blokus_duo.position.BlokusPosition`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import structlog

from games.blokus_duo import PASS, BlokusState
from games.contract import FloatArray
from knowledge.blokus_duo.features import (
    NUM_PLANES,
    k_child_raw,
    num_features,
    selective_simulation,
)
from knowledge.blokus_duo.position import BlokusPosition
from search.selective import LinearEval, sigmoid

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_WEIGHTS = DATA_DIR / "weights.npz"


def blokus_features(position: BlokusPosition) -> np.ndarray:
    """The evaluation feature vector of a Blokus Duo position from the mover's view."""
    return np.asarray(position.features(), dtype=np.float64)


def selective_simulate(position: BlokusPosition, w: FloatArray, k: float, n: int, m: int,
                       rng: np.random.Generator) -> float:
    """The win rate of ``position``'s seat to move in m best-of-n simulations (compiled; the
    ``simulate`` hook of ``search.selective.SelectiveLearner``)."""
    return selective_simulation(position.state, w, k, n, m, rng)[0]


class BlokusEval(LinearEval):
    """V = σ(k w·x) for the mover; ``child_values`` compiled."""

    def __init__(self, weights: np.ndarray, k: float) -> None:
        super().__init__(weights, k, blokus_features)
        self._scratch: dict[int, tuple[np.ndarray, ...]] = {}
        self.kernel_error: str | None = None  # set if the compiled path ever failed

    def _buffers(self, state: BlokusState) -> tuple[np.ndarray, ...]:
        """Scratch arrays for a rules state's size (one set per size)."""
        size = state.geo.size
        buf = self._scratch.get(size)
        if buf is None:
            S = size * size
            buf = (np.empty((NUM_PLANES, S)), np.empty(num_features(S)),
                   np.empty(S, dtype=state.board.dtype), np.empty_like(state.forb),
                   np.empty_like(state.att))
            self._scratch[size] = buf
        return buf

    def child_values(self, state: Any, moves: list[Any]) -> np.ndarray:
        rules = state.state
        c = rules.to_move_colour
        if PASS in moves or rules.placed(c) >= 20 or rules.is_terminal():
            return super().child_values(state, moves)  # passes and game-ending moves
        if self.kernel_error is not None:
            return super().child_values(state, moves)
        try:
            return self._compiled(rules, moves, c)
        except Exception as e:  # noqa: BLE001 - the state layout changed: stay correct, slower
            self.kernel_error = f"{type(e).__name__}: {e}"
            structlog.get_logger().error("child_kernel_failed", error=self.kernel_error)
            return super().child_values(state, moves)

    def _compiled(self, state: BlokusState, moves: list[Any], c: int) -> np.ndarray:
        g = state.geo
        mv = np.asarray(moves, dtype=np.int64)
        raw = np.empty(len(mv))
        planes, feat, sb, sf, sa = self._buffers(state)
        k_child_raw(state.board, state.forb, state.att, g.cells, g.ncells, g.edges, g.nedges,
                    g.corners, g.ncorners, mv, c, g.size, self.w, planes, feat, sb, sf, sa,
                    raw)
        z = np.clip(self.k * raw, -700.0, 700.0)
        return 1.0 - 1.0 / (1.0 + np.exp(-z))

    def value(self, state: Any) -> float:
        return sigmoid(self.k * self.raw(state))
