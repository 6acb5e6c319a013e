"""The mock ICFPT host: referees Blokus Duo games between players on TCP ports (or a
built-in opponent, or a GTP Blokus engine), byte-compatible with the contest host.

* A player connects; the host sends ``0`` and reads a 3-byte team code, then prompts with
  ``2S`` / ``3Smmmm`` / ``4mmmm`` (2014) or ``2S`` to both, ``3mmmm`` / ``4mmmmnnnn`` (2013)
  and reads exactly 4 bytes per answer, CR and LF skipped (protocols.icfpt.HostConnection).
* The time limit runs from the end of the prompt write to the arrival of the answer's 4th
  byte. A late, malformed or illegal answer, a pass as a first move, or a disconnect loses
  at once; then both players get ``9`` (ten in 2013) and the connections close.
* One connection per game, as on the contest host: a client reconnects for the next game.
"""

from __future__ import annotations

import math
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import msgspec
import numpy as np
import structlog

from games.blokus_duo import PASS, BlokusState
from protocols.icfpt import Dialect, FirstMovePrompt, SecondMovePrompt, TurnPrompt
from servers.blokus.opponents import OPPONENTS
from servers.blokus.players import (
    GTP_PREFIX,
    BuiltinPlayer,
    GtpPlayer,
    Player,
    RemotePlayer,
    Violation,
)
from servers.blokus.sgf import GameRecord

log = structlog.get_logger()


class HostConfig(msgspec.Struct, frozen=True):
    host: str = "127.0.0.1"
    port: int = 10000
    port2: int | None = None  # a second client; else the opponent plays
    opponent: str = "first-legal"  # a built-in opponent, or gtp:COMMAND (a GTP engine)
    games: int = 1
    first: Literal["1", "2", "alternate"] = "1"  # the player number that moves first
    seat: Literal["1", "2", "alternate"] = "alternate"  # the player number of the client on port
    dialect: Literal["2014", "2013"] = "2014"
    timeout: float = 1.0  # seconds per move
    opponent_timeout: float | None = None  # a GTP opponent's seconds per move (None: timeout)
    connect_timeout: float = 60.0  # waiting for a connection and its team code
    seed: int = 0
    size: int = 14


# --- one game -----------------------------------------------------------------------------
def _apply(state: BlokusState, colour: int, code: str) -> int:
    """Validate and play a player's code; raise Violation for an illegal move."""
    assert state.to_move_colour == colour
    try:
        move = state.geo.parse_code(code)
    except ValueError:
        raise Violation("illegal", f"{code} does not fit on the board") from None
    if not state.is_legal(move):
        if move == PASS and state.placed(colour) == 0:
            raise Violation("first-pass", "a pass as the first move")
        raise Violation("illegal", f"{code} is not legal here")
    state.play(move)
    return move


def play_game(players: tuple[Player, Player], first: int, dialect: Dialect,
              timeout: float, size: int = 14,
              on_move: Callable[[int, str, float], None] | None = None) -> GameRecord:
    """Referee one game. ``players[c]`` plays colour c (player c+1); ``first`` is the colour
    that moves first. Handshakes must be done. Sends ``9`` and closes at the end."""
    state = BlokusState(first=first, size=size)
    rec = GameRecord(first=first, names=(players[0].name, players[1].name),
                     dialect=dialect.value, size=size)
    current = first

    def ask(colour: int, event: Any) -> str:
        nonlocal current
        current = colour
        players[colour].prompt(event, state)
        return players[colour].answer(state, timeout)

    def record(colour: int, code: str) -> str:
        move = _apply(state, colour, code)
        rec.moves.append((colour, move))
        rec.times.append(players[colour].last_elapsed)
        if on_move is not None:
            on_move(colour, code, players[colour].last_elapsed)
        return code

    try:
        second = 1 - first
        if dialect is Dialect.Y2014:
            last = record(first, ask(first, FirstMovePrompt(first + 1)))
            last = record(second, ask(second, SecondMovePrompt(second + 1, last)))
        else:
            # simultaneous first moves; the second mover's second prompt carries two moves
            players[first].prompt(FirstMovePrompt(first + 1), state)
            players[second].prompt(FirstMovePrompt(second + 1), state)
            current = first
            f1 = record(first, players[first].answer(state, timeout))
            current = second
            s1 = record(second, players[second].answer(state, timeout))
            last = record(first, ask(first, TurnPrompt((s1,))))
            if not state.is_terminal():
                last = record(second, ask(second, TurnPrompt((f1, last))))
        while not state.is_terminal():
            colour = state.to_move_colour
            last = record(colour, ask(colour, TurnPrompt((last,))))
        rec.scores = state.scores()
        d = rec.scores[0] - rec.scores[1]
        rec.winner = None if d == 0 else (0 if d > 0 else 1)
    except Violation as v:
        rec.reason = v.kind
        rec.detail = v.detail
        rec.violator = None if v.kind == "resign" else current  # resigning breaks no rule
        rec.winner = 1 - current
        rec.scores = state.scores()
        log.info("violation" if rec.violator is not None else "resigned", player=current + 1,
                 name=players[current].name, kind=v.kind, detail=v.detail)
    finally:
        for p in players:
            p.finish()
    return rec


# --- the match ------------------------------------------------------------------------------
@dataclass
class GameResult:
    index: int
    seat: int  # player number (1/2) of the client under test
    first: int  # player number that moved first
    record: GameRecord
    outcome: str  # win / draw / loss for the client under test


