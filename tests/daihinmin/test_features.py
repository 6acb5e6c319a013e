"""Move features and the learned policy: kernels against the plain-Python references."""

from __future__ import annotations

import json

import numpy as np
import pytest

from games.daihinmin.cards import hand_from_str, move_from_str
from games.daihinmin.match import Match, MatchConfig
from knowledge.daihinmin.features import (
    CONTEXT,
    DENSE,
    FEATURES,
    N_DENSE,
    N_FEATURES,
    N_TABLE,
    SHAPE_TABLE,
    py_answers,
    py_features,
)
from knowledge.daihinmin.learned import (
    compact_weights,
    features_matrix,
    load_policy,
    policy_probs,
    py_policy_probs,
    view,
)
from knowledge.daihinmin.playout import state_playout
from knowledge.daihinmin.policies import POLICY_LEARNED, heuristic_move
from tests.daihinmin.test_kernels import random_positions


def _view(s):  # type: ignore[no-untyped-def]
    return view(s, s.to_move)


def test_features_kernel_matches_reference_on_random_positions() -> None:
    n = 0
    for s in random_positions(11, 12, every=2):
        view = _view(s)
        moves = np.array(s.legal_moves(), dtype=np.int64)
        ker = features_matrix(*view, moves)
        for i, m in enumerate(moves):
            assert ker[i] == pytest.approx(py_features(*view, int(m))), (FEATURES, int(m))
        n += len(moves)
    assert n > 2000


def test_feature_values_by_hand() -> None:
    hand = hand_from_str("S3H3D3S8C2J3")
    others = hand_from_str("S4H4S5H5D9C9")
    f = dict(zip(FEATURES, py_features(hand, others, 0, 0, 0, 3, move_from_str("S3H3D3")),
                 strict=True))
    assert f["lead_group"] == 1 and f["lead_size"] == 0.75 and f["lead_strength"] == 0
    assert f["answers"] == pytest.approx(np.log1p(0) / 3) and f["sure"] == 1  # no triple
    assert f["cards_left"] == 3 / 11 and f["joker_kept"] == 1 and f["top_cards_kept"] == 0.5
    assert f["lead_wider_than_opp"] == 0
    pair = py_features(hand, others, 0, 0, 0, 1, move_from_str("S3H3"))
    assert pair[FEATURES.index("breaks_group")] == 1
    assert pair[FEATURES.index("lead_wider_than_opp")] == 1
    cut = py_features(hand, others, move_from_str("H7"), 0, 0, 3, move_from_str("S8"))
    assert cut[FEATURES.index("eight_cut")] == 1 and cut[FEATURES.index("sure")] == 1
    assert cut[FEATURES.index("follow_overkill")] == pytest.approx(1 / 12)
    passing = py_features(hand, others, move_from_str("C2"), 0, 0, 3, 0)
    assert passing[FEATURES.index("pass")] == 1 and passing[FEATURES.index("pass_strong_table")]
    # answers: pairs of 4s, 5s and 9s beat a pair of 3s; only the 9s and the joker a 7
    assert py_answers(others, move_from_str("S3H3"), 0, 0) == 3
    assert py_answers(others | hand_from_str("J3"), move_from_str("S7"), 0, 0) == 2
    assert py_answers(others, move_from_str("S3H3"), 0, 1) == 2  # locked to S H: 4s, 5s
    assert py_answers(hand_from_str("S5S6S7H9"), move_from_str("S4"), 1, 0) == 0


def test_shape_table_by_hand() -> None:
    """Exactly one cell of the shape table is set for a meld or a pass on a meld: its role,
    shape and strength in twelfths (a sequence by its top, under a revolution by its
    bottom, counted from the weak end of the order in force)."""
    hand = hand_from_str("S3H3D3C3S4S5S8C2J3")
    others = hand_from_str("S6H6S7H7D9C9")

    def cells(table: str, rev: int, move: str) -> list[str]:
        t = move_from_str(table) if table else 0
        f = py_features(hand, others, t, rev, 0, 3, move_from_str(move) if move else 0)
        table = slice(N_DENSE, N_DENSE + N_TABLE)
        return [n for n, x in zip(FEATURES[table], f[table], strict=True) if x]

    assert cells("", 0, "S3H3") == ["lead_pair_s0"]
    assert cells("", 1, "S3H3") == ["lead_pair_s12"]
    assert cells("", 0, "S3S4S5") == ["lead_seq3_s2"]
    assert cells("", 1, "S3S4S5") == ["lead_seq3_s12"]
    assert cells("", 0, "S3H3D3C3") == ["lead_quad_s0"]
    assert cells("H7", 0, "S8") == ["follow_single_s5"]
    assert cells("H7", 0, "") == ["pass_on_single_s4"]
    assert cells("C2", 0, "") == ["pass_on_single_s12"]
    assert cells("", 0, "") == []  # the pass on an empty table: no cell


