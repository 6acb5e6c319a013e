"""The server's sockets: the listener and one blocking connection per client.

Every read has a deadline (the per-move timeout); anything that goes wrong with a client —
silence, garbage, a disconnect, a full send buffer — raises :class:`Dropped` with the
reason, and the match loop hands the seat to the stand-in.
"""

from __future__ import annotations

import socket
import time

import structlog

from protocols.uecda import (
    NEED_DATA,
    ClientTable,
    ConnectionClosed,
    Event,
    PlayerNumber,
    Profile,
    ServerConnection,
    UecdaProtocolError,
)

log = structlog.get_logger()


class Dropped(Exception):
    """A client is out of the match (the message says why)."""


class RemoteClient:
    """One client connection (``player`` = accept order)."""

    def __init__(self, sock: socket.socket, player: int, timeout: float) -> None:
        self.sock = sock
        self.player = player
        self.timeout = timeout
        self.conn = ServerConnection()
        self.name = f"player{player}"
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(self, ev: Event) -> None:
        data = self.conn.send(ev)
        try:
            self.sock.settimeout(self.timeout)
            self.sock.sendall(data)  # one buffer: tndhms-style readers need it whole
        except OSError as e:
            raise Dropped(f"send failed: {e}") from None

    def _read(self) -> Profile | ClientTable:
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                ev = self.conn.next_event()
            except UecdaProtocolError as e:
                raise Dropped(f"garbage: {e}") from None
            if isinstance(ev, ConnectionClosed):
                raise Dropped("disconnected")
            if ev is not NEED_DATA:
                assert isinstance(ev, (Profile, ClientTable))
                return ev
            left = deadline - time.monotonic()
            if left <= 0:
                raise Dropped(f"timeout ({self.timeout:g} s)")
            try:
                self.sock.settimeout(left)
                data = self.sock.recv(4096)
            except TimeoutError:
                raise Dropped(f"timeout ({self.timeout:g} s)") from None
            except OSError as e:
                raise Dropped(f"recv failed: {e}") from None
            self.conn.receive_data(data)

    def read_profile(self) -> Profile:
        ev = self._read()
        assert isinstance(ev, Profile)
        self.name = ev.name[:9] or self.name  # tndhms keeps 9 characters
        return ev

    def read_table(self) -> ClientTable:
        ev = self._read()
        assert isinstance(ev, ClientTable)
        return ev

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


class Listener:
    """A listening TCP socket (port 0 picks a free port; see :attr:`port`)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 42485) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.sock.listen(8)
        self.host = host
        self.port: int = self.sock.getsockname()[1]
        self.failures: dict[int, str] = {}  # player -> why no client plays it

    def accept_players(
        self, n: int, timeout: float, accept_timeout: float | None = None, first: int = 0,
        quiet: bool = False,
    ) -> list[RemoteClient | None]:
        """Accept ``n`` clients in order (player number = accept order), read each profile
        and send its player number (``first``, ``first + 1``, ...). A client that fails gets
        None (a stand-in plays); after ``accept_timeout`` seconds the missing players are
        stand-ins too. ``quiet``: do not log the failures (the caller retries)."""
        out: list[RemoteClient | None] = []
        deadline = None if accept_timeout is None else time.monotonic() + accept_timeout
        for player in range(first, first + n):
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._fail(out, player, "no client connected in time", quiet)
                    continue
                self.sock.settimeout(left)
            else:
                self.sock.settimeout(None)
            try:
                sock, addr = self.sock.accept()
            except TimeoutError:
                self._fail(out, player, "no client connected in time", quiet)
                continue
            client = RemoteClient(sock, player, timeout)
            try:
                profile = client.read_profile()
                client.send(PlayerNumber(player))
            except Dropped as e:
                client.close()
                self._fail(out, player, f"profile: {e}", quiet)
                continue
            log.info("uecda_client", player=player, name=client.name, peer=f"{addr[0]}:{addr[1]}",
                     version=profile.version)
            out.append(client)
        return out

    def _fail(self, out: list[RemoteClient | None], player: int, reason: str,
              quiet: bool) -> None:
        if not quiet:
            log.warning("uecda_client_dropped", player=player, game=0, reason=reason)
        self.failures[player] = reason
        out.append(None)

    def close(self) -> None:
        self.sock.close()
