"""The players the mock host referees: a client on a socket (:class:`RemotePlayer`), a
built-in opponent (:class:`BuiltinPlayer`) and a GTP Blokus engine in a process of its own
(:class:`GtpPlayer`). Each answers ``handshake``, ``prompt``, ``answer`` (a contest move code)
and ``finish``, and keeps the seconds of its last answer in ``last_elapsed``; a broken rule
or protocol is a :class:`Violation`, which loses the game at once."""

from __future__ import annotations

import socket
import time
from typing import IO, Any

import numpy as np
import structlog

from games.blokus_duo import PASS, BlokusState
from protocols.gtp import RemoteProtocolError as GtpProtocolError
from protocols.gtp import Response
from protocols.icfpt import (
    NEED_DATA,
    ConnectionClosed,
    Dialect,
    GameOver,
    HostConnection,
    MoveCommand,
    RemoteProtocolError,
    RequestTeamCode,
    TeamCode,
)
from servers.blokus.opponents import Opponent
from servers.gtp.process import EngineCrashed, EngineError, EngineProcess, EngineTimeout

log = structlog.get_logger()

GTP_PREFIX = "gtp:"  # an opponent spec ``gtp:COMMAND``: a GTP Blokus engine
GTP_COLOURS = ("b", "w")  # Pentobi's colours: b = player 1 (start e10), w = player 2 (j5)
GTP_VARIANT = ("Blokus", "Duo")  # the arguments of ``set_game`` (the game's SGF name)

class Violation(Exception):
    """A player broke the rules or the protocol: it loses at once."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.detail = detail


# --- endpoints --------------------------------------------------------------------------
class RemotePlayer:
    """A player on a socket, spoken to through the host codec."""

    def __init__(self, sock: socket.socket, dialect: Dialect, name: str) -> None:
        self.sock = sock
        self.conn = HostConnection(dialect)
        self.name = name
        self.team = ""
        self.t0 = 0.0
        self.last_elapsed = 0.0

    def send(self, event: Any) -> None:
        data = self.conn.send(event)
        try:
            self.sock.sendall(data)
        except OSError as e:
            raise Violation("disconnect", f"send failed: {e}") from e
        self.t0 = time.perf_counter()
        log.debug("host_send", player=self.name, data=data.decode("ascii"))

    def read(self, limit: float) -> TeamCode | MoveCommand:
        deadline = self.t0 + limit
        while True:
            try:
                ev = self.conn.next_event()
            except RemoteProtocolError as e:
                raise Violation("malformed", f"{e} (bytes {e.raw!r})") from e
            if ev is NEED_DATA:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise Violation("timeout", f"no answer within {limit:g} s")
                self.sock.settimeout(remaining)
                try:
                    data = self.sock.recv(4096)
                except TimeoutError:
                    raise Violation("timeout", f"no answer within {limit:g} s") from None
                except OSError as e:
                    raise Violation("disconnect", str(e)) from e
                log.debug("host_recv", player=self.name, data=data.decode("latin-1"))
                self.conn.receive_data(data)
                continue
            if isinstance(ev, ConnectionClosed):
                raise Violation("disconnect", "the player closed the connection")
            self.last_elapsed = time.perf_counter() - self.t0
            if self.last_elapsed > limit:
                raise Violation("timeout", f"answer after {self.last_elapsed:.3f} s")
            assert isinstance(ev, (TeamCode, MoveCommand))
            return ev

    def handshake(self, limit: float) -> None:
        self.send(RequestTeamCode())
        ev = self.read(limit)
        if not isinstance(ev, TeamCode):
            raise Violation("malformed", f"expected a team code, got {ev!r}")
        self.team = ev.code
        self.name = f"team {ev.code}"

    def prompt(self, event: Any, state: BlokusState) -> None:
        self.send(event)

    def answer(self, state: BlokusState, limit: float) -> str:
        ev = self.read(limit)
        if not isinstance(ev, MoveCommand):
            raise Violation("malformed", f"expected a move, got {ev!r}")
        return ev.code

    def finish(self) -> None:
        try:
            if not self.conn.game_over:
                self.sock.sendall(self.conn.send(GameOver()))
        except OSError:
            pass
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class BuiltinPlayer:
    """A built-in opponent: answers at once from the host's own state."""

    def __init__(self, name: str, policy: Opponent, rng: np.random.Generator) -> None:
        self.name = name
        self.policy = policy
        self.rng = rng
        self.last_elapsed = 0.0

    def handshake(self, limit: float) -> None:
        pass

    def prompt(self, event: Any, state: BlokusState) -> None:
        pass

    def answer(self, state: BlokusState, limit: float) -> str:
        return state.code(self.policy(state, self.rng))

    def finish(self) -> None:
        pass


