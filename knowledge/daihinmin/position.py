"""What the search plays on: the information set of the seat to decide with the playing
settings (:class:`Root`), and the worlds sampled from it (:class:`World`).

The rules give what a seat knows (:class:`games.daihinmin.state.InfoSet`) and a world
consistent with it; this module adds how those worlds are played out — the playout policy
and its weights, the intermediate reward, the seat's own sure finishes, the rule player's
share of the opponents' moves, the worlds drawn by the inference, α for a core that
backs up the playouts' returns as they are (UCT), and the playing style, the searching
seat's optimistic priors at the root (:mod:`knowledge.daihinmin.style`) — set once, in
:class:`Settings`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

import games.daihinmin.kernels as GK
import games.daihinmin.rules as R
from games.contract import Playout, PlayoutBatch, Priors
from games.daihinmin.cards import ALL_CARDS
from games.daihinmin.state import GameState, InfoSet
from knowledge.daihinmin.learned import compact_weights, no_weights, policy_probs
from knowledge.daihinmin.playout import (
    MAX_EVALS,
    REWARD_PLAYERS,
    REWARDS,
    playout_batch_kernel,
    state_playout,
)
from knowledge.daihinmin.policies import POLICIES
from knowledge.daihinmin.style import STYLES, style_priors
from knowledge.daihinmin.tree import own_tree_kernel
from knowledge.style import StyleSpec
from search.alpha import discounted_value
from search.ismcts import OwnTree


@dataclass(frozen=True, eq=False)
class Settings:
    """How the playouts play. ``policy``: a name of :data:`POLICIES` ("learned" needs
    ``weights``: one row of θ per player, 5 x N_FEATURES); ``reward``: the intermediate
    reward r_t ("players": the random-finish expectation of the players still in, "cards":
    their card counts); ``own_sure``: the searching seat plays its sure finishes
    (:mod:`knowledge.daihinmin.endgame`); ``rule_w[p]``: the chance that another player p
    plays the rule player's move instead of the policy's; ``alpha``: the α-discounting of the
    searching seat's return in a world's playout (1.0: none; the flat core discounts the
    evaluations itself and leaves it at 1.0); ``style``: the playing style (None: the plain
    player), the priors of the searching seat's moves at the root. Checked once, here;
    compared by identity."""

    policy: str = "uniform"
    weights: np.ndarray | None = field(default=None, repr=False)
    reward: str = "players"
    own_sure: bool = False
    rule_w: np.ndarray | None = field(default=None, repr=False)
    alpha: float = 1.0
    style: StyleSpec | None = None

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise ValueError(f"unknown playout policy {self.policy!r}")
        if self.policy == "learned" and self.weights is None:
            raise ValueError("the learned policy needs its weights")
        if self.weights is not None:
            w = np.ascontiguousarray(self.weights, dtype=np.float64)
            if w.ndim != 2 or w.shape[0] != R.NP:
                raise ValueError(f"weights must have one row per player, got shape {w.shape}")
            object.__setattr__(self, "weights", compact_weights(w))
        if self.reward not in REWARDS:
            raise ValueError(f"unknown intermediate reward {self.reward!r}")
        if self.rule_w is not None:
            r = np.ascontiguousarray(self.rule_w, dtype=np.float64)
            if r.shape != (R.NP,):
                raise ValueError("rule_w: one weight per player")
            object.__setattr__(self, "rule_w", r)
        if not 0.0 < self.alpha <= 1.0:
            raise ValueError(f"alpha={self.alpha}: must lie in (0, 1]")
        if self.style is not None and self.style.name not in STYLES:
            raise ValueError(f"unknown style {self.style.name!r}")

    @property
    def policy_code(self) -> int:
        """The policy as the playout kernel takes it."""
        return POLICIES[self.policy]

    @property
    def reward_code(self) -> int:
        """The kind of r_t as the playout kernel takes it."""
        return REWARDS[self.reward]

    def kernel_weights(self) -> np.ndarray:
        """The weights as the kernels take them (zeros when the policy needs none)."""
        return self.weights if self.weights is not None else no_weights()

    def kernel_rule_w(self) -> np.ndarray:
        """The rule player's chances as the kernels take them (empty: none)."""
        return self.rule_w if self.rule_w is not None else np.empty(0)


