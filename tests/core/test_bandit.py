import math

import numpy as np
import pytest

from search.bandit import ucb1, ucb1_tuned
from search.budget import Budget
from search.flat import FlatConfig, FlatMC
from tests.core.bandits import BanditGame

MEANS = np.array([0.45, 0.5, 0.55, 0.7])


def run_ucb1_tuned(n_steps: int, seed: int, checkpoints: list[int]) -> list[float]:
    """Pseudo-regret Σ (μ* − μ_i) n_i at each checkpoint."""
    rng = np.random.default_rng(seed)
    k = len(MEANS)
    n, s, s2 = np.zeros(k), np.zeros(k), np.zeros(k)
    out = []
    for t in range(n_steps):
        a = int(np.argmax(ucb1_tuned(n, s, s2, t)))
        r = float(rng.random() < MEANS[a])
        n[a] += 1
        s[a] += r
        s2[a] += r * r
        if t + 1 in checkpoints:
            out.append(float((MEANS.max() - MEANS) @ n))
    return out


def test_ucb1_tuned_regret_grows_like_log_n_and_beats_uniform() -> None:
    checkpoints = [500, 2000, 8000]
    regrets = np.mean([run_ucb1_tuned(8000, seed, checkpoints) for seed in range(4)], axis=0)
    per_log = regrets / np.log(checkpoints)
    # logarithmic: regret / ln n does not keep growing (a linear regret would multiply it by
    # 16 / (ln 8000 / ln 500) ≈ 11 between the first and last checkpoint)
    assert per_log[-1] < 2.0 * per_log[0], (regrets, per_log)
    uniform = (MEANS.max() - MEANS).mean() * np.array(checkpoints)
    assert regrets[-1] < 0.15 * uniform[-1], (regrets, uniform)


def test_untried_arms_first_and_index_shapes() -> None:
    n = np.array([0.0, 3.0, 5.0])
    s = np.array([0.0, 2.0, 1.0])
    assert np.isinf(ucb1(n, s, 8)[0]) and np.isinf(ucb1_tuned(n, s, s, 8)[0])
    # with equal counts the better mean has the higher index
    n = np.array([10.0, 10.0])
    s = np.array([3.0, 7.0])
    assert np.argmax(ucb1_tuned(n, s, s, 20)) == 1
    # the exploration bonus shrinks with pulls
    assert ucb1(np.array([100.0]), np.array([50.0]), 200)[0] < ucb1(
        np.array([10.0]), np.array([5.0]), 200)[0]


@pytest.mark.parametrize("bandit", ["ucb1-tuned", "ucb1"])
@pytest.mark.parametrize("batched", [False, True])
def test_flat_mc_concentrates_on_the_best_arm(bandit: str, batched: bool) -> None:
    game = BanditGame(list(MEANS), batched=batched)
    res = FlatMC(FlatConfig(bandit=bandit)).search(game, 0, Budget(playouts=3000),
                                                   np.random.default_rng(11))
    assert res.move == 3
    assert res.playouts == 3000 and sum(res.visits) == 3000
    assert res.visits[3] > 0.5 * 3000
    assert abs(res.values[3] - 0.7) < 0.05
    assert all(v > 0 for v in res.visits)  # every arm pulled at least once


def test_final_choice_by_visits_or_mean() -> None:
    game = BanditGame([0.2, 0.8])
    for final in ("visits", "mean"):
        res = FlatMC(FlatConfig(final=final)).search(game, 0, Budget(playouts=400),
                                                     np.random.default_rng(0))
        assert res.move == 1
    assert math.isfinite(res.value)


@pytest.mark.parametrize("tuned", [True, False])
def test_select_arms_kernel_matches_the_numpy_reference(tuned: bool) -> None:
    from search.bandit import select_arms

    rng = np.random.default_rng(9)
    for _ in range(200):
        k = int(rng.integers(1, 12))
        n = rng.integers(0, 20, size=k).astype(float)
        s = np.minimum(rng.random(k) * n, n)
        lo = np.where(n > 0, s * s / np.maximum(n, 1), 0.0)  # Σv² ≥ (Σv)²/n, and ≤ Σv
        s2 = lo + (s - lo) * rng.random(k)
        total = int(n.sum()) + int(rng.integers(0, 5))
        ref = ucb1_tuned(n, s, s2, total) if tuned else ucb1(n, s, total, 1.3)
        arm = select_arms(n, s, s2, total, 1, tuned, 1.3, rng.random(1))[0]
        assert ref[arm] == ref.max()


def test_flat_mc_searches_the_likeliest_moves_by_their_priors() -> None:
    """Move ordering: with prune < 1 only the moves holding that prior mass are arms."""
    game = BanditGame([0.1, 0.9, 0.2, 0.3, 0.4, 0.5], batched=True)
    priors = np.array([0.05, 0.40, 0.02, 0.03, 0.20, 0.30])
    game.move_priors = lambda moves: priors[moves]  # type: ignore[attr-defined]
    res = FlatMC(FlatConfig(prune=0.85, min_arms=2)).search(
        game, 0, Budget(playouts=300), np.random.default_rng(1))
    assert res.moves == [1, 4, 5] and res.info["pruned"] == 3 and res.move == 1
    res = FlatMC(FlatConfig(prune=0.3, min_arms=2)).search(
        game, 0, Budget(playouts=100), np.random.default_rng(1))
    assert res.moves == [1, 5]  # at least min_arms
    assert FlatMC(FlatConfig()).search(game, 0, Budget(playouts=100),
                                       np.random.default_rng(1)).moves == list(range(6))


def test_flat_mc_arms_start_with_the_root_priors() -> None:
    """With ``priors`` the root's priors are pseudo-pulls of the arms: an optimistic prior
    (value 1, 500 pulls) on the worse arm makes it the choice of a short search; the pseudo-
    pulls count in the mean, not in the visits or playouts. Without ``priors`` they are not
    read."""
    from games.contract import Priors
    from search.bandit import prior_arms

    n, s, s2 = prior_arms(np.array([0.5, 1.0, 0.25]), np.array([0.0, 4.0, 2.0]))
    assert n.tolist() == [0, 4, 2] and s.tolist() == [0, 4, 0.5] and s2.tolist() == [0, 4, 0.125]
    for batched in (False, True):
        game = BanditGame([0.8, 0.2], batched=batched)
        game.priors = lambda: Priors([0, 1], np.array([0.5, 1.0]),  # type: ignore[attr-defined]
                                     np.array([0.0, 500.0]))
        res = FlatMC(FlatConfig(priors=True)).search(game, 0, Budget(playouts=300),
                                                     np.random.default_rng(3))
        assert res.move == 1 and res.playouts == 300 and sum(res.visits) == 300
        assert res.values[1] > 0.8 and res.visits[0] > 0
        plain = FlatMC(FlatConfig()).search(game, 0, Budget(playouts=300),
                                            np.random.default_rng(3))
        assert plain.move == 0 and plain.values[1] < 0.8