def schedule(cfg: HostConfig, i: int) -> tuple[int, int]:
    """(player number of the client on ``port``, player number moving first) of game i."""
    seat = 1 + i % 2 if cfg.seat == "alternate" else int(cfg.seat)
    first = 1 + (i // 2) % 2 if cfg.first == "alternate" else int(cfg.first)
    return seat, first


class Host:
    """Listeners bound at construction (port 0 picks a free port: see ``ports``)."""

    def __init__(self, cfg: HostConfig) -> None:
        """Binds the listeners and, for a ``gtp:COMMAND`` opponent, starts the engine
        (servers.gtp.process.EngineError if it cannot start or play Blokus Duo)."""
        gtp = cfg.opponent.startswith(GTP_PREFIX)
        if not gtp and cfg.opponent not in OPPONENTS:
            raise ValueError(f"unknown opponent {cfg.opponent!r}; known: {sorted(OPPONENTS)} "
                             f"or {GTP_PREFIX}COMMAND")
        self.cfg = cfg
        self.rng = np.random.default_rng(cfg.seed)
        self.engine: GtpPlayer | None = None
        if gtp and cfg.port2 is None:
            self.engine = GtpPlayer(cfg.opponent.removeprefix(GTP_PREFIX).strip(),
                                    startup_timeout=cfg.connect_timeout,
                                    time_limit=cfg.opponent_timeout)
        self.listeners = [self._listen(cfg.port)]
        if cfg.port2 is not None:
            self.listeners.append(self._listen(cfg.port2))
        self.ports = [s.getsockname()[1] for s in self.listeners]

    def _listen(self, port: int) -> socket.socket:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((self.cfg.host, port))
        s.listen(4)
        return s

    def close(self) -> None:
        for s in self.listeners:
            s.close()
        if self.engine is not None:
            self.engine.close()

    def _accept(self, listener: socket.socket, name: str) -> RemotePlayer:
        listener.settimeout(self.cfg.connect_timeout)
        try:
            sock, addr = listener.accept()
        except TimeoutError:
            raise Violation("disconnect", f"nobody connected as {name}") from None
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        log.info("connected", player=name, peer=f"{addr[0]}:{addr[1]}")
        return RemotePlayer(sock, Dialect(self.cfg.dialect), name)

    def play_one(self, i: int) -> GameResult:
        cfg = self.cfg
        seat, first = schedule(cfg, i)
        a = self._accept(self.listeners[0], "port")
        b: Player
        if len(self.listeners) > 1:
            b = self._accept(self.listeners[1], "port2")
        elif self.engine is not None:
            b = self.engine
        else:
            b = BuiltinPlayer(cfg.opponent, OPPONENTS[cfg.opponent], self.rng)
        players: tuple[Player, Player] = (a, b) if seat == 1 else (b, a)
        # team codes; a bad one loses the game before it starts
        for colour, p in enumerate(players):
            try:
                p.handshake(max(cfg.connect_timeout, cfg.timeout))
            except Violation as v:
                rec = GameRecord(first=first - 1, names=(players[0].name, players[1].name),
                                 reason=v.kind, detail=f"before the game: {v.detail}",
                                 violator=colour, winner=1 - colour, dialect=cfg.dialect,
                                 size=cfg.size)
                for q in players:
                    q.finish()
                return GameResult(i, seat, first, rec, _outcome(rec, seat - 1))
        rec = play_game(players, first - 1, Dialect(cfg.dialect), cfg.timeout, cfg.size)
        return GameResult(i, seat, first, rec, _outcome(rec, seat - 1))

    def run(self, on_game: Callable[[GameResult], None] | None = None) -> list[GameResult]:
        results = []
        for i in range(self.cfg.games):
            try:
                r = self.play_one(i)
            except Violation as v:  # nobody connected: end the match with what was played
                log.error("match_aborted", game=i + 1, reason=v.detail)
                break
            log.info("game_over", game=i + 1, seat=r.seat, first=r.first, outcome=r.outcome,
                     reason=r.record.reason, scores=r.record.scores,
                     moves=len(r.record.moves))
            results.append(r)
            if on_game is not None:
                on_game(r)
        return results


def _outcome(rec: GameRecord, colour: int) -> str:
    if rec.winner is None:
        return "draw"
    return "win" if rec.winner == colour else "loss"


def summary(results: list[GameResult]) -> dict[str, Any]:
    """The figures of the client under test (the one on ``port``)."""
    n = len(results)
    wins = sum(r.outcome == "win" for r in results)
    draws = sum(r.outcome == "draw" for r in results)
    losses = sum(r.outcome == "loss" for r in results)
    mine = [r for r in results if r.record.violator == r.seat - 1]
    times = sorted(t for r in results
                   for (c, _), t in zip(r.record.moves, r.record.times, strict=True)
                   if c == r.seat - 1)
    return {
        "games": n,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": round((wins + 0.5 * draws) / n, 4) if n else 0.0,
        "timeouts": sum(r.record.reason == "timeout" for r in mine),
        "violations": len(mine),
        "opponent_violations": sum(r.record.violator is not None for r in results) - len(mine),
        # answer times of the client under test (s): the moves that reached the host
        **answer_figures(times),
        "answer_ms": [round(t * 1000) for t in times],  # all of them, sorted (to pool runs)
    }


def answer_figures(times: list[float]) -> dict[str, float]:
    """Max, 99th percentile and mean (s) of sorted answer times; 0 without any."""
    if not times:
        return {"answer_max": 0.0, "answer_p99": 0.0, "answer_mean": 0.0}
    return {"answer_max": round(times[-1], 4),
            "answer_p99": round(times[math.ceil(0.99 * len(times)) - 1], 4),
            "answer_mean": round(sum(times) / len(times), 4)}