class World:
    """A full state (one world) played out with the settings: the contract ``State`` the
    search plays on. ``seat``: the searching seat, whose r_t the playouts record, whose sure
    finishes they take and whose return they α-discount over its turns in the playout
    (Konuma et al.'s α discounting; the turns inside the tree are not part of the
    discounting); None: the seat each playout is asked about. ``at_root``: the world is
    the root's decision, not yet played on (where the style's priors apply)."""

    num_players = R.NP

    def __init__(self, state: GameState, settings: Settings | None = None,
                 seat: int | None = None, at_root: bool = False) -> None:
        self.state = state
        self.settings = settings if settings is not None else Settings()
        self.seat = seat
        self.at_root = at_root

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def legal_moves(self) -> list[int]:
        return self.state.legal_moves()

    def play(self, move: int) -> None:
        self.state.play(move)
        self.at_root = False

    def clone(self) -> World:
        return World(self.state.clone(), self.settings, self.seat, self.at_root)

    def priors(self) -> Priors:
        """The style's priors of the legal moves at the root's decision (the searching
        seat's); elsewhere, or without a style, none (:data:`NO_PRIORS`)."""
        style = self.settings.style
        if style is None or not self.at_root or self.state.to_move != self.seat:
            return NO_PRIORS
        return style_priors(style, self.state.hand(self.state.to_move), self.legal_moves())

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def returns(self) -> list[float]:
        return self.state.returns()

    def key(self) -> int:
        return self.state.key()

    def diagram(self) -> str:
        return self.state.diagram()

    def info_set(self, seat: int) -> InfoSet:
        return self.state.info_set(seat)

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        """A copy played to the end by the settings' policy (this state is left as it is)."""
        me = seat if self.seat is None else self.seat
        s = self.settings
        po = state_playout(self.state, rng, me, s.policy_code, s.weights, s.reward_code,
                           s.own_sure, s.rule_w)
        if s.alpha < 1.0 and len(po.evals):
            returns = po.returns.copy()
            returns[me] = discounted_value(po.evals, float(returns[me]), s.alpha)
            po = po._replace(returns=returns)
        return po

    def __repr__(self) -> str:
        return f"World({self.state!r})"


