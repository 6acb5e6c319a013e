"""The client loop: bytes from a transport -> codec events -> tracker / decider -> bytes.

:class:`UecdaPlayer` is sans-I/O (``handle(event) -> command or None``) so tests drive it
in memory; :func:`play_match` moves bytes between it and a transport.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import structlog

from clients.faults import ServerFault
from clients.uecda.baseline import baseline_exchange, baseline_move
from clients.uecda.config import ClientConfig
from clients.uecda.decide import Decider
from clients.uecda.tracker import GameTracker
from games.daihinmin.cards import PASS, move_str, popcount
from protocols.transport import TransportError
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
    RemoteProtocolError,
    StageTable,
    YourTurn,
)
from protocols.uecda.cards import hand_from_cells, hand_to_cells, move_from_cells, move_to_cells

log = structlog.get_logger()


class UecdaPlayer:
    """Reacts to server events; returns the command to send, if any."""

    def __init__(self, config: ClientConfig, name: str) -> None:
        self.config = config
        self.name = name
        seq = np.random.SeedSequence(config.seed or None)
        rng_track, rng_search = (np.random.default_rng(s) for s in seq.spawn(2))
        self.tracker = GameTracker(rng_track)
        self.decider = Decider(config, rng_search)
        self.games_done = 0
        self.rejected = 0
        self.contradictions = 0  # tables the tracker could not follow
        self._last_move = 0
        self._view = WireView()
        self._lost = False  # the tracker gave up on this game

    def profile(self) -> Profile:
        return Profile(self.name)

    def warm_up(self) -> None:
        """Load the compiled kernels (one tiny search on a random deal) and start the
        workers, so the first real decision is not slowed down. Call it before connecting:
        from a cold compile cache it takes tens of seconds, and a server may start the
        first game as soon as the last player is in."""
        self.decider.warm_up()

    def close(self) -> None:
        """Stop the worker processes, if any."""
        self.decider.close()

    def handle(self, ev: Event) -> Event | None:
        """One server event in, the command to send (if any) out. Never raises for what the
        server says: a table that contradicts the rules (seats that are no permutation, a
        hand or a count that cannot be, a move nobody could play) is logged, the game
        tracker is dropped until the next game, and moves come from what the wire shows."""
        tr = self.tracker
        if isinstance(ev, PlayerNumber):
            tr.me = ev.player
            log.info("uecda_player_number", player=ev.player)
        elif isinstance(ev, ExchangeRequest):
            return self._exchange(ev.count)
        elif isinstance(ev, YourTurn):
            move = self._move(ev.lead)
            self._last_move = move
            return MoveTable(move_to_cells(move))
        elif isinstance(ev, Ack):
            if not ev.accepted and self._last_move != 0:
                self.rejected += 1  # the server counts it as a pass; so does the tracker
                log.warning("uecda_move_rejected", game=tr.game, move=self._last_move)
        elif isinstance(ev, (GameEnd, MatchEnd)):
            self.games_done += 1
            self.decider.end_game(tr)
            log.info("uecda_game_end", game=tr.game, resyncs=tr.resyncs)
        elif isinstance(ev, (GameStart, HandTable, StageTable)):
            self._view.see(ev)
            if isinstance(ev, GameStart):
                self._lost = False
            if not self._lost:
                try:
                    self._track(ev)
                except Exception as e:  # the client boundary: the server contradicts the rules
                    self._lose_track(ev, e)
        return None

    def _track(self, ev: GameStart | HandTable | StageTable) -> None:
        tr = self.tracker
        if isinstance(ev, GameStart):
            tr.on_game_start(ev)
        elif isinstance(ev, HandTable):
            tr.on_hand_table(ev)
        else:
            tr.on_stage(ev)

    def _lose_track(self, ev: Event, e: Exception) -> None:
        self._lost = True
        self.tracker.shadow = None
        self.contradictions += 1
        log.warning("uecda_table_contradicts_rules", game=self.tracker.game,
                    table=type(ev).__name__, error=f"{type(e).__name__}: {e}",
                    action="the baseline plays from the tables until the next game")

    def _exchange(self, count: int) -> ExchangeTable:
        hand = self._view.hand0
        cards = 0
        if not self._lost:
            try:
                cards = self.decider.exchange(self.tracker, count)
            except Exception as e:  # the client boundary
                self._lose_track(ExchangeRequest(count), e)
        if popcount(cards & hand) != count or cards & ~hand:
            cards = baseline_exchange(hand, count)
        self.tracker.on_exchange(cards)
        return ExchangeTable(hand_to_cells(cards))

    def _move(self, lead: bool) -> int:
        if not self._lost and self.tracker.shadow is not None:
            try:
                return self.decider.move(self.tracker, lead)
            except Exception as e:  # the client boundary
                self._lose_track(YourTurn(lead), e)
        move = self._view.fallback(lead)
        log.info("uecda_decision", core="wire-fallback", game=self.tracker.game,
                 move=move_str(move) or "pass")
        return move


class WireView:
    """What the last tables say, read with no memory of the game: our hand, the cards on the
    table, the revolution and the lock. Enough for a legal move when the tracker is lost."""

    def __init__(self) -> None:
        self.hand0 = 0
        self.hand = 0
        self.table = PASS
        self.revolution = False
        self.lock = False

    def see(self, ev: GameStart | HandTable | StageTable) -> None:
        if isinstance(ev, GameStart):
            self.hand0 = self.hand = hand_from_cells(ev.hand)
            self.table, self.revolution, self.lock = PASS, False, False
        elif isinstance(ev, HandTable):
            self.hand = hand_from_cells(ev.hand)
            self.revolution, self.lock = ev.revolution, ev.lock
            if ev.lead:
                self.table = PASS
        else:
            try:
                self.table = PASS if ev.lead else move_from_cells(ev.cards)
            except ValueError:
                self.table = PASS
            self.revolution, self.lock = ev.revolution, ev.lock

    def fallback(self, lead: bool) -> int:
        return baseline_move(self.hand, PASS if lead else self.table, self.revolution,
                             self.lock)


def play_match(player: UecdaPlayer, transport: Any, recv_timeout: float | None = None) -> int:
    """Play until the server ends the match. Returns the number of games played.

    A server that breaks the match — closes the connection before the match-end flag, sends
    what protocol 20070 does not allow, or is silent for ``recv_timeout`` seconds (the
    transport's timeout, given here for the message) — raises :class:`ServerFault`."""
    conn = ClientConnection()
    try:
        transport.send(conn.send(player.profile()))
        return _loop(player, conn, transport, recv_timeout)
    except RemoteProtocolError as e:
        raise ServerFault(f"the server broke protocol 20070 after {player.games_done} "
                          f"games: {e}") from e
    except TransportError as e:
        raise ServerFault(f"{e} (after {player.games_done} games)") from e
    finally:
        player.close()  # the worker processes, if any


def _loop(player: UecdaPlayer, conn: ClientConnection, transport: Any,
          recv_timeout: float | None) -> int:
    while True:
        ev = conn.next_event()
        if ev is NEED_DATA:
            try:
                data = transport.recv(65536)
            except TimeoutError:
                raise ServerFault(
                    f"no message from the server for {recv_timeout or 0:g} s "
                    f"(recv_timeout) while waiting for the {_awaited(conn)}, after "
                    f"{player.games_done} games") from None
            conn.receive_data(data)
            continue
        if ev is PAUSED:  # cannot happen: every request is answered below
            raise RuntimeError("codec waits for a command the player did not give")
        assert isinstance(ev, Event)
        if isinstance(ev, ConnectionClosed):
            if not ev.expected:
                raise ServerFault(
                    f"the server closed the connection before the end of the match "
                    f"(after {player.games_done} games, waiting for the {_awaited(conn)})")
            return player.games_done
        cmd = player.handle(ev)
        if cmd is not None:
            transport.send(conn.send(cmd))


def _awaited(conn: ClientConnection) -> str:
    return conn.state.value.removeprefix("expect ")