class GtpPlayer:
    """A GTP Blokus engine that speaks Pentobi's GTP interface (docs/blokus-host.md): moves
    as the covered cells (``play b e8,d9,e9,f9,e10``, ``genmove w`` answered ``i4,h5,i5,j5,i6``
    or ``pass``), colours ``b`` (player 1) and ``w`` (player 2).

    One process serves every game it is given: started here (``name``, ``version`` and
    ``set_game Blokus Duo`` answered within ``startup_timeout``), ``clear_board`` before each
    game, restarted for the next game after a fault. Before each ``genmove`` the engine is
    told the opponent's moves it has not seen (passes are not told: Pentobi has none), and
    it validates each of them: an error answer to ``play`` is a violation naming the move.
    Its answer time runs from the host's turn to the engine's answer to ``genmove``, and
    counts against the host's time per move like any player's, or against ``time_limit``
    seconds when one is given (an engine level that needs more than the host's limit)."""

    def __init__(self, command: str, name: str = "", startup_timeout: float = 60.0,
                 stderr: IO[bytes] | int | None = None, cwd: str | None = None,
                 time_limit: float | None = None) -> None:
        self.engine = EngineProcess(command, name or command, stderr, cwd)
        self.startup_timeout = startup_timeout
        self.time_limit = time_limit
        self._setup()
        self.name = name or self._identity()
        self.engine.label = self.name
        self.last_elapsed = 0.0
        self._told = 0  # moves of the game's history the engine has (told or its own)
        self._visible = 0  # moves of the history at the last prompt

    def _ask(self, limit: float, name: str, *args: object) -> Response:
        """One command's answer within ``limit`` seconds; a late answer, a crash or output
        that is not GTP is raised as a Violation (and the engine stopped)."""
        try:
            return self.engine.command(name, *args, timeout=limit)
        except EngineTimeout as e:
            self._drop()
            raise Violation("timeout", str(e)) from None
        except EngineCrashed as e:
            self._drop()
            raise Violation("disconnect", str(e)) from None
        except GtpProtocolError as e:
            self._drop()
            raise Violation("malformed", f"{self.engine.label}: {e}") from None

    def _setup(self) -> None:
        """Start the process if it is not running and tell it the game; EngineError if it
        cannot start or does not play Blokus Duo."""
        if not self.engine.alive:
            self.engine.start()
        try:
            r = self.engine.command("set_game", *GTP_VARIANT, timeout=self.startup_timeout)
        except GtpProtocolError as e:
            raise EngineError(f"{self.engine.label}: {e}") from None
        if not r.ok:
            raise EngineError(f"{self.engine.label} cannot play {' '.join(GTP_VARIANT)}: "
                              f"set_game answered '? {r.text}'")

    def _identity(self) -> str:
        """``NAME VERSION`` as the engine answers them."""
        parts = []
        for command in ("name", "version"):
            try:
                r = self.engine.command(command, timeout=self.startup_timeout)
            except GtpProtocolError as e:
                raise EngineError(f"{self.engine.label}: {e}") from None
            if r.ok and r.text.strip():
                parts.append(r.text.strip())
        return " ".join(parts) or self.engine.label

    def _drop(self) -> None:
        """The engine's answers are out of step: stop it (restarted for the next game)."""
        self.engine.close(0.5)

    def handshake(self, limit: float) -> None:
        if not self.engine.alive:
            try:
                self._setup()
            except EngineError as e:
                raise Violation("disconnect", str(e)) from None
        r = self._ask(limit, "clear_board")
        if not r.ok:
            raise Violation("refused", f"{self.name} answered clear_board with '? {r.text}'")
        self._told = self._visible = 0

    def prompt(self, event: Any, state: BlokusState) -> None:
        # what the host has told the player when it asks (the 2013 host's second player
        # makes its first move without the first player's)
        self._visible = len(state.history)

    def answer(self, state: BlokusState, limit: float) -> str:
        limit = self.time_limit or limit
        t0 = time.perf_counter()
        colour = state.to_move_colour
        geo = state.geo

        def left() -> float:
            return limit - (time.perf_counter() - t0)

        for c, move in state.history[self._told:self._visible]:
            if c != colour and move != PASS:  # its own moves it played with genmove
                cells = geo.pentobi(move)
                r = self._ask(left(), "play", GTP_COLOURS[c], cells)
                if not r.ok:
                    raise Violation("refused", f"{self.name} refused the move of player "
                                    f"{c + 1} {geo.code(move)} (play {GTP_COLOURS[c]} "
                                    f"{cells}): ? {r.text}")
        self._told = self._visible
        r = self._ask(left(), "genmove", GTP_COLOURS[colour])
        self.last_elapsed = time.perf_counter() - t0
        if not r.ok:
            raise Violation("refused", f"{self.name} answered genmove {GTP_COLOURS[colour]} "
                            f"with '? {r.text}'")
        text = r.text.strip()
        if text.lower() == "resign":
            raise Violation("resign", f"{self.name} resigned")
        try:
            move = geo.parse_pentobi(text)
        except ValueError as e:
            raise Violation("illegal", f"{self.name} answered genmove with {text!r}: "
                            f"{e}") from None
        return geo.code(move)

    def finish(self) -> None:
        pass

    def close(self) -> None:
        """Quit the engine (``quit``, then terminate or kill)."""
        self.engine.close()


Player = RemotePlayer | BuiltinPlayer | GtpPlayer
