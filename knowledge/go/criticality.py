"""Criticality (Coulom 2009, "Criticality: a Monte-Carlo heuristic for Go programs"): how
much owning a point goes with winning the game, over the search's playouts.

    crit(p) = P(the winner owns p) - (P(black owns p) P(black wins) + P(white owns p) P(white wins))

the covariance of "black owns p" with "black wins" plus that of white's; near 0 for a point
whose owner is settled or has nothing to do with the result, large for the points a fight
that decides the game is about. The compiled tree's playouts record their final owners and
winner in a table (``k_record``), and a node expanded later gives each move that many
pseudo-visits, all wins, times its point's criticality (``k_crit_priors``): the tree tries
first the moves where the playouts say the game is decided.

The table, (6, P) floats: ``[0, 0]`` the playouts, ``[0, 1]`` and ``[0, 2]`` black's and
white's wins; per point, rows 1-4 the playouts in which black owned it, white owned it, black
owned it and won, white owned it and won. A player keeps one through a game, halved before
each search (``decay``), so the first nodes of a search already have the last search's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go.coords import BLACK, WHITE

MIN_PLAYOUTS = 32.0  # the recorded playouts before criticality counts


def new_table(points: int) -> np.ndarray:
    """An empty table for a board array of ``points`` columns."""
    return np.zeros((6, points))


@njit(cache=True)
def k_record(table: np.ndarray, owner: np.ndarray, score: float) -> None:
    """Record one playout: its final ``owner`` per point (BLACK, WHITE or EMPTY, as
    games.go.scoring.k_area fills it) and black's ``score`` (area difference minus komi;
    0 is a jigo, a win for neither)."""
    table[0, 0] += 1.0
    black_won = score > 0
    white_won = score < 0
    if black_won:
        table[0, 1] += 1.0
    elif white_won:
        table[0, 2] += 1.0
    for p in range(owner.shape[0]):
        o = owner[p]
        if o == BLACK:
            table[1, p] += 1.0
            if black_won:
                table[3, p] += 1.0
        elif o == WHITE:
            table[2, p] += 1.0
            if white_won:
                table[4, p] += 1.0


@njit(cache=True)
def k_crit(table: np.ndarray, p: int) -> float:
    """Point ``p``'s criticality (0 before MIN_PLAYOUTS playouts)."""
    n = table[0, 0]
    if n < MIN_PLAYOUTS:
        return 0.0
    bw, ww = table[0, 1] / n, table[0, 2] / n
    c: float = ((table[3, p] + table[4, p]) / n
                - (table[1, p] / n * bw + table[2, p] / n * ww))
    return c


@njit(cache=True)
def k_crit_priors(table: np.ndarray, pts: np.ndarray, k: float, wins: np.ndarray,
                  visits: np.ndarray) -> None:
    """Add ``k`` times each point's criticality, where positive, as pseudo-visits, all
    wins, to the priors of the moves ``pts``."""
    if table[0, 0] < MIN_PLAYOUTS:
        return
    for i in range(pts.shape[0]):
        c = k_crit(table, pts[i])
        if c > 0:
            wins[i] += k * c
            visits[i] += k * c


def decay(table: np.ndarray, factor: float = 0.5) -> None:
    """Weigh the recorded playouts by ``factor`` before a new search."""
    table *= factor


def criticality(owners: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Reference: each point's criticality from the playouts' final owners (rows, one per
    playout) and black's scores, by the formula above."""
    black = (owners == BLACK).astype(float)
    white = (owners == WHITE).astype(float)
    bwin = (scores > 0).astype(float)[:, None]
    wwin = (scores < 0).astype(float)[:, None]
    winner_owns = (black * bwin + white * wwin).mean(axis=0)
    crit: np.ndarray = winner_owns - (black.mean(axis=0) * bwin.mean()
                                      + white.mean(axis=0) * wwin.mean())
    return crit