def test_context_by_hand() -> None:
    """One pair of context columns is set for a meld or a pass on a meld: its role, the cards
    it leaves (0-2, 3-5, 6-8, 9+), the control cards among them (the joker and the strongest
    rank after the move, up to 3), and the table cell's strength in the second column."""
    hand = hand_from_str("S3H3D3C3S4S5S8C2J3")  # nine cards, the joker and one 2
    others = hand_from_str("S6H6S7H7D9C9")

    def context(table: str, rev: int, move: str) -> dict[str, float]:
        t = move_from_str(table) if table else 0
        f = py_features(hand, others, t, rev, 0, 3, move_from_str(move) if move else 0)
        ctx = slice(N_DENSE + N_TABLE, N_FEATURES)
        return {n: x for n, x in zip(FEATURES[ctx], f[ctx], strict=True) if x}

    assert context("", 0, "S3H3") == {"lead_left2_top2": 1}  # seven left, joker and 2
    assert context("", 0, "S8") == {"lead_left2_top2": 1, "lead_left2_top2_s": 5 / 12}
    # the quad's revolution makes the 3s the strongest rank: none of them is left
    assert context("", 0, "S3H3D3C3") == {"lead_left1_top1": 1}  # its cell: lead_quad_s0
    assert context("H7", 0, "") == {"pass_on_left3_top2": 1, "pass_on_left3_top2_s": 4 / 12}
    assert context("", 0, "") == {}  # the pass on an empty table: none
    # under the revolution the 3s are the strongest rank: four of them and the joker
    assert context("H7", 1, "") == {"pass_on_left3_top3": 1, "pass_on_left3_top3_s": 8 / 12}


def test_older_weights_load_with_their_missing_blocks_empty(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "dense.json"
    path.write_text(json.dumps({"features": list(DENSE), "theta": [0.5] * N_DENSE}))
    theta = load_policy(path)
    assert theta.shape == (N_FEATURES,)
    assert (theta[:N_DENSE] == 0.5).all() and not theta[N_DENSE:].any()
    n = N_DENSE + N_TABLE
    path.write_text(json.dumps({"features": list(DENSE + SHAPE_TABLE), "theta": [0.5] * n}))
    theta = load_policy(path)
    assert (theta[:n] == 0.5).all() and not theta[n:].any() and len(theta) == n + len(CONTEXT)
    path.write_text(json.dumps({"features": list(DENSE[:-1]), "theta": [0.5] * (N_DENSE - 1)}))
    with pytest.raises(ValueError, match="other move features"):
        load_policy(path)


def test_policy_probabilities_match_reference() -> None:
    theta = np.random.default_rng(3).normal(0, 1, N_FEATURES)
    for s in random_positions(12, 4, every=5):
        view = _view(s)
        moves = np.array(s.legal_moves(), dtype=np.int64)
        assert policy_probs(*view, moves, theta) == pytest.approx(
            py_policy_probs(*view, [int(m) for m in moves], theta))


def test_weights_without_a_context_skip_it() -> None:
    """compact_weights cuts the context columns off weights whose context is all 0, and the
    policy over the cut θ is the policy over the whole; weights with a context stay whole."""
    theta = np.random.default_rng(6).normal(0, 1, N_FEATURES)
    theta[N_DENSE + N_TABLE:] = 0.0
    W = np.tile(theta, (5, 1))
    cut = compact_weights(W)
    assert cut.shape == (5, N_DENSE + N_TABLE) and cut.flags.c_contiguous
    for s in random_positions(14, 3, every=7):
        view = _view(s)
        moves = np.array(s.legal_moves(), dtype=np.int64)
        assert policy_probs(*view, moves, cut[0]) == pytest.approx(
            policy_probs(*view, moves, theta))
    W[2, -1] = 0.5
    assert compact_weights(W) is W


def test_learned_playouts_sample_the_policy() -> None:
    """The playout's first choice follows π: frequencies over many seeds."""
    st = Match(MatchConfig(seed=2)).deal().state()
    theta = np.random.default_rng(4).normal(0, 0.7, N_FEATURES)
    W = np.tile(theta, (5, 1))
    moves = st.legal_moves()
    p = py_policy_probs(*_view(st), moves, theta)
    counts = np.zeros(len(moves))
    rng = np.random.default_rng(5)
    n = 4000
    for _ in range(n):
        po = state_playout(st, rng, 0, POLICY_LEARNED, W)
        counts[moves.index(int(po.moves[0]))] += 1
    assert np.abs(counts / n - p).max() < 4 * np.sqrt(p.max() / n)


def test_rule_players_in_the_playouts() -> None:
    """With rule weight 1 every move of the other players that had a choice is the rule
    player's; with weight 0 (the policy alone) not all are."""
    W = np.tile(load_policy(), (5, 1))
    rng = np.random.default_rng(9)
    for weight in (1.0, 0.0):
        hits = total = 0
        for s in random_positions(13, 6, every=10):
            seat = s.to_move
            rule_w = np.full(5, weight)
            rule_w[seat] = 0.0
            po = state_playout(s, rng, seat, POLICY_LEARNED, W, rule_w=rule_w)
            st = s.clone()
            for m, q in zip(po.moves, po.players, strict=True):
                if q != seat and len(st.legal_moves()) > 1:
                    total += 1
                    hits += int(m) == heuristic_move(st.hand(int(q)), st.table,
                                                   int(st.revolution), int(st.lock))
                st.play(int(m))
        assert total > 100
        assert hits == total if weight == 1.0 else hits < 0.95 * total
