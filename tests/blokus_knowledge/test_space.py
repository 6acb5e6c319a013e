"""Reachable space: the numba kernel against the plain-Python reference, and hand-checked
margins."""

from __future__ import annotations

import numpy as np
import pytest

from games.blokus_duo import BlokusState
from knowledge.blokus_duo.space import (
    k_space_margin,
    k_space_value,
    reference_space_margin,
    space_scratch,
)


def margin(s: BlokusState, colour: int) -> int:
    return int(k_space_margin(s.board, s.forb, s.att, s.meta, colour, s.geo.size,
                              *space_scratch(s.geo.num_cells)))


def reference(s: BlokusState, colour: int) -> int:
    remaining = (int(s.meta[6]), int(s.meta[7]))
    return reference_space_margin(s.board.tolist(), s.forb.tolist(), s.att.tolist(),
                                  remaining, colour, s.geo.size)


@pytest.mark.parametrize("seed", range(6))
def test_kernel_matches_the_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    s = BlokusState(first=seed % 2)
    while not s.is_terminal():
        for colour in (0, 1):
            assert margin(s, colour) == reference(s, colour)
        assert margin(s, 0) == -margin(s, 1)
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves)))])


def test_the_empty_board_is_even_and_a_first_move_gains() -> None:
    s = BlokusState(first=0)
    assert margin(s, 0) == 0  # the start cells mirror each other through the centre
    # colour 0's biggest placements: the one reaching furthest towards the centre gains
    # the squares placed and the cells it now reaches first
    moves = s.legal_moves()
    s.play(moves[-1])
    assert margin(s, 0) > 0 and margin(s, 1) < 0


def test_value_is_logistic_in_the_margin() -> None:
    assert k_space_value(0, 8.0) == 0.5
    assert k_space_value(8, 8.0) == pytest.approx(1 / (1 + np.exp(-1)))
    assert k_space_value(-50, 8.0) < 0.01 < 0.99 < k_space_value(50, 8.0)
