"""The engine side of GTP: a pure dispatcher, no I/O.

``Dispatcher.handle_line(line) -> (response_bytes, end_session)`` turns one input line into
the bytes to write back (``b""`` for a line that is empty after preprocessing). Commands are
registered with :meth:`Dispatcher.register`; the protocol-level built-ins
(``protocol_version``, ``known_command``, ``list_commands``, ``quit``) are registered the same
way, so an extension command is indistinguishable from a built-in one.

A handler takes the argument list and returns the result text (``""`` for none) or raises
:class:`GtpError` (``? message``). :class:`GtpSyntaxError` gives ``? syntax error``; any
other exception is a bug in the handler: it is answered ``? internal error`` and logged, so a
tournament engine never dies on one bad command.

:class:`LineReader` is the sans-I/O byte side: feed it bytes in any chunking and take whole
lines out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import structlog

from protocols.gtp.common import GtpError, preprocess

Handler = Callable[[list[str]], str | None]

log = structlog.get_logger()


@dataclass(frozen=True)
class Command:
    """A parsed command line."""

    id: int | None
    name: str
    args: list[str]


def parse_command(line: str) -> Command | None:
    """One raw line -> a :class:`Command`, or None when the line is to be skipped.

    Raises GtpError("syntax error") for a line that is only an id (it cannot be answered
    otherwise: the id is kept in the exception's ``id`` attribute)."""
    text = preprocess(line)
    if not text:
        return None
    words = text.split()
    cmd_id: int | None = None
    if words[0].isdigit() and words[0].isascii():
        cmd_id = int(words[0])
        words = words[1:]
        if not words:
            err = GtpError("syntax error")
            err.id = cmd_id  # type: ignore[attr-defined]
            raise err
    return Command(cmd_id, words[0], words[1:])


def format_response(cmd_id: int | None, ok: bool, text: str) -> bytes:
    """``=12 text\\n\\n`` / ``? text\\n\\n``. Empty lines inside ``text`` (which would end the
    answer early) become a single space; trailing newlines are dropped. A text starting with
    a newline (``showboard``) starts on the line after the status."""
    head = ("=" if ok else "?") + ("" if cmd_id is None else str(cmd_id))
    lines = text.rstrip("\n").split("\n")
    body = "\n".join([lines[0].rstrip()] + [ln.rstrip() or " " for ln in lines[1:]])
    return f"{head} {body}\n\n".encode()


class Dispatcher:
    """Name -> handler table plus the protocol-level commands."""

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}
        self._quit = False
        self.register("protocol_version", lambda args: "2")
        self.register("known_command", self._known_command)
        self.register("list_commands", self._list_commands)
        self.register("quit", self._quit_command)

    # -- registration -------------------------------------------------------------------
    def register(self, name: str, handler: Handler) -> None:
        """Add (or replace) a command."""
        if not name or any(c.isspace() for c in name):
            raise ValueError(f"invalid GTP command name {name!r}")
        self._handlers[name] = handler

    def unregister(self, name: str) -> None:
        self._handlers.pop(name, None)

    def commands(self) -> list[str]:
        return sorted(self._handlers)

    def is_known(self, name: str) -> bool:
        return name in self._handlers

    # -- built-ins ----------------------------------------------------------------------
    def _known_command(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("syntax error")
        return "true" if args[0] in self._handlers else "false"

    def _list_commands(self, args: list[str]) -> str:
        return "\n".join(self.commands())

    def _quit_command(self, args: list[str]) -> str:
        self._quit = True
        return ""

    # -- dispatch -----------------------------------------------------------------------
    def handle_line(self, line: str | bytes) -> tuple[bytes, bool]:
        """Answer one line. Returns (bytes to write, whether the session has ended)."""
        if isinstance(line, bytes):
            line = line.decode("utf-8", errors="replace")
        try:
            cmd = parse_command(line)
        except GtpError as e:
            return format_response(getattr(e, "id", None), False, str(e)), False
        if cmd is None:
            return b"", False
        return self.handle_command(cmd)

    def handle_command(self, cmd: Command) -> tuple[bytes, bool]:
        handler = self._handlers.get(cmd.name)
        if handler is None:
            log.info("gtp_refused", command=cmd.name[:80], answer="unknown command")
            return format_response(cmd.id, False, "unknown command"), False
        self._quit = False
        try:
            result = handler(cmd.args)
        except GtpError as e:
            log.info("gtp_refused", command=cmd.name, args=[a[:80] for a in cmd.args[:8]],
                     answer=str(e) or "failed", detail=getattr(e, "detail", None))
            return format_response(cmd.id, False, str(e) or "failed"), False
        except Exception:  # a handler bug must not kill a tournament engine
            log.exception("gtp_handler_failed", command=cmd.name, args=cmd.args)
            return format_response(cmd.id, False, "internal error"), False
        return format_response(cmd.id, True, result or ""), self._quit


class LineReader:
    """Bytes in any chunking -> complete lines (without the LF), as text."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.eof = False

    def receive_data(self, data: bytes) -> None:
        """Feed bytes; ``b""`` means end of stream (a last unterminated line is kept)."""
        if not data:
            self.eof = True
        self._buf += data

    def lines(self) -> Iterator[str]:
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                if self.eof and self._buf:
                    rest = bytes(self._buf)
                    self._buf.clear()
                    yield rest.decode("utf-8", errors="replace")
                return
            raw = bytes(self._buf[:nl])
            del self._buf[: nl + 1]
            yield raw.decode("utf-8", errors="replace")
