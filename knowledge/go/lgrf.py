"""Last good reply with forgetting (LGRF; Baier & Drake, "The Power of Forgetting", 2010).

The playouts of one search share two reply tables per colour: ``reply1[c, prev]`` and
``reply2[c, prev2 * P + prev]`` hold the move with which colour c last answered the
previous move (and the two previous moves) in a playout that c won. After each playout every
move of the winner is stored as the reply to what came before it, and every move of the loser
is forgotten where it is the stored reply ("forgetting"); a jigo changes nothing. In a
playout, the colour to play first looks up the reply to the last two moves, then to the last
one, and plays it if it is an empty point, legal, not its own eye and not a self-atari of
``sa_min`` or more stones; otherwise the playout policy chooses as usual. Level 3 is level 2
after the policy's step 1 (the atari rules of :func:`knowledge.go.playout.atari_rules`). No random
number is drawn for a lookup, so the policy's stream is the same as without the tables when
they are empty.

The tables are one int32 array ``T`` (3, P + P * P): row c (1 black, 2 white) holds reply1
in ``[:P]`` and reply2 after it; -1 is "no reply". Passes neither answer nor are answered.
``games.go.reference`` has the same step and update in plain Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go import board as K
from games.go.coords import EMPTY, PASS
from games.go.scoring import k_area
from knowledge.go.playout import atari_rules, k_choose, reads_ladders
from knowledge.go.tactics import k_self_atari


def new_tables(points: int) -> np.ndarray:
    """Empty reply tables for a board of ``points`` (the padded board's length)."""
    return np.full((3, points + points * points), -1, dtype=np.int32)


@njit(cache=True)
def lgr_reply(B: np.ndarray, c: int, T: np.ndarray, level: int, sa_min: int) -> int:
    """The stored reply colour c may play now (PASS if none): reply2 first when ``level`` is
    2, then reply1."""
    m = B[K.META]
    last = m[K.M_LAST]
    if last == PASS:
        return PASS
    P = B.shape[1]
    last2 = m[K.M_LAST2]
    for k in range(2):
        if k == 0:
            if level < 2 or last2 == PASS:
                continue
            q = T[c, P + last2 * P + last]
        else:
            q = T[c, last]
        if q < 0 or B[K.COL, q] != EMPTY:
            continue
        if K.k_legal(B, q, c) and not K.k_is_eye(B, q, c) and k_self_atari(B, q, c) < sa_min:
            return int(q)
    return PASS


@njit(cache=True)
def lgr_update(T: np.ndarray, first: int, last2: int, last: int, moves: np.ndarray, n: int,
               winner: int) -> None:
    """Learn from a playout: ``moves[:n]`` (passes included) played alternately from colour
    ``first``, after ``last2``, ``last``; ``winner`` 1 (black), 2 (white) or 0 (jigo)."""
    if winner == 0:
        return
    P = int((np.sqrt(1.0 + 4.0 * T.shape[1]) - 1.0) / 2.0 + 0.5)  # T has P + P*P columns
    p2 = last2
    p1 = last
    c = first
    for i in range(n):
        mv = moves[i]
        if mv != PASS and p1 != PASS:
            j2 = P + p2 * P + p1 if p2 != PASS else -1
            if c == winner:
                T[c, p1] = mv
                if j2 >= 0:
                    T[c, j2] = mv
            else:
                if T[c, p1] == mv:
                    T[c, p1] = -1
                if j2 >= 0 and T[c, j2] == mv:
                    T[c, j2] = -1
        p2 = p1
        p1 = mv
        c = 3 - c


@njit(cache=True)
def k_playout_lgr(B: np.ndarray, s: np.uint64, policy: int, pat: np.ndarray,
                  ptab: np.ndarray, plv: np.ndarray, sa_min: int, max_moves: int,
                  moves: np.ndarray, owner: np.ndarray, buf: np.ndarray, T: np.ndarray,
                  level: int, komi: float) -> tuple[int, int, np.uint64]:
    """:func:`knowledge.go.playout.k_playout` with the stored replies tried first (``level`` 1:
    to the last move only, 2: to the last two first, 3: as 2 after the atari rules), then the
    tables updated by the result (area - ``komi``). Returns (black - white area, number of
    moves, rng state)."""
    m = B[K.META]
    first = m[K.M_TOPLAY]
    last2 = m[K.M_LAST2]
    last = m[K.M_LAST]
    gam = np.empty(16, dtype=np.float64)
    nm = 0
    passes = m[K.M_PASSES]
    while passes < 2 and nm < max_moves:
        c = m[K.M_TOPLAY]
        p = PASS
        if level == 3 and policy >= 1 and m[K.M_LAST] != PASS:
            p, s = atari_rules(B, c, s, buf, reads_ladders(policy))
        if p == PASS:
            p = lgr_reply(B, c, T, level, sa_min)
        if p == PASS:
            p, s = k_choose(B, c, s, policy, pat, sa_min, buf, ptab, plv, gam)
        K.k_play(B, p, c)
        moves[nm] = p
        nm += 1
        passes = m[K.M_PASSES]
    score = k_area(B, owner)
    margin = score - komi
    lgr_update(T, first, last2, last, moves, nm, 1 if margin > 0 else 2 if margin < 0 else 0)
    return score, nm, s


@njit(cache=True)
def k_playout_lgr_record(B: np.ndarray, s: np.uint64, policy: int, pat: np.ndarray,
                         ptab: np.ndarray, plv: np.ndarray, sa_min: int, max_moves: int,
                         moves: np.ndarray, colours: np.ndarray, owner: np.ndarray,
                         buf: np.ndarray, T: np.ndarray, level: int, komi: float
                         ) -> tuple[int, int, np.uint64]:
    """:func:`k_playout_lgr`, then (as :func:`knowledge.go.playout.k_playout_record`) the moves
    without passes in ``moves[:n]`` and their colours in ``colours[:n]``."""
    first = B[K.META, K.M_TOPLAY]
    sc, nm, s = k_playout_lgr(B, s, policy, pat, ptab, plv, sa_min, max_moves, moves, owner,
                              buf, T, level, komi)
    k = 0
    for i in range(nm):
        if moves[i] != PASS:
            moves[k] = moves[i]
            colours[k] = first if i % 2 == 0 else 3 - first
            k += 1
    return sc, k, s
