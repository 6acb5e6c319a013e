"""The ICFPT codecs: exact bytes, byte-at-a-time reading, and host/player pairs in memory."""

from __future__ import annotations

import pytest

from protocols.icfpt import (
    NEED_DATA,
    ConnectionClosed,
    Dialect,
    FirstMovePrompt,
    GameOver,
    HostConnection,
    LocalProtocolError,
    MoveCommand,
    PlayerConnection,
    RemoteProtocolError,
    RequestTeamCode,
    SecondMovePrompt,
    TeamCode,
    TurnPrompt,
    is_move_code,
)


def drain(conn) -> list:  # type: ignore[no-untyped-def]
    out = []
    while True:
        ev = conn.next_event()
        if ev is NEED_DATA:
            return out
        out.append(ev)
        if isinstance(ev, ConnectionClosed):
            return out


def feed_bytewise(conn, data: bytes) -> list:  # type: ignore[no-untyped-def]
    out = []
    for i in range(len(data)):
        conn.receive_data(data[i:i + 1])
        out.extend(drain(conn))
    return out


# --- player side ------------------------------------------------------------------------
PLAYER_2014 = [
    (b"0", RequestTeamCode()),
    (b"25", FirstMovePrompt(1)),
    (b"2A", FirstMovePrompt(2)),
    (b"35abp2", SecondMovePrompt(1, "abp2")),
    (b"3A56u0", SecondMovePrompt(2, "56u0")),
    (b"456u0", TurnPrompt(("56u0",))),
    (b"40000", TurnPrompt(("0000",))),
    (b"9", GameOver()),
]


@pytest.mark.parametrize("data,event", PLAYER_2014)
def test_player_2014_prompts_bytewise(data: bytes, event: object) -> None:
    conn = PlayerConnection()
    assert feed_bytewise(conn, data) == [event]


PLAYER_2013 = [
    (b"25", FirstMovePrompt(1)),
    (b"2A", FirstMovePrompt(2)),
    (b"356u0", TurnPrompt(("56u0",))),
    (b"456u0abp2", TurnPrompt(("56u0", "abp2"))),
    (b"40000abp2", TurnPrompt(("0000", "abp2"))),
]


@pytest.mark.parametrize("data,event", PLAYER_2013)
def test_player_2013_prompts_bytewise(data: bytes, event: object) -> None:
    conn = PlayerConnection(Dialect.Y2013)
    assert feed_bytewise(conn, data) == [event]


def test_player_whole_game_coalesced_and_split() -> None:
    stream = b"0" + b"35abp2" + b"456u0" + b"40000" + b"9"
    expect = [RequestTeamCode(), SecondMovePrompt(1, "abp2"), TurnPrompt(("56u0",)),
              TurnPrompt(("0000",)), GameOver()]
    conn = PlayerConnection()
    conn.receive_data(stream)
    assert drain(conn) == expect
    conn2 = PlayerConnection()
    assert feed_bytewise(conn2, stream) == expect
    assert conn2.player == 1


def test_player_ten_nines_and_close() -> None:
    conn = PlayerConnection("2013")
    conn.receive_data(b"9" * 10)
    assert drain(conn) == [GameOver()]
    conn.receive_data(b"")
    assert drain(conn) == [ConnectionClosed()]


def test_player_skips_crlf() -> None:
    conn = PlayerConnection()
    assert feed_bytewise(conn, b"\r\n4\r56\nu0\r\n") == [TurnPrompt(("56u0",))]


@pytest.mark.parametrize("data", [b"x", b"2B", b"456U0", b"4zzzz", b"35abv2"])
def test_player_rejects_garbage(data: bytes) -> None:
    conn = PlayerConnection()
    conn.receive_data(data)
    with pytest.raises(RemoteProtocolError):
        drain(conn)


def test_player_eof_mid_prompt() -> None:
    conn = PlayerConnection()
    conn.receive_data(b"45")
    assert drain(conn) == []
    conn.receive_data(b"")
    with pytest.raises(RemoteProtocolError):
        drain(conn)


