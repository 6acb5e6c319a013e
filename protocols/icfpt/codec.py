"""Sans-I/O codecs for the ICFPT Blokus Duo host protocol (2014 by default, 2013 on request).

:class:`PlayerConnection` is the player's side: bytes from the host in, prompt events out,
team code and moves out as bytes. :class:`HostConnection` is the host's side, as the contest
host behaves: it reads exactly 3 bytes for a team code and 4 for a move, skipping CR and LF;
any other stray byte is part of the code and breaks it.

Neither touches a socket: feed bytes with ``receive_data`` (``b""`` means end of stream), pull
events with ``next_event`` until it returns ``NEED_DATA``, and write what ``send`` returns.
"""

from __future__ import annotations

from collections.abc import Callable

from protocols.icfpt.events import (
    NEED_DATA,
    PASS,
    START_CHAR,
    START_PLAYER,
    Dialect,
    FirstMovePrompt,
    GameOver,
    LocalProtocolError,
    MoveCommand,
    NeedData,
    RemoteProtocolError,
    RequestTeamCode,
    SecondMovePrompt,
    TeamCode,
    TurnPrompt,
    check_move_code,
    is_move_code,
)

SKIPPED = b"\r\n"

Prompt = FirstMovePrompt | SecondMovePrompt | TurnPrompt


class ConnectionClosed:
    """The peer closed the stream at a message boundary."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ConnectionClosed)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "ConnectionClosed()"


def _dialect(d: Dialect | str) -> Dialect:
    return d if isinstance(d, Dialect) else Dialect(str(d))


class _Reader:
    """A byte buffer that hands out the next n bytes, CR and LF skipped."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.eof = False

    def feed(self, data: bytes) -> None:
        if not data:
            self.eof = True
        else:
            self.buf += data

    def strip_leading(self) -> None:
        i = 0
        while i < len(self.buf) and self.buf[i] in SKIPPED:
            i += 1
        del self.buf[:i]

    def peek(self, n: int) -> bytes | None:
        """The first n non-CR/LF bytes without consuming them, or None if not there yet."""
        out = bytearray()
        for b in self.buf:
            if b in SKIPPED:
                continue
            out.append(b)
            if len(out) == n:
                return bytes(out)
        return None

    def take(self, n: int) -> bytes:
        out = bytearray()
        i = 0
        while len(out) < n:
            b = self.buf[i]
            i += 1
            if b not in SKIPPED:
                out.append(b)
        del self.buf[:i]
        return bytes(out)

    def pending(self) -> bool:
        return any(b not in SKIPPED for b in self.buf)


# --------------------------------------------------------------------------------------
class PlayerConnection:
    """The player's side of one game.

    Events: :class:`RequestTeamCode`, :class:`FirstMovePrompt`, :class:`SecondMovePrompt`,
    :class:`TurnPrompt`, :class:`GameOver`, :class:`ConnectionClosed`.
    Commands for ``send``: :class:`TeamCode`, :class:`MoveCommand`.
    """

    def __init__(self, dialect: Dialect | str = Dialect.Y2014) -> None:
        self.dialect = _dialect(dialect)
        self._r = _Reader()
        self.player: int | None = None  # 1 or 2, known from the first prompt
        self.our_turn = False
        self.team_code_requested = False
        self.game_over = False
        self.closed = False
        self.prompts = 0

    def receive_data(self, data: bytes) -> None:
        self._r.feed(data)

    def next_event(
        self,
    ) -> (RequestTeamCode | FirstMovePrompt | SecondMovePrompt | TurnPrompt | GameOver
          | ConnectionClosed | NeedData):
        r = self._r
        r.strip_leading()
        if self.game_over:  # 2013 hosts send ten 9s: swallow the rest
            while r.buf[:1] == b"9":
                del r.buf[:1]
                r.strip_leading()
        if not r.buf:
            if r.eof and not self.closed:
                self.closed = True
                return ConnectionClosed()
            return NEED_DATA
        head = r.buf[0:1]
        if head == b"0":
            r.take(1)
            self.team_code_requested = True
            return RequestTeamCode()
        if head == b"9":
            r.take(1)
            self.game_over = True
            self.our_turn = False
            return GameOver()
        if head == b"2":
            return self._prompt(2, self._first)
        if head == b"3":
            if self.dialect is Dialect.Y2014:
                return self._prompt(6, self._second)
            return self._prompt(5, self._turn)
        if head == b"4":
            if self.dialect is Dialect.Y2014:
                return self._prompt(5, self._turn)
            return self._prompt(9, self._turn)
        raw = bytes(r.buf)
        raise RemoteProtocolError(f"unexpected byte {head!r} from the host", raw)

    def _prompt(self, n: int, build: Callable[[bytes], Prompt]) -> Prompt | NeedData:
        r = self._r
        got = r.peek(n)
        if got is None:
            if r.eof:
                raise RemoteProtocolError("the host closed in the middle of a prompt",
                                          bytes(r.buf))
            return NEED_DATA
        r.take(n)
        ev = build(got)
        self.prompts += 1
        self.our_turn = True
        return ev

    def _start(self, ch: bytes, raw: bytes) -> int:
        p = START_PLAYER.get(ch.decode("latin-1"))
        if p is None:
            raise RemoteProtocolError(f"bad start square {ch!r}", raw)
        self.player = p
        return p

    def _move(self, b: bytes, raw: bytes) -> str:
        m = b.decode("latin-1")
        if not is_move_code(m):
            raise RemoteProtocolError(f"bad move code {m!r} in a prompt", raw)
        return m

    def _first(self, raw: bytes) -> FirstMovePrompt:
        return FirstMovePrompt(self._start(raw[1:2], raw))

    def _second(self, raw: bytes) -> SecondMovePrompt:
        return SecondMovePrompt(self._start(raw[1:2], raw), self._move(raw[2:6], raw))

    def _turn(self, raw: bytes) -> TurnPrompt:
        moves = tuple(self._move(raw[i:i + 4], raw) for i in range(1, len(raw), 4))
        return TurnPrompt(moves)

    def send(self, event: TeamCode | MoveCommand) -> bytes:
        if isinstance(event, TeamCode):
            code = event.code
            if len(code) != 2 or not all(0x21 <= ord(c) < 0x7F for c in code):
                raise LocalProtocolError(f"a team code is two printable characters: {code!r}")
            return ("1" + code).encode("ascii")
        if isinstance(event, MoveCommand):
            check_move_code(event.code)
            if not self.our_turn:
                raise LocalProtocolError("a move sent while it is not our turn")
            self.our_turn = False
            return event.code.encode("ascii")
        raise LocalProtocolError(f"a player cannot send {event!r}")


