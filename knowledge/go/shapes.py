"""Local shape features of a position for a learned value (RLGO: Silver, Sutton and Müller,
"Reinforcement Learning of Local Shape in the Game of Go", 2007).

The features of a position seen by colour c count its local shapes, the stones being c's
(1) or the opponent's (2) and empty points 0:

* 1x1, by location: a stone of c or of the opponent on each class of point (the point's
  two distances to the edge, each capped at 5, unordered: 15 classes), 30 features;
* 2x2 and 3x3, anywhere: every window of that size on the board, by its shape up to the 8
  symmetries of the square (windows without a stone are not counted).

:func:`k_shape_counts` fills the counts; :func:`k_afterstate_values` gives φ(s∘a)ᵀθ for
candidate moves a of c (the position after the move, captures included, seen by c): the
value Q(s, a) = σ(φᵀθ) of TD(0) (:func:`search.learn.td0_selfplay`) and of the priors.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from games.go import board as K
from games.go.coords import BLACK, WHITE

N_POINT = 30  # 15 point classes x (own, opponent)


def _symmetric_ids(n: int) -> np.ndarray:
    """Ids of the n x n shapes (base-3 codes, row-major) up to the 8 symmetries: -1 for the
    empty shape, else 0.. in the order of the least code of each class."""
    codes = np.arange(3 ** (n * n))
    cells = np.stack([(codes // 3 ** i) % 3 for i in range(n * n)], axis=1).reshape(-1, n, n)
    best = codes.copy()
    g = cells
    for t in range(8):
        g = np.rot90(cells, k=t % 4, axes=(1, 2))
        if t >= 4:
            g = g[:, :, ::-1]
        flat = g.reshape(len(codes), -1)
        best = np.minimum(best, flat @ (3 ** np.arange(n * n)))
    uniq, ids = np.unique(best, return_inverse=True)
    ids = ids.astype(np.int32)
    ids[best == 0] = -1
    ids[best != 0] -= 1  # the empty shape's class (code 0) is first
    return ids


@functools.lru_cache(maxsize=1)
def shape_tables() -> tuple[np.ndarray, np.ndarray]:
    """(ids of the 2x2 shapes, ids of the 3x3 shapes), offset to their place in the feature
    vector (after the 1x1 features and, for 3x3, the 2x2 ones). Read-only."""
    two = _symmetric_ids(2)
    three = _symmetric_ids(3)
    n2 = int(two.max()) + 1
    two = np.where(two >= 0, two + N_POINT, -1).astype(np.int32)
    three = np.where(three >= 0, three + N_POINT + n2, -1).astype(np.int32)
    for a in (two, three):
        a.setflags(write=False)
    return two, three


def n_shape_features() -> int:
    two, three = shape_tables()
    return int(three.max()) + 1


@njit(cache=True)
def _rel(v: int, c: int) -> int:
    if v == BLACK or v == WHITE:
        return 1 if v == c else 2
    return 0


@njit(cache=True)
def k_shape_counts(B: np.ndarray, c: int, two: np.ndarray, three: np.ndarray,
                   out: np.ndarray) -> None:
    """``out`` (zeroed here) = the shape counts of B seen by c (module docstring)."""
    col = B[K.COL]
    w = B[K.META, K.M_W]
    n = B[K.META, K.M_SIZE]
    out[:] = 0.0
    for r in range(n):
        for cc in range(n):
            v = _rel(col[(r + 1) * w + cc + 1], c)
            if v != 0:
                a = min(min(r, n - 1 - r), 4)
                b = min(min(cc, n - 1 - cc), 4)
                lo = min(a, b)
                hi = max(a, b)
                cls = hi * (hi + 1) // 2 + lo
                out[2 * cls + v - 1] += 1.0
    for r in range(n - 1):
        for cc in range(n - 1):
            code = 0
            mul = 1
            for dr in range(2):
                for dc in range(2):
                    code += mul * _rel(col[(r + dr + 1) * w + cc + dc + 1], c)
                    mul *= 3
            if two[code] >= 0:
                out[two[code]] += 1.0
    for r in range(n - 2):
        for cc in range(n - 2):
            code = 0
            mul = 1
            for dr in range(3):
                for dc in range(3):
                    code += mul * _rel(col[(r + dr + 1) * w + cc + dc + 1], c)
                    mul *= 3
            if three[code] >= 0:
                out[three[code]] += 1.0


@njit(cache=True)
def _dot(phi: np.ndarray, theta: np.ndarray) -> float:
    v = 0.0
    for j in range(phi.shape[0]):
        if phi[j] != 0.0:
            v += phi[j] * theta[j]
    return v


@njit(cache=True)
def _windows_at(B: np.ndarray, c: int, p: int, two: np.ndarray, three: np.ndarray,
                theta: np.ndarray) -> float:
    """Σθ of the features that involve the point p: its 1x1 feature and every 2x2 and 3x3
    window containing it."""
    col = B[K.COL]
    w = B[K.META, K.M_W]
    n = B[K.META, K.M_SIZE]
    r0 = p // w - 1
    c0 = p % w - 1
    total = 0.0
    v = _rel(col[p], c)
    if v != 0:
        a = min(min(r0, n - 1 - r0), 4)
        b = min(min(c0, n - 1 - c0), 4)
        lo = min(a, b)
        hi = max(a, b)
        total += theta[2 * (hi * (hi + 1) // 2 + lo) + v - 1]
    for size in (2, 3):
        table = two if size == 2 else three
        for r in range(max(0, r0 - size + 1), min(r0, n - size) + 1):
            for cc in range(max(0, c0 - size + 1), min(c0, n - size) + 1):
                code = 0
                mul = 1
                for dr in range(size):
                    for dc in range(size):
                        code += mul * _rel(col[(r + dr + 1) * w + cc + dc + 1], c)
                        mul *= 3
                if table[code] >= 0:
                    total += theta[table[code]]
    return total


@njit(cache=True)
def k_afterstate_values(B: np.ndarray, c: int, moves: np.ndarray, two: np.ndarray,
                        three: np.ndarray, theta: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` = φᵀθ of the position after c plays ``moves[i]`` (a legal point), seen
    by c: the position's own value plus the change of the windows around the move (all
    recounted when the move captures)."""
    phi = np.empty(theta.shape[0])
    k_shape_counts(B, c, two, three, phi)
    base = _dot(phi, theta)
    col = B[K.COL]
    B2 = B.copy()
    for i in range(moves.shape[0]):
        p = moves[i]
        if K.groups_next_to(B, p, 3 - c, True)[0] >= 0:  # a capture: count everything
            B2[:, :] = B
            K.k_play(B2, p, c)
            k_shape_counts(B2, c, two, three, phi)
            out[i] = _dot(phi, theta)
            continue
        before = _windows_at(B, c, p, two, three, theta)
        col[p] = c
        after = _windows_at(B, c, p, two, three, theta)
        col[p] = 0
        out[i] = base + after - before
