"""What every core returns instead of printing."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import msgspec
import numpy as np


class SearchResult(msgspec.Struct, frozen=True):
    """move: the chosen move. value: its estimated value for the searching seat, in [0, 1].
    moves / visits / values: per root move statistics (same order). playouts: playouts run.
    elapsed: seconds. info: core-specific extras (tree size, depth, reused visits...)."""

    move: Hashable
    value: float
    moves: list[Any]
    visits: list[int]
    values: list[float]
    playouts: int
    elapsed: float
    info: dict[str, Any] = {}

    def summary(self, top: int = 5) -> dict[str, Any]:
        """A compact dict for one structured log event per decision."""
        order = sorted(range(len(self.moves)), key=lambda i: -self.visits[i])[:top]
        return {
            "move": self.move,
            "value": round(self.value, 4),
            "playouts": self.playouts,
            "elapsed_ms": round(self.elapsed * 1000, 2),
            "top": [[self.moves[i], self.visits[i], round(self.values[i], 4)] for i in order],
            **self.info,
        }


# the final move by its lower confidence bound: candidates have at least this share of the
# most visited move's visits, scored by mean - LCB_Z * sqrt(mean (1 - mean) / (visits + 1))
LCB_SHARE = 0.1
LCB_Z = 2.0


def final_index(final: str, visits: Any, means: Any) -> int:
    """The root move a search plays (an index into ``visits`` and ``means``, the real visits
    and the mean values, NaN where unvisited): ``visits`` the most visited; ``mean`` the best
    mean; ``lcb`` the best lower confidence bound of the mean among the moves with at least
    ``LCB_SHARE`` of the most visited move's visits (as Leela Zero chooses), so that a move
    a biased estimate (RAVE's) sent most visits to loses to one whose own playouts did
    clearly better."""
    n = np.asarray(visits, dtype=np.float64)
    m = np.nan_to_num(np.asarray(means, dtype=np.float64), nan=-1.0)
    if final == "mean":
        return int(np.argmax(m))
    b = int(np.argmax(n))
    if final != "lcb" or n[b] <= 0:
        return b
    p = np.clip(m, 0.0, 1.0)
    score = np.where(n >= LCB_SHARE * n[b], m - LCB_Z * np.sqrt(p * (1.0 - p) / (n + 1.0)),
                     -np.inf)
    return int(np.argmax(score))
