"""The server side of protocol 20070, sans-I/O: one :class:`ServerConnection` per client.

It reads the client's profile and then its tables (the server knows whether it asked for an
exchange or a move), and turns server messages into bytes. A mock server and in-memory tests
pair it with :class:`protocols.uecda.client.ClientConnection`.
"""

from __future__ import annotations

import protocols.uecda.wire as wire
from protocols.uecda.client import NEED_DATA, _Sentinel
from protocols.uecda.errors import LocalProtocolError, RemoteProtocolError
from protocols.uecda.events import (
    END_FLAG_OF,
    PROTOCOL_VERSION,
    Ack,
    ClientTable,
    ConnectionClosed,
    Event,
    GameStart,
    HandTable,
    PlayerNumber,
    Profile,
    StageTable,
)
from protocols.uecda.framing import Framer
from protocols.uecda.table import TABLE_BYTES, pack_int, unpack_table


class ServerConnection:
    """``profile`` is set once the first table has arrived."""

    def __init__(self, version: int = PROTOCOL_VERSION) -> None:
        self.version = version
        self.profile: Profile | None = None
        self._framer = Framer()
        self._closed_reported = False

    def receive_data(self, data: bytes) -> None:
        try:
            self._framer.feed(data)
        except ValueError as e:
            raise LocalProtocolError(str(e)) from None

    def next_event(self) -> Profile | ClientTable | ConnectionClosed | _Sentinel:
        data = self._framer.take(TABLE_BYTES)
        if data is None:
            if not self._framer.eof:
                return NEED_DATA
            if self._framer.available():
                raise RemoteProtocolError("connection closed in the middle of a table")
            if self._closed_reported:
                return NEED_DATA
            self._closed_reported = True
            return ConnectionClosed(expected=False)
        table = unpack_table(data)
        if self.profile is None:
            p = wire.decode_profile(table)
            if p.version != self.version:
                raise RemoteProtocolError(
                    f"profile announces protocol {p.version}, this server speaks {self.version}"
                )
            self.profile = p
            return p
        return wire.decode_client_table(table)

    def send(self, ev: Event) -> bytes:
        """The bytes of one server message (send each in one ``sendall``)."""
        if isinstance(ev, PlayerNumber):
            return pack_int(ev.player)
        if isinstance(ev, Ack):
            if ev.value not in (8, 9):
                raise LocalProtocolError(f"ack must be 9 or 8, got {ev.value}")
            return pack_int(ev.value)
        flag = END_FLAG_OF.get(type(ev))
        if flag is not None:
            return pack_int(flag)
        if isinstance(ev, (GameStart, HandTable, StageTable)):
            return wire.encode_server_table(ev)
        raise LocalProtocolError(f"a server cannot send {type(ev).__name__}")
