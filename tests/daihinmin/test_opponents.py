"""Per-opponent models learned from revealed hands."""

from __future__ import annotations

import numpy as np
import pytest

from clients.uecda.baseline import baseline_move
from games.daihinmin import rules as R
from games.daihinmin.match import Match, MatchConfig
from games.daihinmin.state import GameState
from knowledge.daihinmin.features import N_DENSE, N_FEATURES
from knowledge.daihinmin.learned import load_policy
from knowledge.daihinmin.opponents import OpponentModels, revealed_hands, rule_weight
from search.learn import softmax_log_likelihood


def _baseline_game(seed: int) -> GameState:
    st = Match(MatchConfig(seed=seed)).deal().state()
    while not st.is_terminal():
        p = st.to_move
        st.play(baseline_move(st.hand(p), st.table, st.revolution, st.lock))
    return st


def test_hands_are_revealed_at_the_end() -> None:
    st = _baseline_game(3)
    me = st.finish[0]
    hands = revealed_hands(list(st.history), list(st.finish), st.hand(me), me)
    assert hands == list(st.dealt)
    # the last player's cards are those nobody played; from its own seat it knows its own
    last = st.finish[-1]
    assert revealed_hands(list(st.history), list(st.finish), st.hand(last), last) == \
        list(st.dealt)


def test_models_learn_how_an_opponent_plays() -> None:
    """After a few games against baseline players the models predict their moves better
    than the shipped policy does (held-out games)."""
    theta0 = load_policy()
    models = OpponentModels(theta0)
    me = 0
    for seed in range(12):
        st = _baseline_game(seed)
        assert models.learn_game(list(st.history), list(st.order), list(st.finish),
                                 st.hand(me), me) > 0
    held = OpponentModels(theta0)
    for seed in range(100, 106):
        st = _baseline_game(seed)
        held.learn_game(list(st.history), list(st.order), list(st.finish), st.hand(me), me)
    for p in range(1, R.NP):
        rows = held.rows[p]
        X = np.vstack([x for x, _ in rows])
        off = np.concatenate([[0], np.cumsum([len(x) for x, _ in rows])]).astype(np.int64)
        ch = np.array([c for _, c in rows], dtype=np.int64)
        before = softmax_log_likelihood(theta0, X, off, ch) / len(ch)
        after = softmax_log_likelihood(models.W[p], X, off, ch) / len(ch)
        assert after > before + 0.2, (p, before, after)


def test_models_scale_the_shape_table() -> None:
    """An opponent's fit moves the dense weights and scales the shipped shape table as a
    whole: the table row stays a multiple of the shipped one."""
    theta0 = load_policy()
    theta0[N_DENSE:] = np.random.default_rng(2).normal(0, 0.5, N_FEATURES - N_DENSE)
    models = OpponentModels(theta0)
    for seed in range(4):
        st = _baseline_game(seed)
        models.learn_game(list(st.history), list(st.order), list(st.finish), st.hand(0), 0)
    for p in range(1, R.NP):
        scale = models.table_scale[p]
        assert scale != 1.0
        assert models.W[p, N_DENSE:] == pytest.approx(scale * theta0[N_DENSE:])
    assert (models.W[0] == theta0).all()  # our own row is the shipped policy


def test_rule_weight_by_em() -> None:
    """The rule's weight follows how much of an opponent's play the softmax leaves
    unexplained: every move the rule's and unlikely under the softmax -> near 1; none the
    rule's -> near 0; every move the rule's but certain under the softmax -> the prior."""
    n = 400
    assert rule_weight(np.full(n, 0.3), np.ones(n, bool)) > 0.95
    assert rule_weight(np.full(n, 0.3), np.zeros(n, bool)) < 0.01
    assert rule_weight(np.ones(n), np.ones(n, bool)) == pytest.approx(0.2, abs=0.01)
    half = np.arange(n) % 2 == 0  # half the moves the rule's, the softmax gives them 0.1
    assert 0.4 < rule_weight(np.full(n, 0.1), half) < 0.5


def test_models_learn_that_the_baseline_follows_the_rule() -> None:
    """After games of baseline players (the rule player) their rule weights rise well above
    the prior; players moving at random keep theirs near 0."""
    theta0 = load_policy()
    models = OpponentModels(theta0)
    randoms = OpponentModels(theta0)
    rng = np.random.default_rng(0)
    for seed in range(10):
        st = _baseline_game(seed)
        models.learn_game(list(st.history), list(st.order), list(st.finish), st.hand(0), 0)
        st = Match(MatchConfig(seed=seed)).deal().state()
        while not st.is_terminal():
            lm = st.legal_moves()
            st.play(lm[int(rng.integers(len(lm)))])
        randoms.learn_game(list(st.history), list(st.order), list(st.finish), st.hand(0), 0)
    assert models.rule_weights(0)[0] == 0.0
    assert min(models.rule_weights(0)[1:]) > 0.6
    assert max(randoms.rule_weights(0)[1:]) < 0.1


def _mixed_game(seed: int, rng: np.random.Generator) -> GameState:
    """Players 1 and 2 play as the baseline, 0, 3 and 4 at random."""
    st = Match(MatchConfig(seed=seed)).deal().state()
    while not st.is_terminal():
        p = st.to_move
        if p in (1, 2):
            st.play(baseline_move(st.hand(p), st.table, st.revolution, st.lock))
        else:
            lm = st.legal_moves()
            st.play(lm[int(rng.integers(len(lm)))])
    return st


def test_each_opponent_gets_the_model_that_predicts_it() -> None:
    """Of a learned prior and the uniform one (zero weights), each as it is and adapted, the
    baseline players get the learned prior adapted to them, the random players the uniform
    one as it is; our own row stays the first prior."""
    theta0 = load_policy()
    models = OpponentModels(np.vstack([theta0, np.zeros(N_FEATURES)]), fixed=True)
    assert models.candidates == [(0, True), (0, False), (1, True), (1, False)]
    rng = np.random.default_rng(1)
    for seed in range(8):
        st = _mixed_game(seed, rng)
        models.learn_game(list(st.history), list(st.order), list(st.finish), st.hand(0), 0)
    assert models.chosen.tolist() == [0, 0, 0, 3, 3]
    assert (models.W[0] == theta0).all()
    assert not (models.W[1] == theta0).all()  # adapted
    assert not models.W[3].any() and not models.W[4].any()


def test_evidence_scores_a_game_before_learning_from_it() -> None:
    """The evidence of a candidate after the first game is that game's log-likelihood under
    the candidate before the game: its prior."""
    theta0 = load_policy()
    priors = np.vstack([theta0, load_policy("strong")])
    models = OpponentModels(priors)
    st = _baseline_game(4)
    models.learn_game(list(st.history), list(st.order), list(st.finish), st.hand(0), 0)
    for p in range(1, R.NP):
        rows = models.rows[p]
        X = np.vstack([x for x, _ in rows])
        off = np.concatenate([[0], np.cumsum([len(x) for x, _ in rows])]).astype(np.int64)
        ch = np.array([c for _, c in rows], dtype=np.int64)
        for k in range(2):
            assert models.evidence[k, p] == pytest.approx(
                softmax_log_likelihood(priors[k], X, off, ch))
    assert not models.evidence[:, 0].any()  # we are not scored
