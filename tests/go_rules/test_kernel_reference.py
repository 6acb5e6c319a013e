"""The numba kernels against the plain-Python reference on random positions."""

from __future__ import annotations

import numpy as np
import pytest

from games.go import BLACK, PASS, WHITE, GoState, point_to_vertex, vertex_to_point
from games.go import board as K
from games.go.diagram import parse_diagram
from games.go.scoring import k_area
from knowledge.go.patterns import pattern_code, pattern_table
from knowledge.go.playout import k_choose, k_playout, no_replies
from knowledge.go.position import GoPosition
from knowledge.go.reference import RefPlayer
from knowledge.go.tactics import NG, bad_self_atari, k_self_atari, libs_after, nakade_vital


def check_same(b: np.ndarray, ref: RefPlayer) -> None:
    """Colours, the empty list, ko, and every point-level query agree; group arrays are
    consistent with the flood-fill groups."""
    assert b[K.COL].tolist() == ref.col
    n = int(b[K.META, K.M_NEMPTY])
    assert b[K.EMP, :n].tolist() == ref.empties
    assert int(b[K.META, K.M_KO]) == ref.ko
    for p in ref.empties:
        for c in (BLACK, WHITE):
            assert K.k_legal(b, p, c) == ref.legal(p, c), (p, c)
            assert K.k_legal_noko(b, p, c) == ref.legal(p, c, use_ko=False), (p, c)
            assert K.k_is_eye(b, p, c) == ref.is_eye(p, c), (p, c)
            assert k_self_atari(b, p, c) == ref.self_atari(p, c), (p, c)
            assert bad_self_atari(b, p, c, 2, True) == ref.bad_self_atari(p, c, 2, 7), (p, c)
            assert libs_after(b, p, c) == ref.libs_after(p, c), (p, c)
        assert pattern_code(b, p) == ref.pattern_code(p)
    in_atari = {BLACK: 0, WHITE: 0}
    seen: set[int] = set()
    for p, cp in enumerate(ref.col):
        if cp not in (BLACK, WHITE) or p in seen:
            continue
        stones, libs = ref.group(p)
        seen |= stones
        roots = {int(b[K.GID, s]) for s in stones}
        assert len(roots) == 1
        g = roots.pop()
        assert int(b[K.GSIZE, g]) == len(stones)
        pseudo = sum(1 for s in stones for q in ref.neighbours(s) if ref.col[q] == 0)
        assert int(b[K.PLIB, g]) == pseudo
        assert K.in_atari(b, g) == (len(libs) == 1)
        if len(libs) == 1:
            assert K.atari_lib(b, g) == next(iter(libs))
            in_atari[cp] += 1
    # the atari list holds every group in atari (k_atari_groups drops stale entries)
    for c in (BLACK, WHITE):
        assert K.k_atari_groups(b, c) == in_atari[c]
    owner = np.empty(b.shape[1], dtype=np.int32)
    score = k_area(b.copy(), owner)
    rscore, rowner = ref.area()
    assert score == rscore
    assert owner.tolist() == rowner


