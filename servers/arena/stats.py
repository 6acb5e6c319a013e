"""Summary statistics for arena reports."""

from __future__ import annotations

import math
from collections.abc import Sequence


def mean_ci95(xs: Sequence[float], lo: float, hi: float) -> tuple[float, tuple[float, float]]:
    """Mean and the normal-approximation 95% confidence interval of the mean,
    ``mean ± 1.96 s / sqrt(n)`` (sample standard deviation s), clipped to the possible range
    [lo, hi]. With fewer than two samples the interval is the whole range."""
    n = len(xs)
    if n == 0:
        return (math.nan, (lo, hi))
    m = sum(xs) / n
    if n < 2:
        return (m, (lo, hi))
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (m, (max(lo, m - half), min(hi, m + half)))


def batch_mean_ci95(runs: Sequence[Sequence[float]], block: int, lo: float, hi: float
                    ) -> tuple[float, tuple[float, float]]:
    """Mean and 95% interval of the mean over ``runs`` of consecutive, possibly correlated
    values (the games of a match: in Daihinmin the ranks, and so the exchange, carry over
    from game to game), by batch means: each run is cut into blocks of ``block`` values (the
    last block of a run may be shorter) and the variance of the mean is estimated from the
    block means, weighted by their sizes: B/(B-1) * sum (n_b/N)^2 (m_b - m)^2 for B blocks of
    N values in all. ``block=1`` is :func:`mean_ci95`. Fewer than two blocks: the whole
    range."""
    if block < 1:
        raise ValueError(f"block={block}: must be >= 1")
    blocks = [list(r[i:i + block]) for r in runs for i in range(0, len(r), block)]
    n = sum(len(b) for b in blocks)
    if n == 0:
        return (math.nan, (lo, hi))
    m = sum(sum(b) for b in blocks) / n
    k = len(blocks)
    if k < 2:
        return (m, (lo, hi))
    var = k / (k - 1) * sum((len(b) / n) ** 2 * (sum(b) / len(b) - m) ** 2 for b in blocks)
    half = 1.96 * math.sqrt(var)
    return (m, (max(lo, m - half), min(hi, m + half)))


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a proportion (draws count as half a success)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)
