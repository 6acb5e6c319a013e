"""Inference of hidden hands: the likelihood kernel against its reference, worlds consistent
with the info set, and a flat likelihood leaves the deal uniform."""

from __future__ import annotations

import math

import numpy as np
import pytest

from games.daihinmin import rules as R
from games.daihinmin.cards import ALL_CARDS, cards_of, hand_from_cards, move_cards, popcount
from games.daihinmin.kernels import MAX_MOVES, strength_key
from games.daihinmin.match import Match, MatchConfig
from knowledge.daihinmin.features import N_FEATURES
from knowledge.daihinmin.inference import (
    HandSampler,
    evidence,
    exchange_log_prior,
    log_likelihood,
    py_exchange_log_prior,
    py_log_likelihood,
    unseen_exchanges,
)
from knowledge.daihinmin.policies import heuristic_move

THETA = np.random.default_rng(8).normal(0, 1.0, N_FEATURES)


def _game_states(seed: int, plies: int):  # type: ignore[no-untyped-def]
    """A game after an exchange, played ``plies`` plies by uniform moves."""
    m = Match(MatchConfig(seed=seed))
    m.game, m.ranks = 1, [0, 1, 2, 3, 4]
    d = m.deal()
    for p in range(5):
        if d.to_give(p):
            d.give(p, 0)
    s = d.state()
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        if s.is_terminal():
            break
        lm = s.legal_moves()
        s.play(lm[int(rng.integers(len(lm)))])
    return s


def _kernel_ll(ev, p, hand, theta, eps, rule_w=0.0):  # type: ignore[no-untyped-def]
    bufs = (np.empty(MAX_MOVES + 1, np.int64), np.empty(MAX_MOVES + 1), np.empty(8, np.int64),
            np.empty(N_FEATURES), np.empty(5, np.int64))
    return log_likelihood(ev.player, ev.move, ev.table, ev.rev, ev.lock, ev.opp_min,
                          ev.before, ev.later, p, hand, theta, eps, *bufs, rule_w)


def _rule_game(seed: int, plies: int, p_rule: float):  # type: ignore[no-untyped-def]
    """As _game_states, each move the rule player's with probability ``p_rule``."""
    s = _game_states(seed, 0)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        if s.is_terminal():
            break
        lm = s.legal_moves()
        if rng.random() < p_rule:
            s.play(heuristic_move(s.hand(s.to_move), s.table, int(s.revolution), int(s.lock)))
        else:
            s.play(lm[int(rng.integers(len(lm)))])
    return s


def test_evidence_replays_the_public_state() -> None:
    s = _game_states(3, 30)
    ev = evidence(0, tuple(s.order), tuple(popcount(h) for h in s.hands), tuple(s.history))
    assert len(ev) == sum(1 for p, _ in s.history if p != 0) - \
        sum(1 for i, (p, m) in enumerate(s.history) if p != 0 and m == 0 and ev is None)
    replay = _game_states(3, 0)
    i = 0
    for p, m in s.history:
        if p != 0:
            assert (ev.player[i], ev.move[i], ev.table[i]) == (p, m, replay.table)
            assert ev.later[i] & ~replay.hand(p) == 0  # he held what he played later
            i += 1
        replay.play(m)


def test_likelihood_kernel_matches_reference() -> None:
    for seed in (1, 2, 3):
        s = _game_states(seed, 40)
        me = 0
        ev = evidence(me, tuple(s.order), tuple(popcount(h) for h in s.hands),
                      tuple(s.history))
        for p in range(1, 5):
            for eps in (0.05, 0.5):
                want = py_log_likelihood(ev, p, s.hand(p), THETA, eps)
                assert _kernel_ll(ev, p, s.hand(p), THETA, eps) == pytest.approx(want)


def test_likelihood_with_the_rule_player_matches_reference() -> None:
    for seed in (11, 12):
        s = _rule_game(seed, 45, 0.6)
        ev = evidence(0, tuple(s.order), tuple(popcount(h) for h in s.hands), tuple(s.history))
        for p in range(1, 5):
            for rule_w in (0.3, 0.9):
                want = py_log_likelihood(ev, p, s.hand(p), THETA, 0.05, rule_w)
                got = _kernel_ll(ev, p, s.hand(p), THETA, 0.05, rule_w)
                assert got == pytest.approx(want)