def synthetic_policy(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Random learned-policy weights (ptab, plv) of policy 3: every entry matters."""
    rng = np.random.default_rng(seed)
    ptab = np.exp(rng.normal(0.0, 1.5, 1 << 20)).astype(np.float32)
    plv = np.exp(rng.normal(0.0, 1.0, (NG + 1, 11)))
    plv[:, 0] = 1.0
    plv[NG, 0] = 0.3  # the far moves' strength
    return ptab, plv


@pytest.mark.parametrize(("size", "seed", "policy"), [(5, 1, 0), (5, 2, 1), (7, 3, 1),
                                                      (9, 4, 1), (9, 5, 0), (9, 6, 2),
                                                      (7, 7, 3), (9, 8, 3), (9, 9, 4),
                                                      (7, 10, 5), (9, 11, 5), (7, 12, 6),
                                                      (9, 13, 6)])
def test_lockstep_random_game(size: int, seed: int, policy: int) -> None:
    """Play a game with the reference policy, mirroring every move on the kernel board;
    compare everything after each move (captures included)."""
    pat = pattern_table()
    ptab, plv = synthetic_policy(seed)
    b = K.new_board(size)
    buf = np.empty(4 * b.shape[1] + 8, dtype=np.int32)
    gam = np.empty(16)
    ref = RefPlayer.from_kernel(b)
    s = seed * 1_000_003
    captures = 0
    for _ in range(3 * size * size):
        if ref.passes >= 2:
            break
        c = ref.to_play
        kp, ks = k_choose(b, c, np.uint64(s), policy, pat, 2, buf, ptab, plv, gam)
        p, s = ref.choose(c, s, policy, pat, 2, ptab, plv)
        assert (kp, int(ks)) == (p, s)  # the same choice from the same rng state
        rc = ref.play(p, c)
        kc = K.k_play(b, p, c)
        assert kc == rc
        captures += kc
        assert int(b[K.META, K.M_TOPLAY]) == ref.to_play
        check_same(b, ref)
    assert captures > 0  # the games do exercise captures


@pytest.mark.parametrize("size", [5, 9, 13, 19])
@pytest.mark.parametrize("policy", [0, 1, 2, 3, 4, 5, 6, 7])
def test_playouts_identical(size: int, policy: int) -> None:
    """Same position, same seed: the kernel and the reference play the same moves, end in
    the same rng state and score."""
    pat = pattern_table()
    ptab, plv = synthetic_policy(size)
    rng = np.random.default_rng(size * 10 + policy)
    base = GoState(size, 7.5)
    for _ in range(size):  # a few moves in, so the playouts start from varied positions
        moves = base.legal_moves()
        base.play(moves[int(rng.integers(len(moves) - 1))])
    for _ in range(2 if size >= 13 else 4):
        seed = int(rng.integers(1, 2**62))
        b = base._b.copy()
        ref = RefPlayer.from_kernel(b)
        cap = 3 * size * size
        moves = np.empty(cap + 1, dtype=np.int32)
        owner = np.empty(b.shape[1], dtype=np.int32)
        buf = np.empty(4 * b.shape[1] + 8, dtype=np.int32)
        sc, nm, s = k_playout(b, np.uint64(seed), policy, pat, ptab, plv, 2, cap, moves,
                              owner, buf, no_replies(), 0, 0.0)
        rsc, rmoves, rs = ref.playout(seed, policy, pat, 2, cap, ptab, plv)
        assert moves[:nm].tolist() == rmoves
        assert sc == rsc
        assert int(s) == rs
        assert nm > size  # a real game was played


def test_playout_ends_with_two_passes_and_no_playable_point() -> None:
    rng = np.random.default_rng(7)
    s = GoPosition(GoState(9, 7.5))
    for _ in range(5):
        p = s.playout(rng, 0)
        assert len(p.moves) > 40
        assert PASS not in p.moves.tolist()
        assert sorted(set(p.players.tolist())) == [0, 1]
        assert p.returns.tolist() in ([1.0, 0.0], [0.0, 1.0])


def test_win_share_is_the_colour_to_play_s() -> None:
    """Black has the whole board, with three eyes: black wins every playout whoever starts,
    so the colour to play's share is 1 for black and 0 for white."""
    size, black, white = parse_diagram("""
     5 . X X X X
     4 X X X X X
     3 X X . X X
     2 X X X X X
     1 X X X X .
     """)
    s = GoState(size, 7.0)
    s.place_setup(BLACK, black)
    for colour, share in ((BLACK, 1.0), (WHITE, 0.0)):
        s.to_play = colour
        assert GoPosition(s.clone()).win_share(np.random.default_rng(1), 20) == share


def _after_white(diagram: str, last: str) -> GoState:
    """The diagram's stones, then white plays ``last``; black to play."""
    size, black, white = parse_diagram(diagram)
    s = GoState(size, 7.0)
    s.place_setup(BLACK, black)
    s.place_setup(WHITE, white)
    s.to_play = WHITE
    s.play_colour(WHITE, vertex_to_point(last, size))
    return s


def _black_choices(s: GoState, policies: tuple[int, ...]) -> dict[int, set[str]]:
    """The moves black's policies choose over seeds 1-40 (the reference choosing the same
    move and rng state each time)."""
    pat = pattern_table()
    ptab, plv = synthetic_policy(1)
    buf = np.empty(4 * s._b.shape[1] + 8, dtype=np.int32)
    gam = np.empty(16)
    seen: dict[int, set[str]] = {policy: set() for policy in policies}
    for seed in range(1, 41):
        for policy in policies:
            p, ks = k_choose(s._b.copy(), BLACK, np.uint64(seed), policy, pat, 2, buf,
                               ptab, plv, gam)
            ref = RefPlayer.from_kernel(s._b.copy())
            assert ref.choose(BLACK, seed, policy, pat, 2, ptab, plv) == (p, int(ks))
            seen[policy].add(point_to_vertex(p, s.size))
    return seen


@pytest.mark.parametrize(("diagram", "last", "expected"), [
    # white's last move C3 has two liberties: black ataris it at C4 or D3
    ("""
     5 . . . . .
     4 . . . . .
     3 . X . . .
     2 . . X . .
     1 . . . . .
     """, "C3", {"C4", "D3"}),
    # black's B2 has two liberties after white's C2: B1 extends to three, A2 does not
    ("""
     5 . . . . .
     4 . . . . .
     3 O O . . .
     2 . X . . .
     1 . . . . .
     """, "C2", {"B1"}),
])
def test_low_liberty_rule(diagram: str, last: str, expected: set[str]) -> None:
    """Policy 5 plays only the low-liberty moves where the atari rules find nothing (and
    the reference agrees, seed by seed); policy 2 plays elsewhere too."""
    seen = _black_choices(_after_white(diagram, last), (2, 5))
    assert seen[5] == expected
    assert seen[2] - expected


WALL = " 5 . . . . .\n 4 . . . . .\n 3 O O . O O\n"  # white plays C3 last


@pytest.mark.parametrize(("rows", "vital"), [
    (" 2 O . . . O\n 1 O O O O O", "C2"),  # a straight three
    (" 2 O . . O O\n 1 O . O O O", "B2"),  # a bent three
    (" 2 O . . . O\n 1 O O . O O", "C2"),  # a pyramid four
    (" 2 O . . . O\n 1 O . . O O", "C2"),  # a bulky five
    (" 2 . . . . O\n 1 O O O O O", None),  # a straight four lives
    (" 2 O . . O O\n 1 O . . O O", None),  # a square four is dead whatever is played
    (" 2 O . . . O\n 1 O O O X O", None),  # not an eye space: black borders it too
    (" 2 O . . . .\n 1 O O O O O", None),  # six points
])
def test_nakade_vital_points(rows: str, vital: str | None) -> None:
    """From any point of the region on rows 1-2, its vital point (or none); the open area
    above the wall is no eye space."""
    s = _after_white(WALL + rows, "C3")
    ref = RefPlayer.from_kernel(s._b.copy())
    buf = np.empty(4 * s._b.shape[1] + 8, dtype=np.int32)
    for p in ref.empties:
        below = point_to_vertex(p, s.size)[1:] in ("1", "2")
        want = vertex_to_point(vital, s.size) if vital and below else -1
        assert nakade_vital(s._b, p, buf) == ref.nakade_vital(p) == want, (
            point_to_vertex(p, s.size))


RING = """
 7 . . . . . . .
 6 . . . . . . .
 5 O O O O O . .
 4 O {} O . .
 3 O {} O . .
 2 O O O O O . .
 1 . . . . . . .
"""  # white's eye space B3-D4, with its liberties outside


@pytest.mark.parametrize(("row4", "row3", "move", "stones", "dead"), [
    ("X . .", "O O O", "C4", 2, True),  # two stones: one eye once captured
    (". X X", ". O O", "B4", 3, True),  # a straight three
    ("X . .", "X X O", "C4", 4, True),  # a square four
    ("X X X", ". . O", "C3", 4, True),  # a pyramid four
    (". X .", "X X O", "D4", 4, False),  # a bent four: the capturer lives
    ("X X .", "X X .", "D4", 5, True),  # a bulky five
    ("X . .", "X X X", "D4", 5, False),  # a five in a U lives
])
def test_self_atari_into_a_dead_shape(row4: str, row3: str, move: str, stones: int,
                                      dead: bool) -> None:
    """Black's move leaves its group in atari inside white's eye space: policy 6 refuses
    every such self-atari of two stones or more, policy 7 the ones whose shape, captured,
    leaves white room for two eyes (the reference agrees)."""
    size, black, white = parse_diagram(RING.format(row4, row3))
    s = GoState(size, 7.0)
    s.place_setup(BLACK, black)
    s.place_setup(WHITE, white)
    p = vertex_to_point(move, size)
    ref = RefPlayer.from_kernel(s._b.copy())
    assert k_self_atari(s._b, p, BLACK) == ref.self_atari(p, BLACK) == stones
    assert bad_self_atari(s._b, p, BLACK, 2, False) and ref.bad_self_atari(p, BLACK, 2, 6)
    assert bad_self_atari(s._b, p, BLACK, 2, True) == ref.bad_self_atari(p, BLACK, 2, 7) \
        == (not dead)


def test_crossed_five() -> None:
    s = _after_white("""
     5 O O O O O
     4 O O . O O
     3 O . . . O
     2 O O . O O
     1 O O O O O
     """.replace(" 4 O O . O O", " 4 O . . O O"), "B4")
    buf = np.empty(4 * s._b.shape[1] + 8, dtype=np.int32)
    c3 = vertex_to_point("C3", 5)
    ref = RefPlayer.from_kernel(s._b.copy())
    assert nakade_vital(s._b, c3, buf) == ref.nakade_vital(c3) == c3


def test_policy_6_plays_the_vital_point() -> None:
    """After white closes a straight three, black's policy 6 always kills at its middle
    (the reference agrees, seed by seed); policy 5 plays elsewhere too."""
    seen = _black_choices(_after_white(WALL + " 2 O . . . O\n 1 O O O O O", "C3"), (5, 6))
    assert seen[6] == {"C2"}
    assert seen[5] - {"C2"}
