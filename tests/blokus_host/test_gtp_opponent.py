"""A GTP Blokus engine as a player of the mock host and the arena, against a fake engine in
Pentobi's notation (tests/blokus_host/fake_gtp.py): whole games in both seats, both move
orders and both dialects with the engine's board kept in step, and each of its faults
recorded against it. ``CORVID_PENTOBI``, when set to a Pentobi GTP command line, also plays
one game against the real engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest

from games.blokus_duo import PASS, BlokusState, geometry
from protocols.icfpt import (
    NEED_DATA,
    ConnectionClosed,
    Dialect,
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
from servers.arena.players import SpecError
from servers.arena.plugin import get_game
from servers.blokus.host import Host, HostConfig, play_game
from servers.blokus.opponents import biggest
from servers.blokus.players import BuiltinPlayer, GtpPlayer
from servers.blokus.sgf import GameRecord, read_moves, write_sgf
from servers.gtp.process import EngineError
from tests.paths import REPO

pytestmark = pytest.mark.integration
FAKE = f"{sys.executable} {REPO / 'tests' / 'blokus_host' / 'fake_gtp.py'}"


@pytest.fixture(scope="module")
def engine() -> Iterator[GtpPlayer]:
    e = GtpPlayer(FAKE)
    yield e
    e.close()


def _builtin(seed: int = 0) -> BuiltinPlayer:
    return BuiltinPlayer("biggest", biggest, np.random.default_rng(seed))


@pytest.mark.parametrize("dialect", [Dialect.Y2014, Dialect.Y2013])
@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("colour", [0, 1])
def test_whole_games_keep_the_engine_in_step(engine: GtpPlayer, dialect: Dialect, first: int,
                                             colour: int) -> None:
    # the fake refuses any move that is illegal on its own board: a game that ends normally
    # told it every move right (and the passes it was not told)
    engine.handshake(10.0)
    other = _builtin(first + 2 * colour)
    players = (engine, other) if colour == 0 else (other, engine)
    rec = play_game(players, first, dialect, 5.0)
    assert rec.reason == "end" and rec.violator is None, rec.detail
    assert rec.names[colour] == "fake 1"
    mine = [t for (c, _), t in zip(rec.moves, rec.times, strict=True) if c == colour]
    assert mine and all(t > 0 for t in mine)
    assert any(m == -1 or c != colour for c, m in rec.moves)  # passes and moves of the other
    root, moves = read_moves(write_sgf(rec))
    assert moves == [(c, m) for c, m in rec.moves if m != -1]


def _fault(flags: str, limit: float = 5.0) -> tuple[GtpPlayer, GameRecord]:
    """A game of the fake with ``flags`` as player 2 against a built-in moving first."""
    e = GtpPlayer(f"{FAKE} {flags}")
    e.handshake(10.0)
    rec = play_game((_builtin(), e), 0, Dialect.Y2014, limit)
    return e, rec


def test_a_refused_move_loses_and_names_the_move() -> None:
    e, rec = _fault("--refuse")
    try:
        assert rec.reason == "refused" and rec.violator == 1 and rec.winner == 0
        ((_, move),) = rec.moves
        g = geometry(14)
        assert g.code(move) in rec.detail and f"play b {g.pentobi(move)}" in rec.detail
        assert "fake 1 refused" in rec.detail and "illegal move" in rec.detail
    finally:
        e.close()


def test_a_late_answer_loses_on_time_and_the_engine_is_restarted() -> None:
    e, rec = _fault("--sleep 0.5", limit=0.2)
    try:
        assert rec.reason == "timeout" and rec.violator == 1
        assert not e.engine.alive  # out of step: stopped, started again for the next game
        e.handshake(10.0)
        assert e.engine.alive
        again = play_game((_builtin(), e), 0, Dialect.Y2014, 5.0)
        assert again.reason == "end", again.detail
    finally:
        e.close()


def test_an_engine_may_have_a_time_limit_of_its_own() -> None:
    e = GtpPlayer(f"{FAKE} --sleep 0.3", time_limit=5.0)
    try:
        e.handshake(10.0)
        rec = play_game((_builtin(), e), 0, Dialect.Y2014, 0.1)  # the host's limit: 0.1 s
        assert rec.reason == "end", rec.detail
        assert min(t for (c, _), t in zip(rec.moves, rec.times, strict=True) if c == 1) > 0.3
    finally:
        e.close()


def test_resignation_is_a_loss_but_no_violation() -> None:
    e, rec = _fault("--resign")
    try:
        assert rec.reason == "resign" and rec.winner == 0
        assert rec.violator is None
        assert "RE[B+R]" in write_sgf(rec)
    finally:
        e.close()


def test_an_answer_that_is_no_piece_is_illegal() -> None:
    e, rec = _fault("--garble")
    try:
        assert rec.reason == "illegal" and rec.violator == 1
        assert "'a1,c3'" in rec.detail
    finally:
        e.close()


@pytest.mark.parametrize("flags,why", [("--no-duo", "cannot play Blokus Duo"),
                                       ("--exit 1", "closed its output")])
def test_an_engine_that_cannot_play_is_refused_at_start(flags: str, why: str) -> None:
    with pytest.raises(EngineError, match=why):
        GtpPlayer(f"{FAKE} {flags}", startup_timeout=20.0)
    with pytest.raises(EngineError):
        Host(HostConfig(port=0, opponent=f"gtp:{FAKE} {flags}", connect_timeout=20.0))


def test_host_opponent_spec_is_checked() -> None:
    with pytest.raises(ValueError, match="gtp:COMMAND"):
        Host(HostConfig(port=0, opponent="pentobi"))


def test_serve_blokus_against_a_gtp_engine() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "--log-level", "error", "serve", "blokus",
         "--port", "0", "--games", "2", "--opponent", f"gtp:{FAKE}", "--json",
         "--connect-timeout", "60"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert proc.stdout is not None and proc.stderr is not None
    try:
        port = int(proc.stdout.readline().strip().rsplit(":", 1)[1])
        for _ in range(2):
            _first_legal_client(port)
        out, err = proc.stdout.read(), proc.stderr.read()  # the rest, past readline's buffer
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    fig = json.loads(out.strip().splitlines()[-1])
    assert fig["games"] == 2 and fig["violations"] == 0 and fig["opponent_violations"] == 0
    assert "# opponent fake 1" in out  # named by its answers to name and version


def test_serve_blokus_refuses_an_engine_that_cannot_start() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "clients.cli", "--log-level", "error", "serve", "blokus",
         "--port", "0", "--opponent", f"gtp:{FAKE} --no-duo"], cwd=REPO, capture_output=True,
        text=True, timeout=120, check=False)
    assert p.returncode == 2 and "cannot play Blokus Duo" in p.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "clients.cli", "serve", "blokus", "--opponent", "pentobi"],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 2 and "gtp:COMMAND" in bad.stderr


def _first_legal_client(port: int) -> None:
    """One 2014 game as a client on ``port``: the team code, then the first legal placement
    of each turn (or a pass)."""
    t = TcpTransport("127.0.0.1", port)
    conn = PlayerConnection()
    state = BlokusState()
    try:
        while True:
            ev = conn.next_event()
            if ev is NEED_DATA:
                data = t.recv()
                if not data:
                    return
                conn.receive_data(data)
                continue
            if isinstance(ev, (GameOver, ConnectionClosed)):
                return
            if isinstance(ev, RequestTeamCode):
                t.send(conn.send(TeamCode("07")))
                continue
            if isinstance(ev, FirstMovePrompt):
                state = BlokusState(first=ev.player - 1)
            elif isinstance(ev, SecondMovePrompt):
                state = BlokusState(first=2 - ev.player)
                state.play_code(ev.opponent_move)
            else:
                assert isinstance(ev, TurnPrompt)
                for code in ev.opponent_moves:
                    state.play_code(code)
            moves = state.legal_placements()
            move = moves[0] if moves else PASS
            state.play(move)
            t.send(conn.send(MoveCommand(state.code(move))))
    finally:
        t.close()


def test_arena_plays_a_gtp_player_and_only_blokus_takes_one() -> None:
    spec = get_game("blokus").parse(f"pento=gtp:{FAKE}")
    assert (spec.kind, spec.label, spec.command) == ("gtp", "pento", FAKE)
    with pytest.raises(SpecError, match="unknown player"):
        get_game("gtp").parse(f"gtp:{FAKE}")
    p = subprocess.run(
        [sys.executable, "-m", "clients.cli", "--log-level", "error", "arena", "blokus",
         "--games", "4", "--player", f"pento=gtp:{FAKE}", "--player", "biggest", "--json",
         "--engine-timeout", "30"],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout.strip().splitlines()[-1])
    assert report["games"] == 4 and report["failed"] == 0
    assert [r["label"] for r in report["players"]] == ["pento", "biggest"] or \
        [r["label"] for r in report["players"]] == ["biggest", "pento"]


@pytest.mark.skipif(not os.environ.get("CORVID_PENTOBI"),
                    reason="set CORVID_PENTOBI to a Pentobi GTP command line to play it")
def test_a_game_against_pentobi() -> None:
    e = GtpPlayer(os.environ["CORVID_PENTOBI"])
    try:
        for colour in (0, 1):
            e.handshake(30.0)
            other = _builtin(colour)
            rec = play_game((e, other) if colour == 0 else (other, e), 0, Dialect.Y2014, 30.0)
            assert rec.reason in ("end", "resign") and rec.violator is None, rec.detail
    finally:
        e.close()
