"""Diagram tests (gomill style): moves -> expected board, ko point and score."""

from __future__ import annotations

import pytest

from games.go import GoState, IllegalMove, parse_colour, point_to_vertex, vertex_to_point


def setup(size: int, komi: float, moves: str) -> GoState:
    s = GoState(size, komi)
    for tok in moves.split(","):
        tok = tok.strip()
        if not tok:
            continue
        colour, vertex = tok.split()
        s.play_colour(parse_colour(colour), vertex_to_point(vertex, size))
    return s


# (name, size, komi, moves, expected diagram, ko point, score B - W - komi)
CASES = [
    (
        "centre capture",
        5, 0.5,
        "b C4, w C3, b B3, w A1, b D3, w A2, b C2",
        """
 5 . . . . .
 4 . . X . .
 3 . X . X .
 2 O . X . .
 1 O . . . .
   A B C D E
""",
        None, 5 - 2 - 0.5,
    ),
    (
        "corner capture of two",
        5, 7.5,
        "b A1, w A3, b B1, w B2, b E5, w C1, b E4, w A2",
        """
 5 . . . . X
 4 . . . . X
 3 O . . . .
 2 O O . . .
 1 . . O . .
   A B C D E
""",
        None, 2 - 6 - 7.5,  # white: 4 stones + A1, B1 (reach only white)
    ),
    (
        "ko capture",
        5, 0.0,
        "b C4, w D4, b B3, w E3, b C2, w D2, b A5, w C3, b D3",
        """
 5 X . . . .
 4 . . X O .
 3 . X . X O
 2 . . X O .
 1 . . . . .
   A B C D E
""",
        "C3", 6 - 3,
    ),
    (
        "ko point cleared by a pass",
        5, 0.0,
        "b C4, w D4, b B3, w E3, b C2, w D2, b A5, w C3, b D3, w pass",
        """
 5 X . . . .
 4 . . X O .
 3 . X . X O
 2 . . X O .
 1 . . . . .
   A B C D E
""",
        None, 6 - 3,
    ),
    (
        "capture looks like suicide",
        5, 0.0,
        "b A2, w A3, b B1, w B2, b E5, w C1, b E4, w A1",
        """
 5 . . . . X
 4 . . . . X
 3 O . . . .
 2 . O . . .
 1 O . O . .
   A B C D E
""",
        None, 2 - 6,  # white: 4 stones + A2, B1
    ),
    (
        "walls, jigo with komi 0",
        5, 0.0,
        "b B1, w D1, b B2, w D2, b B3, w D3, b B4, w D4, b B5, w D5",
        """
 5 . X . O .
 4 . X . O .
 3 . X . O .
 2 . X . O .
 1 . X . O .
   A B C D E
""",
        None, 0.0,
    ),
    (
        "walls, white wins by komi",
        5, 0.5,
        "b B1, w D1, b B2, w D2, b B3, w D3, b B4, w D4, b B5, w D5",
        """
 5 . X . O .
 4 . X . O .
 3 . X . O .
 2 . X . O .
 1 . X . O .
   A B C D E
""",
        None, -0.5,
    ),
]


@pytest.mark.parametrize(("name", "size", "komi", "moves", "diagram", "ko", "score"), CASES,
                         ids=[c[0] for c in CASES])
def test_diagram(name: str, size: int, komi: float, moves: str, diagram: str,
                 ko: str | None, score: float) -> None:
    s = setup(size, komi, moves)
    assert s.diagram() == diagram.lstrip("\n")
    got_ko = None if s.ko_point is None else point_to_vertex(s.ko_point, size)
    assert got_ko == ko
    assert s.score() == pytest.approx(score)


# (name, size, moves, illegal move, reason)
ILLEGAL = [
    ("occupied", 5, "b C3", "w C3", "occupied"),
    ("single-stone suicide", 5, "b A2, w E5, b B1", "w A1", "suicide"),
    ("multi-stone suicide", 5, "w A1, b A3, w A2, b B2, w E5, b C1", "w B1", "suicide"),
    ("simple ko retake", 5,
     "b C4, w D4, b B3, w E3, b C2, w D2, b A5, w C3, b D3", "w C3", "superko"),
    ("superko after passes (simple ko would allow it)", 5,
     "b C4, w D4, b B3, w E3, b C2, w D2, b A5, w C3, b D3, w pass, b pass", "w C3", "superko"),
]


@pytest.mark.parametrize(("name", "size", "moves", "move", "reason"), ILLEGAL,
                         ids=[c[0] for c in ILLEGAL])
def test_illegal(name: str, size: int, moves: str, move: str, reason: str) -> None:
    s = setup(size, 7.5, moves)
    before = s.diagram()
    colour, vertex = move.split()
    c, p = parse_colour(colour), vertex_to_point(vertex, size)
    assert s.illegal_reason(c, p) == reason
    assert not s.is_legal(c, p)
    with pytest.raises(IllegalMove) as err:
        s.play_colour(c, p)
    assert err.value.reason == reason
    assert s.diagram() == before
    if reason != "occupied":
        assert p not in s.legal_points(c)


def test_superko_cleared_by_undo() -> None:
    s = setup(5, 7.5, "b C4, w D4, b B3, w E3, b C2, w D2, b A5, w C3, b D3")
    c3 = vertex_to_point("C3", 5)
    assert s.illegal_reason(2, c3) == "superko"
    s.undo()  # take back the capture: C3 white stone is back
    s.undo()  # and white's C3
    assert s.is_legal(2, c3)
    s.play_colour(2, c3)
    assert s.colour_at(c3) == 2
