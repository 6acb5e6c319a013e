"""The clients against small hostile servers: ``corvid uecda``, ``corvid blokus`` and
``corvid gtp`` as processes, facing a server or controller that refuses, closes mid-game,
sends garbage, stalls or contradicts the rules.

Each ends within the configured time with one clear line on stderr (no traceback) and exit
status 1, or plays on where it can (a table that contradicts the rules, a game broken but
the next connection good).
"""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from protocols.uecda.table import TABLE_BYTES, pack_int
from tests.fuzz.uecda_memory import transcript

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[1]
CORVID = [sys.executable, "-m", "clients.cli", "--log-level", "warning"]


class Hostile:
    """A loopback server that runs ``script(sock)`` on each accepted connection (in turn).

    A script checks what the client sends with ``assert``; ``join`` raises in the test what
    the server's thread raised, so a failed check fails the test."""

    def __init__(self, *scripts: Callable[[socket.socket], None]) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.scripts = list(scripts)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            with self.listener:
                for script in self.scripts:
                    self.listener.settimeout(60)
                    conn, _ = self.listener.accept()
                    with conn:
                        conn.settimeout(30)
                        script(conn)
        except BaseException as e:  # raised again by join(), in the test's thread
            self.error = e

    def join(self) -> None:
        self.thread.join(30)
        assert not self.thread.is_alive(), "the hostile server did not finish"
        if self.error is not None:
            raise self.error


def run(args: list[str], timeout: float = 60.0, stdin: bytes | None = None) -> tuple[int, str]:
    """``corvid ARGS`` as a process: its exit status and its stderr."""
    p = subprocess.run(CORVID + args, input=stdin, capture_output=True, timeout=timeout,
                       cwd=ROOT)
    return p.returncode, p.stderr.decode(errors="replace")


def last_line(err: str) -> str:
    return err.strip().splitlines()[-1]


