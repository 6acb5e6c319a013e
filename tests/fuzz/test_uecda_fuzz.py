"""Fuzzing the UECda codecs, the client loop and the mock server.

Every input either plays through or ends in a protocol error that says whose fault it is
(:class:`RemoteProtocolError` in the codecs, :class:`ServerFault` from the client loop, a
dropped seat in the server); nothing else may escape, and nothing may hang.
"""

from __future__ import annotations

import functools
import socket
import struct
import threading
from collections import deque

from hypothesis import strategies as st

from clients.faults import ServerFault
from clients.uecda.agent import UecdaPlayer, play_match
from clients.uecda.config import ClientConfig
from protocols.uecda import (
    NEED_DATA,
    PAUSED,
    ClientConnection,
    ClientTable,
    ConnectionClosed,
    Event,
    ExchangeRequest,
    ExchangeTable,
    MoveTable,
    Profile,
    RemoteProtocolError,
    ServerConnection,
    UecdaProtocolError,
    YourTurn,
)
from protocols.uecda.table import TABLE_BYTES, make_cells
from servers.uecda.config import ServerConfig
from servers.uecda.match import serve
from servers.uecda.net import Listener
from tests.fuzz.conftest import Fuzz
from tests.fuzz.harness import chunks, end_like, run_against
from tests.fuzz.uecda_memory import transcript

INTERESTING = [0, 1, 2, 3, 4, 5, 6, 8, 9, 13, 14, 15, 53, 54, 20070, -1, -2, 2**31 - 1,
               -(2**31)]
int32 = st.one_of(st.sampled_from(INTERESTING), st.integers(-(2**31), 2**31 - 1))
chunk_sizes = st.lists(st.integers(1, 700), min_size=1, max_size=40)
big_chunks = st.lists(st.integers(64, 5000), min_size=1, max_size=40)


def answer(conn: ClientConnection, ev: object) -> None:
    """What a client must send when the codec waits for it (any valid table will do)."""
    if isinstance(ev, ExchangeRequest):
        conn.send(ExchangeTable(make_cells([(0, 1 + c, 1) for c in range(ev.count)])))
    elif isinstance(ev, YourTurn):
        conn.send(MoveTable())


