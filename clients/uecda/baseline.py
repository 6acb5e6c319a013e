"""The baseline player, in the spirit of the official UECda sample client.

* Leading: play the weakest meld, preferring sequences, then groups, then singles (longer
  first within a kind); keep the joker out of it while possible. Never pass when leading.
* Following: play the weakest meld that may follow (joker only if nothing else does), else
  pass.
* Exchange: give the weakest cards (never the joker while anything else is left).

"Weakest" follows the current strength order (reversed under a revolution).
"""

from __future__ import annotations

from games.daihinmin import rules as R
from games.daihinmin.cards import (
    JOKER,
    KIND_GROUP,
    KIND_SEQ,
    PASS,
    cards_of,
    hand_from_cards,
    move_count,
    move_has_joker,
    move_kind,
    move_low_high,
    strength_key,
)

_KIND_PREF = {KIND_SEQ: 0, KIND_GROUP: 1}


def _weakness(m: int, rev: bool) -> int:
    lo, hi = move_low_high(m)
    return -hi if rev else lo


def baseline_move(hand: int, table: int, rev: bool, lock: bool) -> int:
    melds = [m for m in R.legal_moves(hand, table, int(rev), int(lock)) if m != PASS]
    if not melds:
        return PASS
    if table == PASS:
        return min(melds, key=lambda m: (move_has_joker(m), _KIND_PREF.get(move_kind(m), 2),
                                         -move_count(m), _weakness(m, rev)))
    return min(melds, key=lambda m: (move_has_joker(m), _weakness(m, rev)))


def baseline_exchange(hand: int, n: int) -> int:
    """The ``n`` weakest cards of ``hand`` (bit set)."""
    cards = sorted(cards_of(hand), key=lambda c: (c == JOKER, strength_key(c)))
    return hand_from_cards(cards[:n])