def test_the_rule_player_sharpens_the_reading_of_rule_players() -> None:
    """Against players who play the rule's move, worlds dealt with a high rule weight put
    the unseen cards with their true holders more often than the softmax alone does."""
    brier = {0.0: [], 0.95: []}
    for seed in (21, 22, 23, 24):
        s = _rule_game(seed, 50, 1.0)
        me = 0
        info = s.info_set(me)
        cards = [c for c in range(53) if info.unseen() >> c & 1]
        truth = np.array([[s.hand(p) >> c & 1 for p in range(R.NP)] for c in cards])
        W = np.tile(THETA * 0.3, (5, 1))
        for w, scores in brier.items():
            rule_w = np.full(5, w)
            rule_w[me] = 0
            worlds = HandSampler(burn=300, thin=8).worlds(info, W, 200,
                                                          np.random.default_rng(seed), rule_w)
            f = np.array([[np.mean((worlds[:, p] >> c) & 1) for p in range(R.NP)]
                          for c in cards])
            scores.append(float(((f - truth) ** 2).sum(axis=1).mean()))
    assert np.mean(brier[0.95]) < np.mean(brier[0.0]) - 0.05, brier


def test_worlds_are_consistent_with_the_info_set() -> None:
    for seed in (4, 5):
        s = _game_states(seed, 25)
        for me in range(5):
            info = s.info_set(me)
            sampler = HandSampler(burn=50, thin=2)
            W = np.tile(THETA, (5, 1))
            worlds = sampler.worlds(info, W, 40, np.random.default_rng(seed))
            known = info.known()
            ceil = info.ceilings()
            for w in worlds:
                assert [popcount(int(h)) for h in w] == list(info.counts)
                assert int(w[me]) == info.hand
                union = 0
                for p, h in enumerate(w):
                    assert int(h) & union == 0 and int(h) & info.played == 0
                    assert known[p] & ~int(h) == 0
                    union |= int(h)
                assert union == ALL_CARDS & ~info.played
            assert all(c < 0 for c in ceil) or sampler.accepted >= 0


def test_the_chain_follows_the_game() -> None:
    """Between decisions the chain's world is repaired to the new observations."""
    s = _game_states(6, 10)
    sampler = HandSampler(burn=30, thin=2)
    W = np.tile(THETA, (5, 1))
    rng = np.random.default_rng(1)
    for _ in range(6):
        if s.is_terminal():
            break
        info = s.info_set(2)
        w = sampler.worlds(info, W, 5, rng)
        assert all(popcount(int(h)) == c for h, c in zip(w[-1], info.counts, strict=True))
        for _ in range(7):
            if s.is_terminal():
                break
            lm = s.legal_moves()
            s.play(lm[int(rng.integers(len(lm)))])


def test_the_chain_samples_the_likelihood() -> None:
    """The chain's holder frequencies match uniform deals weighted by L(w) and the prior of
    the exchange the player did not see (importance sampling, with a mild model so that the
    weights stay usable)."""
    s = _game_states(7, 20)
    me = 1
    info = s.info_set(me)
    theta = THETA * 0.4
    W = np.tile(theta, (5, 1))
    rng = np.random.default_rng(3)
    sampler = HandSampler(eps=0.1, burn=200, thin=5, exchange_prior=True)
    chain = sampler.worlds(info, W, 3000, rng)
    uniform = np.array([info.deal_hands(rng) for _ in range(3000)], dtype=np.int64)
    ev = evidence(me, info.order, info.counts, info.history)
    played_by = [0] * 5
    for p, m in info.history:
        played_by[p] |= move_cards(m)
    ex = unseen_exchanges(me, info.ranks)
    assert ex == [(4, 0, 2)]  # the fugo did not see the daihinmin's tribute
    logw = np.array([sum(_kernel_ll(ev, p, int(w[p]), theta, 0.1) for p in range(5)
                         if p != me)
                     + sum(py_exchange_log_prior(int(w[lo]) | played_by[lo],
                                                 int(w[hi]) | played_by[hi], k)
                           for lo, hi, k in ex) for w in uniform])
    wt = np.exp(logw - logw.max())
    wt /= wt.sum()
    assert 1 / np.sum(wt ** 2) > 300  # enough effective samples for the comparison
    cards = [c for c in range(53) if info.unseen() >> c & 1]
    f_chain = np.array([[np.mean((chain[:, p] >> c) & 1) for p in range(R.NP)] for c in cards])
    f_is = np.array([[np.sum(wt * ((uniform[:, p] >> c) & 1)) for p in range(R.NP)]
                     for c in cards])
    f_uni = np.array([[np.mean((uniform[:, p] >> c) & 1) for p in range(R.NP)] for c in cards])
    # the tolerance from the sample sizes: 4.5 standard errors of a frequency of 1/2 (a
    # bound over the ~200 cells), the importance sample counted by its effective size and
    # the chain's worlds as a sixth of their number (successive worlds are alike)
    tol = 4.5 * np.sqrt(0.25 / (1 / np.sum(wt ** 2)) + 0.25 / (len(chain) / 6))
    assert np.abs(f_chain - f_is).max() < tol and np.abs(f_chain - f_is).mean() < 0.02
    # and the evidence moved some card by more than that: dealing uniformly would fail
    assert np.abs(f_uni - f_is).max() > tol


