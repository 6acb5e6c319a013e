import numpy as np
import pytest

from search.alpha import discounted_value, weights
from search.bandit import credit_discounted
from search.budget import Budget
from search.flat import FlatConfig, FlatMC
from tests.core.bandits import BanditGame


@pytest.mark.parametrize("alpha", [0.0, 0.1, 0.5, 0.9, 0.99, 1.0])
@pytest.mark.parametrize("n", [1, 2, 3, 7, 20])
def test_weights_reproduce_the_recursion(alpha: float, n: int) -> None:
    rng = np.random.default_rng(n * 100 + int(alpha * 100))
    for _ in range(20):
        r = rng.random(n)
        v = discounted_value(r[:-1], r[-1], alpha)
        assert abs(v - float(weights(n, alpha) @ r)) < 1e-12
        # the recursion written out literally, V(0)=r0, V(t)=(1-a)V(t-1)+a r_t
        lit = r[0]
        for t in range(1, n):
            lit = (1 - alpha) * lit + alpha * r[t]
        assert abs(v - lit) < 1e-12
    assert abs(weights(n, alpha).sum() - 1.0) < 1e-12


def test_closed_form_weights() -> None:
    a, n = 0.9, 5
    w = weights(n, a)
    assert abs(w[0] - (1 - a) ** 4) < 1e-15
    for t in range(1, n):
        assert abs(w[t] - a * (1 - a) ** (n - 1 - t)) < 1e-15


def test_batched_discounting_matches_scalar() -> None:
    rng = np.random.default_rng(5)
    k, t_max = 50, 12
    n_evals = rng.integers(0, t_max + 1, size=k)
    evals = rng.random((k, t_max))
    finals = rng.random(k)
    arms = np.arange(k)
    for alpha in (0.3, 0.9, 1.0):
        n, s, s2 = np.zeros(k), np.zeros(k), np.zeros(k)
        credit_discounted(n, s, s2, arms, finals, evals, n_evals, alpha)
        assert n.tolist() == [1.0] * k
        for i in range(k):
            want = discounted_value(evals[i, : n_evals[i]], finals[i], alpha)
            assert abs(s[i] - want) < 1e-12 and abs(s2[i] - want * want) < 1e-12


@pytest.mark.parametrize("batched", [False, True])
def test_alpha_one_is_exactly_plain_mc(batched: bool) -> None:
    means = [0.3, 0.5, 0.6]
    with_evals = BanditGame(means, evals=4, batched=batched)
    without = BanditGame(means, evals=4, batched=batched, report_evals=False)
    r1 = FlatMC(FlatConfig(alpha=1.0)).search(with_evals, 0, Budget(playouts=600),
                                              np.random.default_rng(3))
    r2 = FlatMC(FlatConfig(alpha=1.0)).search(without, 0, Budget(playouts=600),
                                              np.random.default_rng(3))
    assert r1.visits == r2.visits and r1.values == r2.values and r1.move == r2.move
    r3 = FlatMC(FlatConfig(alpha=0.5)).search(with_evals, 0, Budget(playouts=600),
                                              np.random.default_rng(3))
    assert r3.values != r1.values  # α < 1 does use the intermediate evaluations
