"""Inference of the hidden hands from every observed action.

A model of how each opponent acts, P(a | hand, public state) — the learned softmax policy of
:mod:`knowledge.daihinmin.learned`, smoothed as (1 − ε) π + ε / |candidates| so that no observed
action is impossible — turns each play and each pass (with the table it passed on) into
evidence about the hands. A world w (the hands of the opponents now) has the likelihood

    L(w) = Π_t P(a_t | hand_w(p_t, t), public_t)

over the opponents' observed actions, where p's hand at time t is its hand now plus every
card it played from t on. With a rule weight w_p (``rule_w``) p's model is the mixture
(1 − w_p) π + w_p [a = the rule player's move] (``policies.heuristic_move``: the sample
client's choice, the heuristic playout policy's), so that a player known to follow the rule
gives strong evidence: a pass says it had no meld to play, a lead of a single that it held
no pair.

Hard facts stay hard: card counts, cards played, the cards we gave in the exchange (they stay
with the receiver until played) and the tribute bound (a player who gave us its strongest
cards holds nothing stronger).

The exchanges we took no part in are evidence too (``exchange_prior``): the hinmin gave the
fugo its strongest card, the daihinmin the daifugo its two strongest, and each got as many
cards of the receiver's choice back. With the dealt hands uniform, the hands two such players
held when the game began (``lo``, ``hi``: hand now plus cards played since) have the prior
weight

    X(lo, hi) = #{(T ⊆ hi, G ⊆ lo), |T| = |G| = k : T are the k strongest of lo − G + T}
                + floor · C(|lo|, k)

(the gift G of any kind; ``floor`` keeps worlds no exchange explains possible, for a server
whose rules differ). So the tribute's receiver likely holds the giver's best cards: a joker
we do not hold is almost never a giver's, and a receiver holds it twice as often as the
heimin.

Worlds are drawn by **MCMC** (Metropolis): from a consistent deal, propose swapping one card
between two opponents (counts and hard facts kept) and accept with min(1, L(w')/L(w)); only
the two players' actions are re-evaluated. The chain persists through a game
(:class:`HandSampler`): after new observations the previous world is repaired (cards played
by a player the world did not give him are swapped in) and the chain goes on, so a decision
needs only a short run.

``py_log_likelihood`` is the plain-Python reference of the kernel's likelihood.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

import games.daihinmin.rules as R
from games.daihinmin.cards import ALL_CARDS, PASS, cards_of, move_cards
from games.daihinmin.cards import popcount as py_popcount
from games.daihinmin.kernels import (
    gen_moves_cached,
    lowbit_index,
    popcount,
    rng_below,
    rng_uniform,
    strength_key,
)
from games.daihinmin.match import TRIBUTES
from games.daihinmin.rules import NP
from games.daihinmin.state import InfoSet
from knowledge.daihinmin.learned import (
    compact_weights,
    policy_logits,
    py_policy_probs,
    scratch,
)
from knowledge.daihinmin.policies import heuristic_move, heuristic_pick

I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Evidence:
    """The opponents' observed actions, in order, with what the model needs of each:
    ``player``, ``move``, the public ``table``/``rev``/``lock``/``opp_min`` (fewest cards of
    another player then), ``before`` (cards played before it) and ``later`` (cards its
    player played from then on, the move included)."""

    player: I64
    move: I64
    table: I64
    rev: I64
    lock: I64
    opp_min: I64
    before: I64
    later: I64

    def __len__(self) -> int:
        return len(self.player)


def evidence(seat: int, order: tuple[int, ...], counts_now: tuple[int, ...],
             history: tuple[tuple[int, int], ...]) -> Evidence:
    """The evidence of ``history`` (every action of the game so far, ours included) for the
    player ``seat``: the public state is replayed on placeholder hands of the right sizes."""
    played_by = [0] * R.NP
    for p, m in history:
        played_by[p] |= move_cards(m)
    counts0 = [counts_now[p] + py_popcount(played_by[p]) for p in range(R.NP)]
    pool = cards_of(ALL_CARDS & ~_or(played_by))
    hands = []
    for p in range(R.NP):
        h = played_by[p]
        for _ in range(counts0[p] - py_popcount(h)):
            h |= 1 << pool.pop()
        hands.append(h)
    first = history[0][0] if history else 0
    st = R.new_state(hands, list(order), first)
    rows: list[tuple[int, ...]] = []
    before = 0
    later = list(played_by)
    for p, m in history:
        if p != seat and not (m == PASS and st[R.TABLE] == PASS):
            opp = min((py_popcount(st[R.H0 + q]) for q in range(R.NP)
                       if q != p and st[R.H0 + q]), default=0)
            rows.append((p, m, st[R.TABLE], st[R.REV], st[R.LOCK], opp, before, later[p]))
        st[R.TURN] = p  # the history is the truth; the placeholder replay follows it
        R.apply_move(st, m)
        before |= move_cards(m)
        later[p] &= ~move_cards(m)
    cols = list(zip(*rows, strict=True)) if rows else [()] * 8
    return Evidence(*(np.array(c, dtype=np.int64) for c in cols))


def _or(xs: list[int]) -> int:
    out = 0
    for x in xs:
        out |= x
    return out


# ----------------------------------------------------------------------------- reference

def py_log_likelihood(ev: Evidence, p: int, hand_now: int, theta: np.ndarray,
                      eps: float, rule_w: float = 0.0) -> float:
    """log Π over p's actions of (1 − ε) ((1 − w) π(a | hand then) + w [a = rule's move])
    + ε / |candidates| (reference; ``w = rule_w``)."""
    total = 0.0
    for i in range(len(ev)):
        if ev.player[i] != p:
            continue
        hand = hand_now | int(ev.later[i])
        others = ALL_CARDS & ~hand & ~int(ev.before[i])
        table = int(ev.table[i])
        cands = R.legal_moves(hand, table, int(ev.rev[i]), int(ev.lock[i]))
        if len(cands) < 2:
            continue
        probs = py_policy_probs(hand, others, table, int(ev.rev[i]), int(ev.lock[i]),
                                int(ev.opp_min[i]), cands, theta)
        j = cands.index(int(ev.move[i]))
        q = probs[j]
        if rule_w > 0:
            rule = heuristic_move(hand, table, int(ev.rev[i]), int(ev.lock[i]))
            q = (1 - rule_w) * q + rule_w * (rule == int(ev.move[i]))
        total += math.log((1 - eps) * q + eps / len(cands))
    return total


# ----------------------------------------------------------------------------- kernels

@njit(cache=True)
def log_likelihood(ev_player: I64, ev_move: I64, ev_table: I64, ev_rev: I64, ev_lock: I64,
                   ev_opp: I64, ev_before: I64, ev_later: I64, p: int, hand_now: int,
                   theta: np.ndarray, eps: float, cand: np.ndarray, z: np.ndarray,
                   ctx: np.ndarray, feat: np.ndarray, tinfo: np.ndarray,
                   rule_w: float = 0.0) -> float:
    """Kernel of :func:`py_log_likelihood` (the evidence as its columns)."""
    total = 0.0
    for i in range(ev_player.shape[0]):
        if ev_player[i] != p:
            continue
        hand = hand_now | ev_later[i]
        others = ((1 << 53) - 1) & ~hand & ~ev_before[i]
        table = ev_table[i]
        tinfo[0] = -1
        n = gen_moves_cached(hand, table, ev_rev[i], ev_lock[i], cand, tinfo)
        k = n
        if table != 0:
            cand[n] = 0
            k = n + 1
        if k < 2:
            continue
        zmax = policy_logits(hand, others, table, ev_rev[i], ev_lock[i], ev_opp[i], cand, k,
                             theta, z, ctx, feat)
        s = 0.0
        zm = -1e300
        for j in range(k):
            e = np.exp(z[j] - zmax)
            s += e
            if cand[j] == ev_move[i]:
                zm = e
        prob = zm / s if zm > -1e299 else 0.0
        if rule_w > 0.0:
            rule = 0 if n == 0 else cand[heuristic_pick(cand, n, ev_rev[i], table == 0)]
            prob = (1.0 - rule_w) * prob + (rule_w if rule == ev_move[i] else 0.0)
        total += np.log((1.0 - eps) * prob + eps / k)
    return total


EXCHANGE_FLOOR = 0.05  # the weight of worlds no unseen exchange explains (see above)


def unseen_exchanges(seat: int, ranks: tuple[int, ...] | list[int]) -> list[tuple[int, int, int]]:
    """The exchanges of a game that ``seat`` took no part in, as (the tribute's giver, its
    receiver, cards each way): the daihinmin gives the daifugo 2, the hinmin the fugo 1. None
    when the ranks are not the five distinct classes (a game without exchange)."""
    ranks = list(ranks)
    if sorted(ranks) != list(range(R.NP)):
        return []
    pairs = [(ranks.index(src), ranks.index(dst), n) for src, dst, n in TRIBUTES]
    return [x for x in pairs if seat not in x[:2]]


def py_exchange_log_prior(lo: int, hi: int, k: int, floor: float = EXCHANGE_FLOOR) -> float:
    """log X(lo, hi) (the module's docstring) by enumerating every tribute T and gift G: the
    plain-Python reference of :func:`exchange_log_prior`."""
    from itertools import combinations

    from games.daihinmin.cards import hand_from_cards, strongest

    ways = 0
    for t in combinations(cards_of(hi), k):
        tt = hand_from_cards(list(t))
        for g in combinations(cards_of(lo), k):
            if strongest(lo & ~hand_from_cards(list(g)) | tt, k) == tt:
                ways += 1
    return math.log(ways + floor * math.comb(py_popcount(lo), k))


@njit(cache=True)
def _comb(n: int, r: int) -> float:
    if r < 0 or r > n:
        return 0.0
    out = 1.0
    for i in range(r):
        out = out * (n - i) / (i + 1)
    return out


@njit(cache=True)
def _count_above(hand: int, key: int) -> int:
    n = 0
    while hand:
        c = lowbit_index(hand)
        hand &= hand - 1
        if strength_key(c) > key:
            n += 1
    return n


@njit(cache=True)
def exchange_log_prior(lo: int, hi: int, k: int, floor: float) -> float:
    """log X(lo, hi): for each card t of ``hi`` as the weakest of the tribute T, the T's (the
    other k − 1 cards of ``hi`` above t) times the gifts G (they must hold the a cards of
    ``lo`` above t, a <= k, and k − a others)."""
    n = popcount(lo)
    ways = 0.0
    x = hi
    while x:
        t = lowbit_index(x)
        x &= x - 1
        key = strength_key(t)
        a = _count_above(lo, key)
        if a <= k:
            ways += _comb(_count_above(hi, key), k - 1) * _comb(n - a, k - a)
    return float(np.log(ways + floor * _comb(n, k)))


@njit(cache=True)
def _exchange_prior(hands: I64, played_by: I64, ex: I64, floor: float) -> float:
    """Σ log X over the unseen exchanges ``ex`` (rows lo, hi, k) of the hands at the start
    (``hands`` now plus ``played_by``)."""
    total = 0.0
    for e in range(ex.shape[0]):
        lo = ex[e, 0]
        hi = ex[e, 1]
        total += exchange_log_prior(hands[lo] | played_by[lo], hands[hi] | played_by[hi],
                                    ex[e, 2], floor)
    return total


@njit(cache=True)
def mcmc_worlds(hands: I64, fixed: I64, ceil: I64, seat: int, ev_player: I64, ev_move: I64,
                ev_table: I64, ev_rev: I64, ev_lock: I64, ev_opp: I64, ev_before: I64,
                ev_later: I64, W: np.ndarray, eps: float, burn: int, n_worlds: int,
                thin: int, seed: int, out: I64, rule_w: np.ndarray,
                played_by: I64, ex: I64, floor: float) -> int:
    """Run the Metropolis chain from ``hands`` (5 hands by player, updated in place) for
    ``burn`` steps, then record ``n_worlds`` worlds into ``out`` every ``thin`` steps.
    ``fixed[p]``: cards of p that may not move (known from the exchange); ``ceil[p] >= 0``:
    p's other cards must have a strength key below it; ``ex``: the unseen exchanges (rows
    lo, hi, k), whose prior X weighs the worlds, with ``played_by[p]`` the cards p has
    played. Returns the number of accepted swaps."""
    rs, cand, z, ctx, feat, tinfo = scratch(seed)
    ll = np.zeros(NP, np.float64)
    players = np.empty(NP, np.int64)
    n_pl = 0
    for p in range(NP):
        if p != seat and (hands[p] & ~fixed[p]) != 0:
            players[n_pl] = p
            n_pl += 1
            ll[p] = log_likelihood(ev_player, ev_move, ev_table, ev_rev, ev_lock, ev_opp,
                                   ev_before, ev_later, p, hands[p], W[p], eps, cand, z, ctx,
                                   feat, tinfo, rule_w[p])
    prior = _exchange_prior(hands, played_by, ex, floor)
    accepted = 0
    steps = burn + n_worlds * thin
    rec = 0
    for step in range(steps):
        if n_pl >= 2:
            i = rng_below(rs, n_pl)
            j = rng_below(rs, n_pl - 1)
            if j >= i:
                j += 1
            p = players[i]
            q = players[j]
            fp = hands[p] & ~fixed[p]
            fq = hands[q] & ~fixed[q]
            c = _nth_bit(fp, rng_below(rs, popcount(fp)))
            d = _nth_bit(fq, rng_below(rs, popcount(fq)))
            ok = True
            if ceil[p] >= 0 and strength_key(d) >= ceil[p]:
                ok = False
            if ceil[q] >= 0 and strength_key(c) >= ceil[q]:
                ok = False
            if ok:
                hp = (hands[p] & ~(1 << c)) | (1 << d)
                hq = (hands[q] & ~(1 << d)) | (1 << c)
                lp = log_likelihood(ev_player, ev_move, ev_table, ev_rev, ev_lock, ev_opp,
                                    ev_before, ev_later, p, hp, W[p], eps, cand, z, ctx, feat,
                                    tinfo, rule_w[p])
                lq = log_likelihood(ev_player, ev_move, ev_table, ev_rev, ev_lock, ev_opp,
                                    ev_before, ev_later, q, hq, W[q], eps, cand, z, ctx, feat,
                                    tinfo, rule_w[q])
                delta = lp + lq - ll[p] - ll[q]
                hp0 = hands[p]
                hq0 = hands[q]
                hands[p] = hp
                hands[q] = hq
                pr = prior if ex.shape[0] == 0 else _exchange_prior(hands, played_by, ex,
                                                                     floor)
                delta += pr - prior
                if delta >= 0.0 or rng_uniform(rs) < np.exp(delta):
                    ll[p] = lp
                    ll[q] = lq
                    prior = pr
                    accepted += 1
                else:
                    hands[p] = hp0
                    hands[q] = hq0
        if step >= burn and (step - burn) % thin == thin - 1 and rec < n_worlds:
            for p in range(NP):
                out[rec, p] = hands[p]
            rec += 1
    return accepted


@njit(cache=True)
def _nth_bit(x: int, n: int) -> int:
    """Index of the n-th set bit of x (0-based, from the lowest)."""
    for _ in range(n):
        x &= x - 1
    return lowbit_index(x)


# ----------------------------------------------------------------------------- the sampler

class HandSampler:
    """Worlds for one player through one game: a Metropolis chain over the opponents' hands,
    kept between decisions. ``worlds(info, W, n, rng, rule_w)`` returns n worlds (n x 5
    hands by player) consistent with the info set, distributed by the evidence of its
    history (the models: rows of ``W``, mixed with the rule player by ``rule_w``) and, with
    ``exchange_prior``, by the exchanges it took no part in."""

    def __init__(self, eps: float = 0.05, burn: int = 200, thin: int = 16,
                 exchange_prior: bool = False) -> None:
        self.eps = eps
        self.burn = burn
        self.thin = thin
        self.exchange_prior = exchange_prior
        self._key: tuple[int, tuple[int, ...]] | None = None  # (seat, order) of the game
        self._hands: list[int] | None = None
        self._history_len = 0
        self.accepted = 0
        self.steps = 0

    def reset(self) -> None:
        self._key = None
        self._hands = None

    def worlds(self, info: InfoSet, W: np.ndarray, n: int, rng: np.random.Generator,
               rule_w: npt.ArrayLike | None = None) -> I64:
        key = (info.seat, info.order)
        fresh = self._hands is None or key != self._key or len(info.history) < \
            self._history_len
        hands = info.deal_hands(rng) if fresh else self._repair(info, rng)
        self._key = key
        self._history_len = len(info.history)
        ev = evidence(info.seat, info.order, info.counts, info.history)
        fixed = np.array(info.known(), dtype=np.int64)
        ceil = np.array(info.ceilings(), dtype=np.int64)
        h = np.array(hands, dtype=np.int64)
        out = np.empty((n, R.NP), dtype=np.int64)
        burn = self.burn if fresh else max(self.burn // 4, 1)
        played_by = np.zeros(R.NP, np.int64)
        for p, m in info.history:
            played_by[p] |= move_cards(m)
        ex = np.array(unseen_exchanges(info.seat, info.ranks) if self.exchange_prior else [],
                      dtype=np.int64).reshape(-1, 3)
        acc = mcmc_worlds(h, fixed, ceil, info.seat, ev.player, ev.move, ev.table, ev.rev,
                          ev.lock, ev.opp_min, ev.before, ev.later,
                          compact_weights(np.ascontiguousarray(W, np.float64)), self.eps,
                          burn, n, self.thin,
                          int(rng.integers(1 << 62)), out,
                          np.zeros(R.NP) if rule_w is None else np.asarray(rule_w, np.float64),
                          played_by, ex, EXCHANGE_FLOOR)
        self.accepted += acc
        self.steps += burn + n * self.thin
        self._hands = [int(x) for x in h]
        return out

    def _repair(self, info: InfoSet, rng: np.random.Generator) -> list[int]:
        """The previous world with what was played since removed, and the cards a player
        played that the world gave someone else swapped in (the swap partner gets one of
        the player's free cards), so that every hand matches the counts again."""
        assert self._hands is not None
        hands = [h & ~info.played for h in self._hands]
        hands[info.seat] = info.hand
        known = info.known()
        for p, m in info.history[self._history_len:]:
            for c in cards_of(move_cards(m)):
                if p == info.seat:
                    continue
                holder = next((q for q in range(R.NP) if q != info.seat and
                               self._hands[q] >> c & 1), None)
                if holder is None or holder == p:
                    continue
                # p played c, the world gave it to holder: holder gets one of p's free cards
                free = cards_of(hands[p] & ~known[p])
                if free:
                    d = free[int(rng.integers(len(free)))]
                    hands[p] &= ~(1 << d)
                    hands[holder] |= 1 << d
        # counts can still be off (a resync of the tracker): move free cards where needed
        need = [info.counts[p] - py_popcount(hands[p]) for p in range(R.NP)]
        need[info.seat] = 0
        spare = [c for p in range(R.NP) if need[p] < 0
                 for c in cards_of(hands[p] & ~known[p])[:-need[p]]]
        for c in spare:
            for p in range(R.NP):
                if hands[p] >> c & 1:
                    hands[p] &= ~(1 << c)
        missing = cards_of(info.unseen() & ~_or(hands))
        pool = spare + [c for c in missing if c not in spare]
        rng.shuffle(pool)
        for p in range(R.NP):
            while need[p] > 0 and pool:
                hands[p] |= 1 << pool.pop()
                need[p] -= 1
        if [py_popcount(h) for h in hands] != list(info.counts) or _or(hands) & info.played:
            return info.deal_hands(rng)  # could not repair: start afresh
        return hands


# ----------------------------------------------------------------------------- exchange

class TributeModel:
    """What the daifugo (fugo) can infer when it chooses its gift: it holds the ``n`` cards
    the receiver was forced to give (the receiver's strongest) among the cards of its hand,
    without knowing which. The receiver kept ``kept`` cards, all weaker than the tribute, so

        P(tribute = T) ∝ C(u(T), kept),

    u(T) = the unseen cards weaker than the weakest card of T. :meth:`deal` draws T by that
    weight, then the receiver's kept cards among those weaker unseen cards, then the other
    hands uniformly."""

    def __init__(self, hand0: int, n: int, kept: int) -> None:
        from itertools import combinations

        from games.daihinmin.cards import strength_key as key

        self.hand0 = hand0
        self.kept = kept
        unseen = cards_of(ALL_CARDS & ~hand0)
        self.unseen_keys = sorted(key(c) for c in unseen)
        self.options: list[tuple[int, list[int]]] = []
        weights = []
        for t in combinations(cards_of(hand0), n):
            low = min(key(c) for c in t)
            below = [c for c in unseen if key(c) < low]
            w = math.comb(len(below), kept)
            if w > 0:
                self.options.append((sum(1 << c for c in t), below))
                weights.append(float(w))
        total = sum(weights)
        self.p = np.array(weights) / total if total else np.zeros(0)
        # the options for deal_many's kernel: each one's weaker unseen cards (padded), their
        # count, and the cumulative probabilities
        self.below = np.zeros((len(self.options), 53), np.int64)
        self.nbelow = np.array([len(b) for _, b in self.options], np.int64)
        for i, (_, b) in enumerate(self.options):
            self.below[i, :len(b)] = b
        self.cum = np.cumsum(self.p)
        if len(self.cum):
            self.cum[-1] = 1.0

    def deal(self, me: int, dst: int, gift: int, counts: list[int],
             rng: np.random.Generator) -> list[int]:
        """Hands after the exchange: ours without the gift, the receiver's kept cards and the
        gift, the rest of the unseen cards dealt to the others by ``counts``."""
        hands = [0] * R.NP
        hands[me] = self.hand0 & ~gift
        unseen = ALL_CARDS & ~self.hand0
        if len(self.p):
            _, below = self.options[int(rng.choice(len(self.p), p=self.p))]
            kept = [below[i] for i in rng.choice(len(below), size=self.kept, replace=False)]
        else:  # nothing consistent (cannot happen with a real deal): uniform
            pool = cards_of(unseen)
            kept = [pool[i] for i in rng.choice(len(pool), size=self.kept, replace=False)]
        hands[dst] = gift | sum(1 << c for c in kept)
        rest = cards_of(unseen & ~hands[dst])
        order = rng.permutation(len(rest))
        k = 0
        for q in range(R.NP):
            if q in (me, dst):
                continue
            for _ in range(counts[q]):
                hands[q] |= 1 << rest[order[k]]
                k += 1
        return hands

    def deal_many(self, me: int, dst: int, gifts: npt.ArrayLike, counts: list[int],
                  rng: np.random.Generator) -> np.ndarray:
        """:meth:`deal` for each gift of ``gifts`` at once (numba): a k x 5 array of hands."""
        if not len(self.p):
            raise ValueError("no tribute is consistent with the hand")
        return _tribute_deals(self.hand0, me, dst, np.ascontiguousarray(gifts, dtype=np.int64),
                              np.asarray(counts, np.int64), self.kept, self.below, self.nbelow,
                              self.cum, int(rng.integers(1, 1 << 62)))


@njit(cache=True)
def _tribute_deals(hand0: int, me: int, dst: int, gifts: np.ndarray, counts: np.ndarray,
                   kept: int, below: np.ndarray, nbelow: np.ndarray, cum: np.ndarray,
                   seed: int) -> np.ndarray:
    """Kernel of :meth:`TributeModel.deal_many`: per gift, the tribute option by ``cum``,
    ``kept`` of its weaker unseen cards for the receiver, the rest shuffled out by counts."""
    rs = np.empty(1, np.uint64)
    rs[0] = np.uint64(seed)
    out = np.zeros((gifts.shape[0], NP), np.int64)
    pool = np.empty(53, np.int64)
    for i in range(gifts.shape[0]):
        u = rng_uniform(rs)
        o = 0
        while o < cum.shape[0] - 1 and cum[o] < u:
            o += 1
        nb = nbelow[o]
        for j in range(nb):
            pool[j] = below[o, j]
        recv = gifts[i]
        for j in range(kept):  # a partial Fisher-Yates shuffle of the weaker unseen cards
            r = j + rng_below(rs, nb - j)
            c = pool[r]
            pool[r] = pool[j]
            pool[j] = c
            recv |= 1 << c
        out[i, me] = hand0 & ~gifts[i]
        out[i, dst] = recv
        rest = ALL_CARDS & ~hand0 & ~recv
        n = 0
        while rest:
            c = lowbit_index(rest)
            rest &= rest - 1
            pool[n] = c
            n += 1
        k = 0
        for q in range(NP):
            if q == me or q == dst:
                continue
            h = 0
            for _ in range(counts[q]):
                r = k + rng_below(rs, n - k)
                c = pool[r]
                pool[r] = pool[k]
                pool[k] = c
                h |= 1 << c
                k += 1
            out[i, q] = h
    return out
