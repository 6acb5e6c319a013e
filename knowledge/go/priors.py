"""Prior knowledge for new UCT nodes, as equivalent experience (Gelly and Silver 2007).

Two sources. The heuristic priors (:class:`PriorWeights`): every legal move starts from the
even-game prior (``even_wins`` of ``even_visits``); each feature of the move (from
:func:`knowledge.go.priors.k_features`) adds its own (wins, visits): a good feature adds as many
wins as visits, a bad one adds visits only (michi's and Fuego's scheme; the figures are
ours). The learned priors (:class:`LearnedPriors`, used when a position has them): the move's
strength γ from the learned feature ratings of a weights file (:mod:`knowledge.go.weights`,
Coulom 2007) gives r = (γ / max γ)^τ and ``visits`` pseudo-visits at value
low + (high - low) r (:func:`knowledge.go.features.k_learned_priors`); with ``td_visits``,
every point also gets that many pseudo-visits at the TD(0) value σ(φᵀθ) of the position
after it (:mod:`knowledge.go.shapes`). PASS keeps its heuristic prior. The node's
prior value is wins / visits, its prior count visits.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numba import njit

from games.go.board import (
    COL,
    GID,
    GSIZE,
    M_LAST,
    M_W,
    META,
    NXT,
    group_libs,
    groups_next_to,
    k_play,
)
from games.go.coords import BLACK, PASS, WHITE
from knowledge.go.patterns import pattern_code, pattern_table
from knowledge.go.tactics import (
    add_unique,
    capture_read,
    edge_line,
    empty_area,
    escape_laddered,
    groups_put_in_atari,
    k_self_atari,
    ladder_captured,
    read_stack,
)

if TYPE_CHECKING:
    from games.go.state import GoState
    from knowledge.go.weights import FeatureGammas

# no large patterns: an empty hash table (keys, γ) for knowledge.go.features.k_learned_priors
NO_LARGE = (np.zeros(0, dtype=np.int64), np.zeros(0))
for _a in NO_LARGE:
    _a.setflags(write=False)


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
    # ladders (read only when one of these has visits): an escape from atari to two
    # liberties that a ladder catches; an atari on a group that a ladder then captures
    ladder_escape: tuple[float, float] = (0.0, 0.0)
    ladder_atari: tuple[float, float] = (0.0, 0.0)

    def scaled(self, factor: float) -> PriorWeights:
        """The same prior values with ``factor`` times the equivalent experience."""
        if factor <= 0:
            raise ValueError(f"prior scale must be > 0, not {factor}")
        scaled: list[Any] = [
            (w[0] * factor, w[1] * factor) if isinstance(w, tuple) else w * factor
            for w in self]
        return PriorWeights(*scaled)


# the heuristic priors reading ladders (corvid gtp --set ladder_priors=true)
LADDER_PRIORS = PriorWeights(ladder_escape=(0.0, 30.0), ladder_atari=(15.0, 15.0))


class LearnedPriors(NamedTuple):
    """How the learned move strengths become equivalent experience."""

    visits: float = 20.0  # pseudo-visits of every move (0: the heuristic priors instead)
    low: float = 0.3  # prior value of the least likely moves ...
    high: float = 0.9  # ... and of the most likely one
    tau: float = 0.25  # r = (gamma / max gamma) ** tau
    td_visits: float = 0.0  # pseudo-visits at the TD(0) shape value sigma(phi theta), added
    large: bool = True  # the weights' large patterns multiply gamma (false: ignored)
    # pseudo-visits per stone of capture reading's priors (k_read_priors; 0: none)
    read_visits: float = 0.0

    def large_tables(self, g: FeatureGammas) -> tuple[np.ndarray, np.ndarray]:
        """The hash table (keys, γ) of the large patterns that multiply ``g``'s γ
        (:attr:`knowledge.go.weights.FeatureGammas.large_table`; empty if not ``large``)."""
        return g.large_table if self.large else NO_LARGE

    def params(self) -> np.ndarray:
        """The ``prm`` array of :func:`knowledge.go.features.k_learned_priors`."""
        return np.array([self.visits, self.low, self.high, self.tau], dtype=np.float64)


def feature_matrix(state: GoState, moves: list[int], ladders: bool = False) -> np.ndarray:
    """(len(moves), NFEAT) int32 features of the points in ``moves`` (no PASS); the two
    ladder features only with ``ladders``."""
    arr = np.asarray(moves, dtype=np.int32)
    out = np.zeros((len(arr), NFEAT), dtype=np.int32)
    if len(arr):
        k_features(state.board_array(), state.to_play, arr, pattern_table(), out, ladders)
    return out


@functools.lru_cache(maxsize=16)
def weight_table(wt: PriorWeights) -> np.ndarray:
    """The (wins, visits) rows :func:`knowledge.go.priors.k_prior_sums` reads (read-only, made
    once per set of weights)."""
    table = np.array([
        (wt.even_wins, wt.even_visits), wt.capture_one, wt.capture_many, wt.save, wt.pattern,
        wt.self_atari_one, wt.self_atari_many, wt.first_line_empty, wt.second_line_empty,
        wt.third_fourth_line_empty, wt.near_last_1, wt.near_last_2, wt.ladder_escape,
        wt.ladder_atari,
    ], dtype=np.float64)
    table.setflags(write=False)
    return table


NFEAT = 9


(F_CAPTURE, F_SAVE, F_PATTERN, F_SELF_ATARI, F_LINE, F_EMPTY_AREA, F_DIST_LAST,
 F_LADDER_ESCAPE, F_LADDER_ATARI) = range(NFEAT)


@njit(cache=True)
def _atari_stones_next_to(B: np.ndarray, p: int, c: int) -> int:
    """The stones of the distinct c groups in atari next to the point p."""
    total = 0
    for g in groups_next_to(B, p, c, True):
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
    ladder then catches the group (:func:`escape_laddered`); the stones of the opponent
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
            if save > 0 and sa == 0 and cap == 0 and escape_laddered(B, p, c):
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
            continue
        if not played:
            B2 = B.copy()
            k_play(B2, p, c)
            played = True
        nodes = np.zeros(1, dtype=np.int64)
        if B2[COL, g] == 3 - c and ladder_captured(B2, g, nodes):
            total += B[GSIZE, g]
    return total


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
def k_read_priors(B: np.ndarray, c: int, moves: np.ndarray, per_stone: float,
                  wins: np.ndarray, visits: np.ndarray) -> None:
    """Add the priors of capture reading (:func:`knowledge.go.tactics.capture_read`) to the
    points in ``moves`` (legal for c), for the groups of two or more stones (a lone stone's
    ladders are the move features'), with b = ``per_stone`` times the group's stones (at
    most 4) pseudo-visits. A group of c in atari, or of two liberties that the opponent
    captures moving first, is in danger: each of its liberties and of the liberties of the
    opponent groups of one or two liberties next to it that leaves it not captured with
    the opponent to move gets b wins of b visits; an extension from atari that does not
    gets b visits and no win. An opponent group of two liberties: each liberty that puts it
    in atari and has it captured gets b wins of b visits."""
    P = B.shape[1]
    w = B[META, M_W]
    o = 3 - c
    index = np.full(P, -1, dtype=np.int64)
    for i in range(moves.shape[0]):
        if moves[i] != PASS:
            index[moves[i]] = i
    cand = np.empty(64, dtype=np.int64)
    nodes = np.zeros(1, dtype=np.int64)
    stack = read_stack(B)
    for g in range(P):
        col = B[COL, g]
        if (col != BLACK and col != WHITE) or B[GID, g] != g:
            continue
        if B[GSIZE, g] < 2:
            continue
        n, l1, l2 = group_libs(B, g)
        if n >= 3:
            continue
        b = per_stone * min(B[GSIZE, g], 4)
        if col == o:
            if n != 2:
                continue
            for lib in (l1, l2):
                i = index[lib]
                if i < 0:
                    continue
                T = B.copy()
                k_play(T, lib, c)
                nodes[0] = 0
                if T[COL, g] == o and capture_read(T, g, False, nodes, stack):
                    wins[i] += b
                    visits[i] += b
            continue
        if n == 2:
            nodes[0] = 0
            if not capture_read(B, g, True, nodes, stack):
                continue
        k = add_unique(cand, 0, l1)
        if n == 2:
            k = add_unique(cand, k, l2)
        s = g
        while True:
            for q in (s + 1, s - 1, s + w, s - w):
                if B[COL, q] == o:
                    m, a1, a2 = group_libs(B, B[GID, q])
                    if m <= 2:
                        k = add_unique(cand, k, a1)
                        if m == 2:
                            k = add_unique(cand, k, a2)
            s = B[NXT, s]
            if s == g:
                break
        for j in range(k):
            i = index[cand[j]]
            if i < 0:
                continue
            T = B.copy()
            k_play(T, cand[j], c)
            nodes[0] = 0
            if T[COL, g] == c and not capture_read(T, g, True, nodes, stack):
                wins[i] += b
                visits[i] += b
            elif n == 1 and cand[j] == l1:
                visits[i] += b
