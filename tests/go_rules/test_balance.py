"""The simulation-balancing playouts of policy 3 (knowledge.go.balance): the same playouts as
the playout kernel, and a score function Σ ∇log π with mean zero."""

from __future__ import annotations

import numpy as np

from games.go import GoState
from knowledge.go.balance import k_balance_playouts
from knowledge.go.patterns import canonical20, pattern_table
from knowledge.go.playout import k_playout, no_replies
from knowledge.go.tactics import NG
from knowledge.go.weights import MAXLEVEL, FeatureGammas
from training.go.balance import PolicyParameters


def random_playout_weights(seed: int) -> FeatureGammas:
    rng = np.random.default_rng(seed)
    canon = canonical20()
    codes = np.unique(canon[canon >= 0])[::5].astype(np.int32)
    levels = np.exp(rng.normal(0.0, 0.7, (NG, MAXLEVEL + 1)))
    levels[:, 0] = 1.0
    return FeatureGammas(levels, codes, np.exp(rng.normal(0.0, 1.0, len(codes))),
                         np.array([0.4]))


def test_balance_playouts_are_policy_3_playouts_with_a_centred_score_function() -> None:
    pp = PolicyParameters(random_playout_weights(1))
    ptab, plv = pp.tables(pp.theta0)
    s = GoState(7, 7.0)
    for v in (24, 25, 32, 33):
        s.play(v)
    P = s._b.shape[1]
    cap = 3 * 49
    d = len(pp.theta0)
    for seed in range(1, 6):
        z, g, st = np.empty(1), np.empty((1, d)), np.empty(1)
        k_balance_playouts(s._b, np.uint64(seed), 1, ptab, plv, pp.pidx, pp.lidx, 2, cap,
                           7.0, 1, z, g, st)
        sc, _, _ = k_playout(s._b.copy(), np.uint64(seed), 3, pattern_table(), ptab, plv, 2,
                             cap, np.empty(cap + 1, dtype=np.int32),
                             np.empty(P, dtype=np.int32), np.empty(4 * P + 8, dtype=np.int32),
                             no_replies(), 0, 0.0)
        assert z[0] == (1.0 if sc > 7.0 else 0.0) and st[0] > 5
    n = 800
    z, g, st = np.empty(n), np.empty((n, d)), np.empty(n)
    k_balance_playouts(s._b, np.uint64(9), n, ptab, plv, pp.pidx, pp.lidx, 2, cap, 7.0, 2, z,
                       g, st)
    frequent = (g > 0.5).sum(axis=0) >= 40  # chosen often enough for a normal t-statistic
    assert frequent.sum() >= 15
    t = g.mean(axis=0)[frequent] / (g.std(axis=0)[frequent] / np.sqrt(n))
    assert np.max(np.abs(t)) < 4.5, t
