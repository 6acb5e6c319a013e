"""What every core returns instead of printing."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import msgspec


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
