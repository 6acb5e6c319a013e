"""Sure finishes: a line of plays that takes a hand out with no other player able to play.

A meld is *sure* when the other players, all their cards taken together, cannot answer it
(``features.py_answers`` is 0: the same test as the policy's "sure" feature), or when it
cuts (an 8). After a sure meld every other player passes and the turn comes back to its
player: an 8-cut flushes at once, otherwise he passes on his own meld, the trick flushes and
he leads again. So a hand that splits into sure melds and one last meld of any kind — each
sure meld sure in the order (revolution) its predecessors leave — goes out before anybody
else plays a card: the best place still open, whatever the hidden hands are.

Flat Monte Carlo finds such lines only as often as its playouts play them (our own later
moves come from the playout policy), so the client plays a sure finish when one exists
(``endgame`` setting) instead of searching. Pure Python: it runs once per decision at the
root, over the sure melds only.
"""

from __future__ import annotations

from functools import lru_cache

from games.daihinmin import rules as R
from games.daihinmin.cards import PASS, SINGLE_JOKER, move_cards, move_suits
from games.daihinmin.features import py_answers


def sure(m: int, others: int, table: int, rev: int, lock: int) -> bool:
    """Nobody holding only ``others`` can answer meld ``m`` played on ``table``."""
    if R.cuts(m):
        return True
    rev2 = rev ^ int(R.revolts(m))
    locks = (table != PASS and table != SINGLE_JOKER and m != SINGLE_JOKER and not lock
             and move_suits(m) == move_suits(table))
    lock2 = int((bool(lock) or locks) and m != SINGLE_JOKER)
    return py_answers(others, m, rev2, lock2) == 0


def sure_finish(hand: int, others: int, table: int, rev: int, lock: int,
                own_table: bool = False) -> list[int] | None:
    """The plays (our moves only; the passes back to us on our own melds included) that take
    ``hand`` out before any of the holders of ``others`` can play, or None if there is none.

    ``table`` is the meld to follow (``PASS``: we lead); ``own_table``: it is our own meld,
    everybody else passed, so passing flushes the trick and we lead."""
    if hand == 0:
        return None
    if table == PASS:
        return _lead(hand, others, rev)
    moves = [m for m in R.legal_moves(hand, table, rev, lock) if m != PASS]
    out = _out_at_once(hand, moves)
    if out is not None:
        return out
    if own_table:
        line = _lead(hand, others, rev)
        if line is not None:
            return [PASS, *line]
    return _through_sure(hand, moves, others, table, rev, lock)


@lru_cache(maxsize=4096)
def _lead(hand: int, others: int, rev: int) -> list[int] | None:
    moves = R.legal_moves(hand, PASS, rev, 0)
    return _out_at_once(hand, moves) or _through_sure(hand, moves, others, PASS, rev, 0)


def _out_at_once(hand: int, moves: list[int]) -> list[int] | None:
    """The one meld of ``moves`` that is the whole hand, if there is one."""
    for m in moves:
        if move_cards(m) == hand:
            return [m]
    return None


def _through_sure(hand: int, moves: list[int], others: int, table: int, rev: int,
                  lock: int) -> list[int] | None:
    """A line that starts with a sure meld of ``moves`` on ``table`` and goes on with a lead
    (after the pass on our own meld, unless it cut)."""
    for m in moves:
        if sure(m, others, table, rev, lock):
            rest = _lead(hand & ~move_cards(m), others, rev ^ int(R.revolts(m)))
            if rest is not None:
                return [m, *rest] if R.cuts(m) else [m, PASS, *rest]
    return None
