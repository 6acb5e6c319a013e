"""The engine answers at once while its warm-up runs in the background: a stubbed warm-up
that only ends when the test lets it shows which commands wait for it (``genmove``,
``corvid-param``) and which do not (the rest of the protocol)."""

from __future__ import annotations

import os
import select
import threading
from typing import Any

import pytest

from clients.gtp.board import Board
from clients.gtp.cli import serve
from clients.gtp.config import GtpConfig
from clients.gtp.engine import Decision, MoveRequest

HANG_GUARD = 60.0  # seconds: only so that a broken engine fails instead of hanging the run
# seconds to look for an answer that must not come: a correct engine never sends it, a broken
# one (no wait for the warm-up) answers the stub's move in microseconds
NO_ANSWER_WINDOW = 0.5


@pytest.fixture(autouse=True, scope="module")
def board_kernels_loaded() -> None:
    """The board's kernels loaded before any session, as the real warm-up loads them first:
    the stub leaves them out, and a cold compile (slow beside other processes compiling, and
    behind any other thread holding numba's compiler lock) is no part of what these tests
    time under their hang guard."""
    board = Board(9, 7.0)
    board.play(0, (4, 4))
    board.play(1, None)
    board.copy().fallback_vertex(0)
    board.position_key(0)


class StubPlayer:
    """A player that passes, and notes whether the warm-up had ended when it was used."""

    def __init__(self, warmed: threading.Event) -> None:
        self.warmed = warmed
        self.moves_asked_warm: list[bool] = []
        self.configured_warm: list[bool] = []
        self.started = self.closed = False

    def __call__(self, request: MoveRequest) -> Decision:
        self.moves_asked_warm.append(self.warmed.is_set())
        return Decision(None)

    def reset(self) -> None:
        pass

    def configure(self, config: GtpConfig) -> None:
        self.configured_warm.append(self.warmed.is_set())

    def warm_up(self) -> None:
        raise AssertionError("the stubbed warm-up replaces this")

    def start(self) -> None:
        self.started = True

    def close(self) -> None:
        self.closed = True


class Session:
    """``serve`` in a thread on two pipes, its warm-up held until :meth:`release`."""

    def __init__(self, fail: bool = False) -> None:
        self.release_warm_up = threading.Event()
        self.warmed = threading.Event()
        self.player = StubPlayer(self.warmed)
        self.fail = fail
        in_r, self.in_w = os.pipe()
        self.out_r, out_w = os.pipe()
        self.input, self.output = os.fdopen(in_r, "rb"), os.fdopen(out_w, "wb")
        self.result: list[int] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        self.pending = b""

    def _warm(self) -> None:
        assert self.release_warm_up.wait(HANG_GUARD)
        self.warmed.set()
        if self.fail:
            raise RuntimeError("warm-up failed")

    def _serve(self) -> None:
        config = GtpConfig(default_size=9, warmup=True)
        self.result.append(serve(self.input, self.output, config, self.player, self._warm))

    def send(self, line: str) -> None:
        os.write(self.in_w, line.encode() + b"\n")

    def answer(self) -> bytes:
        while b"\n\n" not in self.pending:
            ready, _, _ = select.select([self.out_r], [], [], HANG_GUARD)
            assert ready, "no answer"
            self.pending += os.read(self.out_r, 65536)
        one, _, self.pending = self.pending.partition(b"\n\n")
        return one

    def answered_within(self, seconds: float) -> bool:
        """Whether an answer comes within ``seconds`` (only to catch a broken engine)."""
        ready, _, _ = select.select([self.out_r], [], [], seconds)
        return bool(ready)

    def release(self) -> None:
        self.release_warm_up.set()

    def close(self) -> Any:
        self.send("quit")
        assert self.answer() == b"= "
        self.thread.join(HANG_GUARD)
        for f in (self.input, self.output):
            f.close()
        os.close(self.in_w)
        os.close(self.out_r)
        return self.result


def test_protocol_commands_are_answered_while_the_warm_up_runs() -> None:
    s = Session()
    for command, expected in [("protocol_version", b"= 2"), ("name", b"= corvid"),
                              ("boardsize 9", b"= "), ("clear_board", b"= "),
                              ("komi 7", b"= "), ("time_settings 60 0 0", b"= "),
                              ("play b e5", b"= "),
                              ("showboard", None), ("list_commands", None)]:
        s.send(command)
        got = s.answer()
        assert got == expected if expected is not None else got.startswith(b"= ")
    assert not s.warmed.is_set()  # every answer came while the warm-up was held
    s.send("genmove w")  # waits for the warm-up
    assert not s.answered_within(NO_ANSWER_WINDOW)
    s.release()
    assert s.answer() == b"= pass"
    assert s.player.moves_asked_warm == [True]
    assert s.player.started  # the worker processes start after the warm-up
    assert s.close() == [0]
    assert s.player.closed


def test_corvid_param_waits_for_the_warm_up() -> None:
    s = Session()
    s.send("corvid-param playouts 50")
    assert not s.answered_within(NO_ANSWER_WINDOW)
    s.release()
    assert s.answer() == b"= "
    assert s.player.configured_warm == [True]
    s.close()


def test_corvid_ready_answers_once_the_warm_up_is_done() -> None:
    s = Session()
    s.send("corvid-ready")
    assert not s.answered_within(NO_ANSWER_WINDOW)
    s.release()
    assert s.answer() == b"= "
    s.send("corvid-ready")  # at once, now
    assert s.answer() == b"= "
    s.send("corvid-ready now")
    assert s.answer().startswith(b"? ")
    s.close()


def test_a_failed_warm_up_is_logged_and_the_engine_plays_on() -> None:
    s = Session(fail=True)
    s.release()
    s.send("genmove b")
    assert s.answer() == b"= pass"
    assert not s.player.started  # the warm-up stopped before the workers
    assert s.close() == [0]


def test_the_warm_up_loads_the_dead_stone_kernel() -> None:
    """In a fresh process, the board's warm-up leaves the ownership playouts of the
    dead-stone estimate loaded, not only the search's kernels: a game's first pass that
    estimates dead stones must not compile them on its clock."""
    import subprocess
    import sys

    script = ("from clients.gtp.board import warm_up; warm_up(); "
              "from knowledge.go.playout import k_playout_batch; "
              "print(len(k_playout_batch.signatures))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=600)
    assert int(out.stdout) > 0