class Root:
    """The information set of the seat to decide, with the settings and, optionally, the
    worlds to play in (n x 5 hands by player, each consistent with ``info``, e.g. sampled by
    :class:`knowledge.daihinmin.inference.HandSampler`; None: dealt uniformly). What the
    search cores call: ``legal_moves``, ``sample_world`` (a :class:`World`),
    ``playout_batch`` (the flat core's hot path, one kernel call), ``move_priors`` and
    ``priors`` (the style's)."""

    def __init__(self, info: InfoSet, settings: Settings | None = None,
                 worlds: np.ndarray | None = None) -> None:
        self.info = info
        self.settings = settings if settings is not None else Settings()
        w = None if worlds is None else np.ascontiguousarray(worlds, dtype=np.int64)
        if w is not None and (w.ndim != 2 or w.shape[1] != R.NP or len(w) == 0):
            raise ValueError("worlds must be a non-empty n x 5 array of hands")
        self.worlds = w

    @property
    def seat(self) -> int:
        return self.info.seat

    def legal_moves(self) -> list[int]:
        return self.info.legal_moves()

    def _hands(self, rng: np.random.Generator) -> list[int]:
        if self.worlds is not None:
            return [int(x) for x in self.worlds[int(rng.integers(len(self.worlds)))]]
        return self.info.deal_hands(rng)

    def sample_world(self, rng: np.random.Generator) -> World:
        hands = self._hands(rng)
        return World(self.info.world(hands, int(rng.integers(1 << 30))), self.settings,
                     self.seat, at_root=True)

    def priors(self) -> Priors:
        """The style's priors of the legal moves (:func:`knowledge.daihinmin.style.
        style_priors`); without a style, none (:data:`NO_PRIORS`)."""
        if self.settings.style is None:
            return NO_PRIORS
        return style_priors(self.settings.style, self.info.hand, self.legal_moves())

    def playout_batch(self, moves: Sequence[int], rng: np.random.Generator,
                      seat: int) -> PlayoutBatch:
        """For each move: a world (from ``worlds``, else dealt), the move played for ``seat``,
        played out by the settings until ``seat`` is out; one kernel call for the batch."""
        info = self.info
        if seat != info.seat or info.turn != seat:
            raise ValueError("playout_batch is for the info set's own player, on its turn")
        st0, pool, need, known, ceil = info.arrays()
        mv = np.asarray(moves, dtype=np.int64)
        k = mv.shape[0]
        returns = np.empty(k, np.float64)
        evals = np.zeros((k, MAX_EVALS), np.float64)
        n_evals = np.zeros(k, np.int64)
        seed = int(rng.bit_generator.random_raw()) >> 2  # reproducible from the generator
        s = self.settings
        if self.worlds is not None:
            worlds = self.worlds[rng.integers(len(self.worlds), size=k)]
        elif (s.weights is None and s.reward_code == REWARD_PLAYERS and not s.own_sure
              and s.rule_w is None):
            worlds = _DEAL_IN_KERNEL  # the v1 player's dealing, inside the kernel
        else:
            worlds = GK.deal_worlds(st0, pool, need, known, ceil, seed ^ 0x5DEECE66D, k)
        t = playout_batch_kernel(st0, mv, seat, worlds, (pool, need, known, ceil),
                                 s.policy_code, s.reward_code, s.kernel_weights(), seed,
                                 returns, evals, n_evals, s.own_sure, s.kernel_rule_w())
        return PlayoutBatch(returns, evals[:, :t], n_evals)

    def own_tree_batch(self, tree: OwnTree, iterations: int, rng: np.random.Generator,
                       seat: int, tuned: bool, c: float, priors: bool = False) -> None:
        """``iterations`` iterations of the information-set MCTS (search.ismcts) on
        ``tree``, in one kernel call (knowledge.daihinmin.tree): the worlds from ``worlds``,
        else dealt; the settings' playouts, α-discounted by ``settings.alpha``."""
        info = self.info
        if seat != info.seat or info.turn != seat:
            raise ValueError("own_tree_batch is for the info set's own player, on its turn")
        st0, pool, need, known, ceil = info.arrays()
        s = self.settings
        seed = int(rng.bit_generator.random_raw()) >> 2  # reproducible from the generator
        worlds = self.worlds if self.worlds is not None else _DEAL_IN_KERNEL
        own_tree_kernel(tree.arrays(), st0, seat, worlds, (pool, need, known, ceil),
                        iterations, s.policy_code, s.reward_code, s.kernel_weights(), seed,
                        s.alpha, s.own_sure, s.kernel_rule_w(), tuned, c, priors)

    def move_priors(self, moves: Sequence[int]) -> np.ndarray:
        """The learned policy's probabilities of ``moves`` for this player (uniform without
        weights): the move ordering of the search."""
        w = self.settings.weights
        if w is None:
            return np.full(len(moves), 1.0 / max(len(moves), 1))
        info = self.info
        others = ALL_CARDS & ~info.hand & ~info.played
        opp = min((c for p, c in enumerate(info.counts) if p != info.seat and c), default=0)
        probs: np.ndarray = policy_probs(info.hand, others, info.table, info.rev, info.lock,
                                         opp, np.asarray(moves, dtype=np.int64), w[info.seat])
        return probs

    def __repr__(self) -> str:
        return f"Root(seat={self.seat}, {self.settings!r})"


_DEAL_IN_KERNEL = np.empty((0, R.NP), np.int64)
# priors for no move: a core keeps its own defaults for every move
NO_PRIORS = Priors([], np.empty(0), np.empty(0))
