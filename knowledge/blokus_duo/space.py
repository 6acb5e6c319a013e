# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""Reachable space on a Blokus Duo board: who gets to which empty cells first.

Each colour spreads from its attach points (its start cell before its first move) through the
empty cells it may still cover (not edge-adjacent to its own pieces), one step to any of the
eight neighbours: a piece grows along edges and the next one starts at a corner. An empty
cell belongs to the colour that reaches it in fewer steps (a tie, or a cell neither reaches,
to nobody). :func:`k_space_margin` is the difference of the two colours' territories plus
the difference of their squares placed: the margin of the contest score if each colour
filled the space it reaches first (a colour cannot place more than its remaining squares,
but capping the territory there would blind the measure in the opening, where both
territories exceed what is left to place and the space is decided).

The plain-Python reference is :func:`reference_space_margin`; tests compare the two.
"""

from __future__ import annotations

import math

import numpy as np

from games.blokus_duo.kernels import M_REMAINING, hot

UNREACHED = 1 << 20


@hot(inline=True)
def k_spread(board, forb, att, colour, size, dist, queue):
    """Fill row ``colour`` of ``dist`` (2, S) int32 with colour's steps to each cell
    (UNREACHED where none)."""
    S = size * size
    head = 0
    tail = 0
    for x in range(S):
        if att[colour, x] and board[x] < 0 and forb[colour, x] == 0:
            dist[colour, x] = 0
            queue[tail] = x
            tail += 1
        else:
            dist[colour, x] = UNREACHED
    while head < tail:
        x = queue[head]
        head += 1
        y0 = x // size
        x0 = x - y0 * size
        d = dist[colour, x] + 1
        for dy in range(-1, 2):
            yy = y0 + dy
            if yy < 0 or yy >= size:
                continue
            for dx in range(-1, 2):
                xx = x0 + dx
                if xx < 0 or xx >= size:
                    continue
                z = yy * size + xx
                if dist[colour, z] <= d or board[z] >= 0 or forb[colour, z]:
                    continue
                dist[colour, z] = d
                queue[tail] = z
                tail += 1


@hot(inline=True)
def k_space_margin(board, forb, att, meta, colour, size, dist, queue):
    """Colour's reachable score minus the opponent's (module doc). ``dist`` (2, S) int32 and
    ``queue`` (S,) int64 are scratch."""
    S = size * size
    k_spread(board, forb, att, 0, size, dist, queue)
    k_spread(board, forb, att, 1, size, dist, queue)
    t0 = 0
    t1 = 0
    for x in range(S):
        a = dist[0, x]
        b = dist[1, x]
        if a < b:
            t0 += 1
        elif b < a:
            t1 += 1
    d = (t0 - meta[M_REMAINING]) - (t1 - meta[M_REMAINING + 1])
    return d if colour == 0 else -d


@hot(inline=True)
def k_space_value(margin, scale):
    """The value in (0, 1) of a reachable-score margin: logistic in ``margin / scale``."""
    return 1.0 / (1.0 + math.exp(-margin / scale))


def space_scratch(num_cells: int) -> tuple[np.ndarray, np.ndarray]:
    """The scratch arrays of :func:`k_space_margin` for a board of ``num_cells`` cells."""
    return np.empty((2, num_cells), dtype=np.int32), np.empty(num_cells, dtype=np.int64)


def reference_space_margin(board: list[int], forb: list[list[int]], att: list[list[int]],
                           remaining: tuple[int, int], colour: int, size: int) -> int:
    """:func:`k_space_margin` in plain Python (breadth-first search with a deque)."""
    from collections import deque

    def spread(c: int) -> dict[int, int]:
        dist = {x: 0 for x in range(size * size)
                if att[c][x] and board[x] < 0 and not forb[c][x]}
        todo = deque(dist)
        while todo:
            x = todo.popleft()
            y0, x0 = divmod(x, size)
            for yy in range(y0 - 1, y0 + 2):
                for xx in range(x0 - 1, x0 + 2):
                    z = yy * size + xx
                    if (0 <= yy < size and 0 <= xx < size and z not in dist
                            and board[z] < 0 and not forb[c][z]):
                        dist[z] = dist[x] + 1
                        todo.append(z)
        return dist

    d0, d1 = spread(0), spread(1)
    far = UNREACHED
    t0 = sum(1 for x in range(size * size) if d0.get(x, far) < d1.get(x, far))
    t1 = sum(1 for x in range(size * size) if d1.get(x, far) < d0.get(x, far))
    d = (t0 - remaining[0]) - (t1 - remaining[1])
    return d if colour == 0 else -d
