"""The one transport module: byte streams over TCP, stdio or a serial port.

Codecs in ``protocols`` are sans-I/O; clients move bytes between a codec and one of these
transports. Blocking, simple, and the only socket code outside the servers' listeners.
"""

from __future__ import annotations

import argparse
import socket
import sys
import time
from typing import Any, Protocol


def tcp_port(text: str) -> int:
    """A TCP port from the command line (an ``argparse`` type): 0..65535 (0: a listener takes
    any free port). Anything else is a usage error at once, not a refused connection or a
    failed bind later on."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a TCP port (0..65535)")
    return port


class TransportError(ConnectionError):
    """The connection failed or was closed (neither side's protocol fault)."""


class Transport(Protocol):
    def send(self, data: bytes) -> None: ...
    def recv(self, max_bytes: int = 65536) -> bytes:
        """Some bytes, or b"" at end of stream."""
        ...
    def close(self) -> None: ...


class TcpTransport:
    """A TCP client connection with TCP_NODELAY; ``send`` writes the buffer in one sendall."""

    def __init__(self, host: str, port: int, timeout: float | None = 10.0) -> None:
        try:
            self.sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as e:
            raise TransportError(f"cannot connect to {host}:{port}: {e}") from e
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.settimeout(None)

    def set_timeout(self, seconds: float | None) -> None:
        self.sock.settimeout(seconds)

    def send(self, data: bytes) -> None:
        try:
            self.sock.sendall(data)
        except OSError as e:
            raise TransportError(f"send failed: {e}") from e

    def recv(self, max_bytes: int = 65536) -> bytes:
        try:
            return self.sock.recv(max_bytes)
        except TimeoutError:
            raise
        except OSError as e:
            raise TransportError(f"recv failed: {e}") from e

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def connect_tcp(host: str, port: int, wait: float = 0.0, timeout: float | None = 10.0
                ) -> TcpTransport:
    """A :class:`TcpTransport`, retrying a refused or failed connection for up to ``wait``
    seconds (a server that is not listening yet); TransportError if it never succeeds."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return TcpTransport(host, port, timeout)
        except TransportError as e:
            if time.monotonic() >= deadline:
                if wait > 0:
                    raise TransportError(f"{e} (retried for {wait:g} s)") from e
                raise
        time.sleep(0.1)  # retry pacing, not synchronisation


class StdioTransport:
    """stdin/stdout as raw bytes (GTP engines)."""

    def __init__(self, stdin: Any = None, stdout: Any = None) -> None:
        self.stdin = stdin if stdin is not None else sys.stdin.buffer
        self.stdout = stdout if stdout is not None else sys.stdout.buffer

    def send(self, data: bytes) -> None:
        self.stdout.write(data)
        self.stdout.flush()

    def recv(self, max_bytes: int = 65536) -> bytes:
        line: bytes = self.stdin.readline(max_bytes)
        return line

    def close(self) -> None:
        pass


class SerialTransport:
    """An RS-232C device (pyserial), 8N1, no flow control."""

    def __init__(self, device: str, baudrate: int = 115200, timeout: float | None = None) -> None:
        import serial  # pyserial

        try:
            self.port = serial.Serial(device, baudrate=baudrate, bytesize=8, parity="N",
                                      stopbits=1, timeout=timeout, xonxoff=False,
                                      rtscts=False)
        except (serial.SerialException, OSError) as e:
            raise TransportError(f"cannot open serial device {device}: {e}") from e

    def send(self, data: bytes) -> None:
        self.port.write(data)
        self.port.flush()

    def recv(self, max_bytes: int = 65536) -> bytes:
        """Some bytes; TimeoutError when a timeout was given and nothing came (a serial line
        has no end of stream)."""
        first: bytes = self.port.read(1)
        if not first and self.port.timeout is not None:
            raise TimeoutError(f"nothing on the serial line for {self.port.timeout:g} s")
        waiting = min(self.port.in_waiting, max_bytes - 1)
        return first + (self.port.read(waiting) if waiting > 0 else b"")

    def close(self) -> None:
        self.port.close()
