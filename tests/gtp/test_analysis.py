"""Live analysis (lz-analyze, kata-analyze, genmove_analyze): the lines' format, exact-bytes
transcripts of the real search (seed and playouts fixed, the clock injected), and the
engine driven as Sabaki drives it (a subprocess, the next command stopping the analysis)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from clients.gtp.analysis import (
    AnalyzeArgs,
    Candidate,
    format_info,
    parse_analyze_args,
    prior_shares,
)
from clients.gtp.config import GtpConfig
from clients.gtp.engine import GtpEngine
from clients.gtp.player import SearchPlayer
from protocols.gtp import GtpSyntaxError

CANDIDATES = [Candidate((3, 3), 120, 0.5234, 0.25, [(3, 3), (4, 4), None]),
              Candidate((2, 6), 7, 0.41, 0.125, [(2, 6)])]


def test_leela_zero_and_katago_lines() -> None:
    assert format_info(CANDIDATES, kata=False) == (
        "info move D4 visits 120 winrate 5234 prior 2500 order 0 pv D4 E5 pass "
        "info move C7 visits 7 winrate 4100 prior 1250 order 1 pv C7")
    assert format_info(CANDIDATES, kata=True, max_moves=1) == (
        "info move D4 visits 120 winrate 0.523400 prior 0.250000 order 0 pv D4 E5 pass")


def test_analyze_arguments() -> None:
    assert parse_analyze_args([]) == AnalyzeArgs(1.0, 0)
    assert parse_analyze_args(["25"]) == AnalyzeArgs(0.25, 0)
    assert parse_analyze_args(["interval", "50", "maxmoves", "4", "ownership", "true"]) == \
        AnalyzeArgs(0.5, 4)
    for bad in (["x"], ["10", "interval"], ["10", "colour", "b"], ["maxmoves", "-1"]):
        with pytest.raises(GtpSyntaxError):
            parse_analyze_args(bad)
    assert prior_shares([1.0, 3.0]) == [0.25, 0.75]


def ticking() -> Iterator[float]:
    t = 0.0
    while True:
        t += 1.0
        yield t


def engine(**cfg: object) -> GtpEngine:
    """The real player, 50 playouts a slice, on a clock that moves 1 s each reading (so
    an interval of 1 s gives a line each slice), with the priors fitted to GNU Go's moves
    (``weights=""``) and AMAF for every player who made a move (``rave_first_player=false``)
    that the expected lines were written with."""
    config = GtpConfig(default_size=9, default_komi=7.0, warmup=False, seed=7,
                       analyze_playouts=50, weights="", rave_first_player=False,
                       **cfg)  # type: ignore[arg-type]
    clock = ticking()
    return GtpEngine(config, SearchPlayer(config), clock=lambda: next(clock))


def test_lz_analyze_streams_until_the_next_command() -> None:
    e = engine()
    assert e.handle_line("play b e5")[0] == b"= \n\n"
    assert e.handle_line("3 lz-analyze 100")[0] == b"=3 \n"
    lines = [e.stream_step() for _ in range(3)]
    assert lines == [LZ_1, LZ_2, LZ_3]
    assert e.handle_line("4 name")[0] == b"\n=4 corvid\n\n"  # the blank line ends it
    assert e.stream is None


def test_kata_analyze_and_genmove_analyze() -> None:
    e = engine(playouts=100)
    assert e.handle_line("kata-analyze b 100 maxmoves 2")[0] == b"= \n"
    assert e.stream_step() == KATA_1
    assert e.stream_stop() == b"\n"
    assert e.handle_line("genmove_analyze b 100")[0] == b"= \n"
    out = e.stream_step()
    assert out == GENMOVE_1 and e.stream is not None
    out = e.stream_step()
    assert out == GENMOVE_2 and e.stream is None
    assert e.board.moves == [(0, GENMOVE_PLAYED)]
    assert e.handle_line("genmove_analyze")[0] == b"? syntax error\n\n"
    assert e.handle_line("lz-analyze b x")[0] == b"? syntax error\n\n"


def read_until(proc: subprocess.Popen[bytes], prefix: bytes) -> bytes:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        assert line, "the engine closed its output"
        if line.startswith(prefix):
            return line


@pytest.mark.integration
def test_driven_as_sabaki_drives_it() -> None:
    """lz-analyze 10 on a subprocess: info lines stream in, and `name` stops them and is
    answered."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "--log-level", "warning", "gtp", "--set",
         "default_size=9"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b"boardsize 9\nplay b e5\nlz-analyze 10\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == b"= \n" and proc.stdout.readline() == b"\n"
        assert proc.stdout.readline() == b"= \n" and proc.stdout.readline() == b"\n"
        assert proc.stdout.readline() == b"= \n"
        for _ in range(3):
            line = proc.stdout.readline()
            assert line.startswith(b"info move ") and line.endswith(b"\n")
            assert b" visits " in line and b" winrate " in line and b" pv " in line
        proc.stdin.write(b"name\n")
        proc.stdin.flush()
        while (line := proc.stdout.readline()).startswith(b"info move "):
            pass  # a line may have been on its way
        assert line == b"\n"  # the analysis' answer ends
        assert proc.stdout.readline() == b"= corvid\n"
        assert proc.stdout.readline() == b"\n"
        proc.stdin.write(b"quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


LZ_1 = (
    b'info move C7 visits 18 winrate 7642 prior 219 order 0 pv C7 C5 C3 D3 C2'
    b' info move G3 visits 9 winrate 8295 prior 219 order 1 pv G3 E3 C3'
    b' info move E7 visits 7 winrate 8092 prior 209 order 2 pv E7 G7 F6'
    b' info move C3 visits 6 winrate 8659 prior 219 order 3 pv C3 E3'
    b' info move C5 visits 4 winrate 8458 prior 209 order 4 pv C5 C3'
    b' info move E3 visits 3 winrate 8286 prior 209 order 5 pv E3 C3'
    b' info move D6 visits 2 winrate 7792 prior 194 order 6 pv D6'
    b' info move G7 visits 1 winrate 8750 prior 219 order 7 pv G7\n'
)
LZ_2 = (
    b'info move C7 visits 30 winrate 7462 prior 219 order 0 pv C7 E7 G7 G6 H6 G5'
    b' info move C3 visits 17 winrate 7981 prior 219 order 1 pv C3 C5 C7 E7 G7'
    b' info move E3 visits 17 winrate 7401 prior 209 order 2 pv E3 C3 D4 C4 D5'
    b' info move E7 visits 10 winrate 7997 prior 209 order 3 pv E7 C7 D6'
    b' info move G3 visits 9 winrate 8295 prior 219 order 4 pv G3 E3 C3'
    b' info move C5 visits 8 winrate 7904 prior 209 order 5 pv C5 C7 D6 D7'
    b' info move G7 visits 7 winrate 8214 prior 219 order 6 pv G7 G5 G3'
    b' info move D6 visits 2 winrate 7792 prior 194 order 7 pv D6\n'
)
LZ_3 = (
    b'info move C7 visits 32 winrate 7388 prior 219 order 0 pv C7 E7 G7 G6 H6 G5'
    b' info move G7 visits 29 winrate 7422 prior 219 order 1 pv G7 E7 C7 C5 C3 D3'
    b' info move C3 visits 22 winrate 7632 prior 219 order 2 pv C3 E3 G3 G4 H3 H4'
    b' info move E3 visits 22 winrate 6927 prior 209 order 3 pv E3 C3 D4 C4 D5'
    b' info move E7 visits 16 winrate 7448 prior 209 order 4 pv E7 C7 D6 C6'
    b' info move C5 visits 10 winrate 7552 prior 209 order 5 pv C5 C7 D6 D7 E6'
    b' info move G3 visits 9 winrate 8295 prior 219 order 6 pv G3 E3 C3'
    b' info move D5 visits 8 winrate 7148 prior 186 order 7 pv D5 D4 E6 F5'
    b' info move D6 visits 2 winrate 7792 prior 194 order 8 pv D6\n'
)
KATA_1 = (
    b'info move E5 visits 31 winrate 0.727273 prior 0.023489 order 0 pv E5 E3 C3 D4'
    b' info move F6 visits 6 winrate 0.777922 prior 0.021547 order 1 pv F6 D4 F4\n'
)
GENMOVE_1 = (
    b'info move E5 visits 33 winrate 7059 prior 235 order 0 pv E5 G3 E3 C3 C4'
    b' info move F4 visits 31 winrate 6954 prior 215 order 1 pv F4 D4 D6 E5 F5 E6'
    b' info move D5 visits 15 winrate 7479 prior 215 order 2 pv D5 F5 E3 G3 F2'
    b' info move D6 visits 8 winrate 7069 prior 215 order 3 pv D6 F4 D4 F6'
    b' info move F6 visits 6 winrate 7779 prior 215 order 4 pv F6 D4 F4'
    b' info move E4 visits 4 winrate 7922 prior 215 order 5 pv E4 E6'
    b' info move E6 visits 2 winrate 8350 prior 215 order 6 pv E6'
    b' info move F5 visits 1 winrate 8026 prior 215 order 7 pv F5\n'
)
GENMOVE_2 = (
    b'info move E5 visits 41 winrate 6974 prior 235 order 0 pv E5 G3 E3 C3 C4 B3'
    b' info move F4 visits 37 winrate 6791 prior 215 order 1 pv F4 D4 D6 E5 E6 F5 G7 G5'
    b' info move D5 visits 30 winrate 6676 prior 215 order 2 pv D5 F5 E7 G7 F8 G8'
    b' info move F5 visits 17 winrate 7287 prior 215 order 3 pv F5 D5 E3 C3 D2 C2 C1'
    b' info move D6 visits 8 winrate 7069 prior 215 order 4 pv D6 F4 D4 F6'
    b' info move E6 visits 7 winrate 8070 prior 215 order 5 pv E6 E4 G5'
    b' info move F6 visits 6 winrate 7779 prior 215 order 6 pv F6 D4 F4'
    b' info move E4 visits 4 winrate 7922 prior 215 order 7 pv E4 E6\nplay D5\n\n'
)
GENMOVE_PLAYED = (3, 4)
