"""The playout policies (numba), one playout loop that takes the policy as its parameters.

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
``policy`` 7 is policy 6 that does not refuse a self-atari into a dead shape: a group of at
most five stones that, once captured, leaves an eye space the capturer cannot make two eyes
in (:func:`~knowledge.go.tactics.dead_shape_after`), as the attacker plays inside an eye space
to kill it. ``policy`` 0 ("light") is step 3 without the self-atari test. A self-atari is bad
when the group left in atari would have at least ``sa_min`` stones (policy 7: and no dead
shape). Playouts use simple ko (the ko point), end after two consecutive passes or
``max_moves`` moves, and are scored by area. The small kernels are compiled without reference
counting (:func:`~games.go.board.leaf_kernel`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go.board import (
    ATL,
    COL,
    EIDX,
    EMP,
    GID,
    M_LAST,
    M_LAST2,
    M_NATL,
    M_NEMPTY,
    M_PASSES,
    M_TOPLAY,
    M_W,
    META,
    NXT,
    atari_lib,
    group_libs,
    groups_next_to,
    in_atari,
    k_atari_groups,
    k_is_eye,
    k_legal,
    k_play,
    leaf_kernel,
)
from games.go.coords import BLACK, BORDER, EMPTY, PASS, WHITE
from games.go.scoring import k_area
from knowledge.go.lgrf import lgr_reply, lgr_update
from knowledge.go.patterns import pattern20, pattern_code
from knowledge.go.tactics import (
    G_ATARI,
    G_CAPTURE,
    G_DIST,
    G_DIST2,
    G_ESCAPE,
    G_EYE,
    G_LINE,
    G_SELF_ATARI,
    NG,
    atari_level,
    bad_self_atari,
    capture_level,
    coulom_distance,
    distance_level,
    edge_line,
    escape_laddered,
    escape_level,
    k_self_atari,
    libs_after,
    nakade_vital,
)

U11 = np.uint64(11)


U12 = np.uint64(12)


U25 = np.uint64(25)


U27 = np.uint64(27)


U33 = np.uint64(33)


UMUL = np.uint64(0x2545F4914F6CDD1D)


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


@leaf_kernel
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
    w = B[META, M_W]
    cap = capture_level(B, p, c)
    esc = escape_level(B, p, c, False) if cap == 0 else 0
    d1 = distance_level(coulom_distance(B, p, B[META, M_LAST]))
    d2 = distance_level(coulom_distance(B, p, B[META, M_LAST2]))
    line = edge_line(B, p)
    eye = 1
    for n in (p + 1, p - 1, p + w, p - w):
        if B[COL, n] != c and B[COL, n] != BORDER:
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
    w = B[META, M_W]
    k = 0
    total = 0.0
    for base in (B[META, M_LAST], B[META, M_LAST2]):
        if base <= 0:
            continue
        for q in (base + w - 1, base + w, base + w + 1, base - 1, base + 1, base - w - 1,
                  base - w, base - w + 1):
            if B[COL, q] != EMPTY:
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
    return k, total, (B[META, M_NEMPTY] - k) * plv[NG, 0]


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
def nakade_self_ataris(policy: int) -> bool:
    """Does the policy play a self-atari into a dead shape (policy 7,
    :func:`~knowledge.go.tactics.bad_self_atari`)?"""
    return policy == 7


@leaf_kernel
def low_liberty_rule(B: np.ndarray, c: int, s: np.uint64, buf: np.ndarray
                     ) -> tuple[int, np.uint64]:
    """Policy 5's step between the atari rules and the patterns (module docstring): an atari
    on the last move's group of two liberties, or an extension of a group of c next to the
    last move from two liberties to three or more; PASS if there is none."""
    last = B[META, M_LAST]
    k = 0
    if B[COL, last] == 3 - c:
        n, l1, l2 = group_libs(B, B[GID, last])
        if n == 2:
            for lib in (l1, l2):
                if k_legal(B, lib, c) and k_self_atari(B, lib, c) == 0:
                    buf[k] = lib
                    k += 1
    for g in groups_next_to(B, last, c, False):
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


@leaf_kernel
def nakade_rule(B: np.ndarray, c: int, s: np.uint64, sa_min: int, buf: np.ndarray,
                nakade: bool = False) -> tuple[int, np.uint64]:
    """Policies 6 and 7's step after the atari rules: the vital point of an empty region
    next to the last move (:func:`nakade_vital`), if legal and not a bad self-atari (``nakade``:
    :func:`bad_self_atari`'s; ``buf[0:5]`` is the regions' scratch, the candidates go to
    ``buf[8:12]``); PASS if there is none. Two kinds of neighbour are not filled, as the fill
    could only repeat a candidate or find none: one with no empty neighbour (a region of one
    point), and one above or below the last move that the empty point diagonal to it and to
    an empty left or right neighbour joins to that neighbour's region."""
    w = B[META, M_W]
    last = B[META, M_LAST]
    k = 0
    for n in (last + 1, last - 1, last + w, last - w):
        if B[COL, n] != EMPTY:
            continue
        if (B[COL, n + 1] != EMPTY and B[COL, n - 1] != EMPTY and B[COL, n + w] != EMPTY
                and B[COL, n - w] != EMPTY):
            continue
        if n != last + 1 and n != last - 1 and (
                (B[COL, last + 1] == EMPTY and B[COL, n + 1] == EMPTY)
                or (B[COL, last - 1] == EMPTY and B[COL, n - 1] == EMPTY)):
            continue
        v = nakade_vital(B, n, buf)
        if v >= 0 and k_legal(B, v, c) and not bad_self_atari(B, v, c, sa_min, nakade):
            buf[8 + k] = v
            k += 1
    if k > 0:
        return _pick_sorted_unique(buf[8:], k, s)
    return PASS, s


