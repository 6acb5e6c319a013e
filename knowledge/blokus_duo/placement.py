# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""What a placement does to the board, as the playouts, the priors and the playing styles
measure it (numba kernels over the rules' state arrays, :mod:`games.blokus_duo.kernels`).

For colour c's placement q and its opponent o = 1 − c:

- :func:`k_gain`: the new attach points q creates for c (its corner cells that are empty, not
  forbidden to c and not yet c's attach points); :func:`k_open`: those of them at least a
  given distance from every piece on the board (:func:`k_reach`);
- :func:`k_cover`: the opponent's attach points q covers (``take``), the mover's it spends
  beyond the one it needs (``spent``: the others it covers and those on its edge cells) and
  its Chebyshev distance to the opponent (``dmin``, from :func:`k_distance`).

The plain-Python references are in ``knowledge.blokus_duo.reference``.
"""

from __future__ import annotations

from numba import njit

from games.blokus_duo.kernels import hot


@hot(inline=True)
def k_new_attach(c, x, board, forb, att):
    """Whether cell x, a corner cell of colour c's placement, becomes a new attach point of
    c: empty, not forbidden to c and not yet c's attach point."""
    return board[x] < 0 and forb[c, x] == 0 and att[c, x] == 0


@hot(inline=True)
def k_gain(c, q, corners, ncorners, board, forb, att):
    """How many new attach points colour c's placement q creates (counted without branching
    on each cell: faster than stopping at a cap)."""
    gain = 0
    for j in range(ncorners[q]):
        gain += k_new_attach(c, corners[q, j], board, forb, att)
    return gain


@hot(inline=True)
def k_open(c, q, corners, ncorners, board, forb, att, reach, radius):
    """How many new attach points colour c's placement q creates at least ``radius`` cells
    from every piece on the board (``reach``: :func:`k_reach`)."""
    n = 0
    for j in range(ncorners[q]):
        x = corners[q, j]
        n += k_new_attach(c, x, board, forb, att) and reach[x] >= radius
    return n


@hot(inline=True)
def k_cover(c, q, cells, ncells, edges, nedges, att, dist):
    """``(take, spent, dmin)`` of colour c's placement q: the opponent's attach points it
    covers, the mover's it spends beyond the one it needs (the others it covers and those on
    its edge cells; -1 if none) and the least ``dist`` (:func:`k_distance`) of its cells."""
    o = 1 - c
    take = 0
    spent = -1
    dmin = dist.shape[0]
    for j in range(ncells[q]):
        x = cells[q, j]
        take += att[o, x]
        spent += att[c, x]
        if dist[x] < dmin:
            dmin = dist[x]
    for j in range(nedges[q]):
        spent += att[c, edges[q, j]]
    return take, spent, dmin


@hot(inline=True)
def k_chessboard(size, dist):
    """Complete ``dist`` (0 at the source cells, at least size² elsewhere) into the Chebyshev
    distance to the nearest source: one forward and one backward raster pass over the
    8-neighbourhood (Rosenfeld and Pfaltz 1966, "Sequential operations in digital picture
    processing"), exact for this metric."""
    for y in range(size):
        for x in range(size):
            i = y * size + x
            d = dist[i]
            if x > 0:
                d = min(d, dist[i - 1] + 1)
            if y > 0:
                d = min(d, dist[i - size] + 1)
                if x > 0:
                    d = min(d, dist[i - size - 1] + 1)
                if x < size - 1:
                    d = min(d, dist[i - size + 1] + 1)
            dist[i] = d
    for y in range(size - 1, -1, -1):
        for x in range(size - 1, -1, -1):
            i = y * size + x
            d = dist[i]
            if x < size - 1:
                d = min(d, dist[i + 1] + 1)
            if y < size - 1:
                d = min(d, dist[i + size] + 1)
                if x < size - 1:
                    d = min(d, dist[i + size + 1] + 1)
                if x > 0:
                    d = min(d, dist[i + size - 1] + 1)
            dist[i] = d


@njit(cache=True)
def k_distance(board, o, start, size, dist):
    """``dist[x]``: the Chebyshev distance from cell x to the nearest cell of colour ``o``
    (to ``start`` when it has none)."""
    S = size * size
    found = False
    for x in range(S):
        if board[x] == o:
            dist[x] = 0
            found = True
        else:
            dist[x] = S
    if not found:
        dist[start] = 0
    k_chessboard(size, dist)


@njit(cache=True)
def k_reach(board, c, start, size, dist, reach):
    """``reach[x]``: the Chebyshev distance from cell x to the nearest piece of either colour,
    from ``dist`` (:func:`k_distance` to the opponent 1 − c) and colour c's own pieces (its
    ``start`` square before it has one)."""
    k_distance(board, c, start, size, reach)
    for x in range(size * size):
        if dist[x] < reach[x]:
            reach[x] = dist[x]
