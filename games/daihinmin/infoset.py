"""What one player knows (games.contract InfoSet), determinisation, and batched playouts."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from games.contract import PlayoutBatch
from games.daihinmin import kernels as K
from games.daihinmin import rules as R
from games.daihinmin.cards import ALL_CARDS, cards_of, move_cards, popcount, strength_key
from games.daihinmin.learned import (
    POLICY_LEARNED,
    REWARD_PLAYERS,
    REWARDS,
    no_weights,
    playout_worlds_kernel,
    policy_probs,
)
from games.daihinmin.state import Exchange, GameState

POLICIES = {"uniform": K.POLICY_UNIFORM, "heuristic": K.POLICY_HEURISTIC,
            "learned": POLICY_LEARNED}


@dataclass(frozen=True)
class InfoSet:
    """Everything player ``seat`` knows. Build it with ``GameState.info_set(seat)`` or directly
    from a client's observations (all fields public; ``exchanges`` holds only the entries the
    player saw: ``(src, dst, cards, tribute)`` with ``seat`` as src or dst; a daifugo that
    does not know which cards were its tribute simply leaves that entry out).

    Inference used by :meth:`sample_world`: cards ``seat`` gave are in the receiver's hand
    unless played or given back; a tribute received from player p were p's strongest cards,
    so p's other original cards are all weaker (p's unseen cards are dealt below that bound).
    """

    seat: int
    hand: int
    counts: tuple[int, ...]  # cards held by each player
    played: int  # every card played so far (bit set)
    table: int
    rev: int
    lock: int
    passed: int  # bit set of players who passed in this trick
    last: int  # player who played last (-1 none)
    turn: int
    finish: tuple[int, ...]  # players out, in order
    passcount: int
    order: tuple[int, ...]  # player in seat 0..4
    ranks: tuple[int, ...] = (2, 2, 2, 2, 2)
    exchanges: tuple[tuple[int, int, int, bool], ...] = ()
    history: tuple[tuple[int, int], ...] = ()
    policy: str = field(default="uniform", compare=False)
    # the learned policy's weights, one row per player (5 x N_FEATURES)
    weights: np.ndarray | None = field(default=None, compare=False, repr=False)
    # worlds to play in (n x 5 hands, e.g. from the inference); None: dealt uniformly
    worlds: np.ndarray | None = field(default=None, compare=False, repr=False)
    # the intermediate reward r_t of the playouts (learned.REWARDS)
    reward: int = field(default=REWARD_PLAYERS, compare=False)
    # the playouts play the seat's sure finishes (games.daihinmin.endgame), as the client does
    own_sure: bool = field(default=False, compare=False)
    # per player: the chance that a playout move is the rule player's (policies.heuristic_move)
    rule_w: np.ndarray | None = field(default=None, compare=False, repr=False)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_state(cls, state: GameState, seat: int) -> InfoSet:
        st = state.st
        played = 0
        for _, m in state.history:
            played |= move_cards(m)
        ex = tuple((e.src, e.dst, e.cards, bool(e.tribute)) for e in state.exchanges
                   if e.src == seat or e.dst == seat)
        return cls(
            seat=seat,
            hand=st[R.H0 + seat],
            counts=tuple(popcount(st[R.H0 + p]) for p in range(R.NP)),
            played=played,
            table=st[R.TABLE],
            rev=st[R.REV],
            lock=st[R.LOCK],
            passed=st[R.PASSED],
            last=st[R.LAST],
            turn=st[R.TURN],
            finish=tuple(st[R.FINISH:R.FINISH + st[R.NOUT]]),
            passcount=st[R.PASSCOUNT],
            order=tuple(st[R.ORDER:R.ORDER + R.NP]),
            ranks=tuple(state.ranks),
            exchanges=ex,
            history=tuple(state.history),
        )

    @classmethod
    def start(
        cls,
        seat: int,
        hand: int,
        counts: tuple[int, ...] | list[int],
        order: tuple[int, ...] | list[int],
        first: int,
        ranks: tuple[int, ...] | list[int] = (2, 2, 2, 2, 2),
        exchanges: tuple[tuple[int, int, int, bool], ...] = (),
        policy: str = "uniform",
    ) -> InfoSet:
        """The info set at the start of a game (after the exchange), from what a client sees:
        its hand, the card counts, the seats, the first mover, the ranks and the exchange
        entries it took part in. Follow the game with :meth:`observe`."""
        return cls(seat=seat, hand=hand, counts=tuple(counts), played=0, table=0, rev=0,
                   lock=0, passed=0, last=-1, turn=first, finish=(), passcount=0,
                   order=tuple(order), ranks=tuple(ranks), exchanges=tuple(exchanges),
                   history=(), policy=policy)

    def observe(self, player: int, move: int) -> InfoSet:
        """The info set after ``player`` made ``move`` (an accepted play, or PASS for a pass
        or a rejected submission). Public state follows the rules engine; only card counts
        of the others are needed, so a placeholder world is used."""
        if player != self.turn:
            raise ValueError(f"player {player} acted but player {self.turn} was to move")
        cards = move_cards(move)
        if player == self.seat and cards & ~self.hand:
            raise ValueError("own play with cards not in hand")
        if player != self.seat and cards & ~self.unseen() & ~self.known()[player]:
            raise ValueError("play with cards that cannot be in that hand")
        pool = cards_of(ALL_CARDS & ~self.hand & ~self.played & ~cards)
        hands = [0] * R.NP
        hands[self.seat] = self.hand
        k = 0
        for p in range(R.NP):
            if p == self.seat:
                continue
            h = cards if p == player else 0
            for _ in range(self.counts[p] - popcount(h)):
                h |= 1 << pool[k]
                k += 1
            hands[p] = h
        st = self._state_list(hands)
        R.apply_move(st, move)
        return replace(
            self,
            hand=st[R.H0 + self.seat],
            counts=tuple(popcount(st[R.H0 + p]) for p in range(R.NP)),
            played=self.played | cards,
            table=st[R.TABLE], rev=st[R.REV], lock=st[R.LOCK], passed=st[R.PASSED],
            last=st[R.LAST], turn=st[R.TURN],
            finish=tuple(st[R.FINISH:R.FINISH + st[R.NOUT]]),
            passcount=st[R.PASSCOUNT],
            history=self.history + ((player, move),),
        )

    def with_policy(self, policy: str, weights: np.ndarray | None = None) -> InfoSet:
        """The same info set whose playouts follow ``policy`` ("learned" needs ``weights``:
        one row of θ per player, 5 x N_FEATURES)."""
        if policy not in POLICIES:
            raise ValueError(f"unknown playout policy {policy!r}")
        if policy == "learned" and weights is None:
            raise ValueError("the learned policy needs its weights")
        w = None if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
        if w is not None and (w.ndim != 2 or w.shape[0] != R.NP):
            raise ValueError(f"weights must have one row per player, got shape {w.shape}")
        return replace(self, policy=policy, weights=w)

    def with_reward(self, reward: str) -> InfoSet:
        """The same info set whose playouts report r_t of kind ``reward`` ("players": the
        random-finish expectation of the players still in, "cards": their card counts)."""
        if reward not in REWARDS:
            raise ValueError(f"unknown intermediate reward {reward!r}")
        return replace(self, reward=REWARDS[reward])

    def with_sure_finishes(self, on: bool = True) -> InfoSet:
        """The same info set whose playouts play the seat's own sure finishes whenever it has
        one (:func:`games.daihinmin.endgame.sure_first_kernel`), as a client with ``endgame``
        on does; the other players keep the playout policy."""
        return replace(self, own_sure=bool(on))

    def with_rule_players(self, rule_w: np.ndarray | None) -> InfoSet:
        """The same info set whose playouts let each other player p play the rule player's
        move (the heuristic policy's) with probability ``rule_w[p]``, else the policy's."""
        w = None if rule_w is None else np.ascontiguousarray(rule_w, dtype=np.float64)
        if w is not None and w.shape != (R.NP,):
            raise ValueError("rule_w: one weight per player")
        return replace(self, rule_w=w)

    def with_worlds(self, worlds: np.ndarray | None) -> InfoSet:
        """The same info set whose determinisations are drawn from ``worlds`` (n x 5 hands by
        player, each consistent with this info set, e.g. sampled by the inference of
        :mod:`games.daihinmin.inference`) instead of dealt uniformly."""
        w = None if worlds is None else np.ascontiguousarray(worlds, dtype=np.int64)
        if w is not None and (w.ndim != 2 or w.shape[1] != R.NP or len(w) == 0):
            raise ValueError("worlds must be a non-empty n x 5 array of hands")
        return replace(self, worlds=w)

    # ------------------------------------------------------------------ knowledge
    def known(self) -> list[int]:
        """Cards known to be in each other player's hand (given by ``seat``, still unplayed
        and not given back)."""
        kn = [0] * R.NP
        for src, dst, cards, _ in self.exchanges:
            if src == self.seat and dst != self.seat:
                kn[dst] |= cards & ~self.played & ~self.hand
        return kn

    def ceilings(self) -> list[int]:
        """Per player, an exclusive upper bound on the strength key of his unseen cards
        (-1 = none): the weakest tribute card he gave ``seat``."""
        ce = [-1] * R.NP
        for src, dst, cards, tribute in self.exchanges:
            if tribute and dst == self.seat and src != self.seat and cards:
                ce[src] = min(strength_key(c) for c in cards_of(cards))
        return ce

    def unseen(self) -> int:
        kn = 0
        for x in self.known():
            kn |= x
        return ALL_CARDS & ~self.hand & ~self.played & ~kn

    def needs(self) -> list[int]:
        kn = self.known()
        return [-1 if p == self.seat else self.counts[p] - popcount(kn[p]) for p in range(R.NP)]

    def _state_list(self, hands: list[int]) -> list[int]:
        st = R.new_state(hands, list(self.order), self.turn)
        st[R.TABLE] = self.table
        st[R.REV] = self.rev
        st[R.LOCK] = self.lock
        st[R.PASSED] = self.passed
        st[R.LAST] = self.last
        st[R.TURN] = self.turn
        st[R.PASSCOUNT] = self.passcount
        for i, p in enumerate(self.finish):
            st[R.FINISH + i] = p
            st[R.OUTMASK] |= 1 << p
        st[R.NOUT] = len(self.finish)
        if self.turn < 0 and len(self.finish) < R.NP:
            st[R.STALE] = 1
        return st

    # ------------------------------------------------------------------ contract
    def deal_hands(self, rng: np.random.Generator) -> list[int]:
        """Hands of a random world consistent with this info set (plain Python)."""
        kn = self.known()
        need = self.needs()
        ce = self.ceilings()
        pool = cards_of(self.unseen())
        order = [pool[i] for i in rng.permutation(len(pool))]
        used = [False] * len(order)
        hands = [0] * R.NP
        hands[self.seat] = self.hand
        done = set()
        for p in range(R.NP):
            if need[p] > 0 and ce[p] >= 0:
                elig = [i for i, c in enumerate(order) if strength_key(c) < ce[p]]
                if len(elig) >= need[p]:
                    h = kn[p]
                    for i in elig[:need[p]]:
                        h |= 1 << order[i]
                        used[i] = True
                    hands[p] = h
                    done.add(p)
        left = [i for i in range(len(order)) if not used[i]]
        if done:  # the cards left in a fresh order: every consistent deal equally likely
            left = [left[j] for j in rng.permutation(len(left))]
        rest = iter(left)
        for p in range(R.NP):
            if p == self.seat or p in done:
                continue
            h = kn[p]
            for _ in range(need[p]):
                h |= 1 << order[next(rest)]
            hands[p] = h
        return hands

    def sample_world(self, rng: np.random.Generator) -> GameState:
        if self.worlds is not None:
            hands = [int(x) for x in self.worlds[int(rng.integers(len(self.worlds)))]]
        else:
            hands = self.deal_hands(rng)
        g = GameState.__new__(GameState)
        g.st = self._state_list(hands)
        g.ranks = list(self.ranks)
        g.exchanges = [Exchange(s, d, c, t) for s, d, c, t in self.exchanges]
        g.dealt = list(hands)
        g.history = list(self.history)
        g.seed = int(rng.integers(1 << 30))
        g.lead_pass = False
        return g

    def legal_moves(self) -> list[int]:
        if self.turn != self.seat:
            raise ValueError(f"not player {self.seat}'s turn (player {self.turn} moves)")
        return R.legal_moves(self.hand, self.table, self.rev, self.lock)

    def move_priors(self, moves: list[int]) -> np.ndarray:
        """The learned policy's probabilities of ``moves`` for this player (uniform without
        weights): the move ordering of the search."""
        if self.weights is None:
            return np.full(len(moves), 1.0 / max(len(moves), 1))
        others = ALL_CARDS & ~self.hand & ~self.played
        opp = min((c for p, c in enumerate(self.counts) if p != self.seat and c), default=0)
        probs: np.ndarray = policy_probs(self.hand, others, self.table, self.rev, self.lock,
                                         opp, np.asarray(moves, dtype=np.int64),
                                         self.weights[self.seat])
        return probs

    # ------------------------------------------------------------------ fast path
    def _arrays(self) -> tuple[Any, ...]:
        cached = self.__dict__.get("_cache")
        if cached is None:
            hands = [0] * R.NP
            hands[self.seat] = self.hand
            st0 = np.asarray(self._state_list(hands), dtype=np.int64)
            pool = np.asarray(cards_of(self.unseen()), dtype=np.int64)
            need = np.asarray(self.needs(), dtype=np.int64)
            known = np.asarray(self.known(), dtype=np.int64)
            ceil = np.asarray(self.ceilings(), dtype=np.int64)
            cached = (st0, pool, need, known, ceil)
            object.__setattr__(self, "_cache", cached)
        return cached

    def playout_batch(self, moves: Any, rng: np.random.Generator, seat: int) -> PlayoutBatch:
        """For each move: sample a world, play the move for ``seat``, play out (the info set's
        ``policy``) until ``seat`` is out; one numba call for the whole batch."""
        if seat != self.seat or self.turn != seat:
            raise ValueError("playout_batch is for the info set's own player, on its turn")
        st0, pool, need, known, ceil = self._arrays()
        mv = np.asarray(moves, dtype=np.int64)
        k = mv.shape[0]
        returns = np.empty(k, np.float64)
        evals = np.zeros((k, K.MAX_EVALS), np.float64)
        n_evals = np.zeros(k, np.int64)
        seed = int(rng.bit_generator.random_raw()) >> 2  # reproducible from the generator
        policy = POLICIES[self.policy]
        if (self.worlds is None and self.weights is None and self.reward == REWARD_PLAYERS
                and not self.own_sure and self.rule_w is None):
            # the wave-1 kernel
            t = K.playout_batch_kernel(st0, mv, seat, pool, need, known, ceil, policy, seed,
                                       returns, evals, n_evals)
            return PlayoutBatch(returns, evals[:, :t], n_evals)
        if self.worlds is not None:
            worlds = self.worlds[rng.integers(len(self.worlds), size=k)]
        else:
            worlds = K.deal_worlds(st0, pool, need, known, ceil, seed ^ 0x5DEECE66D, k)
        W = self.weights if self.weights is not None else no_weights()
        t = playout_worlds_kernel(st0, mv, worlds, seat, policy, self.reward, W, seed,
                                  returns, evals, n_evals, self.own_sure,
                                  self.rule_w if self.rule_w is not None else np.empty(0))
        return PlayoutBatch(returns, evals[:, :t], n_evals)
