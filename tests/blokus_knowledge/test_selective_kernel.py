"""The compiled best-of-n simulation of Blokus Duo (features.selective_simulation, the hot
loop of the selective-simulation learner) against the plain-Python one of search.selective."""

from __future__ import annotations

import numpy as np
import pytest

from games.blokus_duo import BlokusState
from knowledge.blokus_duo.features import (
    features,
    folded_weights,
    num_features,
    selective_simulation,
)
from knowledge.blokus_duo.position import BlokusPosition
from search.selective import LinearEval


def _position(seed: int, plies: int) -> BlokusState:
    s = BlokusState(first=seed % 2)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves)))])
    return s


def _greedy_python(state: BlokusState, w: np.ndarray, k: float) -> tuple[list[int], float]:
    """One simulation choosing among all legal moves (best-of-all is deterministic)."""
    ev = LinearEval(w, k, lambda s: s.features())
    seat = state.to_move
    s = BlokusPosition(state.clone())
    moves = []
    while not s.is_terminal():
        legal = s.legal_moves()
        mv = legal[0] if len(legal) == 1 else ev.best_of(s, legal)[0]
        moves.append(mv)
        s.play(mv)
    return moves, s.returns()[seat]


def test_folded_weights_give_the_same_value() -> None:
    rng = np.random.default_rng(1)
    s = _position(3, 12)
    w = rng.normal(size=num_features())
    wf = folded_weights(w, s.geo.num_cells)
    from knowledge.blokus_duo.features import MAX_INFLUENCE, NUM_PLANES, k_folded_raw

    W = 2 * MAX_INFLUENCE + 1
    got = k_folded_raw(s.board, s.forb, s.att, s.to_move_colour, s.geo.size, wf,
                       np.empty((NUM_PLANES, s.geo.num_cells)), np.zeros((W, W), np.uint8))
    assert got == pytest.approx(float(w @ features(s, s.to_move_colour)), rel=1e-9)


@pytest.mark.parametrize("seed,plies", [(2, 14), (5, 26)])
def test_best_of_all_is_the_python_greedy_game(seed: int, plies: int) -> None:
    rng = np.random.default_rng(seed)
    s = _position(seed, plies)
    w = rng.normal(size=num_features()) * 0.3
    rate, moves = selective_simulation(s, w, 0.02, 0, 1, rng)
    want, result = _greedy_python(s, w, 0.02)
    assert moves == want
    assert rate == result


def test_best_of_n_draws_n_moves_and_is_reproducible() -> None:
    s = _position(7, 10)
    w = np.random.default_rng(0).normal(size=num_features()) * 0.3
    a = selective_simulation(s, w, 0.02, 4, 3, np.random.default_rng(9))
    b = selective_simulation(s, w, 0.02, 4, 3, np.random.default_rng(9))
    assert a == b and 0.0 <= a[0] <= 1.0
    end = s.clone()
    for mv in a[1]:
        assert end.is_legal(mv)
        end.play(mv)
    assert end.is_terminal()
    # best-of-1 is a random game, not the greedy one
    assert selective_simulation(s, w, 0.02, 1, 1, np.random.default_rng(9))[1] != \
        selective_simulation(s, w, 0.02, 0, 1, np.random.default_rng(9))[1]
