"""The agent loop: moves bytes between a transport and the ICFPT codec, answers prompts."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import structlog

from clients.blokus.player import BlokusPlayer
from protocols.icfpt import (
    NEED_DATA,
    ConnectionClosed,
    FirstMovePrompt,
    GameOver,
    MoveCommand,
    PlayerConnection,
    RemoteProtocolError,
    RequestTeamCode,
    SecondMovePrompt,
    TeamCode,
    TurnPrompt,
)
from protocols.transport import Transport, TransportError

log = structlog.get_logger()


@dataclass
class GameSummary:
    """How one game ended as the player saw it."""

    ended: str  # game_over, closed, protocol_error, transport_error, stalled
    detail: str = ""  # what went wrong, for a person
    moves: int = 0
    colour: int | None = None
    scores: tuple[int, int] | None = None

    @property
    def fault(self) -> str | None:
        """How the host broke the game, or None after a normal end (``9``)."""
        if self.ended == "game_over":
            return None
        what = {"closed": "the host closed the connection before the end of the game",
                "protocol_error": "the host broke the protocol",
                "transport_error": "the connection failed",
                "stalled": "the host went silent"}[self.ended]
        return f"{what} after {self.moves} moves of ours" + (
            f": {self.detail}" if self.detail else "")


def play_game(transport: Transport, player: BlokusPlayer, dialect: str, team_code: str,
              idle_timeout: float = 0.0) -> GameSummary:
    """Play one game on an open transport until ``9`` (or the host closes, breaks the
    protocol or is silent for ``idle_timeout`` seconds: the transport's timeout, given here
    for the message). Never raises for what the host does: the summary says how it ended."""
    conn = PlayerConnection(dialect)
    player.new_game()
    d0 = player.decisions
    ended = "running"
    detail = ""
    try:
        while ended == "running":
            data = transport.recv(4096)
            t_recv = time.perf_counter()
            log.debug("recv", data=data.decode("latin-1"))
            conn.receive_data(data)
            while True:
                ev: Any = conn.next_event()
                if ev is NEED_DATA:
                    break
                if isinstance(ev, RequestTeamCode):
                    out = conn.send(TeamCode(team_code))
                    transport.send(out)
                    log.info("team_code", sent=out.decode("ascii"))
                elif isinstance(ev, (FirstMovePrompt, SecondMovePrompt, TurnPrompt)):
                    code = player.on_prompt(ev, t_recv)
                    transport.send(conn.send(MoveCommand(code)))
                    player.ponder()  # on the opponent's time, until the next prompt
                elif isinstance(ev, GameOver):
                    ended = "game_over"
                    break
                elif isinstance(ev, ConnectionClosed):
                    ended = "closed"
                    break
    except RemoteProtocolError as e:
        log.error("host_protocol_error", error=str(e), raw=e.raw.decode("latin-1"))
        ended, detail = "protocol_error", f"{e} (bytes {e.raw!r})"
    except TimeoutError:
        detail = f"nothing for {idle_timeout:g} s (--idle-timeout)"
        log.error("host_stalled", error=detail)
        ended = "stalled"
    except TransportError as e:
        log.error("transport_error", error=str(e))
        ended, detail = "transport_error", str(e)
    player.stop_pondering()
    st = player.state
    scores = st.scores() if st is not None else None
    log.info("game_end", ended=ended, decisions=player.decisions - d0, colour=player.colour,
             scores=scores)
    return GameSummary(ended, detail, player.decisions - d0, player.colour, scores)
