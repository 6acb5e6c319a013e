"""Typed, frozen messages of protocol 20070.

Server -> client: :class:`PlayerNumber`, :class:`GameStart` (HAND0), :class:`HandTable`,
:class:`Ack`, :class:`StageTable` and the end flags :class:`GameGoesOn`, :class:`GameEnd`,
:class:`MatchEnd`. The client codec also emits two derived events that carry no bytes of
their own: :class:`ExchangeRequest` (after a HAND0 asking for cards) and :class:`YourTurn`
(after a hand table addressed to the mover), and :class:`ConnectionClosed` at end of stream.

Client -> server: :class:`Profile`, :class:`MoveTable` (all zeros = pass),
:class:`ExchangeTable`.

Player numbers (accept order 0..4), seats (places at the table 0..4) and ranks (0 daifugo ..
4 daihinmin) are different things; fields say which they hold.
"""

from __future__ import annotations

import msgspec

from protocols.uecda.table import EMPTY_CELLS, EMPTY_ROW, Cells, Row

PROTOCOL_VERSION = 20070


class Event(msgspec.Struct, frozen=True):
    """Base class of every message and derived event."""


# -- server -> client -----------------------------------------------------------------
class PlayerNumber(Event, frozen=True):
    """Our player number, 0..4 (the server's accept order)."""

    player: int


class GameStart(Event, frozen=True):
    """HAND0: the first table of a game.

    hand: our cards (for the daifugo and fugo *with* the tribute received; for the hinmin
    and daihinmin *before* the tribute is taken). exchange_count: cards we must give
    (2 daifugo, 1 fugo, else 0). card_counts[p]: cards dealt to player p (before the
    exchange). ranks[p]: rank of player p (all 0 in a rank-reset game). seats[s]: the player
    number sitting in seat s. marker: the constant in [5][3] (6 on the real server).
    """

    hand: Cells
    exchange_count: int
    card_counts: tuple[int, ...]
    ranks: tuple[int, ...]
    seats: tuple[int, ...]
    marker: int = 6


class ExchangeRequest(Event, frozen=True):
    """Derived from a HAND0 with exchange_count > 0: send an ExchangeTable of ``count``
    of our cards now."""

    count: int


class HandTable(Event, frozen=True):
    """Our hand at the start of a turn (sent to all five players each turn).

    turn: the player number whose turn it is. my_turn: whether that is us (then a
    :class:`YourTurn` follows). lead: the table is empty and the mover leads.
    ranks: row 6 ranks as sent (only meaningful in HAND0: the server overwrites them).
    """

    hand: Cells
    turn: int
    my_turn: bool
    lead: bool
    revolution: bool
    lock: bool
    card_counts: tuple[int, ...]
    ranks: tuple[int, ...]
    seats: tuple[int, ...]
    eleven_back: bool = False


class YourTurn(Event, frozen=True):
    """Derived from a hand table addressed to us: send a MoveTable now."""

    lead: bool


class Ack(Event, frozen=True):
    """The server's answer to our move: 9 accepted (or a pass on an empty table),
    8 a pass with cards on the table or a rejected move (which counts as a pass)."""

    value: int

    @property
    def accepted(self) -> bool:
        return self.value == 9


class StageTable(Event, frozen=True):
    """The table after an action (sent to all five).

    cards: the cards now on the table. actor: the player number who just acted.
    lead: the table is empty right after the action. row7: the echo of the submitted row 7.
    """

    cards: Cells
    actor: int
    lead: bool
    revolution: bool
    lock: bool
    card_counts: tuple[int, ...]
    ranks: tuple[int, ...]
    seats: tuple[int, ...]
    eleven_back: bool = False
    row7: Row = EMPTY_ROW


class GameGoesOn(Event, frozen=True):
    """End flag 0."""


class GameEnd(Event, frozen=True):
    """End flag 1: this game is over, a HAND0 follows."""


class MatchEnd(Event, frozen=True):
    """End flag 2: all games are over; the server closes the connection."""


class ConnectionClosed(Event, frozen=True):
    """End of stream at a message boundary. expected: after the match end."""

    expected: bool


END_FLAGS: dict[int, type[Event]] = {0: GameGoesOn, 1: GameEnd, 2: MatchEnd}
END_FLAG_OF: dict[type[Event], int] = {v: k for k, v in END_FLAGS.items()}


# -- client -> server -----------------------------------------------------------------
class Profile(Event, frozen=True):
    """The first message: protocol version and our name (the server keeps 9 chars)."""

    name: str
    version: int = PROTOCOL_VERSION


class MoveTable(Event, frozen=True):
    """Our move as card cells; all zeros is a pass."""

    cards: Cells = EMPTY_CELLS


class ExchangeTable(Event, frozen=True):
    """The cards we give in the exchange (exactly the requested number)."""

    cards: Cells


class ClientTable(Event, frozen=True):
    """What a server reads after the profile: a raw client table (move or exchange; the
    server knows which it asked for). rows5to7 are kept to detect junk."""

    cards: Cells
    rest: tuple[Row, ...] = ()
