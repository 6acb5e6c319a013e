"""Bandit index policies over vectors of arm statistics (algorithms.md §1).

Arms are arrays: ``n`` pulls, ``s`` sum of rewards, ``s2`` sum of squared rewards. Rewards
lie in [0, 1]. Unpulled arms get +inf so every arm is pulled once first.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Arr = npt.NDArray[np.float64]


def ucb1(n: Arr, s: Arr, total: float, c: float = np.sqrt(2.0)) -> Arr:
    """UCB1: mean + c sqrt(ln N / n_i)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        score = s / n + c * np.sqrt(np.log(max(total, 1.0)) / n)
    return np.where(n > 0, score, np.inf)


def ucb1_tuned(n: Arr, s: Arr, s2: Arr, total: float) -> Arr:
    """UCB1-TUNED: mean + sqrt((ln N / n_i) min(1/4, V_i)),
    V_i = s2_i/n_i - mean_i^2 + sqrt(2 ln N / n_i)."""
    logn = np.log(max(total, 1.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = s / n
        var = s2 / n - mean * mean + np.sqrt(2.0 * logn / n)
        score = mean + np.sqrt(logn / n * np.minimum(0.25, var))
    return np.where(n > 0, score, np.inf)


def argmax_random_tie(scores: Arr, rng: np.random.Generator) -> int:
    """Index of the maximum, ties broken uniformly at random."""
    best = np.flatnonzero(scores == scores.max())
    return int(best[0] if len(best) == 1 else rng.choice(best))
