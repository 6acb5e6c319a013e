"""GoPosition: a Go rules state as the search sees it (games.contract.State), with the
playing settings and knowledge: the playout policy, the priors and the learned weights.

The rules state (:class:`games.go.state.GoState`) knows nothing of playing; a position wraps
one and gives the search what it asks for: playouts (:mod:`knowledge.go.playout`), priors
(:mod:`knowledge.go.priors`) and the compiled tree's kernels (:mod:`knowledge.go.tree`).
Moves played on the position are played on its state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from games.contract import Playout, PlayoutBatch, Priors, TreeGame
from games.go import board as K
from games.go.coords import BLACK
from games.go.state import GoState, zobrist
from knowledge.go import features as FT
from knowledge.go.lgrf import new_tables
from knowledge.go.patterns import pattern_table
from knowledge.go.playout import (
    black_value,
    black_values,
    k_playout_after,
    k_playout_batch,
    k_playout_record,
    no_replies,
    score_scale,
)
from knowledge.go.priors import (
    NFEAT,
    NO_LARGE,
    LearnedPriors,
    PriorWeights,
    feature_matrix,
    k_prior_sums,
    k_read_priors,
    prior_reads_ladders,
    weight_table,
)
from knowledge.go.shapes import k_afterstate_values, shape_tables
from knowledge.go.style import add_style_priors, style_params
from knowledge.go.tactics import NG
from knowledge.go.tree import KERNELS, MAX_PATH
from knowledge.go.weights import MAXLEVEL, GoWeights, load_weights
from knowledge.style import StyleSpec


class PlayoutSettings(NamedTuple):
    """Playout policy knobs (the defaults are the tuned values)."""

    # 3: learned (weights file), 2: MoGo-like and capture anywhere, 1: MoGo-like (local),
    # 0: light, 4: 2 reading ladders, 5: 2 with the low-liberty rule, 6: 5 with nakade
    # (knowledge.go.playout)
    policy: int = 2
    sa_min: int = 2  # a self-atari leaving a group of at least this many stones is refused
    max_moves_factor: int = 3  # a playout stops after factor * size^2 moves
    # last good reply with forgetting (knowledge.go.lgrf), compiled tree only: 0 off, 1 reply
    # to the last move, 2 to the last two moves first, 3 as 2 after the atari rules
    lgrf: int = 0
    # the reward: this share of a playout's result is its score margin instead of the win
    # (playout.black_value, margins counted up to score_scale(size) points; 0: win/loss only)
    score_weight: float = 0.0
    # black's reward for a jigo (playout.black_value): 1/2 favours neither side; an engine that
    # values a jigo at d for itself gives d as black, 1 - d as white (clients.gtp jigo_value)
    jigo: float = 0.5


_NO_EVALS = np.zeros(0)
_NO_EVALS.setflags(write=False)
_NO_PTAB = np.ones(1, dtype=np.float32)  # the learned policy's arrays, for the other policies
_NO_PLV = np.ones((NG + 1, MAXLEVEL + 1))
_NO_REPLIES = no_replies()  # last good reply is the compiled tree's only (never written)
_NO_TABLE = np.ones(1, dtype=np.float32)  # the learned priors' arrays, when there are none
_NO_LEVELS = np.ones((1, 1))
_NO_THETA = np.zeros(1)
_NO_IDS = np.full(1, -1, dtype=np.int32)
for _a in (_NO_PTAB, _NO_PLV, _NO_TABLE, _NO_LEVELS, _NO_THETA, _NO_IDS):
    _a.setflags(write=False)


class GoPosition:
    """A :class:`GoState` with the settings and knowledge the search plays it with: the
    playout ``settings``, the heuristic ``prior_weights``, the ``learned_priors`` (None: the
    heuristic ones), the learned ``weights`` (None: the bundled file, loaded when first
    needed) and the playing ``style`` (:mod:`knowledge.go.style`; None: the plain player)."""

    num_players = 2

    def __init__(self, state: GoState, settings: PlayoutSettings | None = None,
                 prior_weights: PriorWeights | None = None,
                 learned_priors: LearnedPriors | None = None,
                 weights: GoWeights | None = None, style: StyleSpec | None = None) -> None:
        self.state = state
        self.settings = settings or PlayoutSettings()
        self.prior_weights = prior_weights or PriorWeights()
        self.learned_priors = learned_priors
        self.weights = weights
        self.style = style
        self._scratch_arrays: tuple[np.ndarray, ...] | None = None

    # -- the rules state, as the contract asks for it ------------------------------------
    @property
    def size(self) -> int:
        return self.state.size

    @property
    def komi(self) -> float:
        return self.state.komi

    @komi.setter
    def komi(self, komi: float) -> None:
        self.state.komi = float(komi)

    @property
    def to_move(self) -> int:
        return self.state.to_move

    @property
    def to_play(self) -> int:
        return self.state.to_play

    def legal_moves(self) -> list[int]:
        return self.state.legal_moves()

    def play(self, move: Any) -> None:
        self.state.play(move)

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def returns(self) -> list[float]:
        return self.state.returns()

    def key(self) -> int:
        return self.state.key()

    def diagram(self) -> str:
        return self.state.diagram()

    def clone(self) -> GoPosition:
        """A position on a clone of the state, with the same settings and knowledge."""
        return GoPosition(self.state.clone(), self.settings, self.prior_weights,
                          self.learned_priors, self.weights, self.style)

    # -- knowledge -----------------------------------------------------------------------
    def knowledge(self) -> GoWeights:
        """The learned weights: ``self.weights``, else the bundled file of the board's size
        (knowledge.go.weights)."""
        if self.weights is None:
            self.weights = load_weights("", self.state.size)
        return self.weights

    def priors(self) -> Priors:
        """Contract: prior (value, equivalent experience) of each legal move, points first,
        PASS last: the learned ones if ``learned_priors`` is set, else the heuristic
        ``prior_weights`` (:mod:`knowledge.go.priors`), and the ``style``'s on its moves."""
        wt = self.prior_weights
        state = self.state
        moves = state.legal_moves()
        if not moves:
            return Priors([], np.zeros(0), np.zeros(0))
        points = moves[:-1]  # legal_moves() ends with PASS
        n = len(points)
        wins = np.empty(n + 1)
        visits = np.empty(n + 1)
        arr = np.asarray(points, dtype=np.int32)
        lp = self.learned_priors
        if lp is not None and lp.visits > 0:
            g = self.knowledge().prior
            scratch = np.empty((n, FT.NG), dtype=np.int32)
            FT.k_learned_priors(state.board_array(), state.to_play, arr, g.pattern_table,
                                g.levels, *lp.large_tables(g), lp.params(), scratch, wins,
                                visits)
        else:
            table = weight_table(wt)
            k_prior_sums(feature_matrix(state, points, prior_reads_ladders(table)), table,
                           wins, visits)
        if lp is not None and lp.td_visits > 0 and n:
            theta = self.knowledge().td_theta
            if theta is None:
                raise ValueError("td_visits needs weights with a TD(0) value "
                                 "(corvid learn go td)")
            two, three = shape_tables()
            q = np.empty(n)
            k_afterstate_values(state.board_array(), state.to_play, arr, two, three, theta, q)
            wins[:n] += lp.td_visits / (1.0 + np.exp(-q))
            visits[:n] += lp.td_visits
        if lp is not None and lp.read_visits > 0 and n:
            k_read_priors(state.board_array(), state.to_play, arr, lp.read_visits, wins, visits)
        if self.style is not None:
            add_style_priors(state.board_array(), state.to_play, arr, style_params(self.style),
                             wins, visits)
        wins[n] = wt.even_wins + (wt.pass_move[0] if n else 0.0)
        visits[n] = wt.even_visits + (wt.pass_move[1] if n else 0.0)
        return Priors(moves, wins / visits, visits)

    def tree_game(self) -> TreeGame:
        """The position as the compiled UCT (search.ctree) sees it: the kernels of
        :mod:`knowledge.go.tree` and their context (its layout is in that module)."""
        state = self.state
        b = state.board_array()
        P = b.shape[1]
        wt = self.prior_weights
        settings = self.settings
        cap = self.max_playout_moves
        lp_ctx = self._learned_prior_context(P)
        ctx = (
            zobrist(state.size),
            state.seen_hashes(),
            pattern_table(),
            weight_table(wt),
            np.array([settings.policy, settings.sa_min, cap, settings.lgrf], dtype=np.int64),
            np.array([state.komi, wt.even_wins, wt.even_visits, wt.pass_move[0],
                      wt.pass_move[1], settings.score_weight, score_scale(state.size),
                      settings.jigo]),
            np.empty(cap + 1, dtype=np.int32),
            np.empty(cap + 1, dtype=np.int32),
            np.empty(P, dtype=np.int32),
            np.empty(4 * P + 8, dtype=np.int32),
            np.zeros((P, NFEAT), dtype=np.int32),
            np.zeros(P, dtype=np.int32),
            np.zeros(2 * P),
            np.zeros(P),
            *self.policy_arrays(),
            *lp_ctx[:7],
            new_tables(P if settings.lgrf > 0 else 1),  # written: one per search
            *lp_ctx[7:],
            style_params(self.style),
        )
        H = np.zeros(2 + MAX_PATH, dtype=np.int64)
        H[0] = state.position_hash()
        return TreeGame(KERNELS, ctx, (b.copy(), H), 2, state.size * state.size + 1, P,
                        cap + 1)

    def _learned_prior_context(self, P: int) -> tuple[Any, ...]:
        """ctx[16:23] and ctx[24:26] of :meth:`tree_game`: the learned priors (as
        :meth:`priors` uses them) as arrays."""
        lp = self.learned_priors
        mm = lp is not None and lp.visits > 0
        td = lp is not None and lp.td_visits > 0
        flags = np.zeros(7)
        ptab, levels, theta = _NO_TABLE, _NO_LEVELS, _NO_THETA
        two, three = _NO_IDS, _NO_IDS
        large = NO_LARGE
        if lp is not None:
            flags[:] = (1.0 if mm else 0.0, *lp.params(), lp.td_visits, lp.read_visits)
            w = self.knowledge()
            if mm:
                ptab, levels = w.prior.pattern_table, w.prior.levels
                large = lp.large_tables(w.prior)
            if td:
                if w.td_theta is None:
                    raise ValueError("td_visits needs weights with a TD(0) value "
                                     "(corvid learn go td)")
                theta = w.td_theta
                two, three = shape_tables()
        return (ptab, levels, flags, np.zeros((P, FT.NG), dtype=np.int32), two, three, theta,
                *large)

    # -- playouts ------------------------------------------------------------------------
    @property
    def max_playout_moves(self) -> int:
        return self.settings.max_moves_factor * self.size * self.size

    def _scratch(self) -> tuple[np.ndarray, ...]:
        """Work arrays for single playouts (per position object, allocated on first use)."""
        sc = self._scratch_arrays
        cap = self.max_playout_moves
        if sc is None or sc[0].shape[0] < cap + 1:
            p = self.state.board_array().shape[1]
            sc = (np.empty(cap + 1, dtype=np.int32), np.empty(cap + 1, dtype=np.int32),
                  np.empty(p, dtype=np.int32), np.empty(4 * p + 8, dtype=np.int32))
            self._scratch_arrays = sc
        return sc

    def policy_arrays(self, policy: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(ptab, plv) of the playout kernels for ``policy`` (default: the settings'): the
        learned playout weights for policy 3, placeholders otherwise."""
        if (self.settings.policy if policy is None else policy) != 3:
            return _NO_PTAB, _NO_PLV
        w = self.knowledge().playout
        return w.pattern_table, w.policy_levels

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        """Contract: play a copy to the end with the playout policy (simple ko inside the
        playout). ``moves``/``players`` leave out passes; players are seats."""
        moves, colours, owner, buf = self._scratch()
        seed = np.uint64(int(rng.integers(1, 2**62)))
        sc, n, _ = k_playout_record(self.state.board_array().copy(), seed,
                                    self.settings.policy, pattern_table(),
                                    *self.policy_arrays(), self.settings.sa_min,
                                    self.max_playout_moves, moves, colours, owner, buf,
                                    _NO_REPLIES, 0, 0.0)
        v = black_value(sc - self.komi, self.settings.score_weight, score_scale(self.size),
                        self.settings.jigo)
        return Playout(np.array([v, 1.0 - v]), _NO_EVALS, moves[:n].astype(np.int64),
                       colours[:n].astype(np.int64) - 1)

    def playout_batch(self, moves: Sequence[Any], rng: np.random.Generator, seat: int
                      ) -> PlayoutBatch:
        """Contract fast path for flat Monte Carlo: for each of ``moves`` (legal moves of the
        colour to play), play it on a copy and play out; ``returns[i]`` is seat's result."""
        first = np.asarray([int(m) for m in moves], dtype=np.int32)
        scores = np.empty(len(first), dtype=np.int64)
        seed = np.uint64(int(rng.integers(1, 2**62)))
        k_playout_after(self.state.board_array(), first, seed, self.settings.policy,
                          pattern_table(), *self.policy_arrays(), self.settings.sa_min,
                          self.max_playout_moves, scores)
        black = black_values(scores - self.komi, self.settings.score_weight,
                               score_scale(self.size), self.settings.jigo)
        ret = black if self.state.colour_of(seat) == BLACK else 1.0 - black
        k = len(first)
        return PlayoutBatch(ret, np.zeros((k, 0)), np.zeros(k, dtype=np.int64))

    def playout_scores(self, rng: np.random.Generator, n: int,
                       policy: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """n playouts in one kernel call: (black area - white area per playout (no komi),
        ownership sum per point (+1 black, -1 white per playout; 1-D, border included)).
        Passes already played do not count: a finished game is played out further."""
        scores, own, _ = self._playout_stats(rng, n, policy)
        return scores, own

    def win_share(self, rng: np.random.Generator, n: int, policy: int | None = None
                  ) -> float:
        """The share of n playouts from here (``policy``'s, default the settings') that the
        colour to play wins, a jigo counting half."""
        scores, _ = self.playout_scores(rng, n, policy)
        margin = scores - self.komi
        black = float(np.mean(margin > 0) + 0.5 * np.mean(margin == 0))
        return black if self.to_play == BLACK else 1.0 - black

    def _playout_stats(self, rng: np.random.Generator, n: int, policy: int | None = None
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        b = self.state.board_array().copy()
        scores = np.empty(n, dtype=np.int64)
        own = np.zeros(b.shape[1], dtype=np.int64)
        neutral = np.zeros(b.shape[1], dtype=np.int64)
        seed = np.uint64(int(rng.integers(1, 2**62)))
        pol = self.settings.policy if policy is None else policy
        b[K.META, K.M_PASSES] = 0  # after the game's two passes, still play the position out
        k_playout_batch(b, seed, n, pol, pattern_table(), *self.policy_arrays(pol),
                          self.settings.sa_min, self.max_playout_moves, scores, own, neutral)
        return scores, own, neutral

    def ownership_stats(self, rng: np.random.Generator, playouts: int = 200
                        ) -> tuple[np.ndarray, np.ndarray]:
        """(mean final owner per point in [-1, 1] (+1 black), share of playouts in which the
        point ends neutral); 1-D arrays indexed by point."""
        _, own, neutral = self._playout_stats(rng, playouts)
        return own / float(playouts), neutral / float(playouts)

    def ownership(self, rng: np.random.Generator, playouts: int = 200) -> np.ndarray:
        """Mean final owner per point over playouts from here, in [-1, 1] (+1 black)."""
        _, own = self.playout_scores(rng, playouts)
        return own / float(playouts)

    def __repr__(self) -> str:
        return f"GoPosition({self.state!r}, {self.settings})"
