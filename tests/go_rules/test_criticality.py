"""Criticality (knowledge/go/criticality.py): the kernels against the formula on random
playouts, the priors they give, and the compiled tree's playouts writing the table."""

from __future__ import annotations

import numpy as np
import pytest

from games.go.coords import BLACK, EMPTY, WHITE
from knowledge.go.criticality import (
    MIN_PLAYOUTS,
    criticality,
    decay,
    k_crit,
    k_crit_priors,
    k_record,
    new_table,
)
from knowledge.go.priors import LearnedPriors
from search.budget import Budget
from search.ctree import CompiledUCT
from search.uct import UCTConfig
from tests.core.test_ctree import GO_POSITIONS


def random_playouts(rng: np.random.Generator, n: int, points: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Owners where the first point goes with the result, the others at random."""
    scores = rng.integers(-5, 6, n).astype(float)
    owners = rng.choice([BLACK, WHITE, EMPTY], size=(n, points), p=[0.45, 0.45, 0.1])
    owners[:, 0] = np.where(scores > 0, BLACK, WHITE)
    return owners.astype(np.int32), scores


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kernels_match_the_formula(seed: int) -> None:
    owners, scores = random_playouts(np.random.default_rng(seed), 200, 30)
    table = new_table(30)
    for o, s in zip(owners, scores, strict=True):
        k_record(table, o, s)
    want = criticality(owners, scores)
    got = np.array([k_crit(table, p) for p in range(30)])
    np.testing.assert_allclose(got, want, atol=1e-12)
    assert want[0] > 0.3  # the point that decides the game
    assert np.abs(want[1:]).max() < 0.1  # the others are noise


def test_crit_priors_add_wins_where_critical_only() -> None:
    owners, scores = random_playouts(np.random.default_rng(4), 100, 10)
    table = new_table(10)
    for o, s in zip(owners[:int(MIN_PLAYOUTS) - 1], scores, strict=False):
        k_record(table, o, s)
    pts = np.arange(10, dtype=np.int32)
    wins, visits = np.full(10, 3.0), np.full(10, 5.0)
    k_crit_priors(table, pts, 40.0, wins, visits)
    assert (wins == 3.0).all() and (visits == 5.0).all()  # too few playouts yet
    for o, s in zip(owners[int(MIN_PLAYOUTS) - 1:], scores[int(MIN_PLAYOUTS) - 1:],
                    strict=True):
        k_record(table, o, s)
    k_crit_priors(table, pts, 40.0, wins, visits)
    crit = criticality(owners, scores)
    np.testing.assert_allclose(wins - 3.0, 40.0 * np.maximum(crit, 0.0))
    np.testing.assert_allclose(visits - wins, 2.0)  # all wins
    assert wins[0] > 3.0 + 40.0 * 0.3
    decay(table)
    assert table[0, 0] == 50.0
    np.testing.assert_allclose([k_crit(table, p) for p in range(10)], crit)


def test_the_compiled_trees_playouts_fill_the_table() -> None:
    s = GO_POSITIONS["9x9 fight"].clone()
    s.learned_priors = LearnedPriors(visits=0.0, crit_visits=30.0)
    s.crit_table = table = new_table(s.state.board_array().shape[1])
    core = CompiledUCT(UCTConfig(rave=True, c=0.0))
    result = core.search(s, s.to_move, Budget(playouts=400), np.random.default_rng(1))
    assert table[0, 0] == result.playouts == 400
    assert table[0, 1] + table[0, 2] <= 400
    assert table[1:3].sum(axis=0).max() <= 400
    crit = [k_crit(table, p) for p in range(table.shape[1])]
    assert max(crit) > 0.05  # a fight: some points decide the game


def test_off_by_default_leaves_the_table_alone() -> None:
    s = GO_POSITIONS["9x9 fight"].clone()
    s.learned_priors = LearnedPriors(visits=0.0, read_visits=5.0)
    s.crit_table = table = new_table(s.state.board_array().shape[1])
    CompiledUCT(UCTConfig()).search(s, s.to_move, Budget(playouts=100),
                                    np.random.default_rng(1))
    assert not table.any()
