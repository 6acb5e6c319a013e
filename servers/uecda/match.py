"""The match loop of the mock server: tndhms' message sequence over five seats.

Each seat is a :class:`RemoteClient` or, once its client has misbehaved (or never came),
the stand-in (:mod:`servers.uecda.standin`). The rules, deals, exchange and ranks come from
:mod:`games.daihinmin`; this module only adds the wire: which table goes to whom, when.

Where tndhms' tables are quirky we follow them: the stage table shows the table *before* a
flush (an 8-cut, the last pass) with the lock as it stood, ``[5][4]`` = 1 in a stage table
only while the table is empty; a flush shows in the next hand table. One known difference:
during a game tndhms overwrites the ranks in row 6 as players finish in an order we have not
pinned down; we keep showing the HAND0 ranks (clients should only trust HAND0 anyway).
"""

from __future__ import annotations

import datetime
import socket
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

import numpy as np
import structlog

from games.daihinmin.cards import PASS, SINGLE_JOKER, hand_str, move_str, move_suits, popcount
from games.daihinmin.match import Deal, Match, MatchConfig
from games.daihinmin.replay import format_game, record_of
from games.daihinmin.state import GameState
from protocols.uecda import (
    Ack,
    ClientTable,
    Event,
    GameEnd,
    GameGoesOn,
    GameStart,
    HandTable,
    MatchEnd,
    StageTable,
)
from protocols.uecda.cards import hand_from_cells, hand_to_cells, move_from_cells, move_to_cells
from protocols.uecda.table import EMPTY_CELLS, EMPTY_ROW, Cells, Row
from servers.uecda.config import ServerConfig
from servers.uecda.net import Dropped, Listener
from servers.uecda.standin import standin_exchange, standin_move

log = structlog.get_logger()

NP = 5


class Seat(Protocol):
    """What the match loop needs of a client connection (``net.RemoteClient``); every
    method raises ``Dropped`` when the client is out."""

    name: str

    def send(self, ev: Event) -> None: ...
    def read_table(self) -> ClientTable: ...
    def close(self) -> None: ...


@dataclass
class Drop:
    game: int  # 1-based game number (0: before the first game)
    player: int
    reason: str


@dataclass
class MatchRecord:
    """What the arena and the tests read back. ``points[g][p]``: points of player p in game
    g (5..1); ``finish[g]``: players in finishing order."""

    names: list[str]
    seed: int
    points: list[list[int]] = field(default_factory=list)
    finish: list[list[int]] = field(default_factory=list)
    drops: list[Drop] = field(default_factory=list)

    @property
    def totals(self) -> list[int]:
        return [sum(g[p] for g in self.points) for p in range(NP)]


def lock_after(prev_table: int, prev_lock: bool, move: int) -> bool:
    """The lock right after an accepted play, before any flush (the engine's rule)."""
    if move == SINGLE_JOKER:
        return False
    if prev_table not in (PASS, SINGLE_JOKER) and move_suits(move) == move_suits(prev_table):
        return True
    return prev_lock


