"""Summary statistics for arena reports."""

from __future__ import annotations

import math
from collections.abc import Sequence


def mean_ci95(xs: Sequence[float], lo: float, hi: float) -> tuple[float, tuple[float, float]]:
    """Mean and the normal-approximation 95% confidence interval of the mean,
    ``mean ± 1.96 s / sqrt(n)`` (sample standard deviation s). With fewer than two samples
    the interval is the whole range [lo, hi]."""
    n = len(xs)
    if n == 0:
        return (math.nan, (lo, hi))
    m = sum(xs) / n
    if n < 2:
        return (m, (lo, hi))
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (m, (m - half, m + half))
