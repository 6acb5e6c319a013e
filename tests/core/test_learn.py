import numpy as np

from search.learn import (
    SoftmaxPolicy,
    _softmax_playout,
    fit_softmax,
    q_policy,
    sigmoid,
    simulation_balancing,
    softmax_log_likelihood,
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
