"""Prior knowledge for new UCT nodes, as equivalent experience (algorithms.md §5).

Every legal move starts from the even-game prior (``even_wins`` of ``even_visits``); each
feature of the move (from :func:`games.go.kernel.k_features`) adds its own (wins, visits):
a good feature adds as many wins as visits, a bad one adds visits only. The node's prior
value is wins / visits and its prior count is visits (michi's and Fuego's scheme; the
figures below are ours).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from games.contract import Priors
from games.go import kernel as K
from games.go.coords import PASS
from games.go.patterns import pattern_table

if TYPE_CHECKING:
    from games.go.state import GoState


class PriorWeights(NamedTuple):
    """(wins, visits) added by each feature; ``even_*`` is the base of every move."""

    even_wins: float = 5.0
    even_visits: float = 10.0
    capture_one: tuple[float, float] = (10.0, 10.0)  # captures one stone
    capture_many: tuple[float, float] = (20.0, 20.0)  # captures two or more
    save: tuple[float, float] = (15.0, 15.0)  # own group out of atari
    pattern: tuple[float, float] = (10.0, 10.0)  # a 3x3 playout pattern matches
    self_atari_one: tuple[float, float] = (0.0, 5.0)  # a lone stone into atari
    self_atari_many: tuple[float, float] = (0.0, 20.0)  # two or more stones into atari
    first_line_empty: tuple[float, float] = (0.0, 15.0)  # edge, nothing within distance 3
    second_line_empty: tuple[float, float] = (0.0, 5.0)
    third_fourth_line_empty: tuple[float, float] = (5.0, 5.0)
    near_last_1: tuple[float, float] = (8.0, 8.0)  # next to the last move (8-neighbourhood)
    near_last_2: tuple[float, float] = (4.0, 4.0)  # Chebyshev distance 2
    pass_move: tuple[float, float] = (0.0, 10.0)  # pass while points remain


def feature_matrix(state: GoState, moves: list[int]) -> np.ndarray:
    """(len(moves), K.NFEAT) int32 features of the points in ``moves`` (no PASS)."""
    arr = np.asarray(moves, dtype=np.int32)
    out = np.zeros((len(arr), K.NFEAT), dtype=np.int32)
    if len(arr):
        K.k_features(state._b, state.to_play, arr, pattern_table(), out)  # noqa: SLF001
    return out


def go_priors(state: GoState, weights: PriorWeights | None = None) -> Priors:
    """Priors for ``state.legal_moves()`` (points first, PASS last)."""
    wt = weights or PriorWeights()
    moves = state.legal_moves()
    points = [m for m in moves if m != PASS]
    f = feature_matrix(state, points)
    n = len(points)
    wins = np.full(n, wt.even_wins)
    visits = np.full(n, wt.even_visits)

    def add(mask: np.ndarray, wv: tuple[float, float]) -> None:
        wins[mask] += wv[0]
        visits[mask] += wv[1]

    if n:
        cap, save, pat = f[:, K.F_CAPTURE], f[:, K.F_SAVE], f[:, K.F_PATTERN]
        sa, line, empty = f[:, K.F_SELF_ATARI], f[:, K.F_LINE], f[:, K.F_EMPTY_AREA] == 1
        dist = f[:, K.F_DIST_LAST]
        add(cap == 1, wt.capture_one)
        add(cap >= 2, wt.capture_many)
        add(save > 0, wt.save)
        add(pat == 1, wt.pattern)
        add(sa == 1, wt.self_atari_one)
        add(sa >= 2, wt.self_atari_many)
        add(empty & (line == 1), wt.first_line_empty)
        add(empty & (line == 2), wt.second_line_empty)
        add(empty & ((line == 3) | (line == 4)), wt.third_fourth_line_empty)
        add(dist == 1, wt.near_last_1)
        add(dist == 2, wt.near_last_2)
    values = list(wins / visits)
    counts = list(visits)
    if PASS in moves:
        pw = wt.even_wins + (wt.pass_move[0] if n else 0.0)
        pv = wt.even_visits + (wt.pass_move[1] if n else 0.0)
        values.append(pw / pv)
        counts.append(pv)
    return Priors(points + ([PASS] if PASS in moves else []), np.asarray(values, dtype=float),
                  np.asarray(counts, dtype=float))