@njit(cache=True)
def atari_rules(B: np.ndarray, c: int, s: np.uint64, buf: np.ndarray,
                ladders: bool) -> tuple[int, np.uint64]:
    """Step 1 of policies 1-6 (the last move is a point): save a group of c that the last
    move put in atari or capture near it (module docstring); PASS if there is nothing. With
    ``ladders`` (policies 3 and 4) an extension to two liberties that a ladder catches is no
    save."""
    w = B[META, M_W]
    last = B[META, M_LAST]
    o = 3 - c
    k = 0
    for n in (last + 1, last - 1, last + w, last - w):
        if B[COL, n] != c:
            continue
        g = B[GID, n]
        if not in_atari(B, g):
            continue
        lib = atari_lib(B, g)
        if k_legal(B, lib, c) and k_self_atari(B, lib, c) == 0 and not (
                ladders and escape_laddered(B, lib, c)):
            buf[k] = lib
            k += 1
        st = g
        while True:
            for q in (st + 1, st - 1, st + w, st - w):
                if B[COL, q] == o:
                    h = B[GID, q]
                    if in_atari(B, h):
                        lh = atari_lib(B, h)
                        if k_legal(B, lh, c):
                            buf[k] = lh
                            k += 1
            st = B[NXT, st]
            if st == g:
                break
    if B[COL, last] == o:
        g = B[GID, last]
        if in_atari(B, g):
            lib = atari_lib(B, g)
            if k_legal(B, lib, c):
                buf[k] = lib
                k += 1
    if k > 0:
        return _pick_sorted_unique(buf, k, s)
    return PASS, s


