"""The playing styles of Go (knowledge/go/style.py): each feature against its plain-Python
reference on random positions, hand-made cases, the optimistic prior in GoPosition.priors and
in the compiled tree, and a styled search choosing feature moves more often than the plain."""

from __future__ import annotations

import numpy as np
import pytest

from games.go import BLACK, PASS, GoState, vertex_to_point
from knowledge.go.position import GoPosition
from knowledge.go.reference import RefBoard, reference_style_feature
from knowledge.go.style import (
    BASE_VISITS,
    STYLE_IDS,
    STYLES,
    k_style_features,
    opening_moves,
)
from knowledge.style import StyleSpec
from search.budget import Budget
from search.ctree import SplitMix
from search.uct import UCT, UCTConfig
from tests.core.test_ctree import GO_POSITIONS, assert_same, both


def features(s: GoState, style: str) -> dict[int, bool]:
    """The style's feature of every legal point, kernel and reference compared."""
    points = np.asarray([p for p in s.legal_moves() if p >= 0], dtype=np.int32)
    out = np.zeros(len(points), dtype=np.int32)
    k_style_features(s.board_array(), s.to_play, points, STYLE_IDS[style], out)
    ref = RefBoard.from_kernel(s.board_array())
    expected = [reference_style_feature(ref, int(p), s.to_play, len(s.history), style)
                for p in points]
    assert out.tolist() == [int(e) for e in expected]
    return {int(p): bool(f) for p, f in zip(points, out, strict=True)}


def game(size: int, moves: list[str]) -> GoState:
    s = GoState(size, 7.0)
    for v in moves:
        s.play(vertex_to_point(v, size))
    return s


@pytest.mark.parametrize("size", [9, 13, 19])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kernel_matches_the_reference_on_random_games(size: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    s = GoState(size, 7.0)
    seen = dict.fromkeys(STYLES, 0)
    for _ in range(size * size // 2):
        for style in STYLES:
            seen[style] += sum(features(s, style).values())
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves) - 1))] if len(moves) > 1 else moves[0])
    assert all(n > 0 for n in seen.values()), seen  # every feature was met


def test_territorial_and_influential_lines() -> None:
    s = GoState(9, 7.0)
    terr, infl = features(s, "territorial"), features(s, "influential")
    assert terr[vertex_to_point("C3", 9)] and terr[vertex_to_point("C5", 9)]
    assert not terr[vertex_to_point("D4", 9)] and not terr[vertex_to_point("B2", 9)]
    assert infl[vertex_to_point("D4", 9)] and infl[vertex_to_point("E5", 9)]
    assert not infl[vertex_to_point("C3", 9)]
    assert sum(terr.values()) == 16 and sum(infl.values()) == 9  # the 3rd line; the centre
    big = GoState(19, 7.5)
    terr = features(big, "territorial")
    assert terr[vertex_to_point("D4", 19)] and terr[vertex_to_point("R16", 19)]
    assert not terr[vertex_to_point("E5", 19)]
    infl = features(big, "influential")
    assert infl[vertex_to_point("D4", 19)] and infl[vertex_to_point("E5", 19)]
    assert not infl[vertex_to_point("F6", 19)]


def test_influential_faces_an_open_centre() -> None:
    s = game(9, ["E5", "pass"])  # a stone on the centre point, line 5
    infl = features(s, "influential")
    assert not infl[vertex_to_point("D4", 9)]  # E5 stands between it and the centre
    s13 = game(13, ["G7", "pass"])  # 13x13's centre point, line 7
    infl = features(s13, "influential")
    assert infl[vertex_to_point("D4", 13)] and infl[vertex_to_point("K4", 13)]
    assert not infl[vertex_to_point("E5", 13)]  # G7 is within distance 2, higher
    assert not infl[vertex_to_point("F6", 13)]  # line 6


