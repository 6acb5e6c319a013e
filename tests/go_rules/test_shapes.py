"""Local shape features (knowledge.go.shapes): the counts against the reference, symmetry, and the
afterstate values (incremental) against a full recount."""

from __future__ import annotations

import numpy as np

from games.go import BLACK, WHITE, GoState
from games.go import board as K
from knowledge.go.reference import RefPlayer, reference_shape_counts
from knowledge.go.shapes import (
    N_POINT,
    k_afterstate_values,
    k_shape_counts,
    n_shape_features,
    shape_tables,
)


def counts(s: GoState, c: int) -> np.ndarray:
    two, three = shape_tables()
    out = np.empty(n_shape_features())
    k_shape_counts(s._b, c, two, three, out)
    return out


def test_tables() -> None:
    two, three = shape_tables()
    assert n_shape_features() == N_POINT + 20 + 2861  # 2x2 and 3x3 classes without empty
    assert two[0] == -1 and three[0] == -1  # the empty window is no feature
    assert two[1] == two[3] == two[9] == two[27]  # one stone in any corner of a 2x2


def test_counts_match_the_reference_and_the_colours() -> None:
    rng = np.random.default_rng(4)
    for size in (7, 9):
        s = GoState(size)
        for _ in range(size * size // 2):
            moves = s.legal_moves()
            s.play(moves[int(rng.integers(len(moves) - 1))])
        ref = RefPlayer.from_kernel(s._b)
        for c in (BLACK, WHITE):
            assert counts(s, c).tolist() == reference_shape_counts(ref, c)
        swapped = GoState(size)
        swapped.place_setup(BLACK, s.stones(WHITE))
        swapped.place_setup(WHITE, s.stones(BLACK))
        assert counts(swapped, WHITE).tolist() == counts(s, BLACK).tolist()
        n = size - 1
        assert counts(s, BLACK)[N_POINT:N_POINT + 20].sum() <= n * n


def test_afterstate_values_incremental_equal_full_recount() -> None:
    rng = np.random.default_rng(8)
    two, three = shape_tables()
    theta = rng.normal(size=n_shape_features())
    s = GoState(9)
    for step in range(70):
        moves = s.legal_moves()
        if len(moves) <= 1:
            break
        if step % 7 == 0:
            pts = np.array(moves[:-1], dtype=np.int32)
            got = np.empty(len(pts))
            k_afterstate_values(s._b, s.to_play, pts, two, three, theta, got)
            for i, p in enumerate(pts):
                b = s._b.copy()
                K.k_play(b, int(p), s.to_play)
                phi = np.empty(len(theta))
                k_shape_counts(b, s.to_play, two, three, phi)
                assert abs(got[i] - phi @ theta) < 1e-9
        s.play(moves[int(rng.integers(len(moves) - 1))])
