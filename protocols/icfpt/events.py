"""Events and commands of the ICFPT Blokus Duo host protocol (both directions).

The same frozen types are what a codec yields (``next_event``) and what the other side's codec
turns into bytes (``send``). Moves stay wire strings here (``XYpr`` or ``0000``); mapping them
to game moves is the job of ``games.blokus_duo`` and of the client.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

PASS = "0000"
COORD_CHARS = "123456789abcde"  # contest coordinates 1..14
PIECE_CHARS = "abcdefghijklmnopqrstu"
ORIENT_CHARS = "01234567"

# the start character of a prompt -> player number (1 starts on (5,5), 2 on (a,a))
START_CHAR = {1: "5", 2: "A"}
START_PLAYER = {"5": 1, "A": 2, "a": 2}


class Dialect(StrEnum):
    """Which contest year's host we talk to."""

    Y2014 = "2014"  # also HEART 2014 and the REC 2018-2020 hosts
    Y2013 = "2013"


class ProtocolError(Exception):
    """Base of the codec errors."""


class LocalProtocolError(ProtocolError):
    """We tried to send something the protocol does not allow at this point (our bug)."""


class RemoteProtocolError(ProtocolError):
    """The peer sent bytes the protocol does not allow (its fault). ``raw`` holds them."""

    def __init__(self, message: str, raw: bytes = b"") -> None:
        super().__init__(message)
        self.raw = raw


def is_move_code(code: str) -> bool:
    """True for a syntactically valid ``XYpr`` code or the pass ``0000`` (lowercase only)."""
    if code == PASS:
        return True
    return (
        len(code) == 4
        and code[0] in COORD_CHARS
        and code[1] in COORD_CHARS
        and code[2] in PIECE_CHARS
        and code[3] in ORIENT_CHARS
    )


def check_move_code(code: str) -> str:
    if not is_move_code(code):
        raise LocalProtocolError(f"not a move code: {code!r}")
    return code


# --- host -> player -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RequestTeamCode:
    """``0``: send your team code."""


@dataclass(frozen=True, slots=True)
class FirstMovePrompt:
    """``25`` / ``2A``: your turn, you move first (2013: both players get it at once).
    ``player`` is 1 (start (5,5)) or 2 (start (a,a))."""

    player: int


@dataclass(frozen=True, slots=True)
class SecondMovePrompt:
    """2014 ``35mmmm`` / ``3Ammmm``: your first turn, you move second; the opponent's first
    move."""

    player: int
    opponent_move: str


@dataclass(frozen=True, slots=True)
class TurnPrompt:
    """Your turn; the opponent's moves since your last one, oldest first: one (2014 ``4mmmm``,
    2013 ``3mmmm``) or two (2013 ``4mmmmnnnn``, the second mover's second prompt)."""

    opponent_moves: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    """``9`` (2013 hosts: ten of them): the game is over; the host closes."""


# --- player -> host -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TeamCode:
    """``1XX``: ``code`` is the two characters the host keeps; ``raw`` the three sent."""

    code: str
    raw: str = ""


@dataclass(frozen=True, slots=True)
class MoveCommand:
    """``XYpr`` or ``0000``."""

    code: str

    @property
    def is_pass(self) -> bool:
        return self.code == PASS


HostMessage = RequestTeamCode | FirstMovePrompt | SecondMovePrompt | TurnPrompt | GameOver
PlayerMessage = TeamCode | MoveCommand


class NeedData:
    """Returned by ``next_event`` when more bytes are needed (a singleton)."""

    def __repr__(self) -> str:
        return "NEED_DATA"


NEED_DATA = NeedData()
