"""The opening of the large boards: the empty corners first.

Before the first fight a corner is worth more than a side, and a side more than the centre
("corners, sides, centre"): two edges help a group live and enclose territory. A search of a
few thousand playouts a move cannot tell the moves of an open 19×19 board apart — its values
lie within noise of each other — and left to itself it opens on the third line in the middle
of a side while the opponent takes the corners. With ``opening_corners`` (clients.gtp.player)
the engine plays, on a large board and while a corner holds no stone, at one of its 3-3, 3-4
or 4-4 points, the search's choice among them. It is off by default: against GNU Go level 10
on 19×19 it scored no better than the search's own openings (docs/results/go.md).

A corner is empty when no stone lies within :func:`corner_lines` lines of both of its edges
(6 on 19×19, 5 on 15×15, 4 on 13×13).
"""

from __future__ import annotations

import numpy as np

from games.go.coords import EMPTY

# (line from one edge, line from the other), 0-based: the 3-3, 3-4, 4-3 and 4-4 points
CORNER_POINTS = ((2, 2), (2, 3), (3, 2), (3, 3))
LARGE_BOARD = 15  # the rule's boards: from 15x15 up


def corner_lines(size: int) -> int:
    """The lines from both edges that make a corner's region on a size x size board."""
    return size // 3


def empty_corner_points(grid: np.ndarray) -> list[tuple[int, int]]:
    """The (col, row) 3-3, 3-4 and 4-4 points of every corner whose region holds no stone;
    ``grid``: (size, size) colours by row then column (games.go.state.GoState.grid). The
    corners in the order lower left, lower right, upper left, upper right."""
    size = grid.shape[0]
    r = corner_lines(size)
    if r <= CORNER_POINTS[-1][0]:
        return []  # a region too small to hold the 4-4 point: no corners apart from the sides
    out: list[tuple[int, int]] = []
    for top in (False, True):
        rows = slice(size - r, size) if top else slice(0, r)
        for right in (False, True):
            cols = slice(size - r, size) if right else slice(0, r)
            if (grid[rows, cols] != EMPTY).any():
                continue
            for a, b in CORNER_POINTS:
                out.append((size - 1 - a if right else a, size - 1 - b if top else b))
    return out
