"""Prior features against the reference; priors shape; dead stones and final status."""

from __future__ import annotations

import numpy as np
import pytest

from games.go import BLACK, PASS, WHITE, GoState, vertex_to_point
from games.go.diagram import parse_diagram
from knowledge.go.dead import dead_stones, final_status, score_with_dead_removed
from knowledge.go.patterns import PATTERNS, matching_codes, pattern_table
from knowledge.go.position import GoPosition
from knowledge.go.priors import LADDER_PRIORS, PriorWeights, feature_matrix
from knowledge.go.reference import RefPlayer, reference_features
from tests.go_rules.test_features import LADDER


@pytest.mark.parametrize("ladders", [False, True])
def test_features_match_reference(ladders: bool) -> None:
    rng = np.random.default_rng(5)
    pat = pattern_table()
    checked = {"capture": 0, "save": 0, "sa": 0, "pattern": 0}
    if ladders:
        checked |= {"ladder escape": 0, "ladder atari": 0}
    for size in (7, 9):
        s = GoState(size, 7.5)
        for _ in range(2 * size * size):
            moves = s.legal_moves()
            if len(moves) <= 1:
                break
            points = [m for m in moves if m != PASS]
            f = feature_matrix(s, points, ladders)
            ref = RefPlayer.from_kernel(s._b)
            for i, p in enumerate(points):
                assert f[i].tolist() == reference_features(ref, p, s.to_play, pat, ladders), p
            if ladders:
                checked["ladder escape"] += int((f[:, 7] > 0).sum())
                checked["ladder atari"] += int((f[:, 8] > 0).sum())
            else:
                assert not f[:, 7:].any()
            checked["capture"] += int((f[:, 0] > 0).sum())
            checked["save"] += int((f[:, 1] > 0).sum())
            checked["sa"] += int((f[:, 3] > 0).sum())
            checked["pattern"] += int((f[:, 2] > 0).sum())
            s.play(moves[int(rng.integers(len(moves) - 1))])
    assert all(v > 0 for v in checked.values()), checked


def test_priors_cover_legal_moves_and_rank_captures() -> None:
    s = GoPosition(GoState(9))
    for v in ("E5", "E6", "D6", "pass", "F6"):
        s.play(vertex_to_point(v, 9))
    pr = s.priors()
    assert list(pr.moves) == s.legal_moves()
    assert np.all((pr.values >= 0) & (pr.values <= 1)) and np.all(pr.counts > 0)
    best = pr.moves[int(np.argmax(pr.values))]
    assert best == vertex_to_point("E7", 9)  # captures E6
    assert pr.values[list(pr.moves).index(PASS)] < 0.5
    edge = list(pr.moves).index(vertex_to_point("A9", 9))
    assert pr.values[edge] < 0.5


def test_scaled_priors_keep_values_and_multiply_experience() -> None:
    s = GoPosition(GoState(9))
    for v in ("E5", "E6", "D6", "pass", "F6"):
        s.play(vertex_to_point(v, 9))
    base = s.priors()
    s.prior_weights = PriorWeights().scaled(3.0)
    scaled = s.priors()
    assert list(scaled.moves) == list(base.moves)
    assert np.allclose(scaled.values, base.values)
    assert np.allclose(scaled.counts, 3.0 * base.counts)
    assert s.clone().priors().counts.tolist() == scaled.counts.tolist()
    with pytest.raises(ValueError):
        PriorWeights().scaled(0.0)


def test_pattern_table_examples() -> None:
    table = pattern_table()
    for _, rows in PATTERNS:
        assert all(table[c] for c in matching_codes(rows))
    assert not table[0]  # all-empty neighbourhood matches nothing
    assert table.sum() < 1 << 15


END = """
 7 . X . X O . .
 6 X X X X O . .
 5 . X . X O O O
 4 X X X X O . .
 3 . X . X O X .
 2 X X X X O . .
 1 . X . X O . .
"""


def test_dead_stone_in_territory() -> None:
    size, black, white = parse_diagram(END)
    s = GoState(size, 0.5)
    s.place_setup(BLACK, black)
    s.place_setup(WHITE, white)
    s.to_play = BLACK
    rng = np.random.default_rng(1)
    dead = dead_stones(s, rng, 300)
    f3 = vertex_to_point("F3", 7)
    assert dead == [f3]
    status = final_status(s, rng, 300)
    assert status["dead"] == [f3]
    assert len(status["alive"]) == len(black) + len(white) - 1 and not status["seki"]
    # Tromp-Taylor as is: F3 makes white's lower right neutral; without it white owns it
    assert s.score() == 29 - 13 - 0.5
    assert score_with_dead_removed(s, rng, 300) == 28 - 21 - 0.5
    s.pass_move()
    s.pass_move()  # game over: the estimate still plays the position out
    assert s.is_terminal() and dead_stones(s, rng, 300) == [f3]


SEKI = """
 7 . X . X . X .
 6 X X X X X X X
 5 . X . X . X .
 4 X X X X X X X
 3 O O O O X . X
 2 O X X O X X .
 1 . X . O X . X
"""


def test_seki_status() -> None:
    """White A2-D1 and black B2-B1 share A1 and C1 and have no eyes: seki."""
    size, black, white = parse_diagram(SEKI)
    s = GoState(size, 0.5)
    s.place_setup(BLACK, black)
    s.place_setup(WHITE, white)
    s.to_play = WHITE
    status = final_status(s, np.random.default_rng(3), 200)
    inner = sorted(vertex_to_point(v, 7) for v in ("B2", "C2", "B1"))
    assert status["dead"] == []
    assert status["seki"] == sorted(white + inner)
    assert len(status["alive"]) == len(black) - 3
    own, neutral = GoPosition(s).ownership_stats(np.random.default_rng(4), 100)
    for v in ("A1", "C1"):
        assert neutral[vertex_to_point(v, 7)] > 0.9


def test_ladder_priors() -> None:
    """Reading ladders, the heuristic priors favour an atari that a ladder captures and
    disfavour an escape that a ladder catches; without the ladder weights nothing changes."""
    size, black, white = parse_diagram(LADDER)
    s = GoState(size, 7.0)
    s.place_setup(BLACK, black)
    s.place_setup(WHITE, white)
    s.to_play = BLACK
    f5, e4 = vertex_to_point("F5", 9), vertex_to_point("E4", 9)
    ladders = LADDER_PRIORS

    def prior(state: GoState, move: int, weights: PriorWeights) -> float:
        pr = GoPosition(state, prior_weights=weights).priors()
        return float(pr.values[list(pr.moves).index(move)])

    f = feature_matrix(s, [f5, e4], ladders=True)
    assert f[:, 8].tolist() == [1, 1]  # both ataris on E5 run into a ladder
    assert prior(s, f5, ladders) > prior(s, f5, PriorWeights()) + 0.1
    s.play(f5)  # white to play: E4 escapes to two liberties and the ladder catches it
    assert feature_matrix(s, [e4], ladders=True)[0, 7] == 1
    assert feature_matrix(s, [e4])[0, 7] == 0
    assert prior(s, e4, ladders) < prior(s, e4, PriorWeights()) - 0.2
