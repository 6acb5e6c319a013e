"""Prior knowledge for new UCT nodes, as equivalent experience (algorithms.md §5).

Two sources. The heuristic priors (:class:`PriorWeights`): every legal move starts from the
even-game prior (``even_wins`` of ``even_visits``); each feature of the move (from
:func:`games.go.kernel.k_features`) adds its own (wins, visits): a good feature adds as many
wins as visits, a bad one adds visits only (michi's and Fuego's scheme; the figures are
ours). The learned priors (:class:`LearnedPriors`, used when a position has them): the move's
strength γ from the learned feature ratings of a weights file (:mod:`knowledge.go.weights`,
algorithms.md §10) gives r = (γ / max γ)^τ and ``visits`` pseudo-visits at value
low + (high - low) r (:func:`knowledge.go.features.k_learned_priors`); with ``td_visits``,
every point also gets that many pseudo-visits at the TD(0) value σ(φᵀθ) of the position
after it (:mod:`knowledge.go.shapes`). PASS keeps its heuristic prior. The node's
prior value is wins / visits, its prior count visits.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from games.go import kernel as K
from knowledge.go.patterns import pattern_table

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

    def large_tables(self, g: FeatureGammas) -> tuple[np.ndarray, np.ndarray]:
        """The hash table (keys, γ) of the large patterns that multiply ``g``'s γ
        (:attr:`knowledge.go.weights.FeatureGammas.large_table`; empty if not ``large``)."""
        return g.large_table if self.large else NO_LARGE

    def params(self) -> np.ndarray:
        """The ``prm`` array of :func:`knowledge.go.features.k_learned_priors`."""
        return np.array([self.visits, self.low, self.high, self.tau], dtype=np.float64)


def feature_matrix(state: GoState, moves: list[int], ladders: bool = False) -> np.ndarray:
    """(len(moves), K.NFEAT) int32 features of the points in ``moves`` (no PASS); the two
    ladder features only with ``ladders``."""
    arr = np.asarray(moves, dtype=np.int32)
    out = np.zeros((len(arr), K.NFEAT), dtype=np.int32)
    if len(arr):
        K.k_features(state.board_array(), state.to_play, arr, pattern_table(), out, ladders)
    return out


@functools.lru_cache(maxsize=16)
def weight_table(wt: PriorWeights) -> np.ndarray:
    """The (wins, visits) rows :func:`games.go.kernel.k_prior_sums` reads (read-only, made
    once per set of weights)."""
    table = np.array([
        (wt.even_wins, wt.even_visits), wt.capture_one, wt.capture_many, wt.save, wt.pattern,
        wt.self_atari_one, wt.self_atari_many, wt.first_line_empty, wt.second_line_empty,
        wt.third_fourth_line_empty, wt.near_last_1, wt.near_last_2, wt.ladder_escape,
        wt.ladder_atari,
    ], dtype=np.float64)
    table.setflags(write=False)
    return table
