"""The mock host on real sockets (127.0.0.1, ephemeral ports) against scripted players that
speak raw bytes, violations, and the SGF record read back."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from games.blokus_duo import PASS, BlokusState
from protocols.icfpt import (
    NEED_DATA,
    ConnectionClosed,
    FirstMovePrompt,
    GameOver,
    MoveCommand,
    PlayerConnection,
    RequestTeamCode,
    SecondMovePrompt,
    TeamCode,
    TurnPrompt,
)
from protocols.transport import TcpTransport
from servers.blokus.host import BuiltinPlayer, HostConfig, play_game, schedule, summary
from servers.blokus.opponents import biggest, first_legal
from servers.blokus.sgf import GameRecord, cells_value, read_moves, write_sgf
from tests.blokus_host.helpers import HostThread
from tests.paths import DATA

pytestmark = pytest.mark.integration
GOLDEN = Path(__file__).resolve().parent / "data"


def recv_all(t: TcpTransport) -> bytes:
    out = b""
    while True:
        d = t.recv()
        if not d:
            return out
        out += d


def scripted(port: int, answers: list[bytes], hang_up: bool = False) -> bytes:
    """Connect, answer each prompt with the next raw answer, return every byte received
    (until the host closes, or at once after the last answer with ``hang_up``)."""
    t = TcpTransport("127.0.0.1", port)
    got = b""
    conn = PlayerConnection()
    try:
        for a in answers:
            while True:
                ev = conn.next_event()
                if ev is NEED_DATA:
                    d = t.recv()
                    got += d
                    conn.receive_data(d)
                    continue
                break
            if isinstance(ev, (GameOver, ConnectionClosed)):
                break
            t.send(a)
        if not hang_up:
            got += recv_all(t)
    finally:
        t.close()
    return got


@pytest.mark.parametrize("answer,kind", [
    (b"56u 0", "malformed"),
    (b"11a0", "illegal"),
    (b"0000", "first-pass"),
    (b"56U0", "malformed"),
])
def test_violation_on_first_move_loses(answer: bytes, kind: str) -> None:
    h = HostThread(seat="1", first="1")
    got = scripted(h.port, [b"107", answer])
    (r,) = h.join()
    assert got == b"0" + b"25" + b"9"
    assert r.outcome == "loss" and r.record.reason == kind and r.record.violator == 0
    assert summary([r])["violations"] == 1


def test_timeout_loses() -> None:
    h = HostThread(seat="2", first="1", timeout=0.2)
    got = scripted(h.port, [b"107"])  # then silence until the host gives up
    (r,) = h.join()
    assert got.startswith(b"0" + b"3A") and got.endswith(b"9")
    assert r.record.reason == "timeout" and r.outcome == "loss"
    assert summary([r])["timeouts"] == 1


def test_crlf_skipped_and_disconnect_loses() -> None:
    # player 2 moving first: "2A", an answer split by CR/LF, then the player hangs up
    h = HostThread(seat="2", first="2", opponent="first-legal")
    got = scripted(h.port, [b"1\r\n07", b"a\nau0\r\n"], hang_up=True)
    (r,) = h.join()
    assert got.startswith(b"0" + b"2A")
    assert r.record.moves[0] == (1, BlokusState().geo.parse_code("aau0"))
    assert r.record.reason == "disconnect" and r.outcome == "loss"
    assert r.record.names[1] == "team 07"


def _first_legal_player(port: int, dialect: str, raw: bytearray | None = None
                        ) -> list[object]:
    """A complete scripted player: first legal placement in scan order. ``raw`` collects the
    bytes received."""
    t = TcpTransport("127.0.0.1", port)
    conn = PlayerConnection(dialect)
    seen: list[object] = []
    state: BlokusState | None = None
    mine = None
    try:
        while True:
            d = t.recv()
            if raw is not None:
                raw += d
            conn.receive_data(d)
            while (ev := conn.next_event()) is not NEED_DATA:
                seen.append(ev)
                if isinstance(ev, RequestTeamCode):
                    t.send(conn.send(TeamCode("42")))
                    continue
                if isinstance(ev, (GameOver, ConnectionClosed)):
                    return seen
                if isinstance(ev, FirstMovePrompt):
                    state = BlokusState(first=ev.player - 1)
                elif isinstance(ev, SecondMovePrompt):
                    state = BlokusState(first=2 - ev.player)
                    state.play_code(ev.opponent_move)
                else:
                    assert isinstance(ev, TurnPrompt) and state is not None
                    if len(ev.opponent_moves) == 2:  # 2013: replay opp, us, opp
                        assert mine is not None
                        me = state.history[0][0]
                        state = BlokusState(first=1 - me)
                        state.play_code(ev.opponent_moves[0])
                        state.play(mine)
                        state.play_code(ev.opponent_moves[1])
                    else:
                        state.play_code(ev.opponent_moves[0])
                assert state is not None
                moves = state.legal_placements()
                m = moves[0] if moves else PASS
                if mine is None:
                    mine = m
                state.play(m)
                t.send(conn.send(MoveCommand(state.code(m))))
    finally:
        t.close()


@pytest.mark.parametrize("dialect", ["2014", "2013"])
def test_two_scripted_players_whole_game(dialect: str) -> None:
    h = HostThread(seat="1", first="2", dialect=dialect, port2=0)
    port2 = h.host.ports[1]
    out: dict[int, list[object]] = {}
    raw = {1: bytearray(), 2: bytearray()}
    errors: list[BaseException] = []

    def second() -> None:
        try:
            out[2] = _first_legal_player(port2, dialect, raw[2])
        except BaseException as e:  # raised again below, in the test's thread
            errors.append(e)

    th = threading.Thread(target=second)
    th.start()
    out[1] = _first_legal_player(h.port, dialect, raw[1])
    th.join(30)
    assert not th.is_alive(), "player 2 did not finish"
    if errors:
        raise errors[0]
    (r,) = h.join()
    # golden transcript: the exact bytes each player received (first-legal vs first-legal
    # is deterministic); a change of the host's behaviour shows as a diff of this file
    golden = GOLDEN / f"first-legal-pair-{dialect}.txt"
    text = f"player 1 received: {raw[1].decode()}\nplayer 2 received: {raw[2].decode()}\n"
    if not golden.exists():
        golden.write_text(text)
        pytest.fail(f"golden transcript {golden.name} written: review and commit it")
    assert text == golden.read_text()
    rec = r.record
    assert rec.reason == "end" and rec.violator is None
    # replay the record: the same end
    s = BlokusState(first=1)
    for c, m in rec.moves:
        assert s.to_move_colour == c
        s.play(m)
    assert s.is_terminal() and s.scores() == rec.scores
    # one answer time per move, within the limit; the summary's figures are the seat's
    assert len(rec.times) == len(rec.moves) and all(0 <= t <= 1.0 for t in rec.times)
    fig = summary([r])
    mine = sorted(t for (c, _), t in zip(rec.moves, rec.times, strict=True) if c == 0)
    assert fig["answer_max"] == round(mine[-1], 4)
    assert fig["answer_p99"] <= fig["answer_max"] and fig["answer_mean"] <= fig["answer_max"]
    first_prompts = [e for e in out[1] if not isinstance(e, RequestTeamCode)][:2]
    if dialect == "2014":
        assert isinstance(first_prompts[0], SecondMovePrompt)
        assert isinstance(out[2][1], FirstMovePrompt) and out[2][1].player == 2
    else:
        assert first_prompts[0] == FirstMovePrompt(1)
        assert isinstance(first_prompts[1], TurnPrompt)
        assert len(first_prompts[1].opponent_moves) == 2  # the second mover's 4mmmmnnnn
    assert isinstance(out[1][-1], GameOver) or isinstance(out[1][-1], ConnectionClosed)


def test_builtin_game_and_sgf_round_trip() -> None:
    rng = np.random.default_rng(1)
    from protocols.icfpt import Dialect

    players = (BuiltinPlayer("biggest", biggest, rng), BuiltinPlayer("first", first_legal, rng))
    rec = play_game(players, 1, Dialect.Y2014, 1.0)
    assert rec.reason == "end" and rec.scores is not None
    text = write_sgf(rec)
    assert "GM[Blokus Duo]" in text
    root, moves = read_moves(text)
    assert root["PB"] == "biggest" and root["FF"] == "4"
    placed = [(c, m) for c, m in rec.moves if m != PASS]
    assert moves == placed
    # Pentobi's order inside a move value: row 1 (bottom) first, then by column
    first_value = text.split(";W[", 1)[1].split("]", 1)[0]
    rows = [int(c[1:]) for c in first_value.split(",")]
    assert rows == sorted(rows)
    d = rec.scores[0] - rec.scores[1]
    expect = "0" if d == 0 else ("B" if d > 0 else "W") + f"+{abs(d)}"
    assert root["RE"] == expect


def test_sgf_violation_result_and_spec_examples() -> None:
    g = BlokusState().geo
    rec = GameRecord(first=0, moves=[(0, g.parse_code("56u0"))], names=("a", "b"),
                     reason="timeout", violator=1, winner=0, scores=(-84, -89))
    text = write_sgf(rec)
    root, moves = read_moves(text)
    assert root["RE"] == "B+T"
    assert "B[e8,d9,e9,f9,e10]" in text  # the spec's example of 56u0
    assert moves == [(0, g.parse_code("56u0"))]


def test_schedule_covers_seats_and_orders() -> None:
    cfg = HostConfig(seat="alternate", first="alternate")
    assert [schedule(cfg, i) for i in range(4)] == [(1, 1), (2, 1), (1, 2), (2, 2)]


def test_no_connection_ends_the_match_with_no_games() -> None:
    h = HostThread(games=3, connect_timeout=0.2)
    assert h.join() == []


PENTOBI_GAMES = DATA / "blokus" / "random-games-legal-counts.jsonl"


def test_move_values_match_pentobi_output_and_read_back() -> None:
    """Pentobi's own move strings (its GTP engine, 30 random games): our SGF move values are
    the same strings, and a record made of them reads back and replays legally."""
    import json

    games = [json.loads(line) for line in PENTOBI_GAMES.read_text().splitlines() if line.strip()]
    g = BlokusState().geo
    checked = 0
    for game in games[:10]:
        nodes = []
        s = BlokusState(first=0)
        for text in game["moves"]:
            colour, cells = text.split(" ", 1)
            if cells == "pass":
                continue
            move = g.parse_pentobi(cells)
            assert cells_value(move) == cells  # the same order Pentobi writes
            nodes.append(f";{colour.upper()}[{cells}]")
        sgf = "(;FF[4]GM[Blokus Duo]" + "".join(nodes) + ")"
        _, moves = read_moves(sgf)
        for c, m in moves:
            if s.is_terminal():
                break  # Pentobi plays on after 21 pieces; the contest stops
            while s.to_move_colour != c:
                s.play(PASS)
            s.play(m)
            checked += 1
    assert checked > 200
