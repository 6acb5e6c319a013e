"""Loopback helpers: run the mock server in a thread, clients in threads."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from clients.uecda.agent import UecdaPlayer, play_match
from clients.uecda.config import ClientConfig
from protocols.transport import TcpTransport
from servers.uecda.config import ServerConfig
from servers.uecda.match import MatchRecord, serve
from servers.uecda.net import Listener


class ServerThread:
    def __init__(self, config: ServerConfig) -> None:
        self.listener = Listener("127.0.0.1", 0)
        self.port = self.listener.port
        self.config = config
        self.record: MatchRecord | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.record = serve(self.config, self.listener)
        except BaseException as e:  # reported by join()
            self.error = e
        finally:
            self.listener.close()

    def join(self, timeout: float = 120.0) -> MatchRecord:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "server did not finish"
        if self.error is not None:
            raise self.error
        assert self.record is not None
        return self.record


def run_threads(targets: list[Callable[[], Any]]) -> list[threading.Thread]:
    threads = [threading.Thread(target=t, daemon=True) for t in targets]
    for t in threads:
        t.start()
    return threads


def corvid_client(port: int, name: str, **settings: Any) -> Callable[[], Any]:
    """A client thread body; returns (games played, the UecdaPlayer)."""

    def run() -> tuple[int, UecdaPlayer]:
        player = UecdaPlayer(ClientConfig(**settings), name)
        player.warm_up()  # as the client does, before connecting
        tr = TcpTransport("127.0.0.1", port)
        try:
            return play_match(player, tr), player
        finally:
            tr.close()

    return run