def drive(conn: ClientConnection, pieces: list[bytes], eof: bool = True) -> list[Event]:
    """Feed ``pieces`` and read every event; answers requests. Bounded: each call of
    next_event consumes bytes or changes state, so the loop ends."""
    events: list[Event] = []
    feed = deque(pieces)
    if eof:
        feed.append(b"")
    for _ in range(2 * len(feed) + 10 * sum(map(len, feed)) // 4 + 100):
        ev = conn.next_event()
        if ev is NEED_DATA:
            if not feed:
                return events
            conn.receive_data(feed.popleft())
            continue
        if ev is PAUSED:
            raise AssertionError("PAUSED without a pending request")
        assert isinstance(ev, Event)
        events.append(ev)
        answer(conn, ev)
        if isinstance(ev, ConnectionClosed):
            return events
    raise AssertionError("the codec did not stop")


# -- the client codec ---------------------------------------------------------------------
def test_client_codec_random_bytes(fuzz: Fuzz) -> None:
    @fuzz.check("uecda client codec", st.binary(max_size=3000), chunk_sizes)
    def prop(data: bytes, sizes: list[int]) -> None:
        conn = ClientConnection()
        conn.send(Profile("fuzz"))
        try:
            drive(conn, chunks(data, sizes))
        except RemoteProtocolError:
            pass


def _table(values: list[int]) -> bytes:
    return struct.pack(">120i", *values)


def test_client_codec_random_tables_in_every_state(fuzz: Fuzz) -> None:
    # a player number, then tables whose every cell is random (impossible values included),
    # with random ints between them; also truncated at a random place
    @fuzz.check("uecda client codec", st.integers(0, 4),
                st.lists(st.one_of(st.lists(st.one_of(st.sampled_from([0, 1, 2]), int32),
                                            min_size=120, max_size=120).map(_table),
                                   int32.map(lambda v: struct.pack(">i", v))),
                         max_size=12),
                st.integers(0, 6000), chunk_sizes)
    def prop(player: int, messages: list[bytes], cut: int, sizes: list[int]) -> None:
        data = (struct.pack(">i", player) + b"".join(messages))[:cut]
        conn = ClientConnection()
        conn.send(Profile("fuzz"))
        try:
            drive(conn, chunks(data, sizes))
        except RemoteProtocolError:
            pass


def test_client_codec_split_and_coalesced_frames(fuzz: Fuzz) -> None:
    wire = transcript(games=2)
    whole = ClientConnection()
    whole.send(Profile("fuzz"))
    expected = drive(whole, [wire])
    assert expected[-1] == ConnectionClosed(expected=True)

    @fuzz.check("uecda client codec", chunk_sizes, share=0.25)
    def prop(sizes: list[int]) -> None:
        conn = ClientConnection()
        conn.send(Profile("fuzz"))
        assert drive(conn, chunks(wire, sizes)) == expected


# -- the client loop (codec + tracker + decisions) on a broken server ------------------------
class Replay:
    """A transport that plays back server bytes and swallows what the client sends."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = deque(pieces)
        self.sent = 0

    def send(self, data: bytes) -> None:
        self.sent += 1

    def recv(self, max_bytes: int = 65536) -> bytes:
        return self.pieces.popleft() if self.pieces else b""

    def close(self) -> None:
        pass


def _play(data: bytes, sizes: list[int], core: str = "baseline") -> None:
    cfg = ClientConfig(core=core, seed=1, playouts=8) if core != "baseline" \
        else ClientConfig(core="baseline", seed=1)
    player = UecdaPlayer(cfg, "fuzz")
    try:
        play_match(player, Replay(chunks(data, sizes)))
    except ServerFault as e:
        assert str(e)  # a message a person can read
        assert isinstance(e.__cause__, (UecdaProtocolError, type(None)))


mutation = st.tuples(st.sampled_from(["set", "flip", "delete", "insert", "truncate"]),
                     st.integers(0, 10**6), int32, st.binary(min_size=1, max_size=8))


def _mutate(wire: bytes, muts: list[tuple[str, int, int, bytes]]) -> bytes:
    b = bytearray(wire)
    for kind, pos, value, blob in muts:
        if not b:
            break
        i = pos % len(b)
        if kind == "set":
            i -= i % 4
            b[i:i + 4] = struct.pack(">i", value)
        elif kind == "flip":
            b[i] ^= 1 << (value % 8)
        elif kind == "delete":
            del b[i:i + 1 + value % 8]
        elif kind == "insert":
            b[i:i] = blob
        else:
            del b[i:]
    return bytes(b)


def test_client_loop_on_a_mutated_match(fuzz: Fuzz) -> None:
    wire = transcript()

    @fuzz.check("uecda client loop (bytes)", st.lists(mutation, min_size=1, max_size=4),
                big_chunks)
    def prop(muts: list[tuple[str, int, int, bytes]], sizes: list[int]) -> None:
        _play(_mutate(wire, muts), sizes)


# where the meaning of a table lives (row, first column, last column, valid values)
_SEMANTIC = [(r, 0, 14, [0, 1, 2]) for r in range(5)] + [
    (5, 1, 1, [0, 1, 2]), (5, 2, 2, [0, 1]), (5, 3, 3, [0, 1, 2, 3, 4]),
    (5, 4, 7, [0, 1]), (6, 0, 4, list(range(0, 15))), (6, 5, 9, [0, 1, 2, 3, 4]),
    (6, 10, 14, [0, 1, 2, 3, 4]),
]
cell_change = st.tuples(st.integers(0, 10**6), st.integers(0, len(_SEMANTIC) - 1),
                        st.integers(0, 14), st.integers(0, 100))


def _table_starts(wire: bytes) -> list[int]:
    """Offsets of the tables in a transcript, read message by message with the codec."""
    conn = ClientConnection()
    conn.send(Profile("x"))
    starts: list[int] = []
    pos = 0
    while pos < len(wire) and (n := conn.expects()):
        if n == TABLE_BYTES:
            starts.append(pos)
        conn.receive_data(wire[pos:pos + n])
        pos += n
        while (ev := conn.next_event()) is not NEED_DATA and ev is not PAUSED:
            answer(conn, ev)
    return starts


def test_client_loop_on_tables_that_contradict_the_rules(fuzz: Fuzz) -> None:
    wire = transcript()
    starts = _table_starts(wire)
    assert len(starts) > 100

    def contradict(changes: list[tuple[int, int, int, int]]) -> bytes:
        b = bytearray(wire)
        for pos, which, col, value in changes:
            t = starts[pos % len(starts)]
            row, c0, c1, values = _SEMANTIC[which]
            c = c0 + col % (c1 - c0 + 1)
            off = t + 4 * (15 * row + c)
            b[off:off + 4] = struct.pack(">i", values[value % len(values)])
        return bytes(b)

    @fuzz.check("uecda client loop (tables)", st.lists(cell_change, min_size=1, max_size=6),
                st.sampled_from(["baseline", "flat", "uct"]), share=0.35)
    def prop(changes: list[tuple[int, int, int, int]], core: str) -> None:
        _play(contradict(changes), [65536], core)


# -- the server codec -----------------------------------------------------------------------
def test_server_codec_random_bytes(fuzz: Fuzz) -> None:
    @fuzz.check("uecda server codec", st.binary(max_size=2500), chunk_sizes, st.booleans())
    def prop(data: bytes, sizes: list[int], eof: bool) -> None:
        conn = ServerConnection()
        pieces = chunks(data, sizes) + ([b""] if eof else [])
        try:
            for _ in range(100_000):
                ev = conn.next_event()
                if ev is NEED_DATA:
                    if not pieces:
                        return
                    conn.receive_data(pieces.pop(0))
                    continue
                assert isinstance(ev, (Profile, ClientTable, ConnectionClosed))
                if isinstance(ev, ConnectionClosed):
                    return
            raise AssertionError("the codec did not stop")
        except RemoteProtocolError:
            pass


# -- the mock server on real sockets --------------------------------------------------------
BEHAVIOURS = ["random", "profile+random", "half-open", "reset", "silent", "profile+close",
              "profile+reset", "bad-version"]


def _hostile(port: int, behaviour: str, blob: bytes, stop: threading.Event) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        profile = ClientConnection().send(Profile("hostile"))
        if behaviour == "random":
            s.sendall(blob)
        elif behaviour.startswith("profile"):
            s.sendall(profile)
            if behaviour == "profile+random":
                s.recv(4)
                s.sendall(blob)
        elif behaviour == "bad-version":
            s.sendall(struct.pack(">i", 20060) + profile[4:])
        elif behaviour == "half-open":
            s.sendall(profile[:100])
            s.shutdown(socket.SHUT_WR)
        end_like(s, behaviour, stop)


def test_mock_server_survives_hostile_clients(fuzz: Fuzz) -> None:
    @fuzz.check("uecda mock server (sockets)",
                st.lists(st.sampled_from(BEHAVIOURS), min_size=5, max_size=5),
                st.binary(min_size=1, max_size=1500), slow=True)
    def prop(behaviours: list[str], blob: bytes) -> None:
        listener = Listener("127.0.0.1", 0)
        rec = run_against(
            lambda: serve(ServerConfig(games=2, seed=3, timeout=0.3, accept_timeout=5.0),
                          listener),
            [functools.partial(_hostile, listener.port, b, blob) for b in behaviours],
            listener.close)
        assert len(rec.points) == 2
        assert all(sorted(g) == [1, 2, 3, 4, 5] for g in rec.points)
        assert len({d.player for d in rec.drops}) == 5  # every hostile seat was replaced
