"""The board kernels (numba): the board with incremental groups, moves and legality.

Board layout (one int32 array ``B`` of shape (NROWS, P), P = (N+2)^2, so a kernel call passes
a single array):

* ``B[COL]``   colour of each cell (EMPTY, BLACK, WHITE, BORDER)
* ``B[GID]``   for a stone, the root point of its group
* ``B[NXT]``   circular linked list of the stones of a group
* ``B[GSIZE]``, ``B[PLIB]``, ``B[LSUM]``, ``B[LSQ]`` (at the root): stones, pseudo-liberties
  (number of (stone, empty neighbour) pairs), and the sum and sum of squares of those empty
  neighbours' points. A group is in atari iff PLIB * LSQ == LSUM^2 (all pseudo-liberties are
  the same point, which is then LSUM / PLIB).
* ``B[EMP]`` / ``B[EIDX]``: the list of empty points and each point's index in it (swap-remove
  on a stone; captured stones are appended in increasing point order, so the list is a
  deterministic function of the move sequence).
* ``B[SCR]`` scratch space; ``B[META]`` scalars (size, stride, ko point, colour to play, last
  two moves, consecutive passes, moves played, captures, length of the atari list).
* ``B[ATL]`` the atari list: roots of groups that may be in atari. A group only comes into
  atari when a stone is played next to it, so ``k_play`` appends the groups next to its move
  (and the move's own group) that it leaves in atari; entries go stale (captured, merged,
  out of atari) and are dropped when the list is read. Every group in atari is in the list,
  so "capture anywhere" skips its scan of the board when no opponent group is in atari.

The kernels index the board as ``B[COL, p]`` rather than through a row (``col = B[COL]``;
``col[p]``): a row is an array view whose reference count numba keeps with atomic operations
wherever the function also calls another kernel, which made small kernels several times
slower (the playout kernel runs about 12 % faster without them).

For the same reason the small kernels that allocate nothing, and call nothing that does, are
compiled without numba's reference counting (:func:`leaf_kernel`), here and in the playout
policy's kernels (:mod:`knowledge.go.playout`, ``tactics``, ``patterns``, ``lgrf``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numba import njit

from games.go.coords import BLACK, BORDER, EMPTY, PASS, WHITE

COL, GID, NXT, GSIZE, PLIB, LSUM, LSQ, EMP, EIDX, SCR, META, ATL = range(12)


_F = TypeVar("_F", bound=Callable[..., Any])


def leaf_kernel(f: _F) -> _F:
    """``njit(cache=True)`` without numba's reference counting (its undocumented
    ``_nrt=False`` option), for a small kernel that allocates no array and calls nothing that
    does (numba refuses to compile an allocation there). Numba otherwise increments and
    decrements, atomically, the count of every array a kernel is passed, on each call (its
    pruning pass leaves them in kernels that branch or loop). The playout policy's rules make
    tens of such calls a move: policy 6's playouts run about 18 % faster without them, the
    engine's search about 9 % (docs/results/go.md, Speed). The compiled code is otherwise the
    same. (:mod:`clients.jitcache` finds the modules that cache kernels by the
    text ``cache=True``: a module of leaf kernels only must still contain it.)"""
    return njit(cache=True, _nrt=False)(f)  # type: ignore[call-overload,no-any-return]


NROWS = 12


(M_SIZE, M_W, M_NEMPTY, M_KO, M_TOPLAY, M_LAST, M_LAST2, M_PASSES, M_NMOVES, M_CAPB,
 M_CAPW, M_NATL) = range(12)


def new_board(size: int) -> np.ndarray:
    """An empty board of ``size`` with black to play."""
    w = size + 2
    p = w * w
    b = np.zeros((NROWS, p), dtype=np.int32)
    b[COL, :] = BORDER
    n = 0
    for r in range(size):
        for c in range(size):
            pt = (r + 1) * w + c + 1
            b[COL, pt] = EMPTY
            b[EMP, n] = pt
            b[EIDX, pt] = n
            n += 1
    m = b[META]
    m[M_SIZE] = size
    m[M_W] = w
    m[M_NEMPTY] = n
    m[M_KO] = 0
    m[M_TOPLAY] = BLACK
    m[M_LAST] = PASS
    m[M_LAST2] = PASS
    return b


@leaf_kernel
def in_atari(B: np.ndarray, g: int) -> bool:
    pl = np.int64(B[PLIB, g])
    return bool(pl * np.int64(B[LSQ, g]) == np.int64(B[LSUM, g]) * np.int64(B[LSUM, g]))


@leaf_kernel
def atari_lib(B: np.ndarray, g: int) -> int:
    return int(B[LSUM, g] // B[PLIB, g])


@leaf_kernel
def _remove_empty(B: np.ndarray, p: int) -> None:
    i = B[EIDX, p]
    last = B[EMP, B[META, M_NEMPTY] - 1]
    B[EMP, i] = last
    B[EIDX, last] = i
    B[META, M_NEMPTY] -= 1


@leaf_kernel
def _add_empty(B: np.ndarray, p: int) -> None:
    n = B[META, M_NEMPTY]
    B[EMP, n] = p
    B[EIDX, p] = n
    B[META, M_NEMPTY] = n + 1


@leaf_kernel
def _merge(B: np.ndarray, a: int, b: int) -> None:
    """Merge group b into group a (both roots)."""
    s = b
    while True:
        B[GID, s] = a
        s = B[NXT, s]
        if s == b:
            break
    na = B[NXT, a]
    B[NXT, a] = B[NXT, b]
    B[NXT, b] = na
    B[GSIZE, a] += B[GSIZE, b]
    B[PLIB, a] += B[PLIB, b]
    B[LSUM, a] += B[LSUM, b]
    B[LSQ, a] += B[LSQ, b]


@leaf_kernel
def _capture(B: np.ndarray, g: int) -> int:
    w = B[META, M_W]
    k = 0
    s = g
    while True:
        B[SCR, k] = s
        k += 1
        s = B[NXT, s]
        if s == g:
            break
    for i in range(k):
        B[COL, B[SCR, i]] = EMPTY
        B[GID, B[SCR, i]] = 0
    # insertion sort: captured stones re-enter the empty list in increasing order
    for i in range(1, k):
        v = B[SCR, i]
        j = i - 1
        while j >= 0 and B[SCR, j] > v:
            B[SCR, j + 1] = B[SCR, j]
            j -= 1
        B[SCR, j + 1] = v
    for i in range(k):
        s = B[SCR, i]
        _add_empty(B, s)
        for n in (s + 1, s - 1, s + w, s - w):
            cn = B[COL, n]
            if cn == BLACK or cn == WHITE:
                h = B[GID, n]
                B[PLIB, h] += 1
                B[LSUM, h] += s
                B[LSQ, h] += s * s
    return k


@leaf_kernel
def k_play(B: np.ndarray, p: int, c: int) -> int:
    """Play colour c at p (PASS allowed), which the caller has checked is legal. Returns the
    number of stones captured. Sets the simple-ko point, the colour to play and last moves."""
    B[META, M_LAST2] = B[META, M_LAST]
    B[META, M_LAST] = p
    B[META, M_TOPLAY] = 3 - c
    B[META, M_NMOVES] += 1
    B[META, M_KO] = 0
    if p == PASS:
        B[META, M_PASSES] += 1
        return 0
    B[META, M_PASSES] = 0
    w = B[META, M_W]
    o = 3 - c
    _remove_empty(B, p)
    B[COL, p] = c
    B[GID, p] = p
    B[NXT, p] = p
    B[GSIZE, p] = 1
    B[PLIB, p] = 0
    B[LSUM, p] = 0
    B[LSQ, p] = 0
    for n in (p + 1, p - 1, p + w, p - w):
        cn = B[COL, n]
        if cn == EMPTY:
            B[PLIB, p] += 1
            B[LSUM, p] += n
            B[LSQ, p] += n * n
        elif cn == BLACK or cn == WHITE:
            g = B[GID, n]
            B[PLIB, g] -= 1
            B[LSUM, g] -= p
            B[LSQ, g] -= p * p
    for n in (p + 1, p - 1, p + w, p - w):
        if B[COL, n] == c:
            g = B[GID, n]
            r = B[GID, p]
            if g != r:
                if B[GSIZE, g] >= B[GSIZE, r]:
                    _merge(B, g, r)
                else:
                    _merge(B, r, g)
    captured = 0
    ko = 0
    for n in (p + 1, p - 1, p + w, p - w):
        if B[COL, n] == o and B[PLIB, B[GID, n]] == 0:
            captured += _capture(B, B[GID, n])
            ko = n
    if c == BLACK:
        B[META, M_CAPB] += captured
    else:
        B[META, M_CAPW] += captured
    r = B[GID, p]
    if captured == 1 and B[GSIZE, r] == 1 and B[PLIB, r] == 1:
        B[META, M_KO] = ko
    # (a group in atari has at most 4 pseudo-liberties: its one liberty, counted once per
    # stone next to it)
    if B[PLIB, r] <= 4 and in_atari(B, r):
        _push_atari(B, r)
    for n in (p + 1, p - 1, p + w, p - w):
        if B[COL, n] == o and B[PLIB, B[GID, n]] <= 4 and in_atari(B, B[GID, n]):
            _push_atari(B, B[GID, n])
    return captured


@leaf_kernel
def _push_atari(B: np.ndarray, g: int) -> None:
    k = B[META, M_NATL]
    if k == B.shape[1]:
        k = _compact_atari(B)  # one entry per group in atari remains: never full again
    B[ATL, k] = g
    B[META, M_NATL] = k + 1


@leaf_kernel
def _compact_atari(B: np.ndarray) -> int:
    """Drop the stale entries of the atari list; returns its new length."""
    k = 0
    for i in range(B[META, M_NATL]):
        g = B[ATL, i]
        if (B[COL, g] == BLACK or B[COL, g] == WHITE) and B[GID, g] == g and in_atari(B, g):
            dup = False
            for j in range(k):
                if B[ATL, j] == g:
                    dup = True
                    break
            if not dup:
                B[ATL, k] = g
                k += 1
    B[META, M_NATL] = k
    return k


@leaf_kernel
def k_atari_groups(B: np.ndarray, c: int) -> int:
    """The number of groups of colour c in atari (compacts the atari list)."""
    k = _compact_atari(B)
    total = 0
    for i in range(k):
        if B[COL, B[ATL, i]] == c:
            total += 1
    return total


@njit(cache=True)
def k_place(B: np.ndarray, p: int, c: int) -> None:
    """Put a setup stone (handicap, SGF AB/AW) of colour c on the empty point p: like a move
    but without changing the colour to play, the move counters or the ko point."""
    m = B[META]
    saved = m.copy()
    k_play(B, p, c)
    for i in (M_TOPLAY, M_LAST, M_LAST2, M_PASSES, M_NMOVES, M_KO):
        m[i] = saved[i]


@leaf_kernel
def k_legal_noko(B: np.ndarray, p: int, c: int) -> bool:
    """Is p (a point, not PASS) empty and not suicide for c? Ignores ko."""
    if B[COL, p] != EMPTY:
        return False
    w = B[META, M_W]
    for n in (p + 1, p - 1, p + w, p - w):
        if B[COL, n] == EMPTY:
            return True
    for n in (p + 1, p - 1, p + w, p - w):
        cn = B[COL, n]
        if cn == c:
            if not in_atari(B, B[GID, n]):
                return True
        elif cn == 3 - c:
            if in_atari(B, B[GID, n]):
                return True
    return False


@leaf_kernel
def k_legal(B: np.ndarray, p: int, c: int) -> bool:
    """Legal with simple ko (the playout rule)."""
    if p == B[META, M_KO]:
        return False
    return k_legal_noko(B, p, c)


@leaf_kernel
def k_is_eye(B: np.ndarray, p: int, c: int) -> bool:
    """Is the empty point p a true eye of c (all 4 neighbours c or border; of the diagonal
    points at most one is the opponent's, none on the edge)?"""
    w = B[META, M_W]
    for n in (p + 1, p - 1, p + w, p - w):
        cn = B[COL, n]
        if cn != c and cn != BORDER:
            return False
    bad = 0
    edge = False
    for d in range(4):
        q = p + ((w + 1) if d == 0 else (w - 1) if d == 1 else (1 - w) if d == 2 else (-1 - w))
        cq = B[COL, q]
        if cq == BORDER:
            edge = True
        elif cq == 3 - c:
            bad += 1
    if edge:
        return bad == 0
    return bad < 2


@leaf_kernel
def groups_next_to(B: np.ndarray, p: int, c: int, atari_only: bool
                    ) -> tuple[int, int, int, int]:
    """The roots of the distinct groups of colour c next to the point p (only those in atari
    if ``atari_only``), in neighbour order; -1 fills the rest."""
    w = B[META, M_W]
    g0 = -1
    g1 = -1
    g2 = -1
    g3 = -1
    for n in (p + 1, p - 1, p + w, p - w):
        if B[COL, n] != c:
            continue
        g = B[GID, n]
        if g == g0 or g == g1 or g == g2 or (atari_only and not in_atari(B, g)):
            continue
        if g0 < 0:
            g0 = g
        elif g1 < 0:
            g1 = g
        elif g2 < 0:
            g2 = g
        else:
            g3 = g
    return g0, g1, g2, g3


@njit(cache=True)
def k_legal_mask(B: np.ndarray, c: int, use_ko: bool, skip_eyes: bool,
                 out: np.ndarray) -> int:
    """Writes into ``out`` the points where c may play (simple ko if ``use_ko``), skipping
    c's own true eyes if ``skip_eyes``; returns how many."""
    col = B[COL]
    k = 0
    for p in range(col.shape[0]):
        if col[p] != EMPTY:
            continue
        if use_ko:
            if not k_legal(B, p, c):
                continue
        elif not k_legal_noko(B, p, c):
            continue
        if skip_eyes and k_is_eye(B, p, c):
            continue
        out[k] = p
        k += 1
    return k


@leaf_kernel
def group_libs(B: np.ndarray, g: int) -> tuple[int, int, int]:
    """(number of distinct liberties of the group at root g, capped at 3; the smallest two
    of them when there are at most two)."""
    if B[PLIB, g] > 8:
        return 3, -1, -1  # each liberty is counted at most 4 times: three or more
    w = B[META, M_W]
    l1 = -1
    l2 = -1
    s = g
    while True:
        for q in (s + 1, s - 1, s + w, s - w):
            if B[COL, q] == EMPTY and q != l1 and q != l2:
                if l1 < 0:
                    l1 = q
                elif l2 < 0:
                    l2 = q
                else:
                    return 3, -1, -1
        s = B[NXT, s]
        if s == g:
            break
    if l1 < 0:
        return 0, -1, -1
    if l2 < 0:
        return 1, l1, -1
    return 2, min(l1, l2), max(l1, l2)


@leaf_kernel
def touches(B: np.ndarray, g: int, q: int) -> bool:
    """Is the point q next to a stone of the group at root g?"""
    w = B[META, M_W]
    s = g
    while True:
        if q == s + 1 or q == s - 1 or q == s + w or q == s - w:
            return True
        s = B[NXT, s]
        if s == g:
            break
    return False