def test_player_send() -> None:
    conn = PlayerConnection()
    assert conn.send(TeamCode("07")) == b"107"
    with pytest.raises(LocalProtocolError):
        conn.send(MoveCommand("56u0"))  # not our turn
    conn.receive_data(b"25")
    drain(conn)
    with pytest.raises(LocalProtocolError):
        conn.send(MoveCommand("56U0"))
    assert conn.send(MoveCommand("56u0")) == b"56u0"
    with pytest.raises(LocalProtocolError):
        conn.send(MoveCommand("0000"))  # answered already
    with pytest.raises(LocalProtocolError):
        conn.send(TeamCode("7"))


# --- host side --------------------------------------------------------------------------
def test_host_prompt_bytes_2014() -> None:
    h = HostConnection()
    assert h.send(RequestTeamCode()) == b"0"
    assert h.send(FirstMovePrompt(1)) == b"25"
    assert h.send(FirstMovePrompt(2)) == b"2A"
    assert h.send(SecondMovePrompt(2, "56u0")) == b"3A56u0"
    assert h.send(TurnPrompt(("0000",))) == b"40000"
    with pytest.raises(LocalProtocolError):
        h.send(TurnPrompt(("56u0", "abp2")))
    assert h.send(GameOver()) == b"9"
    with pytest.raises(LocalProtocolError):
        h.send(GameOver())


def test_host_prompt_bytes_2013() -> None:
    h = HostConnection("2013")
    assert h.send(FirstMovePrompt(2)) == b"2A"
    assert h.send(TurnPrompt(("56u0",))) == b"356u0"
    assert h.send(TurnPrompt(("56u0", "abp2"))) == b"456u0abp2"
    with pytest.raises(LocalProtocolError):
        h.send(SecondMovePrompt(1, "56u0"))
    assert h.send(GameOver()) == b"9" * 10


def test_host_reads_team_code_and_move_bytewise_skipping_crlf() -> None:
    h = HostConnection()
    h.send(RequestTeamCode())
    assert feed_bytewise(h, b"\r\n1\r0\n7") == [TeamCode("07", "107")]
    h.send(FirstMovePrompt(1))
    assert feed_bytewise(h, b"5\r\n6u0\r\n") == [MoveCommand("56u0")]
    h.send(TurnPrompt(("abp2",)))
    assert feed_bytewise(h, b"0000") == [MoveCommand("0000")]


@pytest.mark.parametrize("data", [b"56u 0", b" 56u0", b"56U0", b"5 6u", b"ffa0", b"56v0",
                                  b"5608", b"000a"])
def test_host_stray_byte_breaks_the_code(data: bytes) -> None:
    h = HostConnection()
    h.send(FirstMovePrompt(1))
    with pytest.raises(RemoteProtocolError) as info:
        feed_bytewise(h, data)
    assert len(info.value.raw) == 4


def test_host_reads_exactly_four_bytes() -> None:
    h = HostConnection()
    h.send(FirstMovePrompt(1))
    h.receive_data(b"56u0abp2")  # an early extra code stays buffered until the next read
    assert drain(h) == [MoveCommand("56u0")]
    assert drain(h) == []
    h.send(TurnPrompt(("0000",)))
    assert drain(h) == [MoveCommand("abp2")]


def test_host_team_code_malformed() -> None:
    h = HostConnection()
    h.send(RequestTeamCode())
    h.receive_data(b"1 7")
    with pytest.raises(RemoteProtocolError):
        drain(h)


def test_host_eof() -> None:
    h = HostConnection()
    h.send(FirstMovePrompt(1))
    h.receive_data(b"56")
    assert drain(h) == []
    h.receive_data(b"")
    with pytest.raises(RemoteProtocolError):
        drain(h)
    h2 = HostConnection()
    h2.send(FirstMovePrompt(1))
    h2.receive_data(b"")
    assert drain(h2) == [ConnectionClosed()]


