"""GoState: coordinates, handicap, contract behaviour, undo, superko reference, SGF."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from games.contract import State
from games.go import (
    BLACK,
    PASS,
    WHITE,
    GoState,
    IllegalMove,
    fixed_handicap_points,
    parse_colour,
    point_to_vertex,
    score_string,
    vertex_to_point,
)
from games.go import board as K
from games.go.diagram import parse_diagram
from games.go.sgf import from_sgf, to_sgf


def vertices(points: list[int], size: int) -> list[str]:
    return [point_to_vertex(p, size) for p in points]


def test_vertices_round_trip_and_errors() -> None:
    for size in (5, 9, 19):
        for v in ("A1", "pass"):
            assert point_to_vertex(vertex_to_point(v, size), size) == v
    assert point_to_vertex(vertex_to_point("t19", 19), 19) == "T19"
    assert point_to_vertex(vertex_to_point("J9", 9), 9) == "J9"
    assert vertex_to_point("PASS", 9) == PASS
    for bad in ("I5", "A0", "K1", "A10", "", "5A", "AA"):
        with pytest.raises(ValueError):
            vertex_to_point(bad, 9)
    assert parse_colour("W") == WHITE and parse_colour("Black") == BLACK
    with pytest.raises(ValueError):
        parse_colour("red")


def test_fixed_handicap_as_gtp_spec() -> None:
    assert vertices(fixed_handicap_points(19, 9), 19) == [
        "D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
    assert vertices(fixed_handicap_points(19, 3), 19) == ["D4", "Q16", "D16"]
    assert vertices(fixed_handicap_points(19, 7), 19)[-1] == "K10"
    assert vertices(fixed_handicap_points(9, 5), 9) == ["C3", "G7", "C7", "G3", "E5"]
    assert vertices(fixed_handicap_points(13, 2), 13) == ["D4", "K10"]
    assert len(fixed_handicap_points(8, 4)) == 4
    for size, n in ((8, 5), (7, 5), (6, 2), (19, 10), (19, 1)):
        with pytest.raises(ValueError):
            fixed_handicap_points(size, n)
    s = GoState(9, 0.5)
    s.place_handicap(fixed_handicap_points(9, 4))
    assert s.to_play == WHITE and len(s.stones(BLACK)) == 4 and not s.history


def test_contract_shapes_and_clone_independence() -> None:
    from knowledge.go.position import GoPosition

    s = GoState(9, 7.5)
    assert not isinstance(s, State)  # no playouts: the search plays it through a position
    assert isinstance(GoPosition(s), State)
    assert s.num_players == 2 and s.to_move == 0 and s.to_play == BLACK
    assert len(s.legal_moves()) == 82 and s.legal_moves()[-1] == PASS
    c = s.clone()
    c.play(vertex_to_point("E5", 9))
    assert s.is_empty() and not c.is_empty()
    assert c.to_move == 1 and c.to_play == WHITE
    assert c.key() != s.key()
    c.pass_move()
    c.pass_move()
    assert c.is_terminal() and c.legal_moves() == []
    assert c.returns() == [1.0, 0.0]  # 81 - 0 - 7.5
    assert not s.is_terminal()


def test_key_depends_on_side_to_move() -> None:
    s = GoState(9)
    t = s.clone()
    t.to_play = WHITE
    assert s.position_hash() == t.position_hash()
    assert s.key() != t.key()


def test_undo_restores_everything() -> None:
    rng = np.random.default_rng(3)
    s = GoState(7, 7.5)
    snaps = []
    for _ in range(60):
        moves = s.legal_moves()
        if not moves:
            break
        snaps.append((s.diagram(), s.key(), s.to_play, s.captures(BLACK), s.captures(WHITE),
                      sorted(moves)))
        s.play(moves[int(rng.integers(len(moves)))])
    while snaps:
        s.undo()
        assert (s.diagram(), s.key(), s.to_play, s.captures(BLACK), s.captures(WHITE),
                sorted(s.legal_moves())) == snaps.pop()
    with pytest.raises(ValueError):
        s.undo()


def test_legal_points_match_reference_superko() -> None:
    """Positional superko of GoState against a brute-force check (play, compare boards with
    every earlier board) over random 5x5 games full of captures."""
    rng = np.random.default_rng(11)
    superko_seen = 0
    for _ in range(4):
        s = GoState(5, 0.5)
        boards = {s.grid().tobytes()}
        for _ in range(80):
            c = s.to_play
            expected = []
            cand = [q for q in range(49) if s._b[0, q] == 0]
            for q in cand:
                t = s.clone()  # play on the raw board, bypassing GoState's checks
                if not K.k_legal_noko(t._b, q, c):
                    continue
                K.k_play(t._b, q, c)
                if t.grid().tobytes() in boards:
                    superko_seen += 1
                    continue
                expected.append(q)
            assert sorted(s.legal_points(c)) == sorted(expected)
            moves = s.legal_moves()
            if len(moves) <= 1:
                break
            s.play(moves[int(rng.integers(len(moves) - 1))])
            boards.add(s.grid().tobytes())
    assert superko_seen > 0


def test_sgf_round_trip_with_handicap_and_passes() -> None:
    s = GoState(9, 0.5)
    s.place_handicap(fixed_handicap_points(9, 2))
    for v in ("E5", "D5", "pass", "F5", "E4"):
        s.play(vertex_to_point(v, 9))
    data = to_sgf(s, black_name="b", white_name="w", result="B+R")
    t = from_sgf(data)
    assert t.diagram() == s.diagram()
    assert t.history == s.history and t.setup == s.setup
    assert t.komi == 0.5 and t.to_play == s.to_play
    assert from_sgf(data, moves=2).history == s.history[:2]
    assert b"HA[2]" in data and b"PB[b]" in data


def test_sgf_illegal_move_rejected() -> None:
    with pytest.raises(IllegalMove):
        from_sgf("(;GM[1]SZ[9];B[ee];W[ee])")


def test_parse_diagram_and_scoring_strings() -> None:
    size, black, white = parse_diagram("""
 5 . X . O .
 4 . X . O .
 3 . X . O .
 2 . X O . O
 1 . X . O .
