"""The 20070 codec: golden transcript of the real server, framing, errors, both ends."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from protocols.uecda import (
    NEED_DATA,
    PAUSED,
    Ack,
    ClientConnection,
    ClientTable,
    ConnectionClosed,
    ExchangeRequest,
    ExchangeTable,
    GameEnd,
    GameGoesOn,
    GameStart,
    HandTable,
    LocalProtocolError,
    MatchEnd,
    MoveTable,
    PlayerNumber,
    Profile,
    RemoteProtocolError,
    ServerConnection,
    StageTable,
    YourTurn,
)
from protocols.uecda.cards import (
    hand_from_cells,
    hand_to_cells,
    move_from_cells,
    move_to_cells,
)
from protocols.uecda.table import EMPTY_CELLS, make_cells, pack_int, pack_table
from tests.uecda.golden import load_wire


def drain(conn: ClientConnection) -> list[object]:
    out: list[object] = []
    while True:
        ev = conn.next_event()
        if ev is NEED_DATA or ev is PAUSED:
            return out
        out.append(ev)


def replay_transcript(chunker) -> tuple[list[object], int]:  # type: ignore[no-untyped-def]
    """Run the client codec through the recording: S->C bytes fed by ``chunker``, each
    recorded C->S table re-encoded from its decoded content and compared byte for byte.
    Returns the events and the number of client tables checked."""
    msgs = load_wire()
    conn = ClientConnection()
    decoder = ServerConnection()
    events: list[object] = []
    checked = 0
    pending = bytearray()

    def flush() -> None:
        for chunk in chunker(bytes(pending)):
            conn.receive_data(chunk)
            events.extend(drain(conn))
        pending.clear()

    for direction, kind, data in msgs:
        if direction == "S->C":
            pending += data
            continue
        flush()
        assert kind == "table"
        decoder.receive_data(data)
        got = decoder.next_event()
        if isinstance(got, Profile):
            cmd: object = Profile(got.name, got.version)
        elif isinstance(events[-1], ExchangeRequest):  # decided cards -> table
            assert isinstance(got, ClientTable)
            cmd = ExchangeTable(hand_to_cells(hand_from_cells(got.cards)))
        else:  # decided move (engine int) -> table
            assert isinstance(events[-1], YourTurn)
            assert isinstance(got, ClientTable)
            cmd = MoveTable(move_to_cells(move_from_cells(got.cards)))
        assert conn.send(cmd) == data  # type: ignore[arg-type]
        checked += 1
    flush()
    conn.receive_data(b"")
    events.extend(drain(conn))
    return events, checked


def _byte_by_byte(data: bytes):  # type: ignore[no-untyped-def]
    return (data[i : i + 1] for i in range(len(data)))


def _coalesced(data: bytes):  # type: ignore[no-untyped-def]
    return [data] if data else []


def _random_chunks(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)

    def chunks(data: bytes):  # type: ignore[no-untyped-def]
        i = 0
        while i < len(data):
            n = rng.choice([1, 2, 3, 7, 479, 481, 484, 964, 968, rng.randint(1, 2000)])
            yield data[i : i + n]
            i += n

    return chunks


@pytest.mark.regression
@pytest.mark.parametrize(
    "chunker", [_byte_by_byte, _coalesced, _random_chunks(1), _random_chunks(2)],
    ids=["byte", "coalesced", "random1", "random2"],
)
def test_golden_transcript_decodes_completely(chunker) -> None:  # type: ignore[no-untyped-def]
    events, checked = replay_transcript(chunker)
    counts = Counter(type(e).__name__ for e in events)
    msgs = load_wire()
    s2c = sum(1 for d, _, _ in msgs if d == "S->C")
    derived = counts["YourTurn"] + counts["ExchangeRequest"] + counts["ConnectionClosed"]
    assert len(events) - derived == s2c  # every server message became exactly one event
    assert checked == sum(1 for d, _, _ in msgs if d == "C->S") == 82
    assert counts["GameStart"] == 5 and counts["GameEnd"] == 4 and counts["MatchEnd"] == 1
    assert counts["YourTurn"] == counts["Ack"] == 80
    assert counts["ExchangeRequest"] == 1
    assert events[0] == PlayerNumber(0)
    assert events[-2] == MatchEnd() and events[-1] == ConnectionClosed(expected=True)
    first = events[1]
    assert isinstance(first, GameStart)
    assert first.seats == (2, 4, 3, 0, 1) and first.ranks == (0,) * 5
    assert first.card_counts == (11, 10, 10, 11, 11) and first.exchange_count == 0


@pytest.mark.regression
def test_golden_server_messages_reencode() -> None:
    """Every server message decoded by the client re-encodes to the same bytes."""
    msgs = load_wire()
    conn = ClientConnection()
    enc = ServerConnection()
    for direction, _, data in msgs:
        if direction == "C->S":
            if conn.state.name == "SEND_PROFILE":
                conn.send(Profile("traced"))
            elif conn.state.name == "SEND_EXCHANGE":
                d = ServerConnection()
                d.receive_data(pack_table([(20070,), b"x"]))
                d.next_event()
                d.receive_data(data)
                t = d.next_event()
                assert isinstance(t, ClientTable)
                conn.send(ExchangeTable(t.cards))
            else:
                conn.send(MoveTable())
            continue
        conn.receive_data(data)
        evs = [e for e in drain(conn) if not isinstance(e, (YourTurn, ExchangeRequest))]
        assert len(evs) == 1
        assert enc.send(evs[0]) == data  # type: ignore[arg-type]


def test_acks_follow_the_recorded_rule() -> None:
    """In the recording a pass on a full table is acked 8, plays are acked 9."""
    events, _ = replay_transcript(_coalesced)
    sent_pass_on_table = []
    for i, e in enumerate(events):
        if isinstance(e, YourTurn):
            ack = next(x for x in events[i:] if isinstance(x, Ack))
            stage = next(x for x in events[i:] if isinstance(x, StageTable))
            sent_pass_on_table.append((e.lead, ack.value, stage.actor))
    assert {a for _, a, _ in sent_pass_on_table} <= {8, 9}
    assert all(actor == 0 for _, _, actor in sent_pass_on_table)


# -- framing and errors ---------------------------------------------------------------
HAND0 = GameStart(
    hand=make_cells([(0, 1, 1), (1, 2, 1), (4, 1, 2)]), exchange_count=0,
    card_counts=(11, 11, 11, 10, 10), ranks=(0,) * 5, seats=(3, 1, 0, 2, 4),
)


def _hand(turn: int, me: int = 0, lead: bool = True) -> HandTable:
    return HandTable(hand=HAND0.hand, turn=turn, my_turn=turn == me, lead=lead,
                     revolution=False, lock=False, card_counts=HAND0.card_counts,
                     ranks=HAND0.ranks, seats=HAND0.seats)


def _stage(actor: int) -> StageTable:
    return StageTable(cards=make_cells([(2, 5, 1)]), actor=actor, lead=False,
                      revolution=False, lock=False, card_counts=HAND0.card_counts,
                      ranks=HAND0.ranks, seats=HAND0.seats)


def test_client_and_server_in_memory() -> None:
    server = ServerConnection()
    client = ClientConnection()
    server.receive_data(client.send(Profile("corvid")))
    assert server.next_event() == Profile("corvid", 20070)
    script = [PlayerNumber(0), HAND0, _hand(0)]
    for ev in script:
        client.receive_data(server.send(ev))
    assert drain(client) == [PlayerNumber(0), HAND0, _hand(0), YourTurn(lead=True)]
    move = MoveTable(make_cells([(4, 1, 0), (0, 1, 1)]))
    server.receive_data(client.send(move))
    got = server.next_event()
    assert got == ClientTable(move.cards)
    for ev in [Ack(9), _stage(0), GameGoesOn(), _hand(3), _stage(3), GameEnd()]:
        client.receive_data(server.send(ev))
    assert drain(client) == [Ack(9), _stage(0), GameGoesOn(), _hand(3), _stage(3), GameEnd()]
    ex = GameStart(HAND0.hand, 2, HAND0.card_counts, (0, 1, 2, 3, 4), HAND0.seats)
    client.receive_data(server.send(ex) + server.send(_hand(1)))
    assert drain(client) == [ex, ExchangeRequest(2)]
    with pytest.raises(LocalProtocolError):
        client.send(ExchangeTable(make_cells([(0, 1, 1)])))  # one card, two asked
    server.receive_data(client.send(ExchangeTable(make_cells([(0, 1, 1), (1, 2, 1)]))))
    assert isinstance(server.next_event(), ClientTable)
    assert drain(client) == [_hand(1)]
    client.receive_data(server.send(_stage(1)) + server.send(MatchEnd()))
    assert drain(client) == [_stage(1), MatchEnd()]
    client.receive_data(b"")
    assert drain(client) == [ConnectionClosed(expected=True)]


def test_client_refuses_to_send_out_of_turn() -> None:
    c = ClientConnection()
    with pytest.raises(LocalProtocolError):
        c.send(MoveTable())
    c.send(Profile("a"))
    with pytest.raises(LocalProtocolError):
        c.send(Profile("a"))
    c.receive_data(pack_int(1) + ServerConnection().send(HAND0)
                   + ServerConnection().send(_hand(2, me=1)))
    drain(c)
    with pytest.raises(LocalProtocolError):
        c.send(MoveTable())  # not our turn
    with pytest.raises(LocalProtocolError):
        c.send(Profile("caf\u00e9"))


@pytest.mark.parametrize(
    "data, message",
    [
        (pack_int(7), "player number"),
        (pack_int(0) + pack_table([]), "HAND0"),
        (pack_int(0) + ServerConnection().send(HAND0) + ServerConnection().send(HAND0),
         "hand table"),
        (pack_int(0) + ServerConnection().send(HAND0) + ServerConnection().send(_hand(2))
         + ServerConnection().send(_stage(2)) + pack_int(3), "end flag"),
        (pack_int(0) + pack_table([(9,)]), "HAND0"),
    ],
)
def test_remote_errors(data: bytes, message: str) -> None:
    c = ClientConnection()
    c.send(Profile("a"))
    c.receive_data(data)
    with pytest.raises(RemoteProtocolError, match=message):
        drain(c)


def test_wrong_ack_and_cell_values_are_remote_errors() -> None:
    c = ClientConnection()
    c.send(Profile("a"))
    c.receive_data(pack_int(0) + ServerConnection().send(HAND0)
                   + ServerConnection().send(_hand(0)))
    drain(c)
    c.send(MoveTable())
    c.receive_data(pack_int(5))
    with pytest.raises(RemoteProtocolError, match="ack"):
        drain(c)
    c2 = ClientConnection()
    c2.send(Profile("a"))
    bad = [[0] * 15 for _ in range(8)]
    bad[0][3] = 7
    bad[5][0] = 1
    c2.receive_data(pack_int(0) + pack_table(bad))
    with pytest.raises(RemoteProtocolError, match="0, 1 or 2"):
        drain(c2)


def test_close_mid_message_and_at_boundary() -> None:
    c = ClientConnection()
    c.send(Profile("a"))
    c.receive_data(pack_int(0) + ServerConnection().send(HAND0)[:100])
    assert drain(c) == [PlayerNumber(0)]
    c.receive_data(b"")
    with pytest.raises(RemoteProtocolError, match="middle"):
        drain(c)
    c2 = ClientConnection()
    c2.send(Profile("a"))
    c2.receive_data(pack_int(0))
    c2.receive_data(b"")
    assert drain(c2) == [PlayerNumber(0), ConnectionClosed(expected=False)]


def test_server_side_profile_checks() -> None:
    s = ServerConnection()
    s.receive_data(pack_table([(20060,), b"old"]))
    with pytest.raises(RemoteProtocolError, match="20060"):
        s.next_event()
    s2 = ServerConnection()
    s2.receive_data(pack_table([(20070,), b"abc"]) + pack_table([(3,)]))
    assert s2.next_event() == Profile("abc")
    with pytest.raises(RemoteProtocolError):
        s2.next_event()  # a 3 in a card cell
    s3 = ServerConnection()
    s3.receive_data(b"\x00" * 479)
    assert s3.next_event() is NEED_DATA
    s3.receive_data(b"")
    with pytest.raises(RemoteProtocolError, match="middle"):
        s3.next_event()


def test_profile_bytes() -> None:
    data = ClientConnection().send(Profile("traced"))
    assert data[:4] == (20070).to_bytes(4, "big")
    assert data[60:64] == (ord("t")).to_bytes(4, "big")
    assert data[60 + 4 * 6 : 60 + 4 * 7] == b"\0\0\0\0"
    assert len(data) == 480 and EMPTY_CELLS[0][0] == 0


def test_cards_mapping() -> None:
    from games.daihinmin.cards import PASS, SINGLE_JOKER

    assert move_to_cells(PASS) == EMPTY_CELLS
    assert move_from_cells(make_cells([(2, 7, 2)])) == SINGLE_JOKER
    assert move_to_cells(SINGLE_JOKER, (3, 14)) == make_cells([(3, 14, 2)])
    group = make_cells([(0, 6, 2), (2, 6, 1)])  # joker as the spade 8 with the diamond 8
    assert move_to_cells(move_from_cells(group)) == group
    with pytest.raises(ValueError):
        move_from_cells(make_cells([(0, 1, 1), (1, 2, 1)]))
    hand = make_cells([(0, 1, 1), (3, 13, 1), (4, 1, 2)])
    assert hand_to_cells(hand_from_cells(hand)) == hand
