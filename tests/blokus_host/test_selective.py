"""The best-of-n selective-simulation learner (Osaki and Kotani) on Nim, where the truth is
known: the seat to move loses exactly when heap % 4 == 0."""

from __future__ import annotations

import numpy as np

from search.selective import (
    LinearEval,
    SelectiveConfig,
    SelectiveLearner,
    load_weights,
    save_weights,
    sigmoid,
    simulate_python,
)
from tests.toygames import Nim


def nim_features(state: Nim) -> np.ndarray:
    x = np.zeros(4)
    x[state.heap % 4] = 1.0
    return x


def test_learns_the_losing_residue() -> None:
    cfg = SelectiveConfig(n=3, m=16, k=1.0, alpha=2.0, updates=40, eps_start=0.5, eps_end=0.1)
    learner = SelectiveLearner(nim_features, cfg)
    res = learner.learn(Nim(12, 3), np.random.default_rng(7))
    w = np.asarray(res.weights)
    assert len(res.history) == 40
    assert w[0] < w[1:].min() - 0.5, w
    # the learned evaluation plays perfectly at one ply from every winning heap
    ev = LinearEval(w, res.k, nim_features)
    for heap in (5, 6, 7, 9, 10, 11):
        s = Nim(heap, 3)
        move, _ = ev.best_of(s, s.legal_moves())
        assert (heap - move) % 4 == 0


def test_gradient_step_formula() -> None:
    # one position, with a stub simulator giving r = 1: w += α k (r - V) V (1 - V) x
    cfg = SelectiveConfig(k=0.5, alpha=0.3)
    learner = SelectiveLearner(nim_features, cfg, simulate=lambda *a: 1.0)
    w0 = np.array([0.2, -0.1, 0.0, 0.4])
    s = Nim(6, 3)
    w1, stats = learner.update(w0, [s], np.random.default_rng(0))
    x = nim_features(s)
    v = sigmoid(0.5 * float(w0 @ x))
    expect = w0 + 0.3 * 0.5 * (1.0 - v) * v * (1.0 - v) * x
    assert np.allclose(w1, expect)
    assert abs(stats["mse"] - (1.0 - v) ** 2) < 1e-12


def test_best_of_one_is_random_and_all_is_greedy() -> None:
    w = np.array([-5.0, 5.0, 5.0, 5.0])
    ev = LinearEval(w, 1.0, nim_features)
    rng = np.random.default_rng(0)
    # from heap 5 the greedy side to move always wins (takes 1, leaves 4)
    assert simulate_python(Nim(5, 3), ev, 3, 20, rng) == 1.0
    r1 = simulate_python(Nim(5, 3), ev, 1, 200, rng)
    assert 0.2 < r1 < 0.9


def test_epsilon_schedule_and_weights_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    learner = SelectiveLearner(nim_features, SelectiveConfig(updates=11, eps_start=0.5,
                                                             eps_end=0.0))
    assert learner.epsilon(0) == 0.5 and learner.epsilon(10) == 0.0
    assert abs(learner.epsilon(5) - 0.25) < 1e-12
    path = tmp_path / "w.npz"
    save_weights(path, [1.0, 2.0], 0.02, {"n": 8})
    w, k, meta = load_weights(path)
    assert list(w) == [1.0, 2.0] and k == 0.02 and meta == {"n": 8}