def test_exchange_prior_kernel_matches_reference() -> None:
    rng = np.random.default_rng(11)
    for _ in range(200):
        k = int(rng.integers(1, 3))
        cards = [int(c) for c in rng.permutation(53)[:int(rng.integers(2 * k, 23))]]
        cut = int(rng.integers(k, len(cards) - k + 1))
        lo, hi = hand_from_cards(cards[:cut]), hand_from_cards(cards[cut:])
        for floor in (0.05, 1e-3):
            assert exchange_log_prior(lo, hi, k, floor) == pytest.approx(
                py_exchange_log_prior(lo, hi, k, floor), abs=1e-9)


def test_exchange_prior_counts_the_ways_of_the_exchange() -> None:
    """Hand-made, one card each way: the fugo holds the joker and three 10s, the hinmin ten
    cards from 3 to 9; and the same with the joker and a 3 swapped."""
    joker = 52
    low = [c for c in range(52) if c % 13 <= 6][:10]  # ranks 3..9
    lo = hand_from_cards(low)
    hi = hand_from_cards([joker] + [c for c in range(52) if c % 13 == 7][:3])  # joker, 10s
    # T = the joker or a 10 (nothing of lo above it): any of lo's 10 cards was the gift
    assert math.exp(py_exchange_log_prior(lo, hi, 1, 0.0)) == pytest.approx(4 * 10)
    swapped_lo = lo & ~(1 << low[0]) | 1 << joker
    swapped_hi = hi & ~(1 << joker) | 1 << low[0]
    # the hinmin holds the joker: only if it came back as the gift, T a 10 (3 ways)
    assert math.exp(py_exchange_log_prior(swapped_lo, swapped_hi, 1, 0.0)) == pytest.approx(3)
    assert exchange_log_prior(swapped_lo, swapped_hi, 1, 0.05) < exchange_log_prior(
        lo, hi, 1, 0.05)


def test_unseen_exchanges() -> None:
    ranks = (3, 0, 4, 2, 1)  # player 1 daifugo, 4 fugo, 3 heimin, 0 hinmin, 2 daihinmin
    assert unseen_exchanges(3, ranks) == [(2, 1, 2), (0, 4, 1)]
    assert unseen_exchanges(1, ranks) == [(0, 4, 1)]
    assert unseen_exchanges(0, ranks) == [(2, 1, 2)]
    assert unseen_exchanges(0, (2, 2, 2, 2, 2)) == []  # a game without exchange


def test_the_exchange_prior_reads_the_unseen_exchanges() -> None:
    """At the start of a game the heimin saw neither exchange: worlds weighed by them put the
    tribute's cards with its receivers, and score better on the true hands."""
    W = np.zeros((5, N_FEATURES))
    me = 2
    scores: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(20):
        m = Match(MatchConfig(seed=seed))
        m.game, m.ranks = 1, [0, 1, 2, 3, 4]
        d = m.deal()
        for p in range(5):
            if d.to_give(p):  # the weakest cards back, as the sample clients give
                d.give(p, hand_from_cards(sorted(cards_of(d.hands[p]),
                                                 key=strength_key)[:d.to_give(p)]))
        s = d.state()
        info = s.info_set(me)
        for on in (True, False):
            worlds = HandSampler(exchange_prior=on).worlds(info, W, 64,
                                                           np.random.default_rng(seed))
            brier = []
            for c in cards_of(info.unseen()):
                f = np.array([np.mean((worlds[:, p] >> c) & 1) for p in range(5)])
                f[next(q for q in range(5) if s.hand(q) >> c & 1)] -= 1.0
                brier.append(float(np.sum(f ** 2)))
            scores[on].append(float(np.mean(brier)))
    # measured 0.750 against 0.767 (over seeds 20-59: 0.753 against 0.771)
    assert np.mean(scores[True]) < np.mean(scores[False]) - 0.008


