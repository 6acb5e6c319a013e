# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""The Blokus Duo playout policies and the reward of a finished playout (numba kernels over
the rules' state arrays, :mod:`games.blokus_duo.kernels`).

Three policies, chosen by an integer code (``POLICY_*``) and parameterised by one float array
(``W_*``, built from a :class:`~knowledge.blokus_duo.settings.BlokusConfig` by
:func:`playout_params`): ``uniform`` draws every legal placement with the same probability;
``weighted`` draws in proportion to :func:`k_weight`, hand-set factors; ``learned`` in
proportion to :func:`k_learned_weight`, the product of the strengths of the placement's
playout features (:mod:`knowledge.blokus_duo.playout_features`) fitted to strong play
(``corvid learn blokus playouts``). The random stream is the splitmix64 of
:mod:`games.splitmix` (a uint64 array of length 1 seeded by the caller), so playouts are
reproducible from a seed. The plain-Python reference is ``knowledge.blokus_duo.reference``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from numba import njit

from games.blokus_duo.kernels import (
    M_LAST_MOVE,
    M_OVER,
    M_PLACED,
    M_TO_MOVE,
    NUM_PIECES,
    hot,
    k_compact,
    k_copy_state,
    k_play,
    k_score,
)
from games.contract import FloatArray
from games.splitmix import rng_next
from knowledge.blokus_duo.placement import k_gain
from knowledge.blokus_duo.playout_features import (
    PF_B_GAIN,
    PF_B_NEAR,
    PF_B_SPENT,
    PF_B_TAKE,
    PF_FEATURES,
    PF_MAX_GAIN,
    k_mark_near,
    k_pf_near,
    k_pf_piece,
    k_pf_take_spent,
    load_playout_weights,
    scaled_strengths,
)
from knowledge.blokus_duo.settings import BlokusConfig

MAX_PLAYOUT_MOVES = 4 * NUM_PIECES + 4  # most moves a playout records
_COMPACT_AFTER = 16  # k_pick: compact the lists after this many dead draws in one pick

POLICY_UNIFORM = 0
POLICY_WEIGHTED = 1
POLICY_LEARNED = 2
POLICIES = {"uniform": POLICY_UNIFORM, "weighted": POLICY_WEIGHTED, "learned": POLICY_LEARNED}


