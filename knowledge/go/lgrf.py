"""Last good reply with forgetting (LGRF; Baier & Drake, "The Power of Forgetting", 2010).

The playouts of one search share two reply tables per colour: ``reply1[c, prev]`` and
``reply2[c, prev2 * P + prev]`` hold the move with which colour c last answered the
previous move (and the two previous moves) in a playout that c won. After each playout every
move of the winner is stored as the reply to what came before it, and every move of the loser
is forgotten where it is the stored reply ("forgetting"); a jigo changes nothing. In a
playout, the colour to play first looks up the reply to the last two moves, then to the last
one, and plays it if it is an empty point, legal, not its own eye and not a self-atari of
``sa_min`` or more stones; otherwise the playout policy chooses as usual. Level 3 is level 2
after the policy's step 1 (the atari rules of :func:`knowledge.go.playout.atari_rules`), level
4 level 2 after all the policy's rules that answer the last move before its patterns (the
atari rules, nakade and the low-liberty rule: :func:`knowledge.go.playout.tactical_rules`). No
random number is drawn for a lookup, so the policy's stream is the same as without the tables
when they are empty. The playouts themselves are :func:`knowledge.go.playout.k_playout`'s,
given the tables and the level.

The tables are one int32 array ``T`` (3, P + P * P): row c (1 black, 2 white) holds reply1
in ``[:P]`` and reply2 after it; -1 is "no reply". Passes neither answer nor are answered.
``games.go.reference`` has the same step and update in plain Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go import board as K
from games.go.coords import EMPTY, PASS
from knowledge.go.tactics import bad_self_atari


def new_tables(points: int) -> np.ndarray:
    """Empty reply tables for a board of ``points`` (the padded board's length)."""
    return np.full((3, points + points * points), -1, dtype=np.int32)


@K.leaf_kernel
def lgr_reply(B: np.ndarray, c: int, T: np.ndarray, level: int, sa_min: int,
              nakade: bool = False) -> int:
    """The stored reply colour c may play now (PASS if none): reply2 first when ``level`` is
    2, then reply1 (a bad self-atari refused as :func:`bad_self_atari` with ``nakade``)."""
    last = B[K.META, K.M_LAST]
    if last == PASS:
        return PASS
    P = B.shape[1]
    last2 = B[K.META, K.M_LAST2]
    for k in range(2):
        if k == 0:
            if level < 2 or last2 == PASS:
                continue
            q = T[c, P + last2 * P + last]
        else:
            q = T[c, last]
        if q < 0 or B[K.COL, q] != EMPTY:
            continue
        if (K.k_legal(B, q, c) and not K.k_is_eye(B, q, c)
                and not bad_self_atari(B, q, c, sa_min, nakade)):
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
