"""TD-style α discounting of intermediate rewards (Konuma, Honda, Hoki and Nishino, the
client "Crow").

V(0) = r_0, V(t) = (1-α) V(t-1) + α r_t, V = V(N-1); equivalently V = Σ ω_t r_t with
ω_0 = (1-α)^{N-1} and ω_t = α (1-α)^{N-1-t} for t > 0. α = 1 gives V = r_{N-1} = R.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def discounted_value(evals: npt.ArrayLike, final: float, alpha: float) -> float:
    """The α-discounted value of one playout: ``evals`` are r_0..r_{N-2}, ``final`` is R."""
    if alpha == 1.0:
        return float(final)
    r = np.asarray(evals, dtype=np.float64)
    v = float(r[0]) if len(r) else float(final)
    for x in r[1:]:
        v = (1.0 - alpha) * v + alpha * float(x)
    if len(r):
        v = (1.0 - alpha) * v + alpha * float(final)
    return v


def weights(n: int, alpha: float) -> npt.NDArray[np.float64]:
    """The closed-form weights ω_0..ω_{n-1} (they sum to 1)."""
    if n < 1:
        raise ValueError("n must be >= 1")
    t = np.arange(n)
    w = (alpha * (1.0 - alpha) ** (n - 1 - t)).astype(np.float64)
    w[0] = (1.0 - alpha) ** (n - 1)
    return w
