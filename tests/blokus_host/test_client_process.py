"""``corvid blokus`` as a separate process against the mock host on 127.0.0.1 (ephemeral
ports): whole games in both dialects, both seats and both move orders; the SGF records read
back and replayed; and ``corvid serve blokus`` itself as a process."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from games.blokus_duo import BlokusState
from servers.blokus.host import summary
from servers.blokus.sgf import read_moves, write_sgf
from tests.blokus_host.helpers import HostThread

pytestmark = pytest.mark.integration

_SCRIPT = Path(sys.executable).parent / "corvid"
CORVID = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "clients.cli"]
ROOT = Path(__file__).resolve().parents[2]
# a quick client: a tenth of a second per move, 40 ms of it for UCT (the rest is margin)
FAST = ["--set", "seconds=0.1", "--set", "margin=0.06", "--set", "seed=1"]


def _client(port: int, games: int, dialect: str, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*CORVID, "--log-level", "warning", "blokus", "--port", str(port), "--games",
         str(games), "--dialect", dialect, "--team-code", "7x", *FAST, *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.parametrize("dialect,games", [
    ("2014", 4), pytest.param("2013", 2, marks=pytest.mark.slow)])
def test_client_process_whole_games(dialect: str, games: int) -> None:
    host = HostThread(games=games, seat="alternate", first="alternate", dialect=dialect,
                      opponent="biggest", timeout=1.0, connect_timeout=60.0, seed=3)
    proc = _client(host.port, games, dialect)
    try:
        _, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    results = host.join()
    assert proc.returncode == 0, err.decode()[-2000:]
    assert len(results) == games
    seen = set()
    for r in results:
        rec = r.record
        assert rec.reason == "end", (rec.reason, rec.detail)
        me = r.seat - 1
        assert rec.names[me] == "team 7x"
        seen.add((r.seat, r.first))
        # the record replays to the same end and reads back from SGF
        s = BlokusState(first=rec.first)
        for c, m in rec.moves:
            assert s.to_move_colour == c
            s.play(m)
        assert s.is_terminal() and s.scores() == rec.scores
        _, moves = read_moves(write_sgf(rec))
        assert moves == [(c, m) for c, m in rec.moves if m >= 0]
    expect = {(1, 1), (2, 1), (1, 2), (2, 2)} if games == 4 else {(1, 1), (2, 1)}
    assert seen == expect
    assert summary(results)["violations"] == 0


@pytest.mark.slow
def test_serve_process_json_and_sgf_against_client(tmp_path: Path) -> None:
    srv = subprocess.Popen(
        [*CORVID, "--log-level", "warning", "serve", "blokus", "--port", "0", "--games", "1",
         "--seat", "2", "--first", "2", "--opponent", "first-legal", "--sgf-dir",
         str(tmp_path), "--json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert srv.stdout is not None
        first = srv.stdout.readline().decode()
        assert first.startswith("# listening 127.0.0.1:")
        port = int(first.rsplit(":", 1)[1])
        cl = _client(port, 1, "2014")
        _, cerr = cl.communicate(timeout=120)
        assert cl.returncode == 0, cerr.decode()[-2000:]
        out, err = srv.communicate(timeout=60)
    finally:
        for p in (srv,):
            if p.poll() is None:
                p.kill()
    assert srv.returncode == 0, err.decode()[-2000:]
    last = json.loads(out.decode().strip().splitlines()[-1])
    assert list(last)[:5] == ["games", "wins", "draws", "losses", "win_rate"]
    assert last["games"] == 1 and last["violations"] == 0
    assert last["wins"] + last["draws"] + last["losses"] == 1
    text = (tmp_path / "game-001.blksgf").read_text()
    root, moves = read_moves(text)
    assert root["GM"] == "Blokus Duo" and root["PW"] == "team 7x"
    assert moves[0][0] == 1  # player 2 (W) moved first


@pytest.mark.slow
def test_client_timeout_with_a_short_host_limit() -> None:
    # the host allows 50 ms; the client thinks it has 1 s (and searches 0.9 s, no book move
    # to answer at once): it loses on time at its first move
    host = HostThread(games=1, seat="1", first="1", timeout=0.05, connect_timeout=60.0)
    proc = subprocess.Popen(
        [*CORVID, "--log-level", "warning", "blokus", "--port", str(host.port),
         "--set", "seconds=1.0", "--set", "margin=0.1", "--set", "book=none"], cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    try:
        proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    results = host.join()
    (r,) = results
    assert r.record.reason == "timeout" and r.outcome == "loss"
    assert summary(results)["timeouts"] == 1


class PtyStream:
    """The master side of a pseudo-terminal, shaped like the socket RemotePlayer expects."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.timeout: float | None = None

    def sendall(self, data: bytes) -> None:
        import os

        while data:
            data = data[os.write(self.fd, data):]

    def settimeout(self, t: float | None) -> None:
        self.timeout = t

    def recv(self, n: int) -> bytes:
        import os
        import select

        r, _, _ = select.select([self.fd], [], [], self.timeout)
        if not r:
            raise TimeoutError
        return os.read(self.fd, n)

    def shutdown(self, how: int) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.mark.slow
def test_client_over_a_serial_line() -> None:
    """``corvid blokus --serial`` on a pseudo-terminal; the host's referee on the master."""
    import os
    import tty

    import numpy as np

    from protocols.icfpt import Dialect
    from servers.blokus.host import BuiltinPlayer, RemotePlayer, play_game
    from servers.blokus.opponents import biggest

    master, slave = os.openpty()
    tty.setraw(slave)
    proc = subprocess.Popen(
        [*CORVID, "--log-level", "info", "blokus", "--serial", os.ttyname(slave),
         "--games", "1", "--team-code", "5s", *FAST], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    lines: list[bytes] = []
    opened = threading.Event()

    def drain() -> None:  # pyserial flushes its input when it opens: wait for that first
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            if b"serial_open" in line:
                opened.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        assert opened.wait(120), b"".join(lines).decode()[-2000:]
        me = RemotePlayer(PtyStream(master), Dialect.Y2014, "serial")  # type: ignore[arg-type]
        me.handshake(120.0)
        assert me.team == "5s"
        opp = BuiltinPlayer("biggest", biggest, np.random.default_rng(0))
        rec = play_game((opp, me), 0, Dialect.Y2014, 1.0)
        proc.wait(timeout=60)
        reader.join(10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    assert rec.reason == "end", (rec.reason, rec.detail)
    assert proc.returncode == 0, b"".join(lines).decode()[-2000:]
