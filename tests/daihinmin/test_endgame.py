"""Sure finishes (games.daihinmin.endgame): by hand, and played out against the true hands."""

from __future__ import annotations

from games.daihinmin.cards import ALL_CARDS, PASS, hand_from_str, move_from_str, move_str
from games.daihinmin.endgame import sure_finish
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
