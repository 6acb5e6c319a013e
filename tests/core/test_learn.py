import numpy as np
import pytest

from search.learn import (
    SoftmaxPolicy,
    _softmax_playout,
    fit_softmax,
    mm_fit,
    mm_log_likelihood,
    mm_prediction_rate,
    q_policy,
    sigmoid,
    simulation_balancing,
    softmax_log_likelihood,
    softmax_sampler,
    td0_selfplay,
)
from tests.toygames import Nim


def nim_features(state: Nim, move: int) -> np.ndarray:
    phi = np.zeros(4)
    phi[(state.heap - move) % 4] = 1.0
    return phi


def test_td0_learns_the_nim_strategy() -> None:
    rng = np.random.default_rng(0)
    theta = td0_selfplay(lambda: Nim(int(rng.integers(5, 16)), 3), nim_features, 4,
                         games=400, rng=rng, step=0.5, epsilon=0.2)
    q = sigmoid(theta)
    assert q[0] > 0.8 and max(q[1:]) < 0.5, q  # leaving a multiple of 4 wins
    greedy = q_policy(nim_features, theta, rng, kind="epsilon", epsilon=0.0)
    for heap in range(5, 20):
        if heap % 4:
            assert greedy(Nim(heap, 3)) == heap % 4


class Coin:
    """One decision: move 0 wins, move 1 loses. Feature: [move == 0]."""

    num_players = 1
    to_move = 0

    def __init__(self) -> None:
        self.done: int | None = None

    def legal_moves(self) -> list[int]:
        return [] if self.done is not None else [0, 1]

    def play(self, m: int) -> None:
        self.done = m

    def clone(self) -> "Coin":
        c = Coin()
        c.done = self.done
        return c

    def is_terminal(self) -> bool:
        return self.done is not None

    def returns(self) -> list[float]:
        return [1.0 if self.done == 0 else 0.0]


def coin_features(state: Coin, move: int) -> np.ndarray:
    return np.array([1.0 if move == 0 else 0.0])


def test_simulation_balancing_matches_the_target_not_the_best_move() -> None:
    rng = np.random.default_rng(1)
    for start in (0.0, 3.0):  # too weak and too strong a policy both move to V* = 0.8
        theta = simulation_balancing([(Coin(), 0.8)], coin_features, np.array([start]),
                                     rng=rng, iterations=400, m_playouts=32, n_playouts=32,
                                     step=4.0)
        p_win = SoftmaxPolicy(coin_features, theta).probabilities(Coin(), [0, 1])[0][0]
        assert abs(p_win - 0.8) < 0.07, (start, theta, p_win)


def test_log_policy_gradient_is_phi_minus_its_expectation() -> None:
    pol = SoftmaxPolicy(coin_features, np.array([0.3]))
    rng = np.random.default_rng(2)
    p = pol.probabilities(Coin(), [0, 1])[0]
    for _ in range(20):
        z, grad, steps = _softmax_playout(Coin(), pol, 0, rng)
        expected = (1.0 - p[0]) if z == 1.0 else (0.0 - p[0])
        assert steps == 1 and abs(grad[0] - expected) < 1e-12