@leaf_kernel
def capture_or_random(B: np.ndarray, c: int, s: np.uint64, policy: int, sa_min: int
                      ) -> tuple[int, np.uint64]:
    """Steps 3 (policies 2 and 3: capture anywhere) and 4 (random) of the playout policy."""
    o = 3 - c
    n = B[META, M_NEMPTY]
    if n == 0:
        return PASS, s
    if policy >= 2:
        # 3. capture anywhere: the first capture scanning the empty list cyclically from a
        # random index. The points next to an opponent group in atari are the liberties of
        # those groups (the atari list), so the scan is the legal one of them nearest after
        # the index in the list's order.
        s = rand_next(s)
        j = rand_below(s, n)
        if k_atari_groups(B, o) > 0:
            tried = -1  # the cyclic distance of the last liberty found illegal
            while True:
                best = -1
                best_d = n
                for i in range(B[META, M_NATL]):
                    g = B[ATL, i]
                    if B[COL, g] != o:
                        continue
                    lib = atari_lib(B, g)
                    d = B[EIDX, lib] - j
                    if d < 0:
                        d += n
                    if tried < d < best_d:
                        best = lib
                        best_d = d
                if best < 0:
                    break
                if k_legal(B, best, c):
                    return best, s
                tried = best_d
    # 4. random
    s = rand_next(s)
    start = rand_below(s, n)
    j = start
    for _ in range(n):
        p = B[EMP, j]
        j += 1
        if j == n:
            j = 0
        if not k_legal(B, p, c) or k_is_eye(B, p, c):
            continue
        if policy >= 1 and bad_self_atari(B, p, c, sa_min, nakade_self_ataris(policy)):
            continue
        return p, s
    return PASS, s


@njit(cache=True)
def tactical_rules(B: np.ndarray, c: int, s: np.uint64, policy: int, sa_min: int,
                   buf: np.ndarray) -> tuple[int, np.uint64]:
    """The policy's rules that answer the last move (a point) before any pattern: step 1
    (the atari rules), then with policies 6 and 7 the nakade step and with policies 5 to 7
    the low-liberty rule (module docstring); PASS if none applies, and then no random number
    has been drawn."""
    q, s = atari_rules(B, c, s, buf, reads_ladders(policy))
    if q != PASS:
        return q, s
    if policy >= 6:
        q, s = nakade_rule(B, c, s, sa_min, buf, nakade_self_ataris(policy))
        if q != PASS:
            return q, s
    if policy >= 5:
        q, s = low_liberty_rule(B, c, s, buf)
    return q, s


