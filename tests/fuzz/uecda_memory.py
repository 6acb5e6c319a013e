"""An in-memory UECda match: the mock server's match loop with seats that are client
codecs and players in this process (no sockets), and the server-to-client bytes of one seat
recorded, as the fuzzers' seed transcripts."""

from __future__ import annotations

import functools

from clients.uecda.agent import UecdaPlayer
from clients.uecda.config import ClientConfig
from protocols.uecda import (
    NEED_DATA,
    PAUSED,
    ClientConnection,
    ClientTable,
    Event,
    PlayerNumber,
    Profile,
    ServerConnection,
)
from servers.uecda.config import ServerConfig
from servers.uecda.match import MatchServer
from servers.uecda.net import Dropped


class MemorySeat:
    """A seat of the match loop: server codec <-> client codec <-> a baseline player."""

    def __init__(self, player: int) -> None:
        self.server = ServerConnection()
        self.client = ClientConnection()
        self.player = UecdaPlayer(ClientConfig(core="baseline", seed=player), f"mem{player}")
        self.name = f"mem{player}"
        self.wire = bytearray()  # what the server sent this seat
        self.server.receive_data(self.client.send(self.player.profile()))
        assert isinstance(self.server.next_event(), Profile)
        self.send(PlayerNumber(player))

    def send(self, ev: Event) -> None:
        data = self.server.send(ev)
        self.wire += data
        self.client.receive_data(data)
        while True:
            got = self.client.next_event()
            if got is NEED_DATA or got is PAUSED:
                return
            assert isinstance(got, Event)
            cmd = self.player.handle(got)
            if cmd is not None:
                self.server.receive_data(self.client.send(cmd))

    def read_table(self) -> ClientTable:
        ev = self.server.next_event()
        if not isinstance(ev, ClientTable):
            raise Dropped(f"no table: {ev!r}")
        return ev

    def close(self) -> None:
        pass


@functools.cache
def transcript(games: int = 3, seed: int = 5) -> bytes:
    """Everything the mock server sends player 0 in a match of baseline players (the first
    game a rank reset, the second with the exchange)."""
    seats = [MemorySeat(p) for p in range(5)]
    rec = MatchServer(ServerConfig(games=games, seed=seed), seats).run()
    assert not rec.drops and len(rec.points) == games
    return bytes(seats[0].wire)
