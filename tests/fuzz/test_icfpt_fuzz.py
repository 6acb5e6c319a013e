"""Fuzzing the ICFPT Blokus Duo codecs, the player loop and the mock host.

Stray bytes, uppercase, spaces, CR/LF anywhere, early close: each codec yields events or
raises :class:`RemoteProtocolError`; the player loop ends every game with a summary (never an
exception); the mock host scores a violation and goes on.
"""

from __future__ import annotations

import functools
import socket
import threading
from collections import deque

from hypothesis import strategies as st

from clients.blokus.agent import play_game as player_game
from clients.blokus.config import PlayerConfig
from clients.blokus.player import BlokusPlayer
from protocols.icfpt import (
    NEED_DATA,
    ConnectionClosed,
    FirstMovePrompt,
    GameOver,
    HostConnection,
    MoveCommand,
    PlayerConnection,
    RemoteProtocolError,
    RequestTeamCode,
    SecondMovePrompt,
    TeamCode,
    TurnPrompt,
    is_move_code,
)
from servers.blokus.host import Host, HostConfig
from tests.fuzz.conftest import Fuzz
from tests.fuzz.harness import chunks, end_like, run_against

# bytes a host or player could plausibly send, and the ones it should not
ALPHABET = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ \r\n\t\x00\xff"
wire = st.one_of(st.binary(max_size=60),
                 st.lists(st.sampled_from(list(ALPHABET)), max_size=80).map(bytes))
chunk_sizes = st.lists(st.integers(1, 12), min_size=1, max_size=10)
dialects = st.sampled_from(["2014", "2013"])
coord = st.sampled_from("123456789abcde")
move_code = st.one_of(
    st.just("0000"),
    st.tuples(coord, coord, st.sampled_from("abcdefghijklmnopqrstu"),
              st.sampled_from("01234567")).map("".join))


# -- the player's codec ---------------------------------------------------------------------
def _player_events(dialect: str, pieces: list[bytes], eof: bool) -> list[object]:
    conn = PlayerConnection(dialect)
    feed = deque(pieces)
    if eof:
        feed.append(b"")
    events: list[object] = []
    for _ in range(10 * sum(map(len, pieces)) + 2 * len(feed) + 10):
        ev = conn.next_event()
        if ev is NEED_DATA:
            if not feed:
                return events
            conn.receive_data(feed.popleft())
            continue
        events.append(ev)
        if isinstance(ev, (FirstMovePrompt, SecondMovePrompt, TurnPrompt)):
            conn.send(MoveCommand("0000"))
        if isinstance(ev, ConnectionClosed):
            return events
    raise AssertionError("the codec did not stop")


def test_player_codec_random_bytes(fuzz: Fuzz) -> None:
    @fuzz.check("icfpt player codec", dialects, wire, chunk_sizes, st.booleans())
    def prop(dialect: str, data: bytes, sizes: list[int], eof: bool) -> None:
        try:
            events = _player_events(dialect, chunks(data, sizes), eof)
        except RemoteProtocolError as e:
            assert isinstance(e.raw, bytes)
            return
        for ev in events:
            if isinstance(ev, TurnPrompt):
                assert all(is_move_code(m) for m in ev.opponent_moves)
            if isinstance(ev, SecondMovePrompt):
                assert is_move_code(ev.opponent_move)


def _game_stream(dialect: str, moves: list[str]) -> bytes:
    """A valid host stream (whatever the moves mean on the board) with CR/LF sprinkled."""
    host = HostConnection(dialect)
    out = host.send(RequestTeamCode())
    if dialect == "2014":
        out += host.send(SecondMovePrompt(2, moves[0]))
        for m in moves[1:]:
            out += host.send(TurnPrompt((m,)))
    else:
        out += host.send(FirstMovePrompt(1))
        for i in range(1, len(moves), 2):
            out += host.send(TurnPrompt(tuple(moves[i:i + 2])))
    return out + host.send(GameOver())


def test_player_codec_split_coalesced_and_crlf(fuzz: Fuzz) -> None:
    @fuzz.check("icfpt player codec", dialects, st.lists(move_code, min_size=1, max_size=8),
                chunk_sizes, st.lists(st.integers(0, 200), max_size=6))
    def prop(dialect: str, moves: list[str], sizes: list[int], crlf_at: list[int]) -> None:
        stream = _game_stream(dialect, moves)
        whole = _player_events(dialect, [stream], True)
        noisy = bytearray(stream)
        for i in sorted(crlf_at, reverse=True):
            noisy[i % (len(noisy) + 1):i % (len(noisy) + 1)] = b"\r\n"
        assert _player_events(dialect, chunks(bytes(noisy), sizes), True) == whole
        assert whole[-2:] == [GameOver(), ConnectionClosed()]


