"""The Blokus Duo position the search plays: a rules state with the playing settings.

:class:`BlokusPosition` wraps a :class:`games.blokus_duo.state.BlokusState` and a
:class:`~knowledge.blokus_duo.settings.BlokusConfig` and gives the decision cores what they
ask of a game (``games.contract``): the moves and turns of the rules state; playouts by the
configured policy (:mod:`knowledge.blokus_duo.policy`); the reward of a finished game (win,
draw or loss, blended with the score margin when ``score_weight`` > 0); the priors
(:mod:`knowledge.blokus_duo.priors`); the compiled tree (:mod:`knowledge.blokus_duo.tree`);
the evaluation features (:mod:`knowledge.blokus_duo.features`). Clones share the settings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from games.blokus_duo.geometry import PASS
from games.blokus_duo.state import BlokusState
from games.contract import FloatArray, Playout, PlayoutBatch, Priors, TreeGame
from knowledge.blokus_duo import features as _features
from knowledge.blokus_duo import policy as _policy
from knowledge.blokus_duo import priors as _priors
from knowledge.blokus_duo import space as _space
from knowledge.blokus_duo import tree as _tree
from knowledge.blokus_duo.moves import scratch_size
from knowledge.blokus_duo.settings import DEFAULT_CONFIG, BlokusConfig

P: Any = _policy  # numba dispatchers: untyped for mypy
PR: Any = _priors
SP: Any = _space


class BlokusPosition:
    """A Blokus Duo position as the search sees it: ``state`` played with ``config``."""

    num_players = 2

    def __init__(self, state: BlokusState, config: BlokusConfig = DEFAULT_CONFIG) -> None:
        self.state = state
        self.config = config

    # -- the rules state's moves and turns ------------------------------------------------
    @property
    def to_move(self) -> int:
        return self.state.to_move

    def legal_moves(self) -> list[int]:
        return self.state.legal_moves()

    def is_legal(self, move: int) -> bool:
        return self.state.is_legal(move)

    def play(self, move: int) -> None:
        self.state.play(move)

    def clone(self) -> BlokusPosition:
        return BlokusPosition(self.state.clone(), self.config)

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def key(self) -> int:
        return self.state.key()

    def diagram(self) -> str:
        return self.state.diagram()

    # -- reward and playouts ---------------------------------------------------------------
    def reward(self, colour: int) -> float:
        """Colour's reward for the current scores (``policy.k_reward``): 1/0.5/0, blended
        with the score margin when the config's ``score_weight`` > 0."""
        w = P.playout_params(self.config)[1]
        s = self.state
        d = s.score(colour) - s.score(1 - colour)
        return float(P.k_reward(d, w[P.W_REWARD], w[P.W_REWARD_SCALE]))

    def returns(self) -> list[float]:
        """Per seat: the :meth:`reward` of its colour."""
        return [self.reward(self.state.colour_of(seat)) for seat in range(2)]

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        """Play a copy to the end with the configured policy; moves/players for RAVE. With
        ``space_weight`` > 0 the reward is blended with the position's reachable space
        (:mod:`knowledge.blokus_duo.space`)."""
        s = self.state
        pol, w = P.playout_params(self.config)
        c0 = s.seat_colours[0]
        space = float(w[P.W_SPACE])
        blend = space > 0.0 and not s.is_terminal()
        v0 = 0.5
        if blend:
            m = SP.k_space_margin(s.board, s.forb, s.att, s.meta, c0, s.geo.size,
                                  *SP.space_scratch(s.geo.num_cells))
            v0 = float(SP.k_space_value(m, w[P.W_SPACE_SCALE]))
        r = np.array([rng.integers(2**63)], dtype=np.uint64)
        moves = np.empty(P.MAX_PLAYOUT_MOVES, dtype=np.int64)
        colours = np.empty(P.MAX_PLAYOUT_MOVES, dtype=np.int64)
        scores = np.empty(2, dtype=np.int64)
        n = P.k_playout_copy(s.geo.kernel_args, *s.arrays(), pol, w, r, moves, colours, scores)
        players = (colours[:n] != c0).astype(np.int64)  # seat 0 plays colour c0
        r0 = float(P.k_reward(int(scores[c0] - scores[1 - c0]), w[P.W_REWARD],
                              w[P.W_REWARD_SCALE]))
        if blend:
            r0 = (1.0 - space) * r0 + space * v0
        return Playout(np.array([r0, 1.0 - r0]), np.zeros(0), moves[:n], players)

    def playout_batch(self, moves: Sequence[int], rng: np.random.Generator,
                      seat: int) -> PlayoutBatch:
        """For each move: play it on a copy and play out; ``seat``'s returns."""
        s = self.state
        pol, w = P.playout_params(self.config)
        r = np.array([rng.integers(2**63)], dtype=np.uint64)
        first = np.asarray(list(moves), dtype=np.int64)
        ret = np.empty(len(first))
        sc = np.empty(len(first), dtype=np.int64)
        scratch = tuple(np.empty_like(a) for a in s.arrays())
        near = np.zeros(s.geo.num_cells, dtype=np.uint8)
        P.k_playout_batch(s.geo.kernel_args, *s.arrays(), *scratch, near, first,
                          s.colour_of(seat), pol, w, r, ret, sc)
        return PlayoutBatch(ret, np.zeros((len(first), 0)), np.zeros(len(first), np.int64))

    def tree_game(self) -> TreeGame:
        """The position as the compiled UCT (search.ctree) sees it."""
        pol, w = P.playout_params(self.config)
        return _tree.tree_game(self.state, pol, w, PR.prior_params(self.config))

    # -- priors and features ---------------------------------------------------------------
    def priors(self) -> Priors:
        """The prior value and pseudo-count of each legal move (size priors or the knowledge
        priors, opening pruning)."""
        s = self.state
        moves = s.legal_moves()
        if moves == [PASS] or not moves:
            return Priors(moves, np.full(len(moves), 0.5), np.zeros(len(moves)))
        g = s.geo
        n = len(moves)
        values = np.empty(n)
        counts = np.empty(n)
        PR.k_priors(g.cells, g.ncells, g.piece, g.corners, g.ncorners, g.edges, g.nedges,
                    g.start, s.board, s.forb, s.att, s.meta, np.asarray(moves, dtype=np.int64),
                    n, values, counts, PR.prior_params(self.config),
                    np.empty(scratch_size(g.num_cells), dtype=np.int64))
        return Priors(moves, values, counts)

    def features(self, colour: int | None = None) -> FloatArray:
        """The evaluation features from ``colour``'s view (default: the mover); layout in
        :mod:`knowledge.blokus_duo.features`."""
        s = self.state
        return _features.features(s, s.to_move_colour if colour is None else colour)
