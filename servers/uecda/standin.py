"""The stand-in: a simple rule-based player for a seat whose client misbehaved.

It plays the meld that sheds the most cards, the weakest such (by the current strength
order), keeps the joker while it can, never passes when leading, and gives away its weakest
cards in the exchange. It only looks at its own hand and the table.
"""

from __future__ import annotations

from games.daihinmin.cards import (
    JOKER,
    PASS,
    cards_of,
    hand_from_cards,
    move_count,
    move_has_joker,
    move_low_high,
    strength_key,
)
from games.daihinmin.state import GameState


def standin_move(state: GameState) -> int:
    melds = [m for m in state.legal_moves() if m != PASS]
    if not melds:
        return PASS
    rev = state.revolution

    def key(m: int) -> tuple[int, int, int]:
        lo, hi = move_low_high(m)
        weakness = -hi if rev else lo
        return (-move_count(m), int(move_has_joker(m)), weakness)

    return min(melds, key=key)


def standin_exchange(hand: int, n: int) -> int:
    """The ``n`` weakest cards of ``hand`` (never the joker unless nothing else is left)."""
    cards = sorted(cards_of(hand), key=lambda c: (c == JOKER, strength_key(c)))
    return hand_from_cards(cards[:n])