@hot(inline=True)
def rng_below(s: Any, n: int) -> Any:
    """Uniform in 0..n-1 for 0 < n < 2**32 (multiply-shift: no slow 64-bit division)."""
    return np.int64(((rng_next(s) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@hot(inline=True)
def rng_unit(s: Any) -> float:
    """Uniform in [0, 1) with 53 random bits."""
    return float(rng_next(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# weighted playouts: the layout of the policy's weights (playout_params())
W_NEAR = 6  # factor of a placement touching the opponent's last placement (edge or corner)
W_FAR = 7  # ... of one that does not
W_GAIN = 8  # factor per new attach point short of W_GAIN_CAP (1: no corner-gain term)
W_GAIN_CAP = 9
W_NOTAKE = 10  # factor of a placement covering none of the opponent's attach points
W_OPEN_PIECES = 11  # while the mover has placed fewer pieces than this ...
W_OPEN = 12  # ... a placement of fewer than 5 squares gets this factor
W_REWARD = 13  # the reward: weight of the score margin term (0: win/draw/loss only) ...
W_REWARD_SCALE = 14  # ... the margin that counts fully
W_SPACE = 15  # the weight of the leaf's reachable space in its value (0: none) ...
W_SPACE_SCALE = 16  # ... and the margin scale of its logistic
W_CANDIDATES = 17  # learned playouts: candidates drawn per pick (0: all legal placements)
W_LEARNED = 18  # ... and the feature strengths (PF_FEATURES) from here on
POLICY_WEIGHTS = W_LEARNED


@hot(inline=True)
def k_weight(c, q, weights, cells, ncells, corners, ncorners, board, forb, att, meta, near,
             last, u):
    """The weighted policy's weight (in (0, 1]) of colour c's legal placement q: size, the
    opening, local reply to the opponent's last placement (``near`` marks its edge and corner
    cells, ``last`` >= 0), taking the opponent's attach points, corner gain (new attach
    points). Every factor is at most 1, so as soon as the product so far is at most ``u`` it
    is returned at once (the placement is rejected by ``u`` either way)."""
    n = ncells[q]
    wt = weights[n]
    if n < 5 and meta[M_PLACED + c] < weights[W_OPEN_PIECES]:
        wt *= weights[W_OPEN]
    f = weights[W_FAR]
    if last >= 0:
        for j in range(n):
            if near[cells[q, j]]:
                f = weights[W_NEAR]
                break
    wt *= f
    if wt <= u:
        return wt
    if weights[W_NOTAKE] < 1.0:
        o = 1 - c
        take = False
        for j in range(n):
            if att[o, cells[q, j]]:
                take = True
                break
        if not take:
            wt *= weights[W_NOTAKE]
            if wt <= u:
                return wt
    if weights[W_GAIN] < 1.0:
        cap = weights[W_GAIN_CAP]
        gain = k_gain(c, q, corners, ncorners, board, forb, att)
        if gain < cap:
            wt *= weights[W_GAIN] ** (cap - gain)
    return wt


@hot(inline=True)
def k_learned_weight(c, q, weights, cells, ncells, piece, corners, ncorners, edges, nedges,
                     board, forb, att, meta, near, last, u):
    """The learned policy's weight (in (0, 1]) of colour c's legal placement q: the product
    of its features' strengths, each group scaled to a largest strength of 1. As soon as
    the product so far is at most ``u`` it is returned (``u`` < 0: the whole product)."""
    wt = weights[W_LEARNED + k_pf_piece(c, q, piece, meta)]
    wt *= weights[W_LEARNED + PF_B_NEAR + k_pf_near(q, cells, ncells, near, last)]
    if wt <= u:
        return wt
    take, spent = k_pf_take_spent(c, q, cells, ncells, edges, nedges, att)
    wt *= weights[W_LEARNED + PF_B_TAKE + take] * weights[W_LEARNED + PF_B_SPENT + spent]
    if wt <= u:
        return wt
    gain = min(k_gain(c, q, corners, ncorners, board, forb, att), PF_MAX_GAIN)
    return wt * weights[W_LEARNED + PF_B_GAIN + gain]


@hot(inline=True)
def k_pick_learned(c, weights, cells, ncells, piece, edges, nedges, corners, ncorners,
                   bb_word, bb_mask, pstart, board, forb, forbb, att, cand, ncand, meta, near,
                   last, rng):
    """Draw colour c's placement in proportion to :func:`k_learned_weight`, exactly: the
    dead entries compacted away, the weights of the legal placements summed, a uniform
    point of the sum drawn and found by summing again (no scratch array); -1 if none."""
    total = k_compact(c, bb_word, bb_mask, pstart, forbb, cand, ncand)
    if total == 0:
        return -1
    wsum = 0.0
    for p in range(NUM_PIECES):
        for i in range(ncand[c, p]):
            wsum += k_learned_weight(c, cand[c, pstart[p] + i], weights, cells, ncells, piece,
                                     corners, ncorners, edges, nedges, board, forb, att, meta,
                                     near, last, -1.0)
    r = rng_unit(rng) * wsum
    q = -1
    for p in range(NUM_PIECES):
        for i in range(ncand[c, p]):
            q = cand[c, pstart[p] + i]
            r -= k_learned_weight(c, q, weights, cells, ncells, piece, corners, ncorners,
                                  edges, nedges, board, forb, att, meta, near, last, -1.0)
            if r < 0.0:
                return q
    return q  # rounding: the last legal placement


@hot(inline=True)
def k_pick(c, policy, weights, cells, ncells, piece, edges, nedges, corners, ncorners,
           bb_word, bb_mask, pstart, board, forb, forbb, att, used, cand, ncand, meta, near,
           rng):
    """Draw colour c's playout move from its candidate buckets, or -1 (pass) if it has none.

    uniform: every legal placement with the same probability (rejection over the lazy
    buckets: a uniform entry; an illegal one is dropped and the draw repeated; after
    ``_COMPACT_AFTER`` dead draws all of c's buckets are compacted at once).
    weighted: probability proportional to :func:`k_weight` (rejection sampling: a uniform
    legal placement is accepted when a uniform number is below its weight). learned, with
    k = ``weights[W_CANDIDATES]`` > 0: k uniform legal placements drawn (with replacement),
    one of them kept in proportion to :func:`k_learned_weight` (a weighted reservoir of one:
    the i-th replaces the kept one with probability w_i / (w_1 + ... + w_i)); k = 0: in
    proportion to the weight among all legal placements, :func:`k_pick_learned` (its weights
    span orders of magnitude: rejection would wait too long). ``near`` is a (S,) uint8
    scratch array."""
    total = 0
    for p in range(NUM_PIECES):
        total += ncand[c, p]
    last = -1
    if policy != POLICY_UNIFORM:
        last = meta[M_LAST_MOVE + 1 - c]
        if last >= 0:
            k_mark_near(last, edges, nedges, corners, ncorners, near, 1)
    q = -1
    k = int(weights[W_CANDIDATES])
    if policy == POLICY_LEARNED and k == 0:
        q = k_pick_learned(c, weights, cells, ncells, piece, edges, nedges, corners, ncorners,
                           bb_word, bb_mask, pstart, board, forb, forbb, att, cand, ncand,
                           meta, near, last, rng)
        total = 0  # drawn
    misses = 0
    chosen = -1  # learned, k candidates: the one kept so far, of weight sum wsum
    wsum = 0.0
    while total > 0:
        r = rng_below(rng, total)
        p = 0
        while r >= ncand[c, p]:
            r -= ncand[c, p]
            p += 1
        idx = pstart[p] + r
        q = cand[c, idx]
        w = bb_word[q]
        if ((forbb[c, w] & bb_mask[q, 0]) | (forbb[c, w + 1] & bb_mask[q, 1])) != 0:
            n = ncand[c, p] - 1
            cand[c, idx] = cand[c, pstart[p] + n]
            ncand[c, p] = n
            total -= 1
            q = -1
            misses += 1
            if misses == _COMPACT_AFTER:
                # mostly dead entries: drop them all in one pass, then draw among the rest
                total = k_compact(c, bb_word, bb_mask, pstart, forbb, cand, ncand)
            continue
        if policy == POLICY_UNIFORM:
            break
        if policy == POLICY_LEARNED:
            wt = k_learned_weight(c, q, weights, cells, ncells, piece, corners, ncorners,
                                  edges, nedges, board, forb, att, meta, near, last, -1.0)
            wsum += wt
            if rng_unit(rng) * wsum < wt:
                chosen = q
            k -= 1
            if k == 0:
                break
            continue
        u = rng_unit(rng)
        if k_weight(c, q, weights, cells, ncells, corners, ncorners, board, forb, att, meta,
                    near, last, u) > u:
            break
        q = -1
    if policy == POLICY_LEARNED and chosen >= 0:
        q = chosen
    if last >= 0:
        k_mark_near(last, edges, nedges, corners, ncorners, near, 0)
    return q


@njit(cache=True)
def k_sample_picks(G, board, forb, forbb, att, used, cand, ncand, meta, colour, policy, weights,
                   rng, out, near):
    """Draw ``len(out)`` playout moves for ``colour`` from the same position (picking only
    drops dead list entries, so the position does not change): for testing the policies.
    ``near``: a zeroed (S,) uint8 scratch array."""
    cells = G[0]
    ncells = G[1]
    piece = G[2]
    corners = G[3]
    ncorners = G[4]
    edges = G[5]
    nedges = G[6]
    bb_word = G[11]
    bb_mask = G[12]
    pstart = G[20]
    for i in range(out.shape[0]):
        out[i] = k_pick(colour, policy, weights, cells, ncells, piece, edges, nedges, corners,
                        ncorners, bb_word, bb_mask, pstart, board, forb, forbb, att, used, cand,
                        ncand, meta, near, rng)


@hot(inline=True)
def k_reward(d, weight, scale):
    """The reward of a finished game for a colour whose score margin (own - opponent) is
    ``d``: 1 win, 0.5 draw, 0 loss, blended with the margin: (1 - weight) * that + weight *
    (0.5 + 0.5 * clip(d / scale, -1, 1)). In [0, 1]; the two colours' rewards sum to 1."""
    r = 1.0 if d > 0 else 0.0 if d < 0 else 0.5
    if weight > 0.0:
        m = min(1.0, max(-1.0, d / scale))
        r = (1.0 - weight) * r + weight * (0.5 + 0.5 * m)
    return r


@hot()
def k_playout(G, board, forb, forbb, att, used, cand, ncand, meta, policy, weights, rng,
              moves_out, colours_out, near):
    """Play the (mutable) state to the end; record the moves and who played them. Returns
    the number of moves played. ``near``: a zeroed (S,) uint8 scratch array. (No numba
    runtime: no allocation, no reference counting in the loop.)"""
    (cells, ncells, piece, corners, ncorners, edges, nedges, bcp_start, bcp, bcp_mask, diamond,
     bb_word, bb_mask, eb_word, eb_mask, bcpp_start, bcpp, bcpp_mask, bcpp_piece, diamond_nbr,
     pstart, diamond_word, diamond_bit, diamond_index, bcpp_pat, bcpp_ent) = G
    n = 0
    while meta[M_OVER] == 0:
        c = meta[M_TO_MOVE]
        q = k_pick(c, policy, weights, cells, ncells, piece, edges, nedges, corners, ncorners,
                   bb_word, bb_mask, pstart, board, forb, forbb, att, used, cand, ncand, meta,
                   near, rng)
        moves_out[n] = q
        colours_out[n] = c
        n += 1
        k_play(G, board, forb, forbb, att, used, cand, ncand,
               meta, q)
    return n


@njit(cache=True)
def k_playout_copy(G, board, forb, forbb, att, used, cand, ncand, meta, policy, weights, rng,
                   moves_out, colours_out, scores_out):
    """:func:`k_playout` on a copy (allocated here); the state is not changed. The final
    scores of colours 0 and 1 go to ``scores_out``. Returns the number of moves played."""
    board2 = np.empty_like(board)
    forb2 = np.empty_like(forb)
    forbb2 = np.empty_like(forbb)
    att2 = np.empty_like(att)
    used2 = np.empty_like(used)
    cand2 = np.empty_like(cand)
    ncand2 = np.empty_like(ncand)
    meta2 = np.empty_like(meta)
    near = np.zeros(board.shape[0], dtype=np.uint8)
    k_copy_state(G[20], board, forb, forbb, att, used, cand, ncand, meta, board2, forb2,
                 forbb2, att2, used2, cand2, ncand2, meta2)
    n = k_playout(G, board2, forb2, forbb2, att2, used2, cand2, ncand2, meta2, policy, weights,
                  rng, moves_out, colours_out, near)
    scores_out[0] = k_score(meta2, 0)
    scores_out[1] = k_score(meta2, 1)
    return n


@hot()
def k_playout_batch(G, board, forb, forbb, att, used, cand, ncand, meta, board2, forb2, forbb2,
                    att2, used2, cand2, ncand2, meta2, near, first_moves, colour, policy,
                    weights, rng, out_returns, out_scores):
    """For each ``first_moves[i]``: copy the state into the scratch arrays, play that move (a
    placement or -1), play out to the end; write colour ``colour``'s return (1 win, 0.5 draw,
    0 loss, or the blend of :func:`k_reward`) and its score difference (own - opponent). The
    root state is not changed."""
    (cells, ncells, piece, corners, ncorners, edges, nedges, bcp_start, bcp, bcp_mask, diamond,
     bb_word, bb_mask, eb_word, eb_mask, bcpp_start, bcpp, bcpp_mask, bcpp_piece, diamond_nbr,
     pstart, diamond_word, diamond_bit, diamond_index, bcpp_pat, bcpp_ent) = G
    for b in range(first_moves.shape[0]):
        k_copy_state(pstart, board, forb, forbb, att, used, cand, ncand, meta,
                     board2, forb2, forbb2, att2, used2, cand2, ncand2, meta2)
        if meta2[M_OVER] == 0:
            k_play(G, board2, forb2, forbb2, att2, used2, cand2,
                   ncand2, meta2, first_moves[b])
        while meta2[M_OVER] == 0:
            c = meta2[M_TO_MOVE]
            q = k_pick(c, policy, weights, cells, ncells, piece, edges, nedges, corners,
                       ncorners, bb_word, bb_mask, pstart, board2, forb2, forbb2, att2, used2,
                       cand2, ncand2, meta2, near, rng)
            k_play(G, board2, forb2, forbb2, att2, used2, cand2,
                   ncand2, meta2, q)
        d = k_score(meta2, colour) - k_score(meta2, 1 - colour)
        out_scores[b] = d
        out_returns[b] = k_reward(d, weights[W_REWARD], weights[W_REWARD_SCALE])


@lru_cache(maxsize=64)
def playout_params(config: BlokusConfig) -> tuple[int, FloatArray]:
    """(policy code, parameters) of ``config``'s playouts for the kernels: the weights of
    :func:`k_weight` (``W_*``), the reward's (``W_REWARD*``) and the learned policy's
    strengths (from ``W_LEARNED``, zero unless it is the policy). Shared: do not modify."""
    w = np.zeros(POLICY_WEIGHTS + PF_FEATURES)
    w[1:6] = config.size_weights
    w[W_NEAR] = config.near_factor
    w[W_FAR] = config.far_factor
    w[1:6] /= w[1:6].max()  # all weights in (0, 1] for rejection sampling
    w[6:8] /= max(w[6], w[7])
    w[W_GAIN] = config.gain_factor
    w[W_GAIN_CAP] = config.gain_cap
    w[W_NOTAKE] = config.notake_factor
    w[W_OPEN_PIECES] = config.open_playout
    w[W_OPEN] = config.open_factor
    w[W_REWARD] = config.score_weight
    w[W_REWARD_SCALE] = config.score_scale
    w[W_SPACE] = config.space_weight
    w[W_SPACE_SCALE] = config.space_scale
    if config.playout == "learned":
        gamma = load_playout_weights(config.playout_weights).gamma
        w[W_LEARNED:] = scaled_strengths(gamma, config.playout_tau)
        w[W_CANDIDATES] = config.playout_candidates
    return POLICIES[config.playout], w
