"""Basic rules of the state: first moves, seats vs colours, end and score."""

from __future__ import annotations

import pytest

from games.blokus_duo import PASS, BlokusState


@pytest.mark.parametrize("first", [0, 1])
def test_first_moves(first: int) -> None:
    s = BlokusState(first=first)
    assert s.to_move_colour == first
    assert len(s.legal_moves()) == 414
    assert s.legal_count(0) == 414 and s.legal_count(1) == 414
    g = s.geo
    for m in s.legal_moves():
        assert int(g.start[first]) in g.move_cells(m)
    assert not s.is_legal(PASS)  # no pass on the first move


def test_seats_are_not_colours() -> None:
    s = BlokusState(first=1, seat_colours=(1, 0))
    assert s.to_move_colour == 1 and s.to_move == 0
    s.play_code("aap0")
    assert s.to_move_colour == 0 and s.to_move == 1


def test_illegal_moves_rejected() -> None:
    s = BlokusState(first=0)
    with pytest.raises(ValueError):
        s.play_code("aaa0")  # colour 0 must cover (5,5)
    s.play_code("55a0")
    s.play_code("aaa0")
    with pytest.raises(ValueError):
        s.play_code("65a0")  # edge contact with own colour
    with pytest.raises(ValueError):
        s.play_code("77a0")  # no corner contact
    with pytest.raises(ValueError):
        s.play_code("55b0")  # overlap
    for bad in (13729, -2, 10**9):
        with pytest.raises(ValueError):
            s.play(bad)
    s.play_code("66b0")  # corner contact
    with pytest.raises(ValueError):
        s.play_code("bba0")  # the monomino is used


def test_two_passes_end() -> None:
    s = BlokusState(first=0)
    s.play_code("55a0")
    s.play_code("aaa0")
    s.play(PASS)
    assert not s.is_terminal()
    s.play_code("bbb0")
    s.play(PASS)
    s.play(PASS)
    assert s.is_terminal()
    assert s.scores() == (-88, -86)
    assert s.returns() == [0.0, 1.0]
    assert s.legal_moves() == []


def test_pass_to_a_colour() -> None:
    s = BlokusState(first=0)
    s.play_code("55a0")
    s.pass_to(1)  # white is to move already: no pass
    assert len(s.history) == 1
    s.play_code("aaa0")
    s.pass_to(1)  # black passes
    assert s.history[-1] == (0, PASS) and s.to_move_colour == 1
    s.play_code("bbb0")
    s.pass_to(1)  # black passes, then white: two passes in a row end the game
    s.pass_to(0)
    assert s.is_terminal() and s.history[-2:] == [(0, PASS), (1, PASS)]
    s.pass_to(1)  # over: nothing more
    assert len(s.history) == 6
    fresh = BlokusState(first=0)
    with pytest.raises(ValueError, match="illegal"):
        fresh.pass_to(1)  # a colour's first move cannot be a pass while it has placements


def test_clone_independent() -> None:
    s = BlokusState()
    c = s.clone()
    c.play_code("56u0")
    assert s.legal_count(0) == 414 and s.history == []
    assert c.key() != s.key()
    d = c.clone()
    assert d.key() == c.key()


def test_diagram() -> None:
    s = BlokusState(first=1)
    s.play_code("aau0")
    s.play_code("55a0")
    assert s.diagram().splitlines() == [
        "   123456789abcde",
        " 1 ..............",
        " 2 ..............",
        " 3 ..............",
        " 4 ..............",
        " 5 ....X.........",
        " 6 ..............",
        " 7 ..............",
        " 8 ..............",
        " 9 .........O....",
        " a ........OOO...",
        " b .........O....",
        " c ..............",
        " d ..............",
        " e ..............",
        "X colour 0: score -88, left bcdefghijklmnopqrstu",
        "O colour 1: score -84, left abcdefghijklmnopqrst",
        "to move: colour 1 (seat 1)",
    ]