""")
    assert size == 5 and len(black) == 5 and len(white) == 6
    s = GoState(5, 0.5)
    s.place_setup(BLACK, black)
    s.place_setup(WHITE, white)
    assert s.area() == (10, 11) and score_string(s.score()) == "W+1.5"
    assert score_string(3.0) == "B+3" and score_string(0.0) == "0"
    assert s.liberties(vertex_to_point("C2", 5)) == 3


def test_play_colour_any_order_and_errors() -> None:
    s = GoState(9)
    s.play_colour(WHITE, vertex_to_point("E5", 9))
    s.play_colour(WHITE, vertex_to_point("E6", 9))
    assert s.to_play == BLACK and len(s.stones(WHITE)) == 2
    with pytest.raises(IllegalMove) as err:
        s.play_colour(BLACK, 10_000)
    assert err.value.reason == "off board"
    with pytest.raises(ValueError):
        GoState(4)
    with pytest.raises(ValueError):
        GoState(20)
    assert GoState(19).legal_points() and GoState(5).legal_points()


def test_clear_passes_resumes_the_game() -> None:
    s = GoState(5)
    s.pass_move()
    s.pass_move()
    assert s.is_terminal() and s.legal_moves() == []
    s.clear_passes()
    assert not s.is_terminal() and len(s.legal_moves()) == 26
    assert len(s.history) == 2


def test_playout_batch_matches_single_playouts_statistically() -> None:
    """Flat MC fast path: shapes, seat perspective, and a capture is judged better than a
    throw-away move."""
    from games.contract import HasPlayoutBatch
    from knowledge.go.position import GoPosition

    s = GoPosition(GoState(7, 0.5))
    for v in ("D4", "D5", "C5", "pass", "E5", "pass"):
        s.play(vertex_to_point(v, 7))
    assert isinstance(s, HasPlayoutBatch) and s.to_play == BLACK
    capture, edge = vertex_to_point("D6", 7), vertex_to_point("A1", 7)
    rng = np.random.default_rng(2)
    moves = [capture] * 200 + [edge] * 200
    b = s.playout_batch(moves, rng, 0)
    assert b.returns.shape == (400,) and b.n_evals.tolist() == [0] * 400
    assert b.returns[:200].mean() > b.returns[200:].mean()
    w = s.playout_batch([capture] * 200, np.random.default_rng(2), 1)
    assert np.allclose(w.returns, 1.0 - b.returns[:200])


def test_legal_moves_follow_the_colour_to_play() -> None:
    """A1 (next to black A2, B1, B2) is black's true eye: legal for black but left out of
    its legal_moves; suicide for white. The cached move list follows to_play changes."""
    s = GoState(5)
    for v in ("A2", "pass", "B2", "pass", "B1", "pass"):
        s.play(vertex_to_point(v, 5))
    a1 = vertex_to_point("A1", 5)
    assert s.to_play == BLACK and a1 not in s.legal_moves()
    assert a1 in s.legal_points(BLACK)  # legal, only left out as an own eye
    s.to_play = WHITE
    assert a1 not in s.legal_moves() and a1 not in s.legal_points(WHITE)  # suicide
    s.to_play = BLACK
    s.play_colour(BLACK, a1)  # filling an own eye is legal by the rules
    assert s.colour_at(a1) == BLACK


def test_forget_undo_keeps_the_position_and_its_superko_memory() -> None:
    rng = np.random.default_rng(4)
    s = GoState(7, 7.5)
    for _ in range(30):
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves) - 1))])
    t = s.clone()
    t.forget_undo()
    assert (t.diagram(), t.key(), t.legal_moves()) == (s.diagram(), s.key(), s.legal_moves())
    assert len(pickle.dumps(t)) < len(pickle.dumps(s)) / 5
    with pytest.raises(ValueError, match="no move to undo"):
        t.undo()
    s.undo()  # the original keeps its history


def test_score_reward() -> None:
    """black_value: the win with a share on the margin, saturating at a quarter board; a jigo
    is black's jigo value (1/2 favouring neither side) whatever the weight."""
    from knowledge.go.playout import black_value, black_values, score_scale

    assert black_value(3.0, 0.0, 20.25, 0.5) == 1.0 and black_value(-1.0, 0.0, 20.25, 0.5) == 0.0
    assert black_value(0.0, 0.3, 20.25, 0.5) == 0.5
    assert black_value(0.0, 0.0, 20.25, 0.25) == 0.25
    assert black_value(0.0, 0.2, 20.25, 0.25) == pytest.approx(0.8 * 0.25 + 0.2 * 0.5)
    assert black_value(1.0, 0.0, 20.25, 0.25) == 1.0  # only the jigo moves
    assert black_value(2.0, 0.1, 20.25, 0.5) == pytest.approx(0.9 + 0.05 * (1 + 2 / 20.25))
    assert (black_value(-50.0, 0.1, 20.25, 0.5) == 0.0
            and black_value(50.0, 0.1, 20.25, 0.5) == 1.0)
    assert score_scale(9) == 20.25
    margins = np.array([-50.0, -1.0, 0.0, 2.0, 50.0])
    for jigo in (0.5, 0.3):
        assert black_values(margins, 0.1, 20.25, jigo).tolist() == [
            black_value(m, 0.1, 20.25, jigo) for m in margins]


def test_jigo_value_of_the_engine() -> None:
    """jigo_value is the engine's own value of a jigo: black's reward for a jigo is it when the
    engine is black, one minus it when white (the playouts' reward is black's)."""
    from clients.gtp.config import load_gtp_config
    from clients.gtp.player import search_position
    from games.go.state import GoState

    cfg = load_gtp_config(overrides=["jigo_value=0.2"])
    s = GoState(5, komi=0.0)
    assert s.to_move == 0 and search_position(s, cfg).settings.jigo == pytest.approx(0.2)
    s.play(s.legal_moves()[0])
    assert s.to_move == 1 and search_position(s, cfg).settings.jigo == pytest.approx(0.8)
    assert load_gtp_config().jigo_value == 0.5

