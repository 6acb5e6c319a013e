"""Bandit index policies over vectors of arm statistics (Auer, Cesa-Bianchi and Fischer 2002).

Arms are arrays: ``n`` pulls, ``s`` sum of rewards, ``s2`` sum of squared rewards. Rewards
lie in [0, 1]. Unpulled arms get +inf so every arm is pulled once first. Arms may start with
prior knowledge as pseudo-pulls (:func:`prior_arms`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

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


def prior_arms(values: Arr, counts: Arr) -> tuple[Arr, Arr, Arr]:
    """Arm statistics ``(n, s, s2)`` that start with a prior: arm i as if pulled
    ``counts[i]`` times, each pull rewarded ``values[i]`` (equivalent experience, Gelly and
    Silver 2007). Zero counts: the arms of no experience."""
    n = np.asarray(counts, dtype=np.float64).copy()
    v = np.asarray(values, dtype=np.float64)
    return n, v * n, v * v * n


@njit(cache=True)
def arm_index(n: float, s: float, s2: float, logt: float, tuned: bool, c: float) -> float:
    """One arm's index, ``logt`` = ln N: UCB1-TUNED (``tuned``; ``c`` unused) or UCB1 with
    constant ``c``; +inf for an unpulled arm."""
    if n <= 0:
        return np.inf
    mean = s / n
    if tuned:
        var = s2 / n - mean * mean + np.sqrt(2.0 * logt / n)
        return float(mean + np.sqrt(logt / n * min(0.25, var)))
    return float(mean + c * np.sqrt(logt / n))


@njit(cache=True)
def select_arms(n: Arr, s: Arr, s2: Arr, total: int, size: int, tuned: bool, c: float,
                u: Arr) -> npt.NDArray[np.int64]:
    """``size`` arms chosen one after another by UCB1-TUNED (or UCB1 with constant ``c``),
    each choice counted provisionally at the arm's current mean (0.5 if unpulled) before the
    next; ties go to a random one of the best (``u`` holds ``size`` uniforms). The kernel of
    :func:`ucb1_tuned` / :func:`ucb1`; the arrays are not modified."""
    k = len(n)
    nn = n.copy()
    ss = s.copy()
    ss2 = s2.copy()
    arms = np.empty(size, dtype=np.int64)
    scores = np.empty(k)
    for b in range(size):
        logt = np.log(max(float(total + b), 1.0))
        best = -np.inf
        n_best = 0
        for i in range(k):
            scores[i] = arm_index(nn[i], ss[i], ss2[i], logt, tuned, c)
            if scores[i] > best:
                best = scores[i]
                n_best = 1
            elif scores[i] == best:
                n_best += 1
        pick = min(int(u[b] * n_best), n_best - 1)
        a = 0
        for i in range(k):
            if scores[i] == best:
                if pick == 0:
                    a = i
                    break
                pick -= 1
        arms[b] = a
        mean = ss[a] / nn[a] if nn[a] > 0 else 0.5
        nn[a] += 1.0
        ss[a] += mean
        ss2[a] += mean * mean
    return arms


@njit(cache=True)
def discounted(evals: Arr, n: int, final: float, alpha: float) -> float:
    """The α-discounted value of one playout, ``evals[:n]`` its r_t and ``final`` its R
    (search.alpha.discounted_value, compiled)."""
    if alpha == 1.0 or n == 0:
        return final
    v = evals[0]
    for t in range(1, n):
        v = (1.0 - alpha) * v + alpha * evals[t]
    return (1.0 - alpha) * v + alpha * final  # type: ignore[no-any-return]


@njit(cache=True)
def credit_discounted(n: Arr, s: Arr, s2: Arr, arms: npt.NDArray[np.int64], finals: Arr,
                      evals: Arr, n_evals: npt.NDArray[np.int64], alpha: float) -> None:
    """Add one pull to arm ``arms[j]`` for every j (in place), valued α-discounted:
    row j of ``evals`` holds r_0..r_{n_evals[j]-1}, ``finals[j]`` is R, and V(0) = r_0,
    V(t) = (1-α) V(t-1) + α r_t, V = V(N-1) (search.alpha.discounted_value)."""
    for j in range(len(arms)):
        v = discounted(evals[j], n_evals[j], finals[j], alpha)
        a = arms[j]
        n[a] += 1.0
        s[a] += v
        s2[a] += v * v
