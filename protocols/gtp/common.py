"""GTP building blocks shared by both sides: errors, line preprocessing, vertices, colours.

A *vertex* here is ``(col, row)``, both 0-based, with row 0 the line labelled ``1`` (the
bottom of the board as GTP draws it), or ``None`` for ``pass``. Mapping a vertex to a game's
own move encoding is the caller's business; nothing here knows a board.
"""

from __future__ import annotations

import re

Vertex = tuple[int, int] | None

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # no I; 25 columns at most


class GtpError(Exception):
    """A command failed; the message becomes the ``? message`` answer."""


class GtpSyntaxError(GtpError):
    """A command's arguments could not be parsed: always answered ``? syntax error``;
    ``detail`` says what was wrong (for logs)."""

    def __init__(self, detail: str = "") -> None:
        super().__init__("syntax error")
        self.detail = detail


class LocalProtocolError(Exception):
    """We tried to send something GTP cannot carry (a newline in an argument, ...)."""


class RemoteProtocolError(Exception):
    """The peer sent something that is not GTP."""


_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def preprocess(line: str) -> str:
    """Apply GTP 2 §2.2 to one line (without its LF): drop control characters other than
    HT and LF, turn HT into a space, drop a ``#`` comment; return the stripped rest (empty
    means: skip the line)."""
    line = _CONTROL.sub("", line.replace("\n", ""))
    line = line.replace("\t", " ")
    hash_at = line.find("#")
    if hash_at >= 0:
        line = line[:hash_at]
    return line.strip()


def format_vertex(vertex: Vertex) -> str:
    """``(2, 3)`` -> ``C4``; ``None`` -> ``pass``."""
    if vertex is None:
        return "pass"
    col, row = vertex
    if not 0 <= col < len(COLUMNS) or row < 0:
        raise ValueError(f"vertex out of range: {vertex!r}")
    return f"{COLUMNS[col]}{row + 1}"


def parse_vertex(text: str, size: int | None = None) -> Vertex:
    """``c4`` -> ``(2, 3)``; ``pass`` -> ``None`` (case-insensitive).

    Raises :class:`GtpSyntaxError` for text that is not a vertex and, when ``size`` is given,
    :class:`GtpError` (``illegal move``) for a vertex off a board of that size."""
    t = text.strip().upper()
    if t == "PASS":
        return None
    if len(t) < 2 or t[0] not in COLUMNS or not t[1:].isdigit() or not t[1:].isascii():
        raise GtpSyntaxError("invalid vertex")
    col = COLUMNS.index(t[0])
    row = int(t[1:]) - 1
    if row < 0 or t[1] == "0":
        raise GtpSyntaxError("invalid vertex")
    if size is not None and (col >= size or row >= size):
        raise GtpError("illegal move")
    return (col, row)


BLACK = 0
WHITE = 1
_COLOURS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}


def parse_colour(text: str) -> int:
    """``b``/``black`` -> 0, ``w``/``white`` -> 1 (case-insensitive); GTP colours, not seats."""
    try:
        return _COLOURS[text.strip().lower()]
    except KeyError:
        raise GtpSyntaxError("invalid color") from None


def format_colour(colour: int, long: bool = False) -> str:
    if long:
        return "black" if colour == BLACK else "white"
    return "B" if colour == BLACK else "W"


def parse_int(text: str, what: str = "integer") -> int:
    try:
        return int(text)
    except ValueError:
        raise GtpSyntaxError(f"invalid {what}") from None


def parse_float(text: str, what: str = "float") -> float:
    try:
        value = float(text)
    except ValueError:
        raise GtpSyntaxError(f"invalid {what}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise GtpSyntaxError(f"invalid {what}")
    return value


def format_score(black_minus_white: float) -> str:
    """GTP ``final_score`` text: ``B+3.5``, ``W+2``, ``0``."""
    if black_minus_white == 0:
        return "0"
    winner = "B" if black_minus_white > 0 else "W"
    return f"{winner}+{abs(black_minus_white):g}"


def parse_score(text: str) -> float:
    """``B+3.5`` -> 3.5, ``W+2`` -> -2.0, ``0`` -> 0.0 (black minus white).

    ``B+R``/``W+Resign`` and ``B+T`` are not margins and raise ValueError."""
    t = text.strip().upper()
    if t in ("0", "DRAW", "JIGO", "0.0"):
        return 0.0
    if len(t) < 3 or t[0] not in "BW" or t[1] != "+":
        raise ValueError(f"not a score: {text!r}")
    value = float(t[2:])
    return value if t[0] == "B" else -value