def _choices(theta: np.ndarray, groups: int, seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    rows, offsets, chosen = [], [0], []
    for _ in range(groups):
        k = int(rng.integers(2, 8))
        x = rng.normal(0, 1, (k, len(theta)))
        z = x @ theta
        p = np.exp(z - z.max())
        chosen.append(int(rng.choice(k, p=p / p.sum())))
        rows.append(x)
        offsets.append(offsets[-1] + k)
    return np.vstack(rows), np.array(offsets), np.array(chosen)


def test_fit_softmax_recovers_the_choice_model() -> None:
    true = np.array([1.0, -0.5, 0.0, 2.0])
    X, off, ch = _choices(true, 4000, 1)
    th = fit_softmax(X, off, ch, l2=0.01)
    assert np.abs(th - true).max() < 0.12
    # the fit maximises the (penalised) likelihood: better than the truth on its sample
    assert softmax_log_likelihood(th, X, off, ch) >= softmax_log_likelihood(true, X, off, ch)


def test_fit_softmax_stays_near_its_prior_on_little_data() -> None:
    true = np.array([1.0, -0.5, 0.0, 2.0])
    prior = np.array([3.0, 3.0, 3.0, 3.0])
    X, off, ch = _choices(true, 5, 2)
    near = fit_softmax(X, off, ch, l2=50.0, prior=prior)
    assert np.abs(near - prior).max() < 0.3
    far = fit_softmax(*_choices(true, 4000, 3), l2=1.0, prior=prior)
    assert np.abs(far - true).max() < 0.2
def synthetic_contests(gamma: np.ndarray, positions: int, rng: np.random.Generator
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Contests of 2 groups (features 0-2 and 3-5, -1 = none) drawn from the true model."""
    teams, starts, chosen = [], [0], []
    g1 = np.append(gamma, 1.0)
    for _ in range(positions):
        k = int(rng.integers(2, 8))
        t = np.stack([rng.integers(-1, 3, k), rng.choice([-1, 3, 4, 5], k)], axis=1)
        t[:, 0] = np.where(t[:, 0] >= 0, t[:, 0], -1)
        p = np.prod(g1[t], axis=1)
        chosen.append(starts[-1] + int(rng.choice(k, p=p / p.sum())))
        starts.append(starts[-1] + k)
        teams.append(t)
    return np.concatenate(teams), np.array(starts), np.array(chosen)


def test_mm_recovers_the_strengths_it_was_given() -> None:
    rng = np.random.default_rng(1)
    true = np.array([4.0, 1.0, 0.25, 2.0, 0.5, 8.0])
    teams, starts, chosen = synthetic_contests(true, 6000, rng)
    seen: list[float] = []
    gamma = mm_fit(teams, starts, chosen, 6, iterations=40, prior=1.0,
                   on_iteration=lambda i, g: seen.append(mm_log_likelihood(teams, starts,
                                                                           chosen, g)))
    assert np.all(np.diff(seen) > -1e-9)  # MM never lowers the (regularised) likelihood much
    assert np.allclose(np.log(gamma), np.log(true), atol=0.15), gamma
    rate = mm_prediction_rate(teams, starts, chosen, gamma)
    assert abs(rate - mm_prediction_rate(teams, starts, chosen, true)) < 0.01
    assert 0.3 < rate < 0.9


def test_mm_prediction_rate_counts_ties_as_shares() -> None:
    teams = np.array([[0], [1], [0], [-1]])
    starts = np.array([0, 2, 4])
    chosen = np.array([0, 3])  # position 1: chosen is the no-feature candidate
    assert mm_prediction_rate(teams, starts, chosen, np.array([1.0, 1.0])) == 0.5 * (0.5 + 0.5)
    assert mm_prediction_rate(teams, starts, chosen, np.array([2.0, 1.0])) == 0.5
    assert mm_fit(teams, starts, chosen, 3, iterations=3)[2] == 1.0  # unseen feature: kept


def test_simulation_balancing_with_a_sampler_and_batches() -> None:
    runs = []
    for kw in ({"features": coin_features}, {"features": None,
                                             "sampler": softmax_sampler(coin_features)}):
        runs.append(simulation_balancing([(Coin(), 0.8)], theta=np.array([0.0]),
                                         rng=np.random.default_rng(3), iterations=20,
                                         step=2.0, **kw))  # type: ignore[arg-type]
    assert runs[0].tolist() == runs[1].tolist()  # the default sampler is the softmax one
    seen: list[tuple[int, float, float]] = []
    batched = simulation_balancing([(Coin(), 0.8)] * 4, coin_features, np.array([0.0]),
                                   rng=np.random.default_rng(3), step=2.0, batch=4,
                                   on_position=lambda i, t, v: seen.append((i, t, v)))
    assert [x[0] for x in seen] == [0, 1, 2, 3] and all(x[1] == 0.8 for x in seen)
    assert batched[0] > 0  # the target is above the start's 0.5
    with pytest.raises(ValueError, match="features or a sampler"):
        simulation_balancing([(Coin(), 0.8)], None, np.array([0.0]), rng=np.random.default_rng())


def test_fit_softmax_from_a_start_reaches_the_same_fit() -> None:
    true = np.array([1.0, -0.5, 0.0, 2.0])
    X, off, ch = _choices(true, 1000, 4)
    cold = fit_softmax(X, off, ch, l2=0.5)
    assert np.allclose(fit_softmax(X, off, ch, l2=0.5, start=cold + 0.3), cold, atol=1e-6)
    # started at its own answer, one Newton step changes nothing
    assert np.allclose(fit_softmax(X, off, ch, l2=0.5, start=cold, iterations=1), cold,
                       atol=1e-9)
