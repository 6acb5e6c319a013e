"""The client loop: bytes from a transport -> codec events -> tracker / decider -> bytes.

:class:`UecdaPlayer` is sans-I/O (``handle(event) -> command or None``) so tests drive it
in memory; :func:`play_match` moves bytes between it and a transport.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import structlog

from clients.uecda.config import ClientConfig
from clients.uecda.decide import Decider
from clients.uecda.tracker import GameTracker
from protocols.uecda import (
    NEED_DATA,
    PAUSED,
    Ack,
    ClientConnection,
    ConnectionClosed,
    Event,
    ExchangeRequest,
    ExchangeTable,
    GameEnd,
    GameStart,
    HandTable,
    MatchEnd,
    MoveTable,
    PlayerNumber,
    Profile,
    StageTable,
    YourTurn,
)
from protocols.uecda.cards import hand_to_cells, move_to_cells

log = structlog.get_logger()


class UecdaPlayer:
    """Reacts to server events; returns the command to send, if any."""

    def __init__(self, config: ClientConfig, name: str) -> None:
        self.config = config
        self.name = name
        seq = np.random.SeedSequence(config.seed)
        rng_track, rng_search = (np.random.default_rng(s) for s in seq.spawn(2))
        self.tracker = GameTracker(rng_track)
        self.decider = Decider(config, rng_search)
        self.games_done = 0
        self.rejected = 0
        self._last_move = 0

    def profile(self) -> Profile:
        return Profile(self.name)

    def warm_up(self) -> None:
        """Load the compiled kernels (one tiny search on a random deal) and start the
        workers while the server waits for the other players, so the first real decision is
        not slowed down."""
        self.decider.warm_up()

    def close(self) -> None:
        """Stop the worker processes, if any."""
        self.decider.close()

    def handle(self, ev: Event) -> Event | None:
        tr = self.tracker
        if isinstance(ev, PlayerNumber):
            tr.me = ev.player
            log.info("uecda_player_number", player=ev.player)
        elif isinstance(ev, GameStart):
            tr.on_game_start(ev)
        elif isinstance(ev, ExchangeRequest):
            cards = self.decider.exchange(tr, ev.count)
            tr.on_exchange(cards)
            return ExchangeTable(hand_to_cells(cards))
        elif isinstance(ev, HandTable):
            tr.on_hand_table(ev)
        elif isinstance(ev, YourTurn):
            move = self.decider.move(tr, ev.lead)
            self._last_move = move
            return MoveTable(move_to_cells(move))
        elif isinstance(ev, Ack):
            if not ev.accepted and self._last_move != 0:
                self.rejected += 1  # the server counts it as a pass; so does the tracker
                log.warning("uecda_move_rejected", game=tr.game, move=self._last_move)
        elif isinstance(ev, StageTable):
            tr.on_stage(ev)
        elif isinstance(ev, (GameEnd, MatchEnd)):
            self.games_done += 1
            self.decider.end_game(tr)
            log.info("uecda_game_end", game=tr.game, resyncs=tr.resyncs)
        return None


def play_match(player: UecdaPlayer, transport: Any) -> int:
    """Play until the server ends the match. Returns the number of games played."""
    conn = ClientConnection()
    transport.send(conn.send(player.profile()))
    player.warm_up()
    try:
        return _loop(player, conn, transport)
    finally:
        player.close()


def _loop(player: UecdaPlayer, conn: ClientConnection, transport: Any) -> int:
    while True:
        ev = conn.next_event()
        if ev is NEED_DATA:
            conn.receive_data(transport.recv(65536))
            continue
        if ev is PAUSED:  # cannot happen: every request is answered below
            raise RuntimeError("codec waits for a command the player did not give")
        assert isinstance(ev, Event)
        if isinstance(ev, ConnectionClosed):
            if not ev.expected:
                log.warning("uecda_server_closed", games=player.games_done)
            return player.games_done
        cmd = player.handle(ev)
        if cmd is not None:
            transport.send(conn.send(cmd))