# --------------------------------------------------------------------------------------
class HostConnection:
    """The host's side of one connection, as the contest host reads it.

    Commands for ``send``: :class:`RequestTeamCode`, :class:`FirstMovePrompt`,
    :class:`SecondMovePrompt` (2014), :class:`TurnPrompt`, :class:`GameOver`.
    Events: :class:`TeamCode`, :class:`MoveCommand`, :class:`ConnectionClosed`; a code with a
    stray byte raises :class:`RemoteProtocolError` (``raw`` holds the bytes read).
    Bytes that arrive while nothing is expected stay buffered and are read as the next code.
    """

    def __init__(self, dialect: Dialect | str = Dialect.Y2014, game_over_nines: int | None = None
                 ) -> None:
        self.dialect = _dialect(dialect)
        self.nines = game_over_nines or (10 if self.dialect is Dialect.Y2013 else 1)
        self._r = _Reader()
        self.expect: str | None = None  # "team", "move" or None
        self.game_over = False

    def receive_data(self, data: bytes) -> None:
        self._r.feed(data)

    def next_event(self) -> TeamCode | MoveCommand | ConnectionClosed | NeedData:
        r = self._r
        if self.expect is None:
            if r.eof and not r.pending():
                return ConnectionClosed()
            return NEED_DATA
        n = 3 if self.expect == "team" else 4
        got = r.peek(n)
        if got is None:
            if r.eof:
                if not r.pending():
                    return ConnectionClosed()
                raise RemoteProtocolError("closed in the middle of a code", bytes(r.buf))
            return NEED_DATA
        r.take(n)
        text = got.decode("latin-1")
        if self.expect == "team":
            self.expect = None
            if not all(0x21 <= b < 0x7F for b in got):
                raise RemoteProtocolError(f"malformed team code {text!r}", got)
            return TeamCode(text[1:], text)
        self.expect = None
        if not is_move_code(text):
            raise RemoteProtocolError(f"malformed move code {text!r}", got)
        return MoveCommand(text)

    def send(
        self,
        event: RequestTeamCode | FirstMovePrompt | SecondMovePrompt | TurnPrompt | GameOver,
    ) -> bytes:
        if self.game_over:
            raise LocalProtocolError("the game is over")
        if isinstance(event, RequestTeamCode):
            self.expect = "team"
            return b"0"
        if isinstance(event, GameOver):
            self.game_over = True
            self.expect = None
            return b"9" * self.nines
        if isinstance(event, FirstMovePrompt):
            self.expect = "move"
            return ("2" + _start_char(event.player)).encode("ascii")
        if isinstance(event, SecondMovePrompt):
            if self.dialect is not Dialect.Y2014:
                raise LocalProtocolError("2013 hosts have no second-mover prompt (3Smmmm)")
            self.expect = "move"
            return ("3" + _start_char(event.player) + check_move_code(event.opponent_move)
                    ).encode("ascii")
        if isinstance(event, TurnPrompt):
            ms = [check_move_code(m) for m in event.opponent_moves]
            if self.dialect is Dialect.Y2014:
                if len(ms) != 1:
                    raise LocalProtocolError("a 2014 turn prompt carries one move")
                prefix = "4"
            elif len(ms) == 1:
                prefix = "3"
            elif len(ms) == 2:
                prefix = "4"
            else:
                raise LocalProtocolError("a 2013 turn prompt carries one or two moves")
            self.expect = "move"
            return (prefix + "".join(ms)).encode("ascii")
        raise LocalProtocolError(f"a host cannot send {event!r}")


def _start_char(player: int) -> str:
    try:
        return START_CHAR[player]
    except KeyError:
        raise LocalProtocolError(f"player must be 1 or 2, not {player!r}") from None


__all__ = ["ConnectionClosed", "HostConnection", "PlayerConnection", "PASS"]
