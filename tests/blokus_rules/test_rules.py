"""Contest end rules and scoring: all 21 pieces placed ends the game at once (+15, +20
when the monomino was last), two successive passes end it, and the reference agrees."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.blokus_duo import PASS, BlokusState
from games.blokus_duo.reference import RefBoard, reference_playout

# colour 0 places all 21 pieces while colour 1 passes after its first move (found by a search)
SOLO_MONO_LAST = (
    "56u0 aaa0 78n6 0000 6bk3 0000 8dr1 0000 75q0 0000 81o3 0000 2at5 0000 34p4 0000 bel2 0000"
    " cbs3 0000 b3m7 0000 d7j0 0000 2dg0 0000 a8f4 0000 15e0 0000 38i3 0000 d1h0 0000 5ed1 0000"
    " 62b2 0000 31c2 0000 9ea0"
)
SOLO_MONO_FIRST = (
    "55a0 aap0 36m7 0000 33s0 0000 58n1 0000 6bk3 0000 87l4 0000 62t0 0000 a1o2 0000 8du0 0000"
    " 3dr0 0000 d3q3 0000 b9p4 0000 cej2 0000 b5i0 0000 75f4 0000 19e0 0000 e7g1 0000 1ed0 0000"
    " bcc2 0000 dah0 0000 14b0"
)


@pytest.mark.parametrize(
    ("codes", "scores"), [(SOLO_MONO_LAST, (20, -88)), (SOLO_MONO_FIRST, (15, -84))]
)
@pytest.mark.parametrize("seats", [(0, 1), (1, 0)])
def test_all_pieces_end_at_once(codes: str, scores: tuple[int, int],
                                seats: tuple[int, int]) -> None:
    s = BlokusState(first=0, seat_colours=seats)
    seq = codes.split()
    for code in seq[:-1]:
        s.play_code(code)
        assert not s.is_terminal()
    assert s.placed(0) == 20
    s.play_code(seq[-1])
    assert s.is_terminal()
    assert s.legal_moves() == [] and s.legal_count(1) > 0  # colour 1 gets no more turns
    assert s.scores() == scores
    win = s.seat_of(0)
    assert s.returns()[win] == 1.0 and s.returns()[1 - win] == 0.0
    ref = RefBoard.from_state(s)
    assert ref.is_terminal() and (ref.score(0), ref.score(1)) == scores


def test_draw() -> None:
    s = BlokusState(first=1)
    s.play_code("aaa0")
    s.play_code("55a0")
    s.play(PASS)
    s.play(PASS)
    assert s.is_terminal() and s.scores() == (-88, -88) and s.returns() == [0.5, 0.5]


def test_voluntary_pass_and_pass_when_blocked() -> None:
    s = BlokusState(first=0)
    s.play_code("56u0")
    s.play_code("aau0")
    assert s.is_legal(PASS)  # the host lets a player pass with moves left
    assert PASS not in s.legal_moves()  # but search is not offered it


@pytest.mark.parametrize("first", [0, 1])
def test_kernel_playouts_follow_reference_rules(first: int) -> None:
    """Kernel playouts replayed on the reference: each move legal there, passes only when
    blocked, same end and scores (both playout policies)."""
    for policy in ("uniform", "weighted"):
        from knowledge.blokus_duo.position import BlokusPosition
        from knowledge.blokus_duo.settings import BlokusConfig

        s = BlokusState(first=first)
        rng = np.random.default_rng(first)
        for _ in range(1):
            p = BlokusPosition(s, BlokusConfig(playout=policy)).playout(rng, 0)
            ref = RefBoard(first=first)
            for m in p.moves.tolist():
                legal = _legal(ref)
                assert (m in legal) if m != PASS else not legal
                ref.play(m)
            assert ref.is_terminal()
            d = ref.score(0) - ref.score(1)
            assert p.returns[s.seat_of(0)] == (1.0 if d > 0 else 0.0 if d < 0 else 0.5)


def _legal(ref: RefBoard) -> list[int]:
    from games.blokus_duo.reference import reference_legal

    return reference_legal(ref, ref.to_move)


def test_reference_playout_on_state() -> None:
    """A reference random game replayed on the state: same legal sets at every step."""
    ref = RefBoard(first=1)
    moves = reference_playout(ref, random.Random(3))
    s = BlokusState(first=1)
    r2 = RefBoard(first=1)
    for m in moves:
        want = _legal(r2)
        assert s.legal_moves() == (sorted(want) if want else [PASS])
        s.play(m)
        r2.play(m)
    assert s.is_terminal() and s.scores() == (ref.score(0), ref.score(1))
