"""Capture reading (knowledge.go.tactics.capture_read) and its priors
(knowledge.go.priors.k_read_priors): hand-made positions, and the kernels against the
plain-Python reference on random positions."""

from __future__ import annotations

import numpy as np
import pytest

from games.go import BLACK, PASS, WHITE, GoState, vertex_to_point
from knowledge.go.features import ladder_attack
from knowledge.go.priors import k_read_priors
from knowledge.go.reference import RefPlayer, reference_capture_read, reference_read_priors
from knowledge.go.tactics import capture_read, read_stack
from tests.go_rules.test_features import LADDER, position

# black's five stones on the left (C4) have two liberties, A3 and B3. White B3 is an atari
# that black answers at A3, capturing B3 and joining A2: two liberties again, B3 and A1, and
# white A1 leaves black one liberty it cannot fill. Reading that stops at the capture of B3
# (a ladder reader does) calls the group safe.
CAPTURE_BACK = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . O O . . . .
 6 O O O . X O . X .
 5 O X O X X . . . .
 4 X X X O X . . . .
 3 . . X O O X X . .
 2 X X O O . O X . .
 1 . O O . O X X . .
"""


def read(s: GoState, vertex: str, attacker_first: bool) -> bool:
    p = vertex_to_point(vertex, s.size)
    nodes = np.zeros(1, dtype=np.int64)
    got = capture_read(s._b, p, attacker_first, nodes, read_stack(s._b))
    assert got == reference_capture_read(RefPlayer.from_kernel(s._b), p, attacker_first)
    return bool(got)


def test_a_ladder_is_read_to_its_end() -> None:
    s = position(LADDER)
    assert read(s, "E5", True)  # the ladder works
    broken = position(LADDER.replace(" 3 . . . . . . . . .", " 3 . . O . . . . . ."))
    assert read(broken, "E5", True)  # the other ladder (E4) still works
    free = position(LADDER.replace(" 4 . . . . . X", " 4 . . . . . ."))
    assert not read(free, "E5", True)  # three liberties


def test_capturing_the_attacker_is_read_on() -> None:
    s = position(CAPTURE_BACK)
    assert read(s, "C4", True)
    nodes = np.zeros(1, dtype=np.int64)
    # the ladder reader calls the group safe
    assert not ladder_attack(s._b, vertex_to_point("C4", 9), nodes)
    saved = s.clone()
    saved.play_colour(BLACK, vertex_to_point("B3", 9))
    assert read(saved, "C4", True)  # no move saves it: the group is dead


def test_defender_first_and_trivial_cases() -> None:
    s = position(CAPTURE_BACK)
    assert read(s, "F2", True)  # white F2 has one liberty, E2
    # white to move extends to E2, joining eleven stones of two liberties (D1, A1) that
    # black then takes: black D1, white A1 is no escape
    assert read(s, "F2", False)
    assert not read(s, "E5", True)  # three liberties or more: not read


def priors(s: GoState, per_stone: float = 1.0) -> dict[str, tuple[float, float]]:
    moves = [m for m in s.legal_moves() if m != PASS]
    arr = np.array(moves, dtype=np.int32)
    wins = np.zeros(len(arr))
    visits = np.zeros(len(arr))
    k_read_priors(s._b, s.to_play, arr, per_stone, wins, visits)
    rw, rv = reference_read_priors(RefPlayer.from_kernel(s._b), s.to_play, moves, per_stone)
    assert wins.tolist() == pytest.approx(rw) and visits.tolist() == pytest.approx(rv)
    size = s.size
    names = {m: "ABCDEFGHJKLMNOPQRST"[(m % (size + 2)) - 1] + str(m // (size + 2))
             for m in moves}
    return {names[m]: (wins[i], visits[i]) for i, m in enumerate(moves) if visits[i] > 0}


# white's two stones have two liberties, E4 and F5
LADDER2 = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . X . . . .
 6 . . . X O X . . .
 5 . . . X O . . . .
 4 . . . . . X . . .
 3 . . . . . . . . .
 2 . . . . . . . . .
 1 . . . . . . . . .
"""
BREAKER = LADDER2.replace(" 3 . . . . . . . . .", " 3 . . O . . . . . .")


def test_priors_capture_by_a_chase() -> None:
    # black takes the two stones in a ladder from either side (two stones: 2 per stone)
    assert priors(position(LADDER2, BLACK)) == {"E4": (2.0, 2.0), "F5": (2.0, 2.0)}
    # white C3 breaks the ladder to the lower left: only the atari at E4 works
    assert priors(position(BREAKER, BLACK)) == {"E4": (2.0, 2.0)}
    # white takes black's five stones (four counted) at A3 or B3; its own F2 in atari is
    # one stone, left to the move features
    assert priors(position(CAPTURE_BACK, WHITE), 0.5) == {"A3": (2.0, 2.0), "B3": (2.0, 2.0)}


def test_priors_save_a_group_in_danger() -> None:
    # white to move: F5 leaves two liberties and the ladder to the lower left; E4 saves
    assert priors(position(LADDER2, WHITE)) == {"E4": (2.0, 2.0)}
    assert priors(position(BREAKER, WHITE)) == {"E4": (2.0, 2.0), "F5": (2.0, 2.0)}
    # black's five stones have no save: no move gets a prior
    assert priors(position(CAPTURE_BACK, BLACK)) == {}


def test_a_lost_extension_from_atari_gets_visits_and_no_win() -> None:
    # black F5 put the two stones in atari: the extension at E4 runs into the ladder
    atari = LADDER2.replace(" 5 . . . X O .", " 5 . . . X O X")
    assert priors(position(atari, WHITE)) == {"E4": (0.0, 2.0)}
    # with the breaker it escapes
    assert priors(position(atari.replace(" 3 . . . . . . . . .", " 3 . . O . . . . . ."),
                           WHITE)) == {"E4": (2.0, 2.0)}


@pytest.mark.parametrize(("size", "seed"), [(7, 1), (9, 2), (9, 3), (13, 4)])
def test_kernels_match_the_reference_on_random_positions(size: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    s = GoState(size, 7.0)
    read_any = 0
    for step in range(2 * size * size):
        moves = s.legal_moves()
        if len(moves) <= 1:
            break
        if step % 3 == 0:
            ref = RefPlayer.from_kernel(s._b)
            for p in range(len(ref.col)):
                if ref.col[p] in (BLACK, WHITE) and len(ref.group(p)[1]) <= 2:
                    for first in (True, False):
                        nodes = np.zeros(1, dtype=np.int64)
                        got = capture_read(s._b, p, first, nodes, read_stack(s._b))
                        assert got == reference_capture_read(ref, p, first), (step, p)
                    read_any += 1
            priors(s, 2.5)
        s.play(moves[int(rng.integers(len(moves) - 1))])
    assert read_any > 20
