"""The client side of protocol 20070, sans-I/O.

::

    conn = ClientConnection()
    transport.send(conn.send(Profile("corvid")))
    while True:
        ev = conn.next_event()
        if ev is NEED_DATA:
            conn.receive_data(transport.recv())   # b"" = end of stream
        elif isinstance(ev, YourTurn):
            transport.send(conn.send(MoveTable(cells)))
        ...

The connection knows what comes next (a 4-byte int or a 480-byte table, and which table),
so it decodes each message as what it is. Sending out of turn raises LocalProtocolError;
anything the server sends out of order raises RemoteProtocolError.
"""

from __future__ import annotations

import enum
from collections import deque

import protocols.uecda.wire as wire
from protocols.uecda.errors import LocalProtocolError, RemoteProtocolError
from protocols.uecda.events import (
    END_FLAGS,
    Ack,
    ConnectionClosed,
    Event,
    ExchangeRequest,
    ExchangeTable,
    GameEnd,
    GameStart,
    HandTable,
    MatchEnd,
    MoveTable,
    PlayerNumber,
    Profile,
    StageTable,
    YourTurn,
)
from protocols.uecda.framing import Framer
from protocols.uecda.table import INT_BYTES, TABLE_BYTES, count_cards, unpack_int, unpack_table


class _Sentinel:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


NEED_DATA = _Sentinel("NEED_DATA")  # feed more bytes
PAUSED = _Sentinel("PAUSED")  # the server waits for us: send the profile, exchange or move


class ClientState(enum.Enum):
    SEND_PROFILE = "send profile"
    PLAYER_NUMBER = "expect player number"
    HAND0 = "expect HAND0"
    SEND_EXCHANGE = "send exchange"
    HAND = "expect hand table"
    SEND_MOVE = "send move"
    ACK = "expect ack"
    STAGE = "expect stage table"
    END_FLAG = "expect end flag"
    DONE = "match over"


_EXPECTS_INT = {ClientState.PLAYER_NUMBER, ClientState.ACK, ClientState.END_FLAG}
_SENDING = {ClientState.SEND_PROFILE, ClientState.SEND_EXCHANGE, ClientState.SEND_MOVE}


class ClientConnection:
    """One client's view of the conversation. ``player`` is our player number once known;
    ``games`` counts HAND0 tables seen; ``exchange_count`` is what the last HAND0 asked."""

    def __init__(self) -> None:
        self.state = ClientState.SEND_PROFILE
        self.player: int | None = None
        self.games = 0
        self.exchange_count = 0
        self._framer = Framer()
        self._pending: deque[Event] = deque()
        self._closed_reported = False

    # -- bytes in -------------------------------------------------------------------------
    def receive_data(self, data: bytes) -> None:
        """Feed received bytes; ``b""`` means the server closed the stream."""
        try:
            self._framer.feed(data)
        except ValueError as e:
            raise LocalProtocolError(str(e)) from None

    def expects(self) -> int:
        """How many bytes the next server message has (0 while we owe the server one)."""
        if self.state in _SENDING or self.state is ClientState.DONE:
            return 0
        return INT_BYTES if self.state in _EXPECTS_INT else TABLE_BYTES

    def next_event(self) -> Event | _Sentinel:
        if self._pending:
            return self._pending.popleft()
        if self.state in _SENDING:
            return PAUSED
        if self.state is ClientState.DONE:
            if self._framer.available():
                raise RemoteProtocolError("data after the end of the match")
            if self._framer.eof and not self._closed_reported:
                self._closed_reported = True
                return ConnectionClosed(expected=True)
            return NEED_DATA
        n = self.expects()
        data = self._framer.take(n)
        if data is None:
            if not self._framer.eof:
                return NEED_DATA
            if self._framer.available():
                raise RemoteProtocolError(
                    f"connection closed in the middle of a message ({self.state.value})"
                )
            if self._closed_reported:
                return NEED_DATA
            self._closed_reported = True
            return ConnectionClosed(expected=False)
        if n == INT_BYTES:
            return self._on_int(unpack_int(data))
        return self._on_table(data)

    def _on_int(self, value: int) -> Event:
        if self.state is ClientState.PLAYER_NUMBER:
            if not 0 <= value <= 4:
                raise RemoteProtocolError(f"player number must be 0..4, got {value}")
            self.player = value
            self.state = ClientState.HAND0
            return PlayerNumber(value)
        if self.state is ClientState.ACK:
            if value not in (8, 9):
                raise RemoteProtocolError(f"ack must be 9 or 8, got {value}")
            self.state = ClientState.STAGE
            return Ack(value)
        # end flag
        kind = END_FLAGS.get(value)
        if kind is None:
            raise RemoteProtocolError(f"end flag must be 0, 1 or 2, got {value}")
        if kind is GameEnd:
            self.state = ClientState.HAND0
        elif kind is MatchEnd:
            self.state = ClientState.DONE
        else:
            self.state = ClientState.HAND
        return kind()

    def _on_table(self, data: bytes) -> Event:
        table = unpack_table(data)
        if self.state is ClientState.HAND0:
            g: GameStart = wire.decode_game_start(table)
            self.games += 1
            self.exchange_count = g.exchange_count
            if g.exchange_count:
                self.state = ClientState.SEND_EXCHANGE
                self._pending.append(ExchangeRequest(g.exchange_count))
            else:
                self.state = ClientState.HAND
            return g
        if self.state is ClientState.HAND:
            h: HandTable = wire.decode_hand_table(table, self.player)
            if h.my_turn:
                self.state = ClientState.SEND_MOVE
                self._pending.append(YourTurn(h.lead))
            else:
                self.state = ClientState.STAGE
            return h
        s: StageTable = wire.decode_stage_table(table)
        self.state = ClientState.END_FLAG
        return s

    # -- bytes out ------------------------------------------------------------------------
    def send(self, ev: Event) -> bytes:
        """The bytes of one client message (send them in one ``sendall``)."""
        if isinstance(ev, Profile):
            want = ClientState.SEND_PROFILE
            nxt = ClientState.PLAYER_NUMBER
        elif isinstance(ev, ExchangeTable):
            want = ClientState.SEND_EXCHANGE
            nxt = ClientState.HAND
            n = count_cards(ev.cards)
            if n != self.exchange_count:
                raise LocalProtocolError(
                    f"the exchange must hold {self.exchange_count} cards, not {n}"
                )
        elif isinstance(ev, MoveTable):
            want = ClientState.SEND_MOVE
            nxt = ClientState.ACK
        else:
            raise LocalProtocolError(f"a client cannot send {type(ev).__name__}")
        if self.state is not want:
            raise LocalProtocolError(
                f"cannot send {type(ev).__name__} now (state: {self.state.value})"
            )
        if self._pending:
            raise LocalProtocolError("read the pending events before sending")
        out = wire.encode_client_table(ev)
        self.state = nxt
        return out
