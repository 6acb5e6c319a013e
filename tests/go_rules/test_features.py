"""Move features of learned ratings (knowledge.go.features): hand-made positions for each group,
the ladder reader, the canonical 3x3 patterns, and the kernel against the reference."""

from __future__ import annotations

import numpy as np
import pytest

from games.go import BLACK, PASS, WHITE, GoState, vertex_to_point
from games.go.diagram import parse_diagram
from knowledge.go import features as F
from knowledge.go.patterns import canonical20
from knowledge.go.reference import RefPlayer, reference_large_codes, reference_move_features

LADDER = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 . . . . X . . . .
 5 . . . X O . . . .
 4 . . . . . X . . .
 3 . . . . . . . . .
 2 . . . . . . . . .
 1 . . . . . . . . .
"""


def position(diagram: str, to_play: int = BLACK,
             moves: tuple[tuple[int, str], ...] = ()) -> GoState:
    size, black, white = parse_diagram(diagram)
    s = GoState(size, 7.0)
    s.place_setup(BLACK, black)
    s.place_setup(WHITE, white)
    s.to_play = moves[0][0] if moves else to_play
    for colour, vertex in moves:
        s.play_colour(colour, vertex_to_point(vertex, size))
    if moves:
        s.to_play = to_play
    return s


def features(s: GoState, vertex: str) -> dict[str, int]:
    p = PASS if vertex == "pass" else vertex_to_point(vertex, s.size)
    out = np.zeros((1, F.NG), dtype=np.int32)
    F.k_move_features(s._b, s.to_play, np.array([p], dtype=np.int32), out)
    ref = reference_move_features(RefPlayer.from_kernel(s._b), p, s.to_play)
    assert out[0].tolist() == ref
    return dict(zip(F.GROUP_NAMES, out[0].tolist(), strict=True))


def test_atari_caught_in_a_ladder_or_not() -> None:
    s = position(LADDER)
    assert features(s, "F5")["atari"] == 3  # the ladder runs to the lower left edge
    assert features(s, "E4")["atari"] == 3  # and this one to the upper right
    broken = position(LADDER.replace(" 3 . . . . . . . . .", " 3 . . O . . . . . ."))
    assert features(broken, "F5")["atari"] == 1  # a one-stone group, ladder broken
    assert features(broken, "E4")["atari"] == 3
    two = position(LADDER.replace(" 5 . . . X O . .", " 5 . . . X O X .").replace(
        " 4 . . . . . X", " 4 . . . X O ."))
    assert features(two, "F4")["atari"] == 2  # two stones, they escape at E3


def test_escape_levels() -> None:
    s = position(LADDER, WHITE, ((BLACK, "F5"),))
    assert features(s, "E4")["escape"] == 6  # two liberties, laddered, atari of the last move
    broken = position(LADDER.replace(" 3 . . . . . . . . .", " 3 . . O . . . . . ."),
                      WHITE, ((BLACK, "F5"),))
    assert features(broken, "E4")["escape"] == 5
    open_ = position("""
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .""", WHITE)
    assert features(open_, "C2")["escape"] == 1  # three liberties, not after the last move
    assert features(open_, "C2")["self_atari"] == 0


def test_liberty_race_levels() -> None:
    edge = position("""
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        . . O . .""")
    assert features(edge, "C2")["libs"] == 1  # C1 from three liberties to two
    race = position("""
        . . . . .
        . . X . .
        . . O . .
        . . . . .
        . . . . .""")
    assert features(race, "C2")["libs"] == 2  # and C4 next to it has three liberties
    assert features(race, "B4")["libs"] == 0  # C3 keeps four
    short = """
        . . . . .
        . . . . .
        . O X . .
        . . . . .
        . . . . ."""
    s = position(short, BLACK, ((WHITE, "D3"),))  # C3 down to two liberties by the last move
    assert features(s, "C4")["libs"] == 4  # C3-C4 gets four
    assert features(s, "E1")["libs"] == 0  # next to nothing
    assert features(s, "B2")["libs"] == 2  # B3 to two liberties, and C3 next to it has two
    not_last = position(short.replace(". O X . .", ". O X O ."))
    assert features(not_last, "C4")["libs"] == 3
    assert features(not_last, "C2")["libs"] == 3  # B3 and D3 keep three


def test_capture_levels() -> None:
    one = position("""
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .""")
    assert features(one, "C2")["capture"] == 3
    two = position("""
        . . X . .
        . X O X .
        . X O X .
        . . . . .
        . . . . .""")
    assert features(two, "C2")["capture"] == 4
    last = position("""
        . . . . .
        . . X . .
        . X . X .
        . . . . .
        . . . . .""", BLACK, ((WHITE, "C3"),))
    assert features(last, "C2")["capture"] == 2
    saves = position("""
        . . . . .
        . O X . .
        O X O X .
        . . . . .
        . . . . .""")
    f = features(saves, "C2")  # captures C3 and so saves B3 (in atari, liberty B2)
    assert (f["capture"], f["escape"]) == (1, 0)


def test_self_atari_sizes() -> None:
    s = position("""
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        . O . . .""")
    assert features(s, "A1")["self_atari"] == 1
    s2 = position("""
        . . . . .
        . . . . .
        . . . . .
        . O . . .
        . X O . .""")
    f = features(s2, "A1")
    assert (f["self_atari"], f["escape"]) == (2, 0)  # extends B1 into atari: no escape
    assert features(s2, "C2")["self_atari"] == 0


def test_distances_to_the_last_two_moves() -> None:
    s = position(LADDER.replace("X", ".").replace("O", "."), BLACK,
                 ((BLACK, "A9"), (WHITE, "E5")))
    expect = {"E6": 1, "F6": 2, "E7": 3, "F7": 4, "G7": 5, "J9": 9, "A1": 9, "J1": 9}
    for v, level in expect.items():
        assert features(s, v)["dist"] == level, v
    assert features(s, "A8")["dist2"] == 1  # next to black's A9
    assert features(s, "C7")["dist2"] == 5  # dx 2, dy 2
    fresh = GoState(9)
    assert features(fresh, "E5")["dist"] == features(fresh, "E5")["dist2"] == 0


def test_line_eye_empty_area_and_pass() -> None:
    s = GoState(9)
    assert [features(s, v)["line"] for v in ("A1", "B2", "C3", "D4", "E5")] == [1, 2, 3, 4, 0]
    assert [features(s, v)["empty_area"] for v in ("A1", "B5", "C3", "E5")] == [1, 2, 3, 4]
    s.play_colour(BLACK, vertex_to_point("D4", 9))
    assert features(s, "B3")["empty_area"] == 0  # D4 is at Manhattan distance 3
    assert features(s, "A2")["empty_area"] == 1
    eye = position("""
        . . . . .
        . O X O .
        . X . X .
        . . X . .
        . . . . .""")
    assert features(eye, "C3")["eye"] == 1
    assert features(eye, "C4")["eye"] == 0
    assert features(s, "pass")["pass"] == 1
    s.pass_move()
    assert features(s, "pass") == {**dict.fromkeys(F.GROUP_NAMES, 0), "pattern": -1, "pass": 2}


def _rotated(s: GoState, t: int) -> tuple[GoState, dict[int, int]]:
    """The position with its stones moved by symmetry t, and the point map."""
    n = s.size
    pmap = {}
    for r in range(n):
        for c in range(n):
            x, y = c - (n - 1) / 2, r - (n - 1) / 2
            if t >= 4:
                x = -x
            for _ in range(t % 4):
                x, y = -y, x
            pmap[(r + 1) * (n + 2) + c + 1] = int(
                (y + (n - 1) / 2 + 1) * (n + 2) + x + (n - 1) / 2 + 1)
    out = GoState(n, 7.0)
    for colour in (BLACK, WHITE):
        out.place_setup(colour, [pmap[p] for p in s.stones(colour)])
    out.to_play = s.to_play
    return out, pmap


def test_patterns_are_canonical_under_symmetry_and_colour() -> None:
    rng = np.random.default_rng(3)
    canon = canonical20()
    s = GoState(7)
    for _ in range(25):
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves) - 1))])
    points = [p for p in s.legal_points() if p != PASS]
    base = {p: int(canon[F.pattern20(s._b, p, s.to_play)]) for p in points}
    assert all(v >= 0 for v in base.values())
    for t in range(8):
        r, pmap = _rotated(s, t)
        for p in points:
            assert int(canon[F.pattern20(r._b, pmap[p], r.to_play)]) == base[p], (t, p)
    swapped = GoState(7, 7.0)
    swapped.place_setup(BLACK, s.stones(WHITE))
    swapped.place_setup(WHITE, s.stones(BLACK))
    swapped.to_play = 3 - s.to_play
    for p in points:
        assert F.pattern20(swapped._b, p, swapped.to_play) == F.pattern20(s._b, p, s.to_play)


def test_atari_bits_of_the_pattern() -> None:
    s = position("""
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .""")
    code = F.pattern20(s._b, vertex_to_point("C2", 5), BLACK)
    assert code >> 16 == 0b0001 << 0  # the N neighbour (the white stone) is in atari
    assert (code >> 2) & 3 == 2  # N is the opponent's


def _large(s: GoState, vertex: str) -> tuple[int, int]:
    out = np.zeros((1, 2), dtype=np.int64)
    F.k_large_codes(s._b, s.to_play, np.array([vertex_to_point(vertex, s.size)],
                                               dtype=np.int32), out)
    return int(out[0, 0]), int(out[0, 1])


def test_large_patterns_by_hand() -> None:
    s = position("""
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . . . . . .
        . . . . O . .
        . . . . . . .
        . . . . . . .""")
    r3, r2 = _large(s, "D4")  # X just above, O at distance 2 (diagonal, below right)
    assert r2 == F.LARGE_R2 | (r3 & ((1 << 24) - 1))  # the distance-2 code is r3's first rings
    cells = [(r3 >> (2 * j)) & 3 for j in range(24)]
    assert sorted(cells) == [0] * 22 + [1, 2]  # one of ours, one of theirs, nothing off
    assert cells.index(1) < 4 <= cells.index(2) < 12  # ours in ring 1, theirs in ring 2
    # the same shape mirrored top to bottom has the same codes
    t = position("""
        . . . . . . .
        . . . . . . .
        . . . . O . .
        . . . . . . .
        . . . X . . .
        . . . . . . .
        . . . . . . .""")
    assert _large(t, "D4") == (r3, r2)
    # and a different shape (O at distance 2 straight down) another
    u = position("""
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . . . . . .
        . . . O . . .
        . . . . . . .
        . . . . . . .""")
    assert _large(u, "D4")[0] != r3
    # colours are the mover's: white to play sees them swapped
    s.to_play = WHITE
    w3, _ = _large(s, "D4")
    assert sorted((w3 >> (2 * j)) & 3 for j in range(24)) == sorted(cells) and w3 != r3
    # in the corner only 9 of the 24 points within distance 3 are on the board (5 of 12)
    c3, c2 = _large(s, "A1")
    assert sum(((c3 >> (2 * j)) & 3) == 3 for j in range(24)) == 24 - 9
    assert sum(((c2 >> (2 * j)) & 3) == 3 for j in range(12)) == 12 - 5


def _random_middle_game(seed: int) -> tuple[GoState, list[int]]:
    """A 9x9 position after 30 random moves, and its empty legal points."""
    rng = np.random.default_rng(seed)
    s = GoState(9)
    for _ in range(30):
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves) - 1))])
    return s, [p for p in s.legal_points() if p != PASS]


def test_large_patterns_are_canonical_under_symmetry() -> None:
    s, points = _random_middle_game(5)
    arr = np.array(points, dtype=np.int32)
    base = np.zeros((len(arr), 2), dtype=np.int64)
    F.k_large_codes(s._b, s.to_play, arr, base)
    assert len(set(base[:, 0].tolist())) > 10  # the codes tell the points apart
    for t in range(8):
        r, pmap = _rotated(s, t)
        out = np.zeros_like(base)
        F.k_large_codes(r._b, r.to_play, np.array([pmap[p] for p in points], dtype=np.int32),
                        out)
        assert out.tolist() == base.tolist(), t


@pytest.mark.parametrize(("size", "seed"), [(7, 1), (9, 2), (9, 3), (13, 4)])
def test_kernel_matches_reference_on_random_positions(size: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    seen = np.zeros(F.NG, dtype=np.int64)
    s = GoState(size, 7.0)
    for step in range(2 * size * size):
        moves = s.legal_moves()
        if len(moves) <= 1:
            break
        if step % 5 == 0:
            arr = np.array(moves, dtype=np.int32)
            out = np.zeros((len(arr), F.NG), dtype=np.int32)
            F.k_move_features(s._b, s.to_play, arr, out)
            ref = RefPlayer.from_kernel(s._b)
            for i, p in enumerate(moves):
                assert out[i].tolist() == reference_move_features(ref, p, s.to_play), p
            large = np.zeros((len(arr), 2), dtype=np.int64)
            F.k_large_codes(s._b, s.to_play, arr, large)
            assert large[-1].tolist() == [-1, -1]  # PASS
            for i, p in enumerate(moves[:-1]):
                assert tuple(large[i]) == reference_large_codes(ref, p, s.to_play), p
            seen += (out > 0).sum(axis=0)
        s.play(moves[int(rng.integers(len(moves) - 1))])
    assert seen[F.G_CAPTURE] > 0 and seen[F.G_SELF_ATARI] > 0 and seen[F.G_ATARI] > 0
    assert seen[F.G_LIBS] > 0


def test_large_pattern_images_are_the_raw_codes_of_the_turned_boards() -> None:
    s, points = _random_middle_game(8)
    canon = np.zeros((len(points), 2), dtype=np.int64)
    F.k_large_codes(s._b, s.to_play, np.array(points, dtype=np.int32), canon)
    for col in (0, 1):
        images = F.large_images(canon[:, col])
        assert images[0].tolist() == canon[:, col].tolist()  # symmetry 0 is the identity
        assert np.all(images.min(axis=0) == canon[:, col])  # the canonical is the least
        for t in range(8):
            r, pmap = _rotated(s, t)
            raw = [int(F.large_raw_codes(r._b, pmap[p], r.to_play)[col]) for p in points]
            assert all(raw[i] in images[:, i] for i in range(len(points))), t


def test_large_gamma_reads_distance_3_before_2_and_adds_missing_parts() -> None:
    from knowledge.go.weights import FeatureGammas

    s = position("""
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . . . . . .
        . . . . O . .
        . . . . . . .
        . . . . . . .""")
    p, q = vertex_to_point("D4", 7), vertex_to_point("B2", 7)
    r3, r2 = (int(v) for v in F.large_codes(s._b, p, BLACK))

    def gamma(codes: list[int], gammas: list[float], point: int) -> float:
        order = np.argsort(codes)
        g = FeatureGammas(np.ones((F.NG, 11)), np.zeros(0, dtype=np.int32), np.zeros(0),
                          np.ones(1), np.asarray(codes, dtype=np.int64)[order],
                          np.asarray(gammas)[order])
        return F.large_gamma(s._b, point, BLACK, *g.large_table)

    assert gamma([r3, r2], [5.0, 2.0], p) == 5.0  # distance 3 first
    assert gamma([r2], [2.0], p) == 2.0  # else distance 2
    assert gamma([r3], [5.0], p) == 5.0  # a table without the part: it is added at γ 1
    assert gamma([r3, r2], [5.0, 2.0], q) == 1.0  # another shape: neither listed
    assert gamma([], [], p) == 1.0


def test_gammas_compute_the_libs_level_only_when_it_weighs() -> None:
    """With every γ of the LIBS group at 1 (weights from before it) k_gammas leaves its level
    0 and the γ unchanged; otherwise it multiplies in the level's γ."""
    s, points = _random_middle_game(8)
    arr = np.array(points, dtype=np.int32)
    feats = np.zeros((len(arr), F.NG), dtype=np.int32)
    F.k_move_features(s._b, s.to_play, arr, feats)
    assert len(set(feats[:, F.G_LIBS].tolist())) >= 3
    ptab = np.ones(1 << 20, dtype=np.float32)
    levels = np.ones((F.NG, 11))
    none = (np.zeros(0, dtype=np.int64), np.zeros(0))
    out = np.zeros_like(feats)
    gam = np.empty(len(arr))
    F.k_gammas(s._b, s.to_play, arr, ptab, levels, *none, out, gam)
    assert np.all(out[:, F.G_LIBS] == 0) and np.all(gam == 1)
    assert np.array_equal(np.delete(out, F.G_LIBS, 1), np.delete(feats, F.G_LIBS, 1))
    levels[F.G_LIBS, 1:5] = (2.0, 3.0, 5.0, 7.0)
    F.k_gammas(s._b, s.to_play, arr, ptab, levels, *none, out, gam)
    assert np.array_equal(out, feats)
    assert np.array_equal(gam, levels[F.G_LIBS, feats[:, F.G_LIBS]])
