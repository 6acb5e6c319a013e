"""Sure finishes (knowledge.daihinmin.endgame): by hand, and played out against the true hands."""

from __future__ import annotations

import numpy as np

from games.daihinmin import rules as R
from games.daihinmin.cards import (
    ALL_CARDS,
    PASS,
    hand_from_str,
    move_cards,
    move_from_str,
    move_str,
)
from knowledge.daihinmin.endgame import sure, sure_finish, sure_first
from knowledge.daihinmin.learned import load_policy, view
from knowledge.daihinmin.playout import state_playout
from knowledge.daihinmin.policies import POLICY_LEARNED
from tests.daihinmin.test_kernels import random_positions


def line(hand: str, others: str, table: str = "", rev: int = 0, lock: int = 0,
         own: bool = False) -> list[str] | None:
    got = sure_finish(hand_from_str(hand), hand_from_str(others),
                      move_from_str(table) if table else PASS, rev, lock, own)
    return None if got is None else [move_str(m) or "pass" for m in got]


def test_sure_finishes_by_hand() -> None:
    # the 2 of spades wins the lead (no joker, no other 2 out), then the five goes out
    assert line("S2H5", "S4S6D9CK") == ["S2", "pass", "H5"]
    # with the joker out there the 2 is not sure
    assert line("S2H5", "S4S6D9CKJ3") is None
    # an 8 cuts: no pass on it
    assert line("S8H5", "S4S6D9CKJ3") == ["S8", "H5"]
    # out at once: the whole hand is one meld
    assert line("S5H5", "S4S6D9CKC2J3") == ["S5H5"]
    # in revolution the 3 is the strongest single
    assert line("S3HK", "S4S6D9C2", rev=1) == ["S3", "pass", "HK"]
    # following: the ace over a king, sure once the 2s and the joker are gone
    assert line("SAH5", "S4S6D9", table="CK") == ["SA", "pass", "H5"]
    # our own meld on the table, everybody passed: pass, then lead the sure line
    assert line("S2H5", "S4S6D9", table="C7", own=True) == ["pass", "S2", "pass", "H5"]
    # nothing sure in two weak singles
    assert line("H5H7", "S4S6D9CKC2") is None


def test_every_line_found_goes_out_before_anybody_else_plays() -> None:
    found = 0
    for s in random_positions(5, 40, every=1):
        p = s.to_move
        info = s.info_set(p)
        others = ALL_CARDS & ~info.hand & ~info.played
        table = s.table
        got = sure_finish(info.hand, others, table, info.rev, info.lock,
                          own_table=table != PASS and info.last == p)
        if got is None:
            continue
        found += 1
        t = s.clone()
        plan = list(got)
        while plan:
            q = t.to_move
            if q == p:
                m = plan.pop(0)
                assert m in t.legal_moves(), (s.diagram(), got)
                t.play(m)
            else:  # nobody else can play a card
                assert t.legal_moves() == [PASS], (s.diagram(), got, move_str(t.table))
                t.play(PASS)
        assert p in t.finish and t.hand(p) == 0
    assert found >= 300, found


def test_kernel_finds_a_line_where_the_reference_does() -> None:
    """sure_first_kernel (the playouts' search) against sure_finish: a line exists for the
    same hands, and the kernel's first meld starts one (it may pick another of several
    lines: its melds come in the kernel's order)."""
    found = same = 0
    for s in random_positions(6, 60, every=1):
        hand, others, table, rev, lock, _ = view(s, s.to_move)
        if hand == 0:
            continue
        ref = sure_finish(hand, others, table, rev, lock)
        got = sure_first(hand, others, table, rev, lock)
        assert (ref is None) == (got is None), (s.diagram(), ref, got)
        if got is None:
            continue
        found += 1
        same += got == ref[0]  # type: ignore[index]
        assert got in R.legal_moves(hand, table, rev, lock)
        rest = hand & ~move_cards(got)
        assert rest == 0 or (sure(got, others, table, rev, lock) and sure_finish(
            rest, others, PASS, rev ^ int(R.revolts(got)), 0) is not None)
    assert found >= 300 and same >= 0.9 * found, (found, same)
    # the budget: with one sure meld allowed, a line of two sure melds is not found
    hand, others = hand_from_str("S2CAD5"), hand_from_str("S4S6D9CK")
    assert sure_first(hand, others, PASS, 0, 0, nodes=1) is None
    assert sure_first(hand, others, PASS, 0, 0, nodes=2) in (move_from_str("S2"),
                                                             move_from_str("CA"))


def test_playouts_with_own_sure_finishes_go_out_unanswered() -> None:
    """With own_sure, a playout from a position where the seat has a sure finish takes it:
    nobody else plays a card before the seat is out. Without it the learned policy does not
    always (so the test can tell them apart)."""
    W = np.tile(load_policy(), (5, 1))
    rng = np.random.default_rng(3)
    positions = 0
    strays = 0  # playouts without own_sure where another player played before p went out
    for s in random_positions(7, 30, every=1):
        p = s.to_move
        hand, others, table, rev, lock, _ = view(s, p)
        if hand == 0 or sure_first(hand, others, table, rev, lock) is None:
            continue
        positions += 1
        for own_sure in (True, False):
            for _ in range(3):
                po = state_playout(s, rng, p, POLICY_LEARNED, W, own_sure=own_sure)
                left = hand
                stray = False
                for m, q in zip(po.moves, po.players, strict=True):
                    if left == 0:
                        break
                    if q == p:
                        left &= ~move_cards(int(m))
                    elif m != PASS:
                        stray = True
                assert left == 0 or not own_sure
                if own_sure:
                    assert not stray, s.diagram()
                else:
                    strays += stray
    assert positions >= 100 and strays > 0, (positions, strays)