def recv_exactly(s: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        d = s.recv(n - len(out))
        if not d:
            break
        out += d
    return out


def drain(s: socket.socket) -> None:
    try:
        while s.recv(65536):
            pass
    except OSError:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- corvid uecda -----------------------------------------------------------------------------
UECDA = ["uecda", "--set", "core=baseline", "--set", "seed=1"]


def test_uecda_connection_refused_is_one_line() -> None:
    code, err = run(UECDA + ["--port", str(free_port()), "--wait", "0.3"])
    assert code == 1
    assert "Traceback" not in err
    assert "cannot connect to 127.0.0.1" in last_line(err)
    assert "retried for 0.3 s" in last_line(err)


@pytest.mark.parametrize("args", [["uecda", "--port", "99999"], ["blokus", "--port", "x1"],
                                  ["serve", "uecda", "--port", "-1"],
                                  ["serve", "blokus", "--port2", "70000"]])
def test_a_bad_port_is_a_usage_error_at_once(args: list[str]) -> None:
    code, err = run(args)
    assert code == 2  # argparse's usage error: nothing was started
    assert "Traceback" not in err
    line = last_line(err)
    assert f"argument {args[-2]}: " in line and args[-1] in line  # the option and its value
    assert "is not a TCP port (0..65535)" in line or "not a port number" in line


def test_uecda_warms_up_before_connecting() -> None:
    # from a cold compile cache the warm-up takes tens of seconds: done after connecting, the
    # server could deal the first game meanwhile and time the client out
    p = subprocess.run([sys.executable, "-m", "clients.cli", "--log-level", "info", "uecda",
                        "--set", "seed=1", "--port", str(free_port()), "--wait", "0"],
                       capture_output=True, timeout=120, cwd=ROOT)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 1
    assert "uecda_warm_up" in err and "cannot connect to 127.0.0.1" in last_line(err)


def _profile_then(then: Callable[[socket.socket], None]) -> Callable[[socket.socket], None]:
    def script(s: socket.socket) -> None:
        assert len(recv_exactly(s, TABLE_BYTES)) == TABLE_BYTES  # the profile
        then(s)
    return script


def _close_mid_game(s: socket.socket) -> None:
    s.sendall(transcript()[:4 + 2 * TABLE_BYTES])  # player number, HAND0, a hand table


def _close_mid_table(s: socket.socket) -> None:
    s.sendall(transcript()[:4 + 2 * TABLE_BYTES + 100])  # ... and part of the next


def _garbage(s: socket.socket) -> None:
    s.sendall(pack_int(7))  # player numbers are 0..4
    drain(s)


def _stall(s: socket.socket) -> None:
    s.sendall(pack_int(0))
    drain(s)  # until the client gives up


@pytest.mark.parametrize("script,message", [
    (_close_mid_game, "closed the connection before the end of the match"),
    (_close_mid_table, "connection closed in the middle of a message"),
    (_garbage, "broke protocol 20070"),
    (_stall, "no message from the server for 0.5 s"),
])
def test_uecda_against_a_broken_server(script: Callable[[socket.socket], None],
                                       message: str) -> None:
    transcript()  # made before the server starts answering
    srv = Hostile(_profile_then(script))
    code, err = run(UECDA + ["--port", str(srv.port), "--set", "recv_timeout=0.5"])
    srv.join()
    assert code == 1, err
    assert "Traceback" not in err
    assert message in last_line(err)
    assert last_line(err).startswith("corvid uecda: ")


def _contradicting_match(s: socket.socket) -> None:
    wire = bytearray(transcript())
    # the seats row of the first HAND0 names player 0 twice: no such deal
    hand0 = 4  # after the player number
    wire[hand0 + 4 * (15 * 6 + 12):hand0 + 4 * (15 * 6 + 13)] = struct.pack(">i", 0)
    s.sendall(bytes(wire))
    s.shutdown(socket.SHUT_WR)  # the match is over: the server closes, as tndhms does
    drain(s)


def test_uecda_plays_on_through_a_table_that_contradicts_the_rules() -> None:
    srv = Hostile(_profile_then(_contradicting_match))
    code, err = run(UECDA + ["--port", str(srv.port)])
    srv.join()
    assert code == 0, err
    assert "uecda_table_contradicts_rules" in err


def test_uecda_waits_for_a_server_that_starts_late() -> None:
    port = free_port()
    proc = subprocess.Popen(CORVID + UECDA + ["--port", str(port), "--wait", "30"],
                            stderr=subprocess.PIPE, cwd=ROOT)
    try:
        time.sleep(1.0)  # the client is retrying meanwhile (not synchronisation: a delay)
        listener = socket.create_server(("127.0.0.1", port))
        listener.settimeout(60)
        conn, _ = listener.accept()
        with conn, listener:
            recv_exactly(conn, TABLE_BYTES)
            conn.sendall(transcript())
            conn.shutdown(socket.SHUT_WR)
            drain(conn)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err.decode()


# -- corvid blokus ----------------------------------------------------------------------------
BLOKUS = ["blokus", "--set", "core=greedy", "--set", "warmup=false", "--set", "seconds=0.3",
          "--set", "margin=0.2", "--team-code", "hh"]


def _team_then(then: Callable[[socket.socket], None]) -> Callable[[socket.socket], None]:
    def script(s: socket.socket) -> None:
        s.sendall(b"0")
        assert recv_exactly(s, 3) == b"1hh"
        then(s)
    return script


def _blokus_close(s: socket.socket) -> None:
    s.sendall(b"25")
    recv_exactly(s, 4)


def _blokus_garbage(s: socket.socket) -> None:
    s.sendall(b"2Z")  # no such start square
    drain(s)


def _blokus_stall(s: socket.socket) -> None:
    drain(s)


def _blokus_good(s: socket.socket) -> None:
    s.sendall(b"25")
    assert len(recv_exactly(s, 4)) == 4
    s.sendall(b"9")


@pytest.mark.parametrize("script,message", [
    (_blokus_close, "closed the connection before the end of the game"),
    (_blokus_garbage, "broke the protocol"),
    (_blokus_stall, "went silent"),
])
def test_blokus_against_a_broken_host(script: Callable[[socket.socket], None],
                                      message: str) -> None:
    srv = Hostile(_team_then(script))
    code, err = run(BLOKUS + ["--port", str(srv.port), "--idle-timeout", "0.5"])
    srv.join()
    assert code == 1, err
    assert "Traceback" not in err
    assert message in last_line(err) and last_line(err).startswith("corvid blokus: ")


def test_blokus_connection_refused_is_one_line() -> None:
    code, err = run(BLOKUS + ["--port", str(free_port()), "--wait", "0.3"])
    assert code == 1 and "Traceback" not in err
    assert "cannot connect" in last_line(err)


def test_blokus_reconnects_after_a_broken_game() -> None:
    # the protocol is one connection per game: a game the host broke is reported, the next
    # one is played on a new connection
    srv = Hostile(_team_then(_blokus_close), _team_then(_blokus_good))
    code, err = run(BLOKUS + ["--port", str(srv.port), "--games", "2"])
    srv.join()
    assert code == 1, err
    assert "1 of 2 games broken by the host" in last_line(err)


def _blokus_contradiction(s: socket.socket) -> None:
    s.sendall(b"35" + b"dda0")  # we are player 1 moving second, after a move that is not legal
    answer = recv_exactly(s, 4)
    assert len(answer) == 4 and answer != b"0000"
    s.sendall(b"9")


def test_blokus_answers_a_prompt_that_contradicts_the_rules() -> None:
    srv = Hostile(_team_then(_blokus_contradiction))
    code, err = run(BLOKUS + ["--port", str(srv.port)])
    srv.join()
    assert code == 0, err


# -- corvid gtp -------------------------------------------------------------------------------
GTP = ["gtp", "--set", "playouts=8", "--set", "warmup=false"]


def test_gtp_input_closed_in_the_middle_of_a_game() -> None:
    code, err = run(GTP, stdin=b"boardsize 9\nplay b e5\n")
    assert code == 1 and "Traceback" not in err
    assert "in the middle of a game" in err


def test_gtp_end_of_input_with_no_game_is_fine() -> None:
    code, err = run(GTP, stdin=b"name\nversion\n")
    assert code == 0, err


def test_gtp_garbage_and_illegal_moves_are_answered_and_play_goes_on() -> None:
    p = subprocess.run(CORVID + GTP, input=b"\xff\xfe garbage\nplay b e5\nplay w e5\n"
                       b"play w e6\n" + b"x" * 100_000 + b"\ngenmove b\nquit\n",
                       capture_output=True, timeout=60, cwd=ROOT)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout.split(b"\n\n")[:4] == [b"? unknown command", b"= ", b"? illegal move",
                                           b"= "]
    assert p.stdout.endswith(b"= \n\n")


def test_gtp_idle_timeout() -> None:
    proc = subprocess.Popen(CORVID + GTP + ["--set", "idle_timeout=0.5"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert proc.stdin is not None
        proc.stdin.write(b"boardsize 9\n")
        proc.stdin.flush()  # and then nothing, the pipe left open
        code = proc.wait(timeout=60)
        err = proc.stderr.read().decode() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 1
    assert "no command for 0.5 s" in err


def test_gtp_controller_that_stops_reading() -> None:
    proc = subprocess.Popen(CORVID + GTP, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdout.close()  # the controller is gone: our answers have nowhere to go
        proc.stdin.write(b"name\n")
        proc.stdin.flush()
        code = proc.wait(timeout=60)
        err = proc.stderr.read().decode() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 1 and "Traceback" not in err
    assert "cannot write the answer" in err



def test_a_missing_input_file_is_one_line_not_a_peer_fault(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-dir"
    code, err = run(["--log-level", "info", "learn", "daihinmin", "imitate", str(missing),
                        "--out", str(tmp_path / "p.json")])
    assert code == 1
    assert "Traceback" not in err
    assert last_line(err) == f"corvid learn: [Errno 2] No such file or directory: '{missing}'"
    assert "system_error" in err and "peer_fault" not in err
