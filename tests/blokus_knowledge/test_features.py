"""The evaluation features of the learned evaluation: numba kernel vs plain-Python reference,
and hand-checked values."""

from __future__ import annotations

import numpy as np
import pytest

from games.blokus_duo import BlokusState
from knowledge.blokus_duo.features import (
    NUM_PLANES,
    block_len,
    feature_index,
    features,
    num_features,
    reference_features,
)
from knowledge.blokus_duo.position import BlokusPosition


def test_layout() -> None:
    assert num_features() == 3546 and block_len(196) == 1773
    assert feature_index(0, 0) == 0 and feature_index(8, 195) == 9 * 196 - 1
    assert feature_index(0, None) == 9 * 196 and feature_index(0, 0, own=False) == 1773


def test_empty_board() -> None:
    s = BlokusState(first=0)
    x = features(s, 0)
    S = 196
    start = int(s.geo.start[0])
    assert x[feature_index(1, start)] == 1.0 and x[feature_index(1, None)] == 1.0
    # influence rings around the start square (4,4): 4d cells at distance d, minus off-board
    assert [x[feature_index(4 + k, None)] for k in range(5)] == [4, 8, 12, 16, 18]
    assert x[feature_index(0, None)] == 0 and x[feature_index(2, None)] == 0
    assert np.array_equal(x[:1773], features(s, 1)[1773:])
    assert len(x) == 2 * (NUM_PLANES * S + NUM_PLANES)


def test_after_monomino() -> None:
    s = BlokusState(first=0)
    s.play_code("55a0")
    x = features(s, 0)
    g = s.geo

    def cell(X: int, Y: int) -> int:
        return (Y - 1) * 14 + X - 1

    assert x[feature_index(0, cell(5, 5))] == 1 and x[feature_index(0, None)] == 1
    assert x[feature_index(1, None)] == 4 and x[feature_index(1, cell(6, 6))] == 1
    assert x[feature_index(2, None)] == 4 and x[feature_index(2, cell(5, 6))] == 1
    assert x[feature_index(3, None)] == 0
    # (6,5) is dead for colour 0: no influence counted there; (6,7) is at d=1 from (6,6)
    assert x[feature_index(4, cell(6, 5))] == 0
    assert x[feature_index(4, cell(6, 7))] == 1
    # (7,7) is at distance 2 from (6,6) only -> infl2 = 1
    assert x[feature_index(5, cell(7, 7))] == 1
    assert g.size == 14


@pytest.mark.parametrize("seed", range(6))
def test_kernel_vs_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    s = BlokusState(first=seed % 2)
    p = BlokusPosition(s).playout(rng, 0)
    cut = int(rng.integers(1, len(p.moves)))
    for m in p.moves[:cut].tolist():
        s.play(m)
    for colour in (0, 1):
        got = features(s, colour)
        want = reference_features(s, colour)
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, (bad[:10], got[bad[:10]], want[bad[:10]])
