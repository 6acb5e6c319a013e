# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""The priors of the legal moves of Blokus Duo for the tree search (Gelly and Silver 2007).

One numba kernel, :func:`k_priors`, gives every legal placement of the mover a prior value
and an equivalent experience (pseudo-visits); ``BlokusPosition.priors()`` (the Python UCT) and
the compiled tree's ``legal`` kernel (``knowledge.blokus_duo.tree``) both call it, so both
searches see the same game. The plain-Python reference is ``reference.reference_priors``.

Two kinds (``BlokusConfig.priors``):

``size`` (the first player's)
    0.5 + ``prior_size_bonus`` · (size − 3) while the mover has placed fewer than
    ``prior_early_pieces`` pieces, else 0.5.
``knowledge``
    0.5 + ``prior_size`` · (size − 3)
    + ``prior_gain`` · (new attach points the placement creates for the mover, at most
    ``prior_gain_cap``)
    + ``prior_take`` · (the opponent's attach points it covers)
    − ``prior_waste`` · (the mover's attach points it spends beyond the one it needs: the
    others it covers and those on its edge cells)
    + ``prior_front`` · max(0, ``prior_front_radius`` − d), d the Chebyshev distance from the
    placement to the nearest opponent piece (its start square before its first move),
    clipped to [0.05, 0.95].

Both are worth ``prior_count`` pseudo-visits. **Opening pruning** (either kind): while the
mover has placed fewer than ``open_pieces`` pieces, a placement of fewer than
``open_min_size`` squares (when a bigger one fits) gets value 0 worth ``prune_count``
pseudo-visits — a move the search never picks while any other has a positive value.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from games.blokus_duo.kernels import M_PLACED, M_TO_MOVE
from games.contract import FloatArray
from knowledge.blokus_duo.policy import k_gain
from knowledge.blokus_duo.settings import BlokusConfig

# the parameter vector (prior_params())
P_KIND = 0  # 0 size, 1 knowledge
P_COUNT = 1
P_SIZE_BONUS = 2  # size kind
P_EARLY = 3  # size kind
P_SIZE = 4
P_GAIN = 5
P_GAIN_CAP = 6
P_TAKE = 7
P_WASTE = 8
P_FRONT = 9
P_FRONT_RADIUS = 10
P_OPEN_PIECES = 11
P_OPEN_MIN = 12
P_PRUNE_COUNT = 13
NUM_PARAMS = 14
VALUE_MIN = 0.05
VALUE_MAX = 0.95


@njit(cache=True)
def k_distance(board, o, start, size, dist, queue):
    """``dist[x]``: the Chebyshev distance from cell x to the nearest cell of colour ``o``
    (to ``start`` when it has none), by a breadth-first search over the 8 neighbours."""
    S = size * size
    head = 0
    tail = 0
    for x in range(S):
        if board[x] == o:
            dist[x] = 0
            queue[tail] = x
            tail += 1
        else:
            dist[x] = S
    if tail == 0:
        dist[start] = 0
        queue[0] = start
        tail = 1
    while head < tail:
        x = queue[head]
        head += 1
        y0 = x // size
        x0 = x - y0 * size
        for dy in range(-1, 2):
            yy = y0 + dy
            if yy < 0 or yy >= size:
                continue
            for dx in range(-1, 2):
                xx = x0 + dx
                if xx < 0 or xx >= size:
                    continue
                z = yy * size + xx
                if dist[z] > dist[x] + 1:
                    dist[z] = dist[x] + 1
                    queue[tail] = z
                    tail += 1


@njit(cache=True)
def k_priors(cells, ncells, corners, ncorners, edges, nedges, start, board, forb, att, meta,
             moves, n, values, counts, pp, scratch):
    """Prior value and pseudo-count of each of the mover's legal placements ``moves[:n]``
    (into ``values[:n]``, ``counts[:n]``). ``start``: the start cells; ``pp``: the parameters
    (``P_*``); ``scratch``: an int64 array of 2 S."""
    c = meta[M_TO_MOVE]
    o = 1 - c
    size = int(np.sqrt(board.shape[0]) + 0.5)
    S = size * size
    placed = meta[M_PLACED + c]
    prune = False
    if placed < pp[P_OPEN_PIECES]:
        for i in range(n):
            if ncells[moves[i]] >= pp[P_OPEN_MIN]:
                prune = True
                break
    knowledge = pp[P_KIND] == 1.0
    dist = scratch[:S]
    if knowledge:
        k_distance(board, o, start[o], size, dist, scratch[S:])
    early = placed < pp[P_EARLY]
    for i in range(n):
        q = moves[i]
        k = ncells[q]
        if prune and k < pp[P_OPEN_MIN]:
            values[i] = 0.0
            counts[i] = pp[P_PRUNE_COUNT]
            continue
        counts[i] = pp[P_COUNT]
        if not knowledge:
            v = 0.5
            if early:
                v = min(1.0, max(0.0, 0.5 + pp[P_SIZE_BONUS] * (k - 3.0)))
            values[i] = v
            continue
        gain = k_gain(c, q, corners, ncorners, board, forb, att)
        take = 0
        spent = -1
        dmin = S
        for j in range(k):
            x = cells[q, j]
            take += att[o, x]
            spent += att[c, x]
            if dist[x] < dmin:
                dmin = dist[x]
        for j in range(nedges[q]):
            spent += att[c, edges[q, j]]
        v = (0.5 + pp[P_SIZE] * (k - 3.0) + pp[P_GAIN] * min(gain, pp[P_GAIN_CAP])
             + pp[P_TAKE] * take - pp[P_WASTE] * max(spent, 0)
             + pp[P_FRONT] * max(0.0, pp[P_FRONT_RADIUS] - dmin))
        values[i] = min(VALUE_MAX, max(VALUE_MIN, v))


@lru_cache(maxsize=64)
def prior_params(config: BlokusConfig) -> FloatArray:
    """The parameters of :func:`k_priors` (``P_*``) of ``config``. Shared: do not modify."""
    pp = np.zeros(NUM_PARAMS)
    pp[P_KIND] = 1.0 if config.priors == "knowledge" else 0.0
    pp[P_COUNT] = config.prior_count
    pp[P_SIZE_BONUS] = config.prior_size_bonus
    pp[P_EARLY] = config.prior_early_pieces
    pp[P_SIZE] = config.prior_size
    pp[P_GAIN] = config.prior_gain
    pp[P_GAIN_CAP] = config.prior_gain_cap
    pp[P_TAKE] = config.prior_take
    pp[P_WASTE] = config.prior_waste
    pp[P_FRONT] = config.prior_front
    pp[P_FRONT_RADIUS] = config.prior_front_radius
    pp[P_OPEN_PIECES] = config.open_pieces
    pp[P_OPEN_MIN] = config.open_min_size
    pp[P_PRUNE_COUNT] = config.prune_count
    return pp
