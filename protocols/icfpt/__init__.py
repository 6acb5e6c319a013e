"""The ICFPT / HEART / REC Blokus Duo host protocol (2014, and the 2013 dialect): sans-I/O."""

from protocols.icfpt.codec import ConnectionClosed, HostConnection, PlayerConnection
from protocols.icfpt.events import (
    NEED_DATA,
    PASS,
    Dialect,
    FirstMovePrompt,
    GameOver,
    LocalProtocolError,
    MoveCommand,
    ProtocolError,
    RemoteProtocolError,
    RequestTeamCode,
    SecondMovePrompt,
    TeamCode,
    TurnPrompt,
    is_move_code,
)

__all__ = [
    "NEED_DATA", "PASS", "ConnectionClosed", "Dialect", "FirstMovePrompt", "GameOver",
    "HostConnection", "LocalProtocolError", "MoveCommand", "PlayerConnection", "ProtocolError",
    "RemoteProtocolError", "RequestTeamCode", "SecondMovePrompt", "TeamCode", "TurnPrompt",
    "is_move_code",
]
