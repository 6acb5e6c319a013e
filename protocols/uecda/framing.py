"""Exact-length framing: bytes arrive in arbitrary chunks, messages are 4 or 480 bytes."""

from __future__ import annotations


class Framer:
    """A receive buffer that hands out exactly ``n`` bytes when it has them."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._pos = 0
        self.eof = False

    def feed(self, data: bytes) -> None:
        if data:
            if self.eof:
                raise ValueError("data after end of stream")
            self._buf += data
        else:
            self.eof = True

    def available(self) -> int:
        return len(self._buf) - self._pos

    def take(self, n: int) -> bytes | None:
        """Exactly ``n`` bytes, or None if fewer are buffered."""
        if self.available() < n:
            return None
        out = bytes(self._buf[self._pos : self._pos + n])
        self._pos += n
        if self._pos > 65536:  # compact now and then
            del self._buf[: self._pos]
            self._pos = 0
        return out