def test_tribute_model_deals_the_receiver_below_its_tribute() -> None:
    from games.daihinmin.cards import cards_of, strength_key, strongest
    from knowledge.daihinmin.inference import TributeModel

    m = Match(MatchConfig(seed=21))
    m.game, m.ranks = 1, [0, 1, 2, 3, 4]
    d = m.deal()
    me, dst = 0, 4  # the daifugo gives two cards to the daihinmin
    hand0 = d.hands[me]  # with the tribute, as HAND0 shows it
    counts = [popcount(h) for h in d.dealt]
    gift = sum(1 << c for c in sorted(cards_of(hand0), key=strength_key)[:2])
    tm = TributeModel(hand0, 2, counts[dst] - 2)
    ceiling = min(strength_key(c) for c in cards_of(strongest(hand0, 2)))
    rng = np.random.default_rng(1)
    true_tribute = strongest(d.dealt[dst], 2)
    weight_true = sum(p for (t, _), p in zip(tm.options, tm.p, strict=True)
                      if t == true_tribute)
    assert weight_true > 0
    for _ in range(200):
        hands = tm.deal(me, dst, gift, counts, rng)
        assert [popcount(h) for h in hands] == counts
        union = 0
        for h in hands:
            assert h & union == 0
            union |= h
        assert union == ALL_CARDS and hands[dst] & gift == gift
        assert all(strength_key(c) < ceiling for c in cards_of(hands[dst] & ~gift))


def test_tribute_model_deals_many_as_it_deals_one() -> None:
    """deal_many (numba, the exchange search's batches) draws from the same distribution as
    deal: the hard facts in every world, and each card's holder frequencies alike."""
    from games.daihinmin.cards import cards_of, strength_key
    from knowledge.daihinmin.inference import TributeModel

    m = Match(MatchConfig(seed=22))
    m.game, m.ranks = 1, [0, 1, 2, 3, 4]
    d = m.deal()
    me, dst = 0, 4
    hand0 = d.hands[me]
    counts = [popcount(h) for h in d.dealt]
    gifts = [sum(1 << c for c in sorted(cards_of(hand0), key=strength_key)[i:i + 2])
             for i in (0, 2)]
    tm = TributeModel(hand0, 2, counts[dst] - 2)
    rng = np.random.default_rng(2)
    n = 6000
    for gift in gifts:
        many = tm.deal_many(me, dst, np.full(n, gift), counts, rng)
        one = np.array([tm.deal(me, dst, gift, counts, rng) for _ in range(n)])
        for w in many[:300]:
            assert [popcount(int(h)) for h in w] == counts
            assert int(np.bitwise_or.reduce(w)) == ALL_CARDS and int(w[dst]) & gift == gift
            assert int(w[me]) == hand0 & ~gift
        f = [np.array([[np.mean((x[:, p] >> c) & 1) for p in range(R.NP)] for c in range(53)])
             for x in (many, one)]
        assert np.abs(f[0] - f[1]).max() < 0.035 and np.abs(f[0] - f[1]).mean() < 0.006


def test_playout_deals_kernel_plays_the_game_each_world_starts() -> None:
    """The exchange search's kernel sets up each world as a fresh game (the diamond 3
    leads) and plays it out: with the deterministic heuristic policy its returns equal the
    reference path's (a GameState of the same hands, played out by state_playout)."""
    from games.daihinmin.state import GameState
    from knowledge.daihinmin.inference import TributeModel
    from knowledge.daihinmin.learned import no_weights
    from knowledge.daihinmin.playout import playout_deals_kernel, state_playout
    from knowledge.daihinmin.policies import POLICY_HEURISTIC

    m = Match(MatchConfig(seed=23))
    m.game, m.ranks = 1, [0, 1, 2, 3, 4]
    d = m.deal()
    counts = [popcount(h) for h in d.dealt]
    tm = TributeModel(d.hands[0], 2, counts[4] - 2)
    gift = d.hands[0] & -d.hands[0]
    gift |= (d.hands[0] & ~gift) & -(d.hands[0] & ~gift)  # the two lowest-numbered cards
    worlds = tm.deal_many(0, 4, np.full(200, gift), counts, np.random.default_rng(3))
    seats = list(d.order)
    for seat in (0, 2):
        got = np.empty(len(worlds))
        playout_deals_kernel(np.asarray(R.new_state([0] * R.NP, seats, 0), np.int64), worlds,
                             seat, POLICY_HEURISTIC, 0, no_weights(), 7, False, got)
        want = [state_playout(GameState([int(h) for h in w], seats), np.random.default_rng(1),
                              seat, POLICY_HEURISTIC).returns[seat] for w in worlds]
        assert np.allclose(got, want)
        assert len(set(got)) == 5  # every place occurs
