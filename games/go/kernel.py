"""numba kernels: the board with incremental groups, the playout policies, scoring.

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

The playout policy (``policy`` 1, "MoGo-like"), for the colour c to play, last move L:

1. If L is a point: candidates = the liberty of each c group next to L that is in atari
   (if playing there leaves it at least two liberties), the liberty of each opponent group in
   atari next to such a group (capture to escape), and the liberty of L's group if it is in
   atari (capture). Sorted, duplicates removed; if any, play one uniformly (one random draw).
2. If L is a point: candidates = the empty 8-neighbours of L where a 3x3 pattern matches
   (order NW N NE W E SW S SE). While any remain, draw one uniformly (one draw each): play
   it if it is legal, not c's true eye and not a bad self-atari, else put the last candidate
   in its place and draw again.
3. Otherwise start at a random index of the empty list (one draw) and play the first point,
   scanning cyclically, that is legal, not c's own true eye and not a bad self-atari; pass if
   there is none.

``policy`` 2 adds MoGo's "capture anywhere" between steps 2 and 3: from a random index of the
empty list (one draw), the first point scanning cyclically next to an opponent group in
atari, if legal. ``policy`` 3 ("learned") does not count an escape from atari to two
liberties that a ladder catches (:func:`ladder_attack`) in step 1, and replaces step 2 by a
draw among the empty 8-neighbours of the last two moves (legal, not c's true eye) by their
learned strengths (:func:`playout_gamma`: the product of the γ of their 3x3 pattern with
atari bits and of their capture, escape, atari, self-atari, distance, line and eye levels,
from a weights file of :mod:`knowledge.go.weights`) against all other empty points at
``plv[NG, 0]`` each (one draw); if another point is drawn, capture anywhere (as policy 2)
and step 3 follow. ``policy`` 4 is policy 2 with policy 3's ladder test in step 1: an
escape from atari that a ladder catches is not played.
``policy`` 5 is policy 2 with Fuego's low-liberty rule between steps 1 and 2 (a group of
two liberties, capturing races): if L is a point, candidates = each liberty of L's group
when it has two (an atari on the last move, if not a self-atari of c), and each liberty of a
c group next to L that has two, if playing there leaves that group three or more liberties
or captures (:func:`libs_after`). Sorted, duplicates removed; if any, play one uniformly.
``policy`` 6 is policy 5 with a nakade step between step 1 and the low-liberty rule: if L
is a point, candidates = the vital point (:func:`nakade_vital`) of each empty region next to
L that could be an eye space too small to live in, if it is legal and not a bad self-atari.
Sorted, duplicates removed; if any, play one uniformly.
``policy`` 0 ("light") is step 3 without the self-atari test. A self-atari is bad when the
group left in atari would have at least ``sa_min`` stones. Playouts use simple ko (the ko
point), end after two consecutive passes or ``max_moves`` moves, and are scored by area.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go.coords import BLACK, BORDER, EMPTY, PASS, WHITE

COL, GID, NXT, GSIZE, PLIB, LSUM, LSQ, EMP, EIDX, SCR, META, ATL = range(12)
NROWS = 12
(M_SIZE, M_W, M_NEMPTY, M_KO, M_TOPLAY, M_LAST, M_LAST2, M_PASSES, M_NMOVES, M_CAPB,
 M_CAPW, M_NATL) = range(12)

# move features (knowledge.go.features; the learned playout policy reads some of them)
NG = 12  # feature groups of knowledge.go.features (column 0 of a feature row: the pattern code)
(G_PATTERN, G_CAPTURE, G_ESCAPE, G_ATARI, G_SELF_ATARI, G_DIST, G_DIST2, G_LINE, G_EYE,
 G_EMPTY_AREA, G_PASS, G_LIBS) = range(NG)
LEVELS = (0, 4, 6, 4, 3, 10, 10, 4, 1, 4, 2, 4)  # levels per group (the pattern's are codes)
# ladder reading (knowledge.go.features): extensions and positions read before giving up
LADDER_DEPTH = 60
LADDER_NODES = 400

U11 = np.uint64(11)
U12 = np.uint64(12)
U25 = np.uint64(25)
U27 = np.uint64(27)
U33 = np.uint64(33)
UMUL = np.uint64(0x2545F4914F6CDD1D)


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


@njit(cache=True)
def rand_next(s: np.uint64) -> np.uint64:
    """xorshift64* step; the state must be non-zero."""
    s ^= s >> U12
    s ^= s << U25
    s ^= s >> U27
    return s


@njit(cache=True)
def rand_below(s: np.uint64, k: int) -> int:
    """A number in [0, k) from the state ``s`` (already advanced)."""
    return int((s * UMUL) >> U33) % k


@njit(cache=True)
def in_atari(B: np.ndarray, g: int) -> bool:
    pl = np.int64(B[PLIB, g])
    return bool(pl * np.int64(B[LSQ, g]) == np.int64(B[LSUM, g]) * np.int64(B[LSUM, g]))


@njit(cache=True)
def atari_lib(B: np.ndarray, g: int) -> int:
    return int(B[LSUM, g] // B[PLIB, g])


@njit(cache=True)
def _remove_empty(B: np.ndarray, p: int) -> None:
    m = B[META]
    i = B[EIDX, p]
    last = B[EMP, m[M_NEMPTY] - 1]
    B[EMP, i] = last
    B[EIDX, last] = i
    m[M_NEMPTY] -= 1


@njit(cache=True)
def _add_empty(B: np.ndarray, p: int) -> None:
    m = B[META]
    n = m[M_NEMPTY]
    B[EMP, n] = p
    B[EIDX, p] = n
    m[M_NEMPTY] = n + 1


@njit(cache=True)
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


@njit(cache=True)
def _capture(B: np.ndarray, g: int) -> int:
    col = B[COL]
    scr = B[SCR]
    w = B[META, M_W]
    k = 0
    s = g
    while True:
        scr[k] = s
        k += 1
        s = B[NXT, s]
        if s == g:
            break
    for i in range(k):
        col[scr[i]] = EMPTY
        B[GID, scr[i]] = 0
    # insertion sort: captured stones re-enter the empty list in increasing order
    for i in range(1, k):
        v = scr[i]
        j = i - 1
        while j >= 0 and scr[j] > v:
            scr[j + 1] = scr[j]
            j -= 1
        scr[j + 1] = v
    for i in range(k):
        s = scr[i]
        _add_empty(B, s)
        for n in (s + 1, s - 1, s + w, s - w):
            cn = col[n]
            if cn == BLACK or cn == WHITE:
                h = B[GID, n]
                B[PLIB, h] += 1
                B[LSUM, h] += s
                B[LSQ, h] += s * s
    return k


@njit(cache=True)
def k_play(B: np.ndarray, p: int, c: int) -> int:
    """Play colour c at p (PASS allowed), which the caller has checked is legal. Returns the
    number of stones captured. Sets the simple-ko point, the colour to play and last moves."""
    m = B[META]
    m[M_LAST2] = m[M_LAST]
    m[M_LAST] = p
    m[M_TOPLAY] = 3 - c
    m[M_NMOVES] += 1
    m[M_KO] = 0
    if p == PASS:
        m[M_PASSES] += 1
        return 0
    m[M_PASSES] = 0
    col = B[COL]
    w = m[M_W]
    o = 3 - c
    _remove_empty(B, p)
    col[p] = c
    B[GID, p] = p
    B[NXT, p] = p
    B[GSIZE, p] = 1
    B[PLIB, p] = 0
    B[LSUM, p] = 0
    B[LSQ, p] = 0
    for n in (p + 1, p - 1, p + w, p - w):
        cn = col[n]
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
        if col[n] == c:
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
        if col[n] == o and B[PLIB, B[GID, n]] == 0:
            captured += _capture(B, B[GID, n])
            ko = n
    if c == BLACK:
        m[M_CAPB] += captured
    else:
        m[M_CAPW] += captured
    r = B[GID, p]
    if captured == 1 and B[GSIZE, r] == 1 and B[PLIB, r] == 1:
        m[M_KO] = ko
    # (a group in atari has at most 4 pseudo-liberties: its one liberty, counted once per
    # stone next to it)
    if B[PLIB, r] <= 4 and in_atari(B, r):
        _push_atari(B, r)
    for n in (p + 1, p - 1, p + w, p - w):
        if col[n] == o and B[PLIB, B[GID, n]] <= 4 and in_atari(B, B[GID, n]):
            _push_atari(B, B[GID, n])
    return captured


@njit(cache=True)
def _push_atari(B: np.ndarray, g: int) -> None:
    m = B[META]
    lst = B[ATL]
    k = m[M_NATL]
    if k == lst.shape[0]:
        k = _compact_atari(B)  # one entry per group in atari remains: never full again
    lst[k] = g
    m[M_NATL] = k + 1


@njit(cache=True)
def _compact_atari(B: np.ndarray) -> int:
    """Drop the stale entries of the atari list; returns its new length."""
    m = B[META]
    lst = B[ATL]
    col = B[COL]
    k = 0
    for i in range(m[M_NATL]):
        g = lst[i]
        if (col[g] == BLACK or col[g] == WHITE) and B[GID, g] == g and in_atari(B, g):
            dup = False
            for j in range(k):
                if lst[j] == g:
                    dup = True
                    break
            if not dup:
                lst[k] = g
                k += 1
    m[M_NATL] = k
    return k


@njit(cache=True)
def k_atari_groups(B: np.ndarray, c: int) -> int:
    """The number of groups of colour c in atari (compacts the atari list)."""
    k = _compact_atari(B)
    lst = B[ATL]
    col = B[COL]
    total = 0
    for i in range(k):
        if col[lst[i]] == c:
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


@njit(cache=True)
def k_legal_noko(B: np.ndarray, p: int, c: int) -> bool:
    """Is p (a point, not PASS) empty and not suicide for c? Ignores ko."""
    col = B[COL]
    if col[p] != EMPTY:
        return False
    w = B[META, M_W]
    for n in (p + 1, p - 1, p + w, p - w):
        if col[n] == EMPTY:
            return True
    for n in (p + 1, p - 1, p + w, p - w):
        cn = col[n]
        if cn == c:
            if not in_atari(B, B[GID, n]):
                return True
        elif cn == 3 - c:
            if in_atari(B, B[GID, n]):
                return True
    return False


@njit(cache=True)
def k_legal(B: np.ndarray, p: int, c: int) -> bool:
    """Legal with simple ko (the playout rule)."""
    if p == B[META, M_KO]:
        return False
    return k_legal_noko(B, p, c)


@njit(cache=True)
def k_is_eye(B: np.ndarray, p: int, c: int) -> bool:
    """Is the empty point p a true eye of c (all 4 neighbours c or border; of the diagonal
    points at most one is the opponent's, none on the edge)?"""
    col = B[COL]
    w = B[META, M_W]
    for n in (p + 1, p - 1, p + w, p - w):
        cn = col[n]
        if cn != c and cn != BORDER:
            return False
    bad = 0
    edge = False
    for d in range(4):
        q = p + ((w + 1) if d == 0 else (w - 1) if d == 1 else (1 - w) if d == 2 else (-1 - w))
        cq = col[q]
        if cq == BORDER:
            edge = True
        elif cq == 3 - c:
            bad += 1
    if edge:
        return bad == 0
    return bad < 2


@njit(cache=True)
def _groups_next_to(B: np.ndarray, p: int, c: int, atari_only: bool
                    ) -> tuple[int, int, int, int]:
    """The roots of the distinct groups of colour c next to the point p (only those in atari
    if ``atari_only``), in neighbour order; -1 fills the rest."""
    col = B[COL]
    w = B[META, M_W]
    g0 = -1
    g1 = -1
    g2 = -1
    g3 = -1
    for n in (p + 1, p - 1, p + w, p - w):
        if col[n] != c:
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
def k_self_atari(B: np.ndarray, p: int, c: int) -> int:
    """If c playing at the empty point p would leave its new group with exactly one liberty
    and capture nothing, the size of that group; otherwise 0 (also for suicide: 0 libs)."""
    col = B[COL]
    w = B[META, M_W]
    l1 = -1
    nlib = 0
    for n in (p + 1, p - 1, p + w, p - w):
        cn = col[n]
        if cn == EMPTY:
            if nlib == 0:
                l1 = n
                nlib = 1
            elif n != l1:
                return 0
        elif cn == 3 - c:
            if in_atari(B, B[GID, n]):
                return 0
    size = 1
    for g in _groups_next_to(B, p, c, False):
        if g < 0:
            break
        size += B[GSIZE, g]
        if B[PLIB, g] > 8:
            return 0  # >= 3 distinct liberties (each is counted at most 4 times)
        s = g
        while True:
            for q in (s + 1, s - 1, s + w, s - w):
                if col[q] == EMPTY and q != p:
                    if nlib == 0:
                        l1 = q
                        nlib = 1
                    elif q != l1:
                        return 0
            s = B[NXT, s]
            if s == g:
                break
    if nlib == 1:
        return size
    return 0


@njit(cache=True)
def pattern_code(B: np.ndarray, p: int) -> int:
    """The 3x3 neighbourhood of p as 16 bits: 2 bits per neighbour, NW N NE W E SW S SE
    from the low bits up."""
    col = B[COL]
    w = B[META, M_W]
    return int(col[p + w - 1] | (col[p + w] << 2) | (col[p + w + 1] << 4) | (col[p - 1] << 6)
               | (col[p + 1] << 8) | (col[p - w - 1] << 10) | (col[p - w] << 12)
               | (col[p - w + 1] << 14))


@njit(cache=True)
def _pick_sorted_unique(buf: np.ndarray, k: int, s: np.uint64) -> tuple[int, np.uint64]:
    for i in range(1, k):
        v = buf[i]
        j = i - 1
        while j >= 0 and buf[j] > v:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = v
    u = 0
    for i in range(k):
        if i == 0 or buf[i] != buf[u - 1]:
            buf[u] = buf[i]
            u += 1
    s = rand_next(s)
    return buf[rand_below(s, u)], s


@njit(cache=True)
def rand_unit(s: np.uint64) -> float:
    """A float in [0, 1) from the state ``s`` (already advanced): 53 bits of s * UMUL."""
    return float((s * UMUL) >> U11) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def playout_levels(B: np.ndarray, p: int, c: int
                   ) -> tuple[int, int, int, int, int, int, int, int, int]:
    """What the learned playout policy sees of c playing the legal point p: (pattern20 code,
    then the levels of capture, escape and atari (ladders not read), self-atari, distance
    to the last and second-last move (1 and 2 only: the 8-neighbourhood), line, eye-like
    point), as in knowledge.go.features."""
    m = B[META]
    col = B[COL]
    w = m[M_W]
    cap = capture_level(B, p, c)
    esc = escape_level(B, p, c, False) if cap == 0 else 0
    d1 = distance_level(coulom_distance(B, p, m[M_LAST]))
    d2 = distance_level(coulom_distance(B, p, m[M_LAST2]))
    line = edge_line(B, p)
    eye = 1
    for n in (p + 1, p - 1, p + w, p - w):
        if col[n] != c and col[n] != BORDER:
            eye = 0
    return (pattern20(B, p, c), cap, esc, atari_level(B, p, c, False),
            min(k_self_atari(B, p, c), 3), d1 if d1 <= 2 else 0, d2 if d2 <= 2 else 0,
            line if line <= 4 else 0, eye)


@njit(cache=True)
def playout_gamma(B: np.ndarray, p: int, c: int, ptab: np.ndarray, plv: np.ndarray) -> float:
    """The learned playout policy's strength of c playing the legal point p: the product of
    ``ptab[pattern20]`` and ``plv[group, level]`` over :func:`playout_levels`."""
    code, cap, esc, at, sa, d1, d2, line, eye = playout_levels(B, p, c)
    g = np.float64(ptab[code])
    g *= plv[G_CAPTURE, cap]
    g *= plv[G_ESCAPE, esc]
    g *= plv[G_ATARI, at]
    g *= plv[G_SELF_ATARI, sa]
    g *= plv[G_DIST, d1]
    g *= plv[G_DIST2, d2]
    g *= plv[G_LINE, line]
    g *= plv[G_EYE, eye]
    return float(g)


@njit(cache=True)
def local_candidates(B: np.ndarray, c: int, buf: np.ndarray, ptab: np.ndarray,
                     plv: np.ndarray, gam: np.ndarray) -> tuple[int, float, float]:
    """Policy 3's local candidates into ``buf[:k]`` and their strengths into ``gam[:k]``: the
    empty 8-neighbours of the last move, then those of the second-last (order NW N NE W E
    SW S SE, each once), legal for c and not its true eye. Returns (k, their total
    strength, the strength of all the other empty points: ``plv[NG, 0]`` each)."""
    m = B[META]
    col = B[COL]
    w = m[M_W]
    k = 0
    total = 0.0
    for base in (m[M_LAST], m[M_LAST2]):
        if base <= 0:
            continue
        for q in (base + w - 1, base + w, base + w + 1, base - 1, base + 1, base - w - 1,
                  base - w, base - w + 1):
            if col[q] != EMPTY:
                continue
            dup = False
            for j in range(k):
                if buf[j] == q:
                    dup = True
            if dup or not k_legal(B, q, c) or k_is_eye(B, q, c):
                continue
            g = playout_gamma(B, q, c, ptab, plv)
            buf[k] = q
            gam[k] = g
            total += g
            k += 1
    return k, total, (m[M_NEMPTY] - k) * plv[NG, 0]


@njit(cache=True)
def draw_local(s: np.uint64, k: int, total: float, far: float, gam: np.ndarray
               ) -> tuple[int, np.uint64]:
    """One draw among k local candidates of strengths ``gam[:k]`` and the far moves: the
    index of the local candidate drawn, or -1 for a far move (no draw at all if the local
    strength is 0)."""
    if total <= 0.0:
        return -1, s
    s = rand_next(s)
    u = rand_unit(s) * (total + far)
    if u >= total:
        return -1, s
    acc = 0.0
    for i in range(k):
        acc += gam[i]
        if u < acc:
            return i, s
    return k - 1, s


@njit(cache=True)
def reads_ladders(policy: int) -> bool:
    """Do the policy's atari rules read ladders (policies 3 and 4)?"""
    return policy == 3 or policy == 4


@njit(cache=True)
def libs_after(B: np.ndarray, p: int, c: int) -> int:
    """The liberties of the group c would form by playing at the empty point p, capped at 3
    (3 also when the move captures: an opponent group next to p is in atari)."""
    col = B[COL]
    w = B[META, M_W]
    l1 = -1
    l2 = -1
    for n in (p + 1, p - 1, p + w, p - w):
        cn = col[n]
        if cn == EMPTY:
            if l1 < 0:
                l1 = n
            elif l2 < 0:
                l2 = n
            else:
                return 3
        elif cn == 3 - c and in_atari(B, B[GID, n]):
            return 3
    for g in _groups_next_to(B, p, c, False):
        if g < 0:
            break
        if B[PLIB, g] > 12:
            return 3  # >= 4 distinct liberties, so >= 3 besides p
        s = g
        while True:
            for q in (s + 1, s - 1, s + w, s - w):
                if col[q] == EMPTY and q != p and q != l1 and q != l2:
                    if l1 < 0:
                        l1 = q
                    elif l2 < 0:
                        l2 = q
                    else:
                        return 3
            s = B[NXT, s]
            if s == g:
                break
    return 0 if l1 < 0 else 1 if l2 < 0 else 2


@njit(cache=True)
def low_liberty_rule(B: np.ndarray, c: int, s: np.uint64, buf: np.ndarray
                     ) -> tuple[int, np.uint64]:
    """Policy 5's step between the atari rules and the patterns (module docstring): an atari
    on the last move's group of two liberties, or an extension of a group of c next to the
    last move from two liberties to three or more; PASS if there is none."""
    m = B[META]
    col = B[COL]
    last = m[M_LAST]
    k = 0
    if col[last] == 3 - c:
        n, l1, l2 = group_libs(B, B[GID, last])
        if n == 2:
            for lib in (l1, l2):
                if k_legal(B, lib, c) and k_self_atari(B, lib, c) == 0:
                    buf[k] = lib
                    k += 1
    for g in _groups_next_to(B, last, c, False):
        if g < 0:
            break
        n, l1, l2 = group_libs(B, g)
        if n != 2:
            continue
        for lib in (l1, l2):
            if k_legal(B, lib, c) and libs_after(B, lib, c) >= 3:
                buf[k] = lib
                k += 1
    if k > 0:
        return _pick_sorted_unique(buf, k, s)
    return PASS, s


@njit(cache=True)
def nakade_vital(B: np.ndarray, q: int, buf: np.ndarray) -> int:
    """The vital point of the empty region containing the empty point q when it could be an
    eye space too small to live in, else -1: the region (flood fill, ``buf[0:5]`` scratch)
    has 3 to 5 points, every stone around it is of one colour (the edge may bound it too),
    and its shape is a three (the middle point), a pyramid four (the point next to three
    others), a crossed five (the centre) or a bulky five (the point of its square next to
    the fifth point). Straight, bent and square fours and the other fives have no vital
    point here: they live, or are dead whatever is played."""
    col = B[COL]
    w = B[META, M_W]
    buf[0] = q
    k = 1
    i = 0
    around = 0  # the colour of the stones around the region (0: none seen yet)
    while i < k:
        p = buf[i]
        i += 1
        for n in (p + 1, p - 1, p + w, p - w):
            cn = col[n]
            if cn == EMPTY:
                seen = False
                for j in range(k):
                    if buf[j] == n:
                        seen = True
                        break
                if not seen:
                    if k == 5:
                        return -1
                    buf[k] = n
                    k += 1
            elif cn != BORDER:
                if around == 0:
                    around = cn
                elif cn != around:
                    return -1
    if k < 3 or around == 0:
        return -1
    edges = 0
    best = -1
    top = 0
    for a in range(k):
        d = 0
        p = buf[a]
        for b in range(k):
            n = buf[b]
            if n == p + 1 or n == p - 1 or n == p + w or n == p - w:
                d += 1
        edges += d
        if d > top:
            top = d
            best = p
    edges //= 2
    if k == 3 or (k == 4 and top == 3) or (k == 5 and (top == 4 or edges == 5)):
        return best
    return -1


@njit(cache=True)
def nakade_rule(B: np.ndarray, c: int, s: np.uint64, sa_min: int, buf: np.ndarray
                ) -> tuple[int, np.uint64]:
    """Policy 6's step after the atari rules: the vital point of an empty region next to
    the last move (:func:`nakade_vital`), if legal and not a bad self-atari (``buf[0:5]`` is
    the regions' scratch, the candidates go to ``buf[8:12]``); PASS if there is none."""
    w = B[META, M_W]
    last = B[META, M_LAST]
    col = B[COL]
    k = 0
    for n in (last + 1, last - 1, last + w, last - w):
        if col[n] != EMPTY:
            continue
        v = nakade_vital(B, n, buf)
        if v >= 0 and k_legal(B, v, c) and k_self_atari(B, v, c) < sa_min:
            buf[8 + k] = v
            k += 1
    if k > 0:
        return _pick_sorted_unique(buf[8:], k, s)
    return PASS, s


@njit(cache=True)
def _escape_laddered(B: np.ndarray, lib: int, c: int) -> bool:
    """c extends at ``lib`` out of atari (to at least two liberties): does it get only two,
    and does a ladder then catch it?"""
    B2 = B.copy()
    k_play(B2, lib, c)
    n, _, _ = group_libs(B2, B2[GID, lib])
    if n != 2:
        return False
    nodes = np.zeros(1, dtype=np.int64)
    return ladder_attack(B2, lib, nodes)


@njit(cache=True)
def atari_rules(B: np.ndarray, c: int, s: np.uint64, buf: np.ndarray,
                ladders: bool) -> tuple[int, np.uint64]:
    """Step 1 of policies 1-6 (the last move is a point): save a group of c that the last
    move put in atari or capture near it (module docstring); PASS if there is nothing. With
    ``ladders`` (policies 3 and 4) an extension to two liberties that a ladder catches is no
    save."""
    m = B[META]
    col = B[COL]
    w = m[M_W]
    last = m[M_LAST]
    o = 3 - c
    k = 0
    for n in (last + 1, last - 1, last + w, last - w):
        if col[n] != c:
            continue
        g = B[GID, n]
        if not in_atari(B, g):
            continue
        lib = atari_lib(B, g)
        if k_legal(B, lib, c) and k_self_atari(B, lib, c) == 0 and not (
                ladders and _escape_laddered(B, lib, c)):
            buf[k] = lib
            k += 1
        st = g
        while True:
            for q in (st + 1, st - 1, st + w, st - w):
                if col[q] == o:
                    h = B[GID, q]
                    if in_atari(B, h):
                        lh = atari_lib(B, h)
                        if k_legal(B, lh, c):
                            buf[k] = lh
                            k += 1
            st = B[NXT, st]
            if st == g:
                break
    if col[last] == o:
        g = B[GID, last]
        if in_atari(B, g):
            lib = atari_lib(B, g)
            if k_legal(B, lib, c):
                buf[k] = lib
                k += 1
    if k > 0:
        return _pick_sorted_unique(buf, k, s)
    return PASS, s


@njit(cache=True)
def capture_or_random(B: np.ndarray, c: int, s: np.uint64, policy: int, sa_min: int
                      ) -> tuple[int, np.uint64]:
    """Steps 3 (policies 2 and 3: capture anywhere) and 4 (random) of the playout policy."""
    m = B[META]
    col = B[COL]
    w = m[M_W]
    o = 3 - c
    n = m[M_NEMPTY]
    if n == 0:
        return PASS, s
    emp = B[EMP]
    if policy >= 2:
        # 3. capture anywhere: the first capture scanning cyclically from a random index
        # (no scan when the atari list has no opponent group)
        s = rand_next(s)
        j = rand_below(s, n)
        for _ in range(n if k_atari_groups(B, o) > 0 else 0):
            p = emp[j]
            j += 1
            if j == n:
                j = 0
            for q in (p + 1, p - 1, p + w, p - w):
                if col[q] == o and in_atari(B, B[GID, q]):
                    if k_legal(B, p, c):
                        return p, s
                    break
    # 4. random
    s = rand_next(s)
    start = rand_below(s, n)
    j = start
    for _ in range(n):
        p = emp[j]
        j += 1
        if j == n:
            j = 0
        if not k_legal(B, p, c) or k_is_eye(B, p, c):
            continue
        if policy >= 1 and k_self_atari(B, p, c) >= sa_min:
            continue
        return p, s
    return PASS, s


@njit(cache=True)
def k_choose(B: np.ndarray, c: int, s: np.uint64, policy: int, pat: np.ndarray,
             sa_min: int, buf: np.ndarray, ptab: np.ndarray, plv: np.ndarray,
             gam: np.ndarray) -> tuple[int, np.uint64]:
    """The playout policy's move for colour c (module docstring). Returns (move, rng state).
    Policy 3 reads the learned weights ``ptab``/``plv`` (:func:`playout_gamma`) and uses
    ``gam`` (at least 16 floats) as scratch; the other policies ignore the three."""
    m = B[META]
    col = B[COL]
    w = m[M_W]
    last = m[M_LAST]
    if policy >= 1 and last != PASS:
        # 1. escape atari / capture near the last move
        q, s = atari_rules(B, c, s, buf, reads_ladders(policy))
        if q != PASS:
            return q, s
        if policy == 6:
            # 1''. the vital point of a small eye space next to the last move
            q, s = nakade_rule(B, c, s, sa_min, buf)
            if q != PASS:
                return q, s
        if policy >= 5:
            # 1'. groups of two liberties next to the last move
            q, s = low_liberty_rule(B, c, s, buf)
            if q != PASS:
                return q, s
    if policy == 3:
        # 2'. the learned local policy: a move near the last two, drawn by its strength,
        # or (with the far moves' share) on to capture anywhere and random
        k, total, far = local_candidates(B, c, buf, ptab, plv, gam)
        i, s = draw_local(s, k, total, far, gam)
        if i >= 0:
            return buf[i], s
    elif policy >= 1 and last != PASS:
        # 2. 3x3 patterns around the last move
        k = 0
        for q in (last + w - 1, last + w, last + w + 1, last - 1, last + 1, last - w - 1,
                  last - w, last - w + 1):
            if col[q] == EMPTY and pat[pattern_code(B, q)]:
                buf[k] = q
                k += 1
        while k > 0:  # draw among the matches; drop a drawn one that fails the checks
            s = rand_next(s)
            i = rand_below(s, k)
            q = buf[i]
            if k_legal(B, q, c) and not k_is_eye(B, q, c) and k_self_atari(B, q, c) < sa_min:
                return q, s
            buf[i] = buf[k - 1]
            k -= 1
    return capture_or_random(B, c, s, policy, sa_min)


def score_scale(size: int) -> float:
    """The margin at which the score term of the reward saturates: a quarter of the board."""
    return size * size / 4.0


@njit(cache=True)
def black_value(margin: float, weight: float, scale: float, jigo: float) -> float:
    """Black's reward for a playout that ends ``margin`` points ahead (komi counted): the
    win (1, 0 or ``jigo`` for a jigo, 1/2 when neither side is favoured), with ``weight`` of
    it given to the margin instead, (1 - weight) * win + weight * (1 + clip(margin / scale,
    -1, 1)) / 2."""
    win = 1.0 if margin > 0 else 0.0 if margin < 0 else jigo
    if weight <= 0.0:
        return win
    x = min(1.0, max(-1.0, margin / scale))
    return (1.0 - weight) * win + weight * 0.5 * (1.0 + x)


@njit(cache=True)
def black_values(margins: np.ndarray, weight: float, scale: float, jigo: float
                 ) -> np.ndarray:
    """:func:`black_value` of each margin (a batch of playouts)."""
    out = np.empty(margins.shape[0])
    for i in range(margins.shape[0]):
        out[i] = black_value(margins[i], weight, scale, jigo)
    return out


@njit(cache=True)
def k_area(B: np.ndarray, owner: np.ndarray) -> int:
    """Tromp-Taylor area: fills ``owner`` (per point: BLACK, WHITE or EMPTY for neutral) and
    returns black area - white area."""
    col = B[COL]
    w = B[META, M_W]
    P = col.shape[0]
    queue = B[SCR]
    for p in range(P):
        owner[p] = -1
    score = 0
    for p in range(P):
        cp = col[p]
        if cp == BORDER:
            owner[p] = EMPTY
            continue
        if cp == BLACK or cp == WHITE:
            owner[p] = cp
            score += 1 if cp == BLACK else -1
            continue
        if owner[p] != -1:
            continue
        # breadth-first flood of the empty region from p: queue[0:tail] is the region
        reach = 0
        head = 0
        tail = 1
        queue[0] = p
        owner[p] = -2
        while head < tail:
            q = queue[head]
            head += 1
            for n in (q + 1, q - 1, q + w, q - w):
                cn = col[n]
                if cn == EMPTY:
                    if owner[n] == -1:
                        owner[n] = -2
                        queue[tail] = n
                        tail += 1
                elif cn == BLACK:
                    reach |= 1
                elif cn == WHITE:
                    reach |= 2
        cnt = tail
        who = BLACK if reach == 1 else WHITE if reach == 2 else EMPTY
        for i in range(cnt):
            owner[queue[i]] = who
        if who == BLACK:
            score += cnt
        elif who == WHITE:
            score -= cnt
    return score


@njit(cache=True)
def k_playout(B: np.ndarray, s: np.uint64, policy: int, pat: np.ndarray, ptab: np.ndarray,
              plv: np.ndarray, sa_min: int, max_moves: int, moves: np.ndarray,
              owner: np.ndarray, buf: np.ndarray) -> tuple[int, int, np.uint64]:
    """Play B (modified in place) to the end. Writes the moves (PASS included) to ``moves``
    and the final owner of each point to ``owner``. Returns (black area - white area,
    number of moves, rng state). The colour to play is ``B[META, M_TOPLAY]``. ``ptab`` and
    ``plv`` are the learned weights of policy 3 (:func:`playout_gamma`; any arrays of
    those types for the other policies)."""
    m = B[META]
    gam = np.empty(16, dtype=np.float64)
    nm = 0
    passes = m[M_PASSES]
    while passes < 2 and nm < max_moves:
        c = m[M_TOPLAY]
        p, s = k_choose(B, c, s, policy, pat, sa_min, buf, ptab, plv, gam)
        k_play(B, p, c)
        moves[nm] = p
        nm += 1
        passes = m[M_PASSES]
    return k_area(B, owner), nm, s


@njit(cache=True)
def k_playout_batch(B0: np.ndarray, seed: np.uint64, n: int, policy: int, pat: np.ndarray,
                    ptab: np.ndarray, plv: np.ndarray, sa_min: int, max_moves: int,
                    scores: np.ndarray, own: np.ndarray, neutral: np.ndarray) -> np.uint64:
    """Run n playouts from B0 (not modified). ``scores[i]`` = black area - white area of
    playout i; ``own[p]`` accumulates +1 for each playout whose final owner of p is black and
    -1 for white; ``neutral[p]`` counts the playouts where p ends neutral. Returns the rng
    state."""
    B = B0.copy()
    P = B0.shape[1]
    moves = np.empty(max_moves + 1, dtype=np.int32)
    owner = np.empty(P, dtype=np.int32)
    buf = np.empty(4 * P + 8, dtype=np.int32)
    s = seed
    for i in range(n):
        B[:, :] = B0
        sc, nm, s = k_playout(B, s, policy, pat, ptab, plv, sa_min, max_moves, moves, owner,
                              buf)
        scores[i] = sc
        for p in range(P):
            o = owner[p]
            if o == BLACK:
                own[p] += 1
            elif o == WHITE:
                own[p] -= 1
            elif B0[COL, p] != BORDER:
                neutral[p] += 1
    return s


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


@njit(cache=True)
def k_hash(B: np.ndarray, Z: np.ndarray) -> np.int64:
    """Zobrist hash of the stones (not the side to move)."""
    col = B[COL]
    h = np.int64(0)
    for p in range(col.shape[0]):
        cp = col[p]
        if cp == BLACK or cp == WHITE:
            h ^= Z[cp, p]
    return h


@njit(cache=True)
def k_hash_after(B: np.ndarray, Z: np.ndarray, h: np.int64, p: int, c: int) -> np.int64:
    """The stone hash after c plays the legal point p (captures included), from hash h."""
    h ^= Z[c, p]
    o = 3 - c
    for g in _groups_next_to(B, p, o, True):
        if g < 0:
            break
        s = g
        while True:
            h ^= Z[o, s]
            s = B[NXT, s]
            if s == g:
                break
    return h


@njit(cache=True)
def _seen(sorted_hashes: np.ndarray, h: np.int64) -> bool:
    i = np.searchsorted(sorted_hashes, h)
    return bool(i < sorted_hashes.shape[0] and sorted_hashes[i] == h)


@njit(cache=True)
def k_legal_superko(B: np.ndarray, c: int, Z: np.ndarray, h: np.int64,
                    seen_sorted: np.ndarray, skip_eyes: bool, out: np.ndarray) -> int:
    """Like :func:`k_legal_mask` with positional superko instead of simple ko: a point is
    left out if the stone hash after the move is in ``seen_sorted`` (sorted int64)."""
    col = B[COL]
    k = 0
    for p in range(col.shape[0]):
        if col[p] != EMPTY or not k_legal_noko(B, p, c):
            continue
        if skip_eyes and k_is_eye(B, p, c):
            continue
        if _seen(seen_sorted, k_hash_after(B, Z, h, p, c)):
            continue
        out[k] = p
        k += 1
    return k


@njit(cache=True)
def swap_colours16(code: int) -> int:
    """Swap colours 1 and 2 in a 16-bit neighbourhood code (3, off the board, stays)."""
    return ((code & 0x5555) << 1) | ((code & 0xAAAA) >> 1)


@njit(cache=True)
def pattern20(B: np.ndarray, p: int, c: int) -> int:
    """The 3x3 code of :func:`games.go.kernel.pattern_code` with colours relative to c (c's
    stones as 1) and 4 atari bits (N, W, E, S neighbour: a stone whose group has one
    liberty) from bit 16."""
    code = pattern_code(B, p)
    if c == WHITE:
        code = swap_colours16(code)
    col = B[COL]
    w = B[META, M_W]
    bit = 16
    for n in (p + w, p - 1, p + 1, p - w):
        cn = col[n]
        if (cn == BLACK or cn == WHITE) and in_atari(B, B[GID, n]):
            code |= 1 << bit
        bit += 1
    return code


@njit(cache=True)
def group_libs(B: np.ndarray, g: int) -> tuple[int, int, int]:
    """(number of distinct liberties of the group at root g, capped at 3; the smallest two
    of them when there are at most two)."""
    if B[PLIB, g] > 8:
        return 3, -1, -1  # each liberty is counted at most 4 times: three or more
    col = B[COL]
    w = B[META, M_W]
    l1 = -1
    l2 = -1
    s = g
    while True:
        for q in (s + 1, s - 1, s + w, s - w):
            if col[q] == EMPTY and q != l1 and q != l2:
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


@njit(cache=True)
def coulom_distance(B: np.ndarray, p: int, q: int) -> int:
    """dx + dy + max(dx, dy) between two points (q may be PASS: a large number)."""
    if q == PASS or q <= 0:
        return 1000
    w = int(B[META, M_W])
    dx = abs(p % w - q % w)
    dy = abs(p // w - q // w)
    return dx + dy + max(dx, dy)


@njit(cache=True)
def distance_level(d: int) -> int:
    if d < 2:
        return 0
    if d <= 9:
        return d - 1
    if d <= 12:
        return 9
    if d <= 16:
        return 10
    return 0


@njit(cache=True)
def _touches(B: np.ndarray, g: int, q: int) -> bool:
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


@njit(cache=True)
def capture_level(B: np.ndarray, p: int, c: int) -> int:
    """The CAPTURE level of c playing at p (0: captures nothing)."""
    o = 3 - c
    col = B[COL]
    w = B[META, M_W]
    last = B[META, M_LAST]
    stones = 0
    saves = False
    takes_last = False
    for g in _groups_next_to(B, p, o, True):
        if g < 0:
            break
        stones += B[GSIZE, g]
        if last > 0 and col[last] == o and B[GID, last] == g:
            takes_last = True
        s = g
        while True:
            for q in (s + 1, s - 1, s + w, s - w):
                if col[q] == c and in_atari(B, B[GID, q]):
                    saves = True
            s = B[NXT, s]
            if s == g:
                break
    if stones == 0:
        return 0
    if saves:
        return 1
    if takes_last:
        return 2
    return 3 if stones == 1 else 4


@njit(cache=True)
def _attacker_in_atari_next_to(B: np.ndarray, g: int, a: int) -> bool:
    col = B[COL]
    w = B[META, M_W]
    s = g
    while True:
        for q in (s + 1, s - 1, s + w, s - w):
            if col[q] == a and in_atari(B, B[GID, q]):
                return True
        s = B[NXT, s]
        if s == g:
            break
    return False


@njit(cache=True)
def _defend(T: np.ndarray, stone: int, depth: int, nodes: np.ndarray) -> int:
    """The defender's turn in a ladder, on T (changed): 0 escaped, 1 captured, 2 the attacker
    is to move against two liberties."""
    d = T[COL, stone]
    g = T[GID, stone]
    nodes[0] += 1
    if depth >= LADDER_DEPTH or nodes[0] > LADDER_NODES:
        return 0
    if not in_atari(T, g) or _attacker_in_atari_next_to(T, g, 3 - d):
        return 0
    lib = atari_lib(T, g)
    if not k_legal_noko(T, lib, d):
        return 1
    k_play(T, lib, d)
    n, _, _ = group_libs(T, T[GID, stone])
    return 0 if n >= 3 else 1 if n <= 1 else 2


@njit(cache=True)
def _ladder(B: np.ndarray, stone: int, attacker: bool, nodes: np.ndarray) -> bool:
    """Is the group at ``stone`` captured in a ladder? With ``attacker`` the attacker is to
    move (three or more liberties: no; one: yes; two: it tries each, smaller point first),
    else the defender, in atari. A depth-first search with a stack of boards (numba's cache
    mishandles recursive functions); the defender has one move, so a capture found under
    any attacker choice answers the whole question."""
    d = B[COL, stone]
    a = 3 - d
    base = 0
    if not attacker:
        T0 = B.copy()
        r = _defend(T0, stone, 0, nodes)
        if r != 2:
            return r == 1
        B = T0
        base = 1
    n, l1, l2 = group_libs(B, B[GID, stone])
    if n >= 3:
        return False
    if n <= 1:
        return True
    stack = np.empty((LADDER_DEPTH + 2, B.shape[0], B.shape[1]), dtype=B.dtype)
    libs = np.empty((LADDER_DEPTH + 2, 2), dtype=np.int64)
    branch = np.zeros(LADDER_DEPTH + 2, dtype=np.int64)
    stack[0] = B
    libs[0, 0] = l1
    libs[0, 1] = l2
    k = 0
    while k >= 0:
        if branch[k] == 2:
            k -= 1
            continue
        A = libs[k, branch[k]]
        branch[k] += 1
        S = stack[k]
        if not k_legal_noko(S, A, a):
            continue
        T = stack[k + 1]
        T[:, :] = S
        k_play(T, A, a)
        if T[COL, stone] != d or not in_atari(T, T[GID, stone]):
            continue
        r = _defend(T, stone, k + base, nodes)
        if r == 1:
            return True
        if r == 2:
            _, l1, l2 = group_libs(T, T[GID, stone])
            k += 1
            libs[k, 0] = l1
            libs[k, 1] = l2
            branch[k] = 0
    return False


@njit(cache=True)
def ladder_captured(B: np.ndarray, stone: int, nodes: np.ndarray) -> bool:
    """The group at ``stone`` is in atari and its colour is to move: is it captured in a
    ladder? (``nodes[0]``: positions read so far, 0 for a fresh reading.)"""
    return _ladder(B, stone, False, nodes)


@njit(cache=True)
def ladder_attack(B: np.ndarray, stone: int, nodes: np.ndarray) -> bool:
    """The attacker is to move against the group at ``stone``: can a ladder capture it?"""
    return _ladder(B, stone, True, nodes)


@njit(cache=True)
def escape_level(B: np.ndarray, p: int, c: int, ladders: bool) -> int:
    """The ESCAPE level of c playing at p, which captures nothing: 0 if no group of c next
    to p is in atari or if the move leaves it in atari, 1 three or more liberties, 2 two
    (3 with ``ladders`` when a ladder then takes the group); + 3 when the last move gave
    that atari. Copies the board only when a group of c next to p is in atari."""
    last = B[META, M_LAST]
    new = False
    any_atari = False
    for g in _groups_next_to(B, p, c, True):
        if g < 0:
            break
        any_atari = True
        if last > 0 and _touches(B, g, last):
            new = True
    if not any_atari:
        return 0
    B2 = B.copy()
    k_play(B2, p, c)
    n, _, _ = group_libs(B2, B2[GID, p])
    if n <= 1:
        return 0
    level = 1 if n >= 3 else 2
    if level == 2 and ladders:
        nodes = np.zeros(1, dtype=np.int64)
        if ladder_attack(B2, p, nodes):
            level = 3
    return level + 3 if new else level


@njit(cache=True)
def groups_put_in_atari(B: np.ndarray, p: int, c: int) -> tuple[int, int, int, int]:
    """The roots of the distinct opponent groups that c playing at the empty point p puts
    in atari (two liberties now, p one of them), in neighbour order; -1 fills the rest."""
    g0 = -1
    g1 = -1
    g2 = -1
    g3 = -1
    for g in _groups_next_to(B, p, 3 - c, False):
        if g < 0:
            break
        n, l1, l2 = group_libs(B, g)
        if n != 2 or (l1 != p and l2 != p):
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
def atari_level(B: np.ndarray, p: int, c: int, ladders: bool) -> int:
    """The ATARI level of c playing at p: 0 if no opponent group goes into atari, else 1
    for a one-stone group, 2 for a larger one, + 2 with ``ladders`` when a ladder then
    captures it (the highest if several)."""
    best = 0
    for g in groups_put_in_atari(B, p, c):
        if g < 0:
            break
        level = 1 if B[GSIZE, g] == 1 else 2
        if ladders:
            B2 = B.copy()
            k_play(B2, p, c)
            nodes = np.zeros(1, dtype=np.int64)
            if ladder_captured(B2, g, nodes):
                level += 2
        best = max(best, level)
    return best


@njit(cache=True)
def edge_line(B: np.ndarray, p: int) -> int:
    """The line of the point p: 1 on the edge, 2 next to it, and so on."""
    w = B[META, M_W]
    size = B[META, M_SIZE]
    r = p // w - 1
    cc = p % w - 1
    return int(min(min(r, cc), min(size - 1 - r, size - 1 - cc)) + 1)


@njit(cache=True)
def empty_area(B: np.ndarray, p: int) -> bool:
    """No stone within Manhattan distance 3 of the point p."""
    col = B[COL]
    w = B[META, M_W]
    size = B[META, M_SIZE]
    r = p // w - 1
    cc = p % w - 1
    for dr in range(-3, 4):
        for dc in range(-3 + abs(dr), 4 - abs(dr)):
            rr = r + dr
            c2 = cc + dc
            if 0 <= rr < size and 0 <= c2 < size:
                v = col[(rr + 1) * w + c2 + 1]
                if v == BLACK or v == WHITE:
                    return False
    return True



NFEAT = 9
(F_CAPTURE, F_SAVE, F_PATTERN, F_SELF_ATARI, F_LINE, F_EMPTY_AREA, F_DIST_LAST,
 F_LADDER_ESCAPE, F_LADDER_ATARI) = range(NFEAT)


@njit(cache=True)
def _atari_stones_next_to(B: np.ndarray, p: int, c: int) -> int:
    """The stones of the distinct c groups in atari next to the point p."""
    total = 0
    for g in _groups_next_to(B, p, c, True):
        if g >= 0:
            total += B[GSIZE, g]
    return total


@njit(cache=True)
def k_features(B: np.ndarray, c: int, moves: np.ndarray, pat: np.ndarray,
               out: np.ndarray, ladders: bool) -> None:
    """Prior features of each point in ``moves`` (legal for c) into ``out[i, :]``:
    stones captured; stones of own groups in atari saved (the move leaves them not in
    atari); 3x3 pattern match (0/1); self-atari group size; line (1 = edge); no stone within
    Manhattan distance 3 (0/1); Chebyshev distance to the last move (99 if none); with
    ``ladders`` (else 0): 1 if the move saves without capturing, to two liberties, and a
    ladder then catches the group (:func:`_escape_laddered`); the stones of the opponent
    groups it puts in atari that a ladder then captures (:func:`ladder_atari_stones`)."""
    m = B[META]
    w = m[M_W]
    last = m[M_LAST]
    for i in range(moves.shape[0]):
        p = moves[i]
        for j in range(NFEAT):
            out[i, j] = 0
        cap = _atari_stones_next_to(B, p, 3 - c)
        save = _atari_stones_next_to(B, p, c)
        sa = k_self_atari(B, p, c)
        out[i, F_CAPTURE] = cap
        out[i, F_SAVE] = save if sa == 0 else 0
        out[i, F_PATTERN] = 1 if pat[pattern_code(B, p)] else 0
        out[i, F_SELF_ATARI] = sa
        out[i, F_LINE] = edge_line(B, p)
        out[i, F_EMPTY_AREA] = 1 if empty_area(B, p) else 0
        if last == PASS:
            out[i, F_DIST_LAST] = 99
        else:
            out[i, F_DIST_LAST] = max(abs(last // w - p // w), abs(last % w - p % w))
        if ladders:
            if save > 0 and sa == 0 and cap == 0 and _escape_laddered(B, p, c):
                out[i, F_LADDER_ESCAPE] = 1
            out[i, F_LADDER_ATARI] = ladder_atari_stones(B, p, c)


@njit(cache=True)
def ladder_atari_stones(B: np.ndarray, p: int, c: int) -> int:
    """The stones of the opponent groups of two liberties, p one of them, that c playing at
    p puts in atari and a ladder then captures (the opponent to move)."""
    total = 0
    B2 = B
    played = False
    for g in groups_put_in_atari(B, p, c):
        if g < 0:
            break
        if not played:
            B2 = B.copy()
            k_play(B2, p, c)
            played = True
        nodes = np.zeros(1, dtype=np.int64)
        if B2[COL, g] == 3 - c and ladder_captured(B2, g, nodes):
            total += B[GSIZE, g]
    return total


@njit(cache=True)
def k_playout_record(B: np.ndarray, s: np.uint64, policy: int, pat: np.ndarray,
                     ptab: np.ndarray, plv: np.ndarray, sa_min: int, max_moves: int,
                     moves: np.ndarray, colours: np.ndarray, owner: np.ndarray,
                     buf: np.ndarray) -> tuple[int, int, np.uint64]:
    """:func:`k_playout`, then the moves with passes left out in ``moves[:n]`` and the colour
    that played each in ``colours[:n]``. Returns (black - white area, n, rng state)."""
    first = B[META, M_TOPLAY]
    sc, nm, s = k_playout(B, s, policy, pat, ptab, plv, sa_min, max_moves, moves, owner, buf)
    k = 0
    for i in range(nm):
        if moves[i] != PASS:
            moves[k] = moves[i]
            colours[k] = first if i % 2 == 0 else 3 - first
            k += 1
    return sc, k, s


# the ladder rows of k_prior_sums' (wins, visits) table (knowledge.go.priors.weight_table)
W_LADDER_ESCAPE, W_LADDER_ATARI = 12, 13


@njit(cache=True)
def prior_reads_ladders(Wt: np.ndarray) -> bool:
    """Does the (wins, visits) table of :func:`k_prior_sums` give a ladder row visits (so
    that :func:`k_features` must read ladders)?"""
    return bool(Wt[W_LADDER_ESCAPE, 1] > 0 or Wt[W_LADDER_ATARI, 1] > 0)


@njit(cache=True)
def k_prior_sums(F: np.ndarray, Wt: np.ndarray, wins: np.ndarray, visits: np.ndarray) -> None:
    """Combine prior features (rows of F, see :func:`k_features`) with the (wins, visits)
    table ``Wt`` (rows: even, capture one, capture many, save, pattern, self-atari one,
    self-atari many, first/second/third-fourth line in an empty area, last-move distance
    1 and 2, an escape into a ladder, an atari that a ladder captures)."""
    for i in range(F.shape[0]):
        w = Wt[0, 0]
        v = Wt[0, 1]
        cap = F[i, F_CAPTURE]
        sa = F[i, F_SELF_ATARI]
        line = F[i, F_LINE]
        empty = F[i, F_EMPTY_AREA] == 1
        dist = F[i, F_DIST_LAST]
        rows = (
            1 if cap == 1 else -1,
            2 if cap >= 2 else -1,
            3 if F[i, F_SAVE] > 0 else -1,
            4 if F[i, F_PATTERN] == 1 else -1,
            5 if sa == 1 else -1,
            6 if sa >= 2 else -1,
            7 if empty and line == 1 else -1,
            8 if empty and line == 2 else -1,
            9 if empty and (line == 3 or line == 4) else -1,
            10 if dist == 1 else -1,
            11 if dist == 2 else -1,
            W_LADDER_ESCAPE if F[i, F_LADDER_ESCAPE] > 0 else -1,
            W_LADDER_ATARI if F[i, F_LADDER_ATARI] > 0 else -1,
        )
        for r in rows:
            if r >= 0:
                w += Wt[r, 0]
                v += Wt[r, 1]
        wins[i] = w
        visits[i] = v


@njit(cache=True)
def k_playout_after(B0: np.ndarray, first: np.ndarray, seed: np.uint64, policy: int,
                    pat: np.ndarray, ptab: np.ndarray, plv: np.ndarray, sa_min: int,
                    max_moves: int, scores: np.ndarray) -> np.uint64:
    """For each i, from a fresh copy of B0 the colour to play plays ``first[i]`` (legal;
    PASS allowed), then a playout: ``scores[i]`` = black area - white area. B0 unchanged."""
    B = B0.copy()
    P = B0.shape[1]
    moves = np.empty(max_moves + 1, dtype=np.int32)
    owner = np.empty(P, dtype=np.int32)
    buf = np.empty(4 * P + 8, dtype=np.int32)
    s = seed
    for i in range(first.shape[0]):
        B[:, :] = B0
        k_play(B, first[i], B[META, M_TOPLAY])
        sc, nm, s = k_playout(B, s, policy, pat, ptab, plv, sa_min, max_moves, moves, owner,
                              buf)
        scores[i] = sc
    return s