@njit(cache=True)
def k_choose(B: np.ndarray, c: int, s: np.uint64, policy: int, pat: np.ndarray,
             sa_min: int, buf: np.ndarray, ptab: np.ndarray, plv: np.ndarray,
             gam: np.ndarray, tactics: bool = True) -> tuple[int, np.uint64]:
    """The playout policy's move for colour c (module docstring). Returns (move, rng state).
    Policy 3 reads the learned weights ``ptab``/``plv`` (:func:`playout_gamma`) and uses
    ``gam`` (at least 16 floats) as scratch; the other policies ignore the three. Without
    ``tactics`` the caller has found that :func:`tactical_rules` has no move here."""
    w = B[META, M_W]
    last = B[META, M_LAST]
    if tactics and policy >= 1 and last != PASS:
        # 1. escape atari / capture near the last move, nakade, two-liberty groups
        q, s = tactical_rules(B, c, s, policy, sa_min, buf)
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
            if B[COL, q] == EMPTY and pat[pattern_code(B, q)]:
                buf[k] = q
                k += 1
        while k > 0:  # draw among the matches; drop a drawn one that fails the checks
            s = rand_next(s)
            i = rand_below(s, k)
            q = buf[i]
            if (k_legal(B, q, c) and not k_is_eye(B, q, c)
                    and not bad_self_atari(B, q, c, sa_min, nakade_self_ataris(policy))):
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
def k_playout(B: np.ndarray, s: np.uint64, policy: int, pat: np.ndarray, ptab: np.ndarray,
              plv: np.ndarray, sa_min: int, max_moves: int, moves: np.ndarray,
              owner: np.ndarray, buf: np.ndarray, T: np.ndarray, level: int, komi: float
              ) -> tuple[int, int, np.uint64]:
    """Play B (modified in place) to the end. Writes the moves (PASS included) to ``moves``
    and the final owner of each point to ``owner``. Returns (black area - white area,
    number of moves, rng state). The colour to play is ``B[META, M_TOPLAY]``.

    The policy is given by its parameters: ``policy`` (the module docstring), ``ptab`` and
    ``plv`` the learned weights of policy 3 (:func:`playout_gamma`; any arrays of those types
    for the other policies), and last good reply (:mod:`knowledge.go.lgrf`): with ``level``
    > 0 the stored replies of the tables ``T`` are tried first (1: to the last move only, 2:
    to the last two first, 3: as 2 after the atari rules, 4: as 2 after all of
    :func:`tactical_rules`), and the tables learn from the
    result (area - ``komi``); ``level`` 0 reads neither ``T`` nor ``komi``."""
    first = B[META, M_TOPLAY]
    last2 = B[META, M_LAST2]
    last = B[META, M_LAST]
    gam = np.empty(16, dtype=np.float64)
    nm = 0
    passes = B[META, M_PASSES]
    while passes < 2 and nm < max_moves:
        c = B[META, M_TOPLAY]
        p = PASS
        tactics = True  # k_choose still has to try the tactical rules
        if level > 0:
            if level >= 3 and policy >= 1 and B[META, M_LAST] != PASS:
                if level == 3:
                    p, s = atari_rules(B, c, s, buf, reads_ladders(policy))
                else:
                    p, s = tactical_rules(B, c, s, policy, sa_min, buf)
                    tactics = False
            if p == PASS:
                p = lgr_reply(B, c, T, level, sa_min, nakade_self_ataris(policy))
        if p == PASS:
            p, s = k_choose(B, c, s, policy, pat, sa_min, buf, ptab, plv, gam, tactics)
        k_play(B, p, c)
        moves[nm] = p
        nm += 1
        passes = B[META, M_PASSES]
    score = k_area(B, owner)
    if level > 0:
        margin = score - komi
        lgr_update(T, first, last2, last, moves, nm,
                   1 if margin > 0 else 2 if margin < 0 else 0)
    return score, nm, s


def no_replies() -> np.ndarray:
    """Reply tables for :func:`k_playout` without last good reply (``level`` 0)."""
    return np.full((3, 1), -1, dtype=np.int32)


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
    T = np.full((3, 1), -1, dtype=np.int32)  # no last good reply
    s = seed
    for i in range(n):
        B[:, :] = B0
        sc, nm, s = k_playout(B, s, policy, pat, ptab, plv, sa_min, max_moves, moves, owner,
                              buf, T, 0, 0.0)
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
def k_playout_record(B: np.ndarray, s: np.uint64, policy: int, pat: np.ndarray,
                     ptab: np.ndarray, plv: np.ndarray, sa_min: int, max_moves: int,
                     moves: np.ndarray, colours: np.ndarray, owner: np.ndarray,
                     buf: np.ndarray, T: np.ndarray, level: int, komi: float
                     ) -> tuple[int, int, np.uint64]:
    """:func:`k_playout`, then the moves with passes left out in ``moves[:n]`` and the colour
    that played each in ``colours[:n]``. Returns (black - white area, n, rng state)."""
    first = B[META, M_TOPLAY]
    sc, nm, s = k_playout(B, s, policy, pat, ptab, plv, sa_min, max_moves, moves, owner, buf,
                          T, level, komi)
    k = 0
    for i in range(nm):
        if moves[i] != PASS:
            moves[k] = moves[i]
            colours[k] = first if i % 2 == 0 else 3 - first
            k += 1
    return sc, k, s


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
    T = np.full((3, 1), -1, dtype=np.int32)  # no last good reply
    s = seed
    for i in range(first.shape[0]):
        B[:, :] = B0
        k_play(B, first[i], B[META, M_TOPLAY])
        sc, nm, s = k_playout(B, s, policy, pat, ptab, plv, sa_min, max_moves, moves, owner,
                              buf, T, 0, 0.0)
        scores[i] = sc
    return s
