# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""The Blokus Duo kernels of the compiled UCT (``search.ctree``; the interface is in its
docstring).

The kernel state is the state arrays of :mod:`games.blokus_duo.kernels` plus ``key``, an int64
array holding the Zobrist key of the placements (``BlokusState.placements_key``). The context
holds the geometry, the Zobrist tables (as int64), the seat of each colour, the playout policy
and its weights, the prior settings and scratch arrays. The kernels do what
:class:`knowledge.blokus_duo.position.BlokusPosition` does for the Python UCT, draw for draw:
legal moves are the sorted placements, or PASS alone; priors are ``BlokusPosition.priors``; a
playout is ``BlokusPosition.playout`` with its generator seeded from the search's stream as
``x mod 2^63`` (its reward blended with the leaf's reachable space when ``space_weight`` > 0).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.blokus_duo import kernels as K
from games.blokus_duo.geometry import PASS
from games.blokus_duo.state import PASS_KEY, BlokusState
from games.contract import FloatArray, TreeGame
from games.splitmix import rng_next
from knowledge.blokus_duo import policy as P
from knowledge.blokus_duo import space as S
from knowledge.blokus_duo.moves import scratch_size
from knowledge.blokus_duo.priors import k_priors
from knowledge.blokus_duo.space import space_scratch

_PASS_KEY = np.int64(PASS_KEY)
_SEED_MASK = np.uint64(2**63 - 1)
# ctx: (G, zob, zside, ip, weights, pp, near, out, playout moves, their colours, rng,
#       start cells, prior scratch, space distances, space queue)
# ip: seat of colour 0, seat of colour 1, policy, board size
# weights: the playout parameters (policy.playout_params); pp: the prior parameters
# (priors.prior_params)


@njit(cache=True)
def t_copy(ctx, src, dst):
    K.k_copy_state(ctx[0][20], src[0], src[1], src[2], src[3], src[4], src[5], src[6], src[7],
                   dst[0], dst[1], dst[2], dst[3], dst[4], dst[5], dst[6], dst[7])
    dst[8][0] = src[8][0]


@njit(cache=True)
def t_to_move(ctx, st):
    meta = st[7]
    if meta[K.M_OVER]:
        return -1
    return ctx[3][meta[K.M_TO_MOVE]]


@njit(cache=True)
def t_key(ctx, st):
    meta = st[7]
    k = st[8][0] ^ ctx[2][meta[K.M_TO_MOVE]]
    if meta[K.M_PASSES]:
        k ^= _PASS_KEY
    return k


@njit(cache=True)
def t_legal(ctx, st, moves, values, counts, priors):
    G, pp, out = ctx[0], ctx[5], ctx[7]
    board, forb, att, forbb, cand, ncand, meta = st[0], st[1], st[3], st[2], st[5], st[6], st[7]
    c = meta[K.M_TO_MOVE]
    n = K.k_legal(c, G[11], G[12], G[20], forbb, cand, ncand, out)
    if n == 0:
        moves[0] = PASS
        if priors:
            values[0] = 0.5
            counts[0] = 0.0
        return 1
    srt = np.sort(out[:n])
    for i in range(n):
        moves[i] = srt[i]
    if priors:
        k_priors(G[0], G[1], G[2], G[3], G[4], G[5], G[6], ctx[11], board, forb, att, meta,
                 moves, n, values, counts, pp, ctx[12])
    return n


@njit(cache=True)
def t_play(ctx, st, move):
    meta = st[7]
    if move != PASS:
        st[8][0] ^= ctx[1][meta[K.M_TO_MOVE], move]
    K.k_play(ctx[0], st[0], st[1], st[2], st[3], st[4], st[5], st[6], meta, move)


@njit(cache=True)
def t_playout(ctx, st, rng, moves, players, returns):
    G, ip, weights, near = ctx[0], ctx[3], ctx[4], ctx[6]
    buf_m, buf_c = ctx[8], ctx[9]
    meta = st[7]
    c0 = 0 if ip[0] == 0 else 1  # the colour of seat 0
    space = weights[P.W_SPACE]
    blend = space > 0.0 and not meta[K.M_OVER]
    v0 = 0.5
    if blend:
        m = S.k_space_margin(st[0], st[1], st[3], meta, c0, ip[3], ctx[13], ctx[14])
        v0 = S.k_space_value(m, weights[P.W_SPACE_SCALE])
    n = 0
    if not meta[K.M_OVER]:
        r = ctx[10]
        r[0] = rng_next(rng) & _SEED_MASK
        near[:] = 0
        n = P.k_playout(G, st[0], st[1], st[2], st[3], st[4], st[5], st[6], meta, ip[2],
                        weights, r, buf_m, buf_c, near)
        for i in range(n):
            moves[i] = buf_m[i]
            players[i] = ip[buf_c[i]]
    d = K.k_score(meta, c0) - K.k_score(meta, 1 - c0)
    r0 = P.k_reward(d, weights[P.W_REWARD], weights[P.W_REWARD_SCALE])
    if blend:
        r0 = (1.0 - space) * r0 + space * v0
    returns[0] = r0
    returns[1] = 1.0 - r0
    return n


KERNELS = (t_copy, t_to_move, t_key, t_legal, t_play, t_playout)


def tree_game(state: BlokusState, policy: int, weights: FloatArray,
              prior_params: FloatArray) -> TreeGame:
    """The compiled search's view of ``state`` playing with the playout ``policy`` and its
    ``weights`` (``policy.playout_params``) and the priors' ``prior_params``."""
    g = state.geo
    seat_of = np.array([state.seat_of(0), state.seat_of(1)], dtype=np.int64)
    ctx = (
        g.kernel_args,
        g.zobrist.view(np.int64),
        g.zobrist_side.view(np.int64),
        np.array([seat_of[0], seat_of[1], policy, g.size], dtype=np.int64),
        weights,
        prior_params,
        np.zeros(g.num_cells, dtype=np.uint8),
        np.empty(g.num_placements, dtype=np.int32),
        np.empty(P.MAX_PLAYOUT_MOVES, dtype=np.int64),
        np.empty(P.MAX_PLAYOUT_MOVES, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
        g.start,
        np.empty(scratch_size(g.num_cells), dtype=np.int64),
        *space_scratch(g.num_cells),
    )
    key = np.array([state.placements_key], dtype=np.uint64).view(np.int64)
    st = tuple(a.copy() for a in state.arrays()) + (key,)
    if not state.is_terminal():
        # the mover's lists compacted, as BlokusState.legal_moves() leaves them for the
        # Python search (the playouts draw from these lists)
        K.k_legal(state.to_move_colour, g.bb_word, g.bb_mask, g.pstart, st[2], st[5], st[6],
                  ctx[7])
    return TreeGame(KERNELS, ctx, st, 2, g.num_placements, g.num_placements,
                    P.MAX_PLAYOUT_MOVES)
