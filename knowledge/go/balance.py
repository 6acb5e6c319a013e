"""Playouts of the learned policy (policy 3) that also return Σ_t ∇log π, for simulation
balancing (Silver and Tesauro 2009, :func:`search.learn.simulation_balancing`).

The policy's parameters θ are the logarithms of its strengths: one per pattern and per level
of :func:`knowledge.go.playout.playout_levels` that the weights list, and one for the far moves.
``pidx`` (int32[2^20], by raw pattern code) and ``lidx`` (int32 (NG + 1, MAXLEVEL + 1), by
group and level; ``lidx[NG, 0]`` the far moves) give each its index in θ (-1: not a
parameter). Only the local draws of policy 3 are decisions of π (the atari rules, capture
anywhere and the random step are fixed): at each, with candidates b of strength γ_b and the
far moves as one more candidate, ∇log π(a) = φ(a) − Σ_b π(b) φ(b).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go import board as K
from games.go.coords import BLACK, PASS
from games.go.scoring import k_area
from knowledge.go.playout import (
    atari_rules,
    capture_or_random,
    draw_local,
    local_candidates,
    playout_levels,
)
from knowledge.go.tactics import (
    G_ATARI,
    G_CAPTURE,
    G_DIST,
    G_DIST2,
    G_ESCAPE,
    G_EYE,
    G_LINE,
    G_SELF_ATARI,
    NG,
)


@njit(cache=True)
def _feature_ids(B: np.ndarray, p: int, c: int, pidx: np.ndarray, lidx: np.ndarray,
                 out: np.ndarray) -> int:
    code, cap, esc, at, sa, d1, d2, line, eye = playout_levels(B, p, c)
    n = 0
    if pidx[code] >= 0:
        out[n] = pidx[code]
        n += 1
    for g, lv in ((G_CAPTURE, cap), (G_ESCAPE, esc), (G_ATARI, at),
                  (G_SELF_ATARI, sa), (G_DIST, d1), (G_DIST2, d2), (G_LINE, line),
                  (G_EYE, eye)):
        if lv > 0 and lidx[g, lv] >= 0:
            out[n] = lidx[g, lv]
            n += 1
    return n


@njit(cache=True)
def k_balance_playouts(B0: np.ndarray, seed: np.uint64, n: int, ptab: np.ndarray,
                       plv: np.ndarray, pidx: np.ndarray, lidx: np.ndarray, sa_min: int,
                       max_moves: int, komi: float, colour: int, z: np.ndarray,
                       grads: np.ndarray, steps: np.ndarray) -> np.uint64:
    """n playouts of policy 3 from B0 (not modified): ``z[i]`` the result for ``colour``
    (1 win, 0.5 jigo, 0 loss at ``komi``), ``grads[i]`` (zeroed here) Σ_t ∇log π over the
    local draws, ``steps[i]`` their number. Returns the rng state. Draw for draw the
    playouts of :func:`knowledge.go.playout.k_playout` with policy 3."""
    B = B0.copy()
    P = B0.shape[1]
    buf = np.empty(4 * P + 8, dtype=np.int32)
    gam = np.empty(16)
    ids = np.empty(16, dtype=np.int64)
    owner = np.empty(P, dtype=np.int32)
    far_id = lidx[NG, 0]
    s = seed
    for i in range(n):
        B[:, :] = B0
        m = B[K.META]
        g = grads[i]
        g[:] = 0.0
        t = 0
        nm = 0
        while m[K.M_PASSES] < 2 and nm < max_moves:
            c = m[K.M_TOPLAY]
            q = PASS
            if m[K.M_LAST] != PASS:
                q, s = atari_rules(B, c, s, buf, True)
            if q == PASS:
                k, total, far = local_candidates(B, c, buf, ptab, plv, gam)
                j, s = draw_local(s, k, total, far, gam)
                if total > 0.0:  # a decision of the policy
                    zsum = total + far
                    for b in range(k):
                        for r in range(_feature_ids(B, buf[b], c, pidx, lidx, ids)):
                            g[ids[r]] -= gam[b] / zsum
                    if far_id >= 0:
                        g[far_id] -= far / zsum
                    if j >= 0:
                        for r in range(_feature_ids(B, buf[j], c, pidx, lidx, ids)):
                            g[ids[r]] += 1.0
                    elif far_id >= 0:
                        g[far_id] += 1.0
                    t += 1
                if j >= 0:
                    q = buf[j]
                else:
                    q, s = capture_or_random(B, c, s, 3, sa_min)
            K.k_play(B, q, c)
            nm += 1
        score = k_area(B, owner) - komi
        if score == 0:
            z[i] = 0.5
        else:
            z[i] = 1.0 if (score > 0) == (colour == BLACK) else 0.0
        steps[i] = t
    return s
