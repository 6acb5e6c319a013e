"""The controller side of GTP (what a referee or a GUI speaks), sans-I/O.

``Controller.send(name, *args)`` gives the bytes of a command; feed the engine's output to
``receive_data`` and take parsed :class:`Response` objects from ``next_response``. Malformed
output raises :class:`RemoteProtocolError` (the engine's fault); an argument GTP cannot
carry raises :class:`LocalProtocolError` (ours).
"""

from __future__ import annotations

from dataclasses import dataclass

from protocols.gtp.common import LocalProtocolError, RemoteProtocolError


@dataclass(frozen=True)
class Response:
    """``ok`` for ``=``, not for ``?``; ``text`` without the status, id and first space."""

    ok: bool
    text: str
    id: int | None = None


class Controller:
    def __init__(self, use_ids: bool = False) -> None:
        self.use_ids = use_ids
        self._next_id = 1
        self._buf = bytearray()
        self._pending: list[str] = []  # lines of a response being collected
        self.eof = False

    def send(self, name: str, *args: object) -> bytes:
        words = [name, *(str(a) for a in args)]
        for w in words:
            if not w or any(c in w for c in "\n\r#") or any(c.isspace() for c in w):
                raise LocalProtocolError(f"cannot send GTP word {w!r}")
        line = " ".join(words)
        if self.use_ids:
            line = f"{self._next_id} {line}"
            self._next_id += 1
        return (line + "\n").encode()

    def receive_data(self, data: bytes) -> None:
        if not data:
            self.eof = True
        self._buf += data

    def next_response(self) -> Response | None:
        """The next complete answer, or None if more bytes are needed.

        Raises RemoteProtocolError for output that is not an answer, or for an answer cut off
        by end of stream."""
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                if self.eof and (self._buf.strip() or self._pending):
                    raise RemoteProtocolError("engine output ended inside an answer")
                return None
            raw = bytes(self._buf[:nl]).decode("utf-8", errors="replace")
            del self._buf[: nl + 1]
            line = raw.replace("\r", "").replace("\t", " ")
            if not self._pending:
                if not line.strip():
                    continue  # stray empty lines between answers
                if line[0] not in "=?":
                    raise RemoteProtocolError(f"not a GTP answer: {raw[:80]!r}")
                self._pending.append(line)
                continue
            if line:
                self._pending.append(line)
                continue
            lines, self._pending = self._pending, []
            return _parse(lines)


def _parse(lines: list[str]) -> Response:
    first = lines[0]
    ok = first[0] == "="
    i = 1
    while i < len(first) and first[i].isdigit():
        i += 1
    cmd_id = int(first[1:i]) if i > 1 else None
    head = first[i:]
    if head and not head[0].isspace():
        raise RemoteProtocolError(f"malformed GTP answer: {first[:80]!r}")
    text = "\n".join([head.strip(), *lines[1:]]).strip("\n")
    return Response(ok, text.strip() if len(lines) == 1 else text, cmd_id)