class MatchServer:
    """Runs the games over five seats; ``on_game(game, record)`` after each game."""

    def __init__(
        self,
        config: ServerConfig,
        clients: Sequence[Seat | None],
        failures: dict[int, str] | None = None,
        on_game: Callable[[int, MatchRecord], None] | None = None,
        deals: Iterator[Deal] | None = None,
        events: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> None:
        """``clients[p]``: player p's connection (None: the stand-in plays). ``deals``: use
        these deals instead of the match's random ones (tests replaying a recorded match).
        ``events(topic, fields)``: called for live viewers (see :mod:`.publish`)."""
        if len(clients) != NP:
            raise ValueError("a match needs five seats")
        self.config = config
        self.clients: list[Seat | None] = list(clients)
        self.deals = deals
        seed = config.seed
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (1 << 31))  # type: ignore[operator]
        self.seed = seed
        names = [c.name if c is not None else "standin" for c in clients]
        self.record = MatchRecord(names, seed)
        for p, reason in (failures or {}).items():
            self.record.drops.append(Drop(0, p, reason))
        self.on_game = on_game
        self.events = events
        self.match = Match(MatchConfig(games=config.games, reset_every=config.reset_every,
                                       reshuffle_every=config.reshuffle_every, seed=seed))
        self.game = 0  # 1-based number of the game being played
        self._log: TextIO | None = None

    def _event(self, topic: str, **fields: Any) -> None:
        if self.events is not None:
            self.events(topic, fields)

    # -- seats ----------------------------------------------------------------------------
    def _drop(self, p: int, reason: str) -> None:
        c = self.clients[p]
        if c is None:
            return
        c.close()
        self.clients[p] = None
        self.record.drops.append(Drop(self.game, p, reason))
        log.warning("uecda_client_dropped", player=p, name=c.name, game=self.game,
                    reason=reason)
        self._event("drop", game=self.game, player=p, reason=reason)
        if self._log is not None:
            self._log.write(f"%-----%STANDIN% game {self.game} player {p}: {reason}\n")

    def _send(self, p: int, ev: Event) -> None:
        c = self.clients[p]
        if c is None:
            return
        try:
            c.send(ev)
        except Dropped as e:
            self._drop(p, str(e))

    def _ask(self, p: int) -> ClientTable | None:
        c = self.clients[p]
        if c is None:
            return None
        try:
            return c.read_table()
        except Dropped as e:
            self._drop(p, str(e))
            return None

    # -- the match ------------------------------------------------------------------------
    def run(self) -> MatchRecord:
        for _ in self.games():
            pass
        return self.record

    def games(self) -> Generator[MatchRecord, None, None]:
        """Play the match, yielding the record after each game (the log is flushed by
        then); closing the generator early ends the match and closes the connections."""
        cfg = self.config
        self._event("match", names=self.record.names, seed=self.seed, games=cfg.games)
        try:
            if cfg.log:
                self._log = open(cfg.log, "w", encoding="ascii", buffering=1)  # noqa: SIM115
                self._log.write(self._header())
            for _ in range(cfg.games):
                self._play_game()
                yield self.record
            self._event("end", totals=self.record.totals, games=len(self.record.points))
            if self._log is not None:
                end = datetime.datetime.now().strftime("%Y/%m/%d %H:%M:%S")
                self._log.write(f"%-----%TIME_END% {end}\n")
        finally:
            for c in self.clients:
                if c is not None:
                    c.close()
            if self._log is not None:
                self._log.close()
                self._log = None

    def _header(self) -> str:
        cfg = self.config
        now = datetime.datetime.now().strftime("%Y/%m/%d %H:%M:%S")
        rules = [("RULE_KAKUMEI", "YES"), ("RULE_SHIBARI", "YES"), ("RULE_KINSOKU", "NO"),
                 ("RULE_KAIDAN", "YES"), ("RULE_CHANGE", "YES"), ("RULE_5TOBI", "NO"),
                 ("RULE_6REVERS", "NO"), ("RULE_8GIRI", "YES"), ("RULE_11BACK", "NO"),
                 ("RULE_SEKIGAE", "YES"), ("RULE_SEKIGAE_NUM", str(cfg.reshuffle_every))]
        lines = [("hostname", socket.gethostname()), ("TIME_START", now),
                 ("palyer_name", " ".join(self.record.names)), ("WINDOW_TYPE", "CONSOLE"),
                 ("GRAPH_WINDOW", "NO"), ("RAND_TYPE", "1"), *rules,
                 ("GAME_NUMBER", str(cfg.games)), ("FLASH_MIBUN_NUMBER", str(cfg.reset_every)),
                 ("GAME_PORT", str(cfg.port)), ("RANDOM_SEED", str(self.seed)),
                 ("SERVER", "corvid mock tndhms")]
        return "".join(f"%-----%{k}% {v}\n" for k, v in lines)

    def _play_game(self) -> None:
        self.game += 1
        last_game = self.game == self.config.games
        deal = self.match.deal() if self.deals is None else next(self.deals)
        self._event("game", game=self.game, seats=list(deal.order), ranks=list(deal.ranks),
                    reset=deal.reset, dealt=[hand_str(h) for h in deal.dealt])
        wire_ranks = (0,) * NP if deal.reset else tuple(deal.ranks)
        seats = tuple(deal.order)
        counts0 = tuple(popcount(h) for h in deal.dealt)
        by_rank = list(range(NP)) if deal.reset else sorted(range(NP), key=lambda p: deal.ranks[p])
        for p in by_rank:
            shown = deal.hands[p] if deal.to_give(p) else deal.dealt[p]
            self._send(p, GameStart(hand_to_cells(shown), deal.to_give(p), counts0, wire_ranks,
                                    seats))
        for p in by_rank:
            n = deal.to_give(p)
            if n:
                self._exchange(deal, p, n)
        state = deal.state(seed=self.seed * 100003 + self.game)
        plays = self._play_out(state, wire_ranks, seats)
        self.match.finish(state)
        fin = list(state.finish)
        pts = [0] * NP
        for i, p in enumerate(fin):
            pts[p] = NP - i
        self.record.points.append(pts)
        self.record.finish.append(fin)
        if self._log is not None:
            rec = record_of(state, self.game - 1, deal.ranks, self.match.points, deal.reset)
            rec.plays = plays  # as submitted: tndhms logs rejected melds too
            self._log.write(format_game(rec))
        end: Event = MatchEnd() if last_game else GameEnd()
        for p in range(NP):
            self._send(p, end)
        log.info("uecda_game", game=self.game, finish=fin, totals=self.match.points)
        self._event("result", game=self.game, finish=fin, points=pts,
                    totals=list(self.match.points))
        if self.on_game is not None:
            self.on_game(self.game, self.record)

    def _exchange(self, deal: Deal, p: int, n: int) -> None:
        t = self._ask(p)
        cards = hand_from_cells(t.cards) if t is not None else standin_exchange(deal.hands[p], n)
        if not deal.give(p, cards):
            log.info("uecda_exchange_penalty", game=self.game, player=p)

    def _play_out(
        self, state: GameState, ranks: tuple[int, ...], seats: tuple[int, ...]
    ) -> list[tuple[int, int]]:
        """Play the game out; returns the plays for the log: (player, move as submitted),
        a rejected meld included (the engine's history has a pass there), a table that is
        no meld logged as a pass."""
        shown: Cells = EMPTY_CELLS
        plays: list[tuple[int, int]] = []
        while True:
            mover = state.to_move
            lead = state.table == PASS
            if lead:
                shown = EMPTY_CELLS
            counts = tuple(popcount(h) for h in state.hands)
            for p in range(NP):
                self._send(p, HandTable(hand_to_cells(state.hand(p)), mover, p == mover, lead,
                                        state.revolution, state.lock, counts, ranks, seats))
            prev_table, prev_lock = state.table, state.lock
            t = self._ask(mover)
            row7: Row = EMPTY_ROW
            if t is None:
                move: int | None = standin_move(state)
                assert move is not None
                cells = move_to_cells(move)
            else:
                cells = t.cards
                if t.rest:
                    row7 = t.rest[2]
                try:
                    move = move_from_cells(cells)
                except ValueError:
                    move = None  # not a meld: rejected like any illegal move
            accepted = move is not None and state.accepts(move)
            state.play(move if accepted and move is not None else PASS)
            plays.append((mover, move if move is not None else PASS))
            self._event("play", game=self.game, player=mover,
                        move=move_str(move) if move is not None else None,
                        accepted=accepted, table=move_str(state.table),
                        revolution=state.revolution, lock=state.lock,
                        standin=t is None)
            self._send_if_remote(mover, t, Ack(9 if accepted else 8))
            if accepted and move is not None and move != PASS:
                shown = cells
                lock = lock_after(prev_table, prev_lock, move)
            else:
                row7 = EMPTY_ROW
                lock = prev_lock
            counts = tuple(popcount(h) for h in state.hands)
            stage = StageTable(shown, mover, shown == EMPTY_CELLS, state.revolution, lock,
                               counts, ranks, seats, row7=row7)
            for p in range(NP):
                self._send(p, stage)
            if state.is_terminal():
                return plays
            for p in range(NP):
                self._send(p, GameGoesOn())

    def _send_if_remote(self, p: int, t: ClientTable | None, ev: Event) -> None:
        if t is not None:
            self._send(p, ev)


def serve(
    config: ServerConfig,
    listener: Listener | None = None,
    on_game: Callable[[int, MatchRecord], None] | None = None,
    events: Callable[[str, dict[str, Any]], None] | None = None,
) -> MatchRecord:
    """Listen (unless given a bound ``listener``), accept five clients, play the match."""
    own = listener is None
    lst = listener if listener is not None else Listener(config.host, config.port)
    try:
        log.info("uecda_listening", host=lst.host, port=lst.port, games=config.games)
        clients = lst.accept_players(NP, config.timeout, config.accept_timeout)
    finally:
        if own:
            lst.close()
    return MatchServer(config, clients, lst.failures, on_game, events=events).run()