def test_move_code_syntax() -> None:
    assert is_move_code("56u0") and is_move_code("eeu7") and is_move_code("0000")
    for bad in ("56u8", "f6u0", "06u0", "56U0", "56u", "56u00", "0001"):
        assert not is_move_code(bad)


# --- pairs in memory ----------------------------------------------------------------------
def _pair_game(dialect: str, moves_first: list[str], moves_second: list[str]) -> list:  # type: ignore[no-untyped-def]
    """A host talking to two players in memory; returns what each player saw."""
    host = [HostConnection(dialect), HostConnection(dialect)]
    play = [PlayerConnection(dialect), PlayerConnection(dialect)]
    seen: list[list[object]] = [[], []]

    def deliver(i: int, data: bytes) -> None:
        play[i].receive_data(data)
        seen[i].extend(drain(play[i]))

    def answer(i: int, code: str) -> str:
        data = play[i].send(MoveCommand(code))
        host[i].receive_data(data)
        ev = host[i].next_event()
        assert ev == MoveCommand(code)
        return code

    for i in (0, 1):
        deliver(i, host[i].send(RequestTeamCode()))
        host[i].receive_data(play[i].send(TeamCode(f"0{i}")))
        assert host[i].next_event() == TeamCode(f"0{i}", f"10{i}")
    if dialect == "2014":
        deliver(0, host[0].send(FirstMovePrompt(1)))
        last = answer(0, moves_first[0])
        deliver(1, host[1].send(SecondMovePrompt(2, last)))
        last = answer(1, moves_second[0])
        for a, b in zip(moves_first[1:], moves_second[1:], strict=True):
            deliver(0, host[0].send(TurnPrompt((last,))))
            last = answer(0, a)
            deliver(1, host[1].send(TurnPrompt((last,))))
            last = answer(1, b)
    else:
        deliver(0, host[0].send(FirstMovePrompt(1)))
        deliver(1, host[1].send(FirstMovePrompt(2)))
        f0 = answer(0, moves_first[0])
        f1 = answer(1, moves_second[0])
        deliver(0, host[0].send(TurnPrompt((f1,))))
        a = answer(0, moves_first[1])
        deliver(1, host[1].send(TurnPrompt((f0, a))))
        last = answer(1, moves_second[1])
        for a, b in zip(moves_first[2:], moves_second[2:], strict=True):
            deliver(0, host[0].send(TurnPrompt((last,))))
            last = answer(0, a)
            deliver(1, host[1].send(TurnPrompt((last,))))
            last = answer(1, b)
    for i in (0, 1):
        deliver(i, host[i].send(GameOver()))
        deliver(i, b"")
    return seen


def test_pair_2014() -> None:
    seen = _pair_game("2014", ["56u0", "0000", "78a0"], ["abp2", "9ab0", "0000"])
    assert seen[0] == [RequestTeamCode(), FirstMovePrompt(1), TurnPrompt(("abp2",)),
                       TurnPrompt(("9ab0",)), GameOver(), ConnectionClosed()]
    assert seen[1] == [RequestTeamCode(), SecondMovePrompt(2, "56u0"), TurnPrompt(("0000",)),
                       TurnPrompt(("78a0",)), GameOver(), ConnectionClosed()]


def test_pair_2013() -> None:
    seen = _pair_game("2013", ["56u0", "78a0", "0000"], ["abp2", "9ab0", "0000"])
    assert seen[0] == [RequestTeamCode(), FirstMovePrompt(1), TurnPrompt(("abp2",)),
                       TurnPrompt(("9ab0",)), GameOver(), ConnectionClosed()]
    assert seen[1] == [RequestTeamCode(), FirstMovePrompt(2), TurnPrompt(("56u0", "78a0")),
                       TurnPrompt(("0000",)), GameOver(), ConnectionClosed()]