# -- the host's codec -----------------------------------------------------------------------
def test_host_codec_random_bytes(fuzz: Fuzz) -> None:
    @fuzz.check("icfpt host codec", dialects, st.lists(st.sampled_from(["team", "move"]),
                                                     min_size=1, max_size=6),
                wire, chunk_sizes, st.booleans())
    def prop(dialect: str, asks: list[str], data: bytes, sizes: list[int], eof: bool) -> None:
        host = HostConnection(dialect)
        feed = deque(chunks(data, sizes))
        if eof:
            feed.append(b"")
        for ask in asks:
            host.send(RequestTeamCode() if ask == "team" else FirstMovePrompt(1))
            for _ in range(len(data) + len(feed) + 10):
                try:
                    ev = host.next_event()
                except RemoteProtocolError:
                    break  # the host scores a violation: this connection is over
                if ev is NEED_DATA:
                    if not feed:
                        return
                    host.receive_data(feed.popleft())
                    continue
                if isinstance(ev, ConnectionClosed):
                    return
                if ask == "team":
                    assert isinstance(ev, TeamCode) and len(ev.code) == 2
                else:
                    assert isinstance(ev, MoveCommand) and is_move_code(ev.code)
                break
            else:
                raise AssertionError("the codec did not stop")


# -- the player loop against a host whose prompts contradict the rules ----------------------
class Scripted:
    """A transport replaying host bytes; what the player sends is checked and kept."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = deque(pieces)
        self.sent: list[bytes] = []

    def send(self, data: bytes) -> None:
        self.sent.append(data)

    def recv(self, max_bytes: int = 4096) -> bytes:
        return self.pieces.popleft() if self.pieces else b""

    def close(self) -> None:
        pass


_PLAYER: dict[str, BlokusPlayer] = {}


def _player() -> BlokusPlayer:
    if "p" not in _PLAYER:  # greedy: one ply of the evaluation, fast enough to fuzz
        _PLAYER["p"] = BlokusPlayer(PlayerConfig(core="greedy", seconds=0.2, margin=0.1,
                                                 warmup=False))
    return _PLAYER["p"]


def test_player_loop_on_prompts_that_contradict_the_rules(fuzz: Fuzz) -> None:
    @fuzz.check("icfpt player loop", dialects, st.lists(move_code, min_size=1, max_size=6),
                st.integers(0, 400), chunk_sizes, share=0.3)
    def prop(dialect: str, moves: list[str], cut: int, sizes: list[int]) -> None:
        stream = _game_stream(dialect, moves)[:cut]
        t = Scripted(chunks(stream, sizes))
        summary = player_game(t, _player(), dialect, "fz")
        assert summary.ended in ("game_over", "closed", "protocol_error")
        for out in t.sent[1:]:  # after the team code, every answer is a move code
            assert is_move_code(out.decode("ascii")), out


# -- the mock host on real sockets -----------------------------------------------------------
BEHAVIOURS = ["random", "team+random", "team+close", "team+reset", "silent", "half-open",
              "team+uppercase", "team+spaces"]


def _hostile(port: int, behaviour: str, blob: bytes, stop: threading.Event) -> None:
    try:
        _hostile_on(socket.create_connection(("127.0.0.1", port), timeout=10), behaviour,
                    blob, stop)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the host hung up on us first, as it may after a violation


def _hostile_on(conn: socket.socket, behaviour: str, blob: bytes, stop: threading.Event
                ) -> None:
    with conn as s:
        if behaviour == "random":
            s.sendall(blob)
        elif behaviour.startswith("team"):
            s.recv(1)
            s.sendall(b"1fz")
            if behaviour == "team+random":
                s.sendall(blob)
            elif behaviour == "team+uppercase":
                s.sendall(b"56U0")
            elif behaviour == "team+spaces":
                s.sendall(b"56 u0")
        elif behaviour == "half-open":
            s.shutdown(socket.SHUT_WR)
        end_like(s, behaviour, stop)


def test_mock_host_survives_hostile_players(fuzz: Fuzz) -> None:
    @fuzz.check("icfpt mock host (sockets)", st.lists(st.sampled_from(BEHAVIOURS),
                                                     min_size=2, max_size=2),
                dialects, st.binary(min_size=1, max_size=40), slow=True)
    def prop(behaviours: list[str], dialect: str, blob: bytes) -> None:
        host = Host(HostConfig(port=0, port2=0, games=1, timeout=0.3, connect_timeout=1.0,
                               dialect=dialect))  # type: ignore[arg-type]
        (r,) = run_against(host.run, [functools.partial(_hostile, port, b, blob)
                                      for port, b in zip(host.ports, behaviours, strict=True)],
                           host.close)
        assert r.record.violator is not None  # somebody broke the protocol and lost
