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

    ended: str  # game_over, closed, protocol_error, transport_error
    moves: int
    colour: int | None
    scores: tuple[int, int] | None


def play_game(transport: Transport, player: BlokusPlayer, dialect: str, team_code: str
              ) -> GameSummary:
    """Play one game on an open transport until ``9`` (or the host closes)."""
    conn = PlayerConnection(dialect)
    player.new_game()
    d0 = player.decisions
    ended = "running"
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
                elif isinstance(ev, GameOver):
                    ended = "game_over"
                    break
                elif isinstance(ev, ConnectionClosed):
                    ended = "closed"
                    break
    except RemoteProtocolError as e:
        log.error("host_protocol_error", error=str(e), raw=e.raw.decode("latin-1"))
        ended = "protocol_error"
    except TransportError as e:
        log.error("transport_error", error=str(e))
        ended = "transport_error"
    st = player.state
    scores = st.scores() if st is not None else None
    log.info("game_end", ended=ended, decisions=player.decisions - d0, colour=player.colour,
             scores=scores)
    return GameSummary(ended, player.decisions - d0, player.colour, scores)
