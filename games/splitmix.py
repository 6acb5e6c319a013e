"""splitmix64 in numba: the random stream the games' kernels and the compiled search share.

The state is one uint64 word in an array of length 1 (so kernels advance it in place). The
compiled UCT (``search.ctree``) hands its own stream to a game's ``playout`` kernel; a game
draws from it with :func:`rng_next`, the same generator as ``search.ctree.rng_next`` (the
two copies are the contract: ``search`` imports no game)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def rng_next(s: Any) -> Any:
    """splitmix64: advance the one-word state ``s[0]`` and return 64 random bits."""
    s[0] += _GOLDEN
    z = s[0]
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))