def test_opening_styles_end_with_the_opening() -> None:
    n = opening_moves(9)
    assert (n, opening_moves(13), opening_moves(19)) == (10, 21, 45)
    s = GoState(9, 7.0)
    for _ in range(n - 1):
        s.play(PASS)  # passes count as moves of the game
        s.clear_passes()
    assert any(features(s, "territorial").values())
    s.play(PASS)
    s.clear_passes()
    assert not any(features(s, "territorial").values())
    assert not any(features(s, "influential").values())


def test_fighting_touches_an_opponent_stone_near_the_last_move() -> None:
    s = game(9, ["C3", "G7"])  # black to play, white's last stone at G7
    fight = {p for p, f in features(s, "fighting").items() if f}
    assert fight == {vertex_to_point(v, 9) for v in ("G6", "G8", "F7", "H7")}
    s = game(9, ["C3", "G7", "pass"])  # white to play after black's pass: no last stone
    assert not any(features(s, "fighting").values())
    # a cut between two white stones near white's last move
    s = game(9, ["C3", "D5", "C7", "E4"])
    fight = features(s, "fighting")
    assert fight[vertex_to_point("D4", 9)] and fight[vertex_to_point("E5", 9)]
    assert s.to_play == BLACK and not fight[vertex_to_point("C4", 9)]


def test_style_prior_is_added_to_the_feature_moves_only() -> None:
    s = GoPosition(game(9, ["C3", "G7"]))
    plain = s.priors()
    for strength in (1.0, 2.5):
        styled = s.clone()
        styled.style = StyleSpec("fighting", strength)
        pr = styled.priors()
        fight = features(s.state, "fighting")
        extra = strength * BASE_VISITS
        for i, m in enumerate(pr.moves):
            if m >= 0 and fight[m]:
                assert pr.counts[i] == pytest.approx(plain.counts[i] + extra)
                wins = plain.values[i] * plain.counts[i] + extra
                assert pr.values[i] == pytest.approx(wins / pr.counts[i])
            else:
                assert pr.counts[i] == plain.counts[i] and pr.values[i] == plain.values[i]


@pytest.mark.parametrize("style", ["fighting", "territorial"])
def test_compiled_tree_sees_the_style(style: str) -> None:
    s = GO_POSITIONS["9x9 fight"].clone() if style == "fighting" else GoPosition(
        game(9, ["E5", "C3"]))
    cfg = UCTConfig(rave=True, c=0.0, grandfather=10.0)
    plain = both(s, cfg, 300, 5)
    s.style = StyleSpec(style)
    styled = both(s, cfg, 300, 5)
    assert_same(*styled)
    assert styled[1].visits != plain[1].visits


# positions of 9x9 games where both kinds of move are legal, one per style
STYLE_POSITIONS = {
    "fighting": [["E5", "E4"], ["E5", "C5", "D4"], ["C3", "G7", "E5", "F3"],
                 ["E5", "E4", "D4", "D5", "C5", "F5"]],
    "territorial": [[], ["E5"], ["E5", "D4"], ["E5", "C5", "E3"]],
    "influential": [["C3"], ["C3", "G7"], ["C3", "G7", "C7"], ["C3", "G7", "C7", "G3"]],
}


@pytest.mark.parametrize("style", STYLES)
def test_a_styled_search_prefers_the_feature(style: str) -> None:
    """At strength 2, over four positions and three seeds (at the default strength the
    bench measures the effect: docs/results/go.md)."""
    counts = {False: 0, True: 0}
    for moves in STYLE_POSITIONS[style]:
        s = GoPosition(game(9, moves))
        fight = features(s.state, style)
        assert any(fight.values()) and not all(fight.values())
        for styled in (False, True):
            pos = s.clone()
            pos.style = StyleSpec(style, 2.0) if styled else None
            for seed in (1, 2, 3):
                r = UCT(UCTConfig(rave=True, c=0.0)).search(pos, None, Budget(playouts=200),
                                                            SplitMix(seed))
                counts[styled] += int(r.move >= 0 and fight[int(r.move)])
    assert counts[True] >= counts[False] + 5, counts
