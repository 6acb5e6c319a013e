"""UECda protocol 20070 (Daihinmin): a sans-I/O codec for both ends of the wire.

* :mod:`.table`: the 480-byte table and the 4-byte int.
* :mod:`.events`: frozen message and event types.
* :mod:`.client`: :class:`ClientConnection` (bytes in -> events, commands -> bytes).
* :mod:`.server`: :class:`ServerConnection` (the mock server's side).
* :mod:`.errors`: :class:`LocalProtocolError` (our fault), :class:`RemoteProtocolError`
  (the peer's fault).
* :mod:`.cards`: card cells <-> the rules engine's cards and moves.
"""

from protocols.uecda.client import NEED_DATA, PAUSED, ClientConnection, ClientState
from protocols.uecda.errors import LocalProtocolError, RemoteProtocolError, UecdaProtocolError
from protocols.uecda.events import (
    PROTOCOL_VERSION,
    Ack,
    ClientTable,
    ConnectionClosed,
    Event,
    ExchangeRequest,
    ExchangeTable,
    GameEnd,
    GameGoesOn,
    GameStart,
    HandTable,
    MatchEnd,
    MoveTable,
    PlayerNumber,
    Profile,
    StageTable,
    YourTurn,
)
from protocols.uecda.server import ServerConnection

__all__ = [
    "NEED_DATA",
    "PAUSED",
    "PROTOCOL_VERSION",
    "Ack",
    "ClientConnection",
    "ClientState",
    "ClientTable",
    "ConnectionClosed",
    "Event",
    "ExchangeRequest",
    "ExchangeTable",
    "GameEnd",
    "GameGoesOn",
    "GameStart",
    "HandTable",
    "LocalProtocolError",
    "MatchEnd",
    "MoveTable",
    "PlayerNumber",
    "Profile",
    "RemoteProtocolError",
    "ServerConnection",
    "StageTable",
    "UecdaProtocolError",
    "YourTurn",
]
