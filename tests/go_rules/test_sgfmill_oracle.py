"""An independent oracle: sgfmill's board (captures, simple ko point, area score) follows
random games played through GoState."""

from __future__ import annotations

import numpy as np
import pytest
from sgfmill import boards

from games.go import BLACK, PASS, WHITE, GoState, point, row_col

_NAME = {BLACK: "b", WHITE: "w"}


@pytest.mark.parametrize(("size", "seed"), [(5, 1), (7, 2), (9, 3), (13, 4), (19, 5)])
def test_random_game_against_sgfmill(size: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    s = GoState(size, 0.0)
    oracle = boards.Board(size)
    captures = 0
    for _ in range(2 * size * size):
        moves = s.legal_moves()
        if len(moves) <= 1:
            break
        m = moves[int(rng.integers(len(moves) - 1))]  # never pass
        colour = s.to_play
        r, c = row_col(size, m)
        ko = oracle.play(r, c, _NAME[colour])
        before = len(s.stones(BLACK)) + len(s.stones(WHITE))
        s.play(m)
        after = len(s.stones(BLACK)) + len(s.stones(WHITE))
        captures += before + 1 - after
        assert s.ko_point == (None if ko is None else point(size, *ko))
        grid = s.grid()
        for rr in range(size):
            for cc in range(size):
                want = {None: 0, "b": BLACK, "w": WHITE}[oracle.get(rr, cc)]
                assert grid[rr, cc] == want, (rr, cc)
        assert s.score() == oracle.area_score()
    assert captures > 0
    assert PASS not in [p for _, p in s.history]
