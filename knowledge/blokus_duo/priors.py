# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""The priors of the legal moves of Blokus Duo for the tree search (Gelly and Silver 2007).

One numba kernel, :func:`k_priors`, gives every legal placement of the mover a prior value
and an equivalent experience (pseudo-visits); ``BlokusPosition.priors()`` (the Python UCT) and
the compiled tree's ``legal`` kernel (``knowledge.blokus_duo.tree``) both call it, so both
searches see the same game. The plain-Python reference is ``reference.reference_priors``.

Three kinds (``BlokusConfig.priors``):

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

``learned``
    the placement's strength γ, the product of the γ of its move features learned from
    strong play (:mod:`knowledge.blokus_duo.moves`, the weights file ``move_weights``), as
    equivalent experience (as the Go engine's learned priors): with r = (γ / max γ)^τ over
    the mover's placements, value ``prior_low`` + (``prior_high`` − ``prior_low``) r.

Each is worth ``prior_count`` pseudo-visits. **Opening pruning** (any kind): while the
mover has placed fewer than ``open_pieces`` pieces, a placement of fewer than
``open_min_size`` squares (when a bigger one fits) gets value 0 worth ``prune_count``
pseudo-visits — a move the search never picks while any other has a positive value.

**Playing style** (``BlokusConfig.style``, :mod:`knowledge.blokus_duo.style`): every
placement not pruned that has the style's feature gets ``strength × style.BASE[style]`` extra
pseudo-visits, all wins: value (v·n + e) / (n + e), count n + e. The plain player (style
``""``) has no such term.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from games.blokus_duo.kernels import M_PLACED, M_TO_MOVE
from games.contract import FloatArray
from knowledge.blokus_duo import moves as MV
from knowledge.blokus_duo.placement import k_cover, k_distance, k_gain, k_open
from knowledge.blokus_duo.settings import BlokusConfig
from knowledge.blokus_duo.style import (
    EXPAND_RADIUS,
    EXPANDING,
    NO_STYLE,
    k_has_style,
    style_params,
)

# the parameter vector (prior_params())
P_KIND = 0  # 0 size, 1 knowledge, 2 learned
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
P_STYLE = 14  # the style's code (style.CODES; 0: none)
P_STYLE_COUNT = 15  # its extra pseudo-visits, all wins
P_LOW = 16  # learned kind: the value of the least likely placements ...
P_HIGH = 17  # ... and of the most likely one
P_TAU = 18  # r = (gamma / max gamma) ** tau
NUM_PARAMS = 19
P_GAMMA = NUM_PARAMS  # learned kind: the features' gamma (moves.NUM_FEATURES) follow
KIND_SIZE, KIND_KNOWLEDGE, KIND_LEARNED = 0.0, 1.0, 2.0
KINDS = {"size": KIND_SIZE, "knowledge": KIND_KNOWLEDGE, "learned": KIND_LEARNED}
VALUE_MIN = 0.05
VALUE_MAX = 0.95


@njit(cache=True)
def k_priors(cells, ncells, piece, corners, ncorners, edges, nedges, start, board, forb, att,
             meta, moves, n, values, counts, pp, scratch):
    """Prior value and pseudo-count of each of the mover's legal placements ``moves[:n]``
    (into ``values[:n]``, ``counts[:n]``). ``start``: the start cells; ``pp``: the parameters
    (``P_*``, then the learned kind's γ); ``scratch``: int64, ``moves.scratch_size(S)``."""
    c = meta[M_TO_MOVE]
    size = int(np.sqrt(board.shape[0]) + 0.5)
    S = size * size
    placed = meta[M_PLACED + c]
    prune = False
    if placed < pp[P_OPEN_PIECES]:
        for i in range(n):
            if ncells[moves[i]] >= pp[P_OPEN_MIN]:
                prune = True
                break
    knowledge = pp[P_KIND] == KIND_KNOWLEDGE
    learned = pp[P_KIND] == KIND_LEARNED
    style = int(pp[P_STYLE])
    dist = scratch[:S]
    reach = scratch[S:2 * S]
    row = scratch[3 * S:3 * S + MV.NUM_GROUPS]
    if learned or style == EXPANDING:
        # the distance to the opponent, to every piece and to its last placement
        MV.k_prepare(cells, ncells, start, board, meta, scratch)
    elif knowledge or style != NO_STYLE:
        k_distance(board, 1 - c, start[1 - c], size, dist)
    top = 0.0
    if learned:  # the strengths first, for their maximum
        for i in range(n):
            if prune and ncells[moves[i]] < pp[P_OPEN_MIN]:
                continue
            MV.k_team(c, moves[i], cells, ncells, piece, corners, ncorners, edges, nedges,
                      board, forb, att, meta, scratch, row)
            gamma = 1.0
            for g in range(MV.NUM_GROUPS):
                if row[g] >= 0:
                    gamma *= pp[P_GAMMA + row[g]]
            values[i] = gamma
            top = max(top, gamma)
    early = placed < pp[P_EARLY]
    for i in range(n):
        q = moves[i]
        k = ncells[q]
        if prune and k < pp[P_OPEN_MIN]:
            values[i] = 0.0
            counts[i] = pp[P_PRUNE_COUNT]
            continue
        counts[i] = pp[P_COUNT]
        take = spent = dmin = gain = 0
        if knowledge or style != NO_STYLE:
            gain = k_gain(c, q, corners, ncorners, board, forb, att)
            take, spent, dmin = k_cover(c, q, cells, ncells, edges, nedges, att, dist)
        if learned:
            r = (values[i] / top) ** pp[P_TAU] if top > 0.0 else 1.0
            v = pp[P_LOW] + (pp[P_HIGH] - pp[P_LOW]) * r
        elif knowledge:
            v = (0.5 + pp[P_SIZE] * (k - 3.0) + pp[P_GAIN] * min(gain, pp[P_GAIN_CAP])
                 + pp[P_TAKE] * take - pp[P_WASTE] * max(spent, 0)
                 + pp[P_FRONT] * max(0.0, pp[P_FRONT_RADIUS] - dmin))
            v = min(VALUE_MAX, max(VALUE_MIN, v))
        else:
            v = 0.5
            if early:
                v = min(1.0, max(0.0, 0.5 + pp[P_SIZE_BONUS] * (k - 3.0)))
        opened = 0
        if style == EXPANDING:
            opened = k_open(c, q, corners, ncorners, board, forb, att, reach, EXPAND_RADIUS)
        if style != NO_STYLE and k_has_style(style, take, opened):
            extra = pp[P_STYLE_COUNT]
            v = (v * counts[i] + extra) / (counts[i] + extra)
            counts[i] += extra
        values[i] = v


@lru_cache(maxsize=64)
def prior_params(config: BlokusConfig) -> FloatArray:
    """The parameters of :func:`k_priors` (``P_*``) of ``config``. Shared: do not modify."""
    learned = config.priors == "learned"
    pp = np.zeros(NUM_PARAMS + (MV.NUM_FEATURES if learned else 0))
    pp[P_KIND] = KINDS[config.priors]
    if learned:
        pp[P_GAMMA:] = MV.load_move_weights(config.move_weights).gamma
    pp[P_LOW] = config.prior_low
    pp[P_HIGH] = config.prior_high
    pp[P_TAU] = config.prior_tau
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
    pp[P_STYLE], pp[P_STYLE_COUNT] = style_params(config.style)
    return pp
