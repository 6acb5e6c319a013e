"""Tromp-Taylor area scoring of the board (numba)."""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go.board import COL, M_W, META, SCR
from games.go.coords import BLACK, BORDER, EMPTY, WHITE


@njit(cache=True)
def k_area(B: np.ndarray, owner: np.ndarray) -> int:
    """Tromp-Taylor area: fills ``owner`` (per point: BLACK, WHITE or EMPTY for neutral) and
    returns black area - white area."""
    w = B[META, M_W]
    P = B.shape[1]
    for p in range(P):
        owner[p] = -1
    score = 0
    for p in range(P):
        cp = B[COL, p]
        if cp == BORDER:
            owner[p] = EMPTY
            continue
        if cp == BLACK or cp == WHITE:
            owner[p] = cp
            score += 1 if cp == BLACK else -1
            continue
        if owner[p] != -1:
            continue
        # breadth-first flood of the empty region from p: B[SCR, 0:tail] is the region
        reach = 0
        head = 0
        tail = 1
        B[SCR, 0] = p
        owner[p] = -2
        while head < tail:
            q = B[SCR, head]
            head += 1
            for n in (q + 1, q - 1, q + w, q - w):
                cn = B[COL, n]
                if cn == EMPTY:
                    if owner[n] == -1:
                        owner[n] = -2
                        B[SCR, tail] = n
                        tail += 1
                elif cn == BLACK:
                    reach |= 1
                elif cn == WHITE:
                    reach |= 2
        cnt = tail
        who = BLACK if reach == 1 else WHITE if reach == 2 else EMPTY
        for i in range(cnt):
            owner[B[SCR, i]] = who
        if who == BLACK:
            score += cnt
        elif who == WHITE:
            score -= cnt
    return score
