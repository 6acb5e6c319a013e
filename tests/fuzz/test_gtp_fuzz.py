"""Fuzzing GTP: the engine's dispatcher and protocol state, its stdin loop, the
controller's parser, and ``corvid gtp`` as a process.

Random commands with random arguments, ids, comments, tabs, CR/LF, non-ASCII and control
bytes, overlong lines, commands before ``boardsize``: every non-empty line gets exactly one
well-formed answer (``=`` or ``?``, the id echoed, ended by an empty line), never
``? internal error`` (a handler bug), and only ``quit`` ends the session.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

from clients.gtp.analysis import Candidate
from clients.gtp.cli import MAX_LINE, serve
from clients.gtp.config import GtpConfig
from clients.gtp.engine import Decision, GtpEngine, MoveRequest
from protocols.gtp import Controller, RemoteProtocolError, preprocess
from tests.fuzz.conftest import Fuzz


class RandomMoves:
    """A move generator that answers at random: a vertex (maybe illegal), pass, resign, or
    an exception (the engine must still answer a legal move)."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def __call__(self, request: MoveRequest) -> Decision:
        r = self.rng.random()
        size = request.board.size
        if r < 0.05:
            raise RuntimeError("generator bug")
        if r < 0.1:
            return Decision(None, resign=True)
        if r < 0.15:
            return Decision(None)
        v = (int(self.rng.integers(size + 1)), int(self.rng.integers(size + 1)))
        return Decision(v, stats={"moves": [v], "visits": [3], "values": [0.5],
                                  "value": 0.5, "playouts": 3})

    def reset(self) -> None:
        pass

    def configure(self, config: GtpConfig) -> None:
        pass

    def analysis(self, request: MoveRequest, bounded: bool) -> RandomAnalysis:
        return RandomAnalysis(self.rng, request.board.size)


class RandomAnalysis:
    """Live analysis at random: a candidate (maybe off the board), none, or an exception;
    done after two slices."""

    def __init__(self, rng: np.random.Generator, size: int) -> None:
        self.rng = rng
        self.size = size
        self.steps = 0

    @property
    def done(self) -> bool:
        return self.steps >= 2

    def step(self, seconds: float) -> list[Candidate]:
        self.steps += 1
        r = self.rng.random()
        if r < 0.1:
            raise RuntimeError("analysis bug")
        if r < 0.2:
            return []
        v = (int(self.rng.integers(self.size + 1)), int(self.rng.integers(self.size + 1)))
        return [Candidate(v, 3, float(self.rng.random()), 0.5, [v, None])]


def answer(engine: GtpEngine, line: str | bytes) -> tuple[bytes, bool]:
    """The engine's whole answer to ``line``: a streamed one (analysis) stepped a few
    times and stopped, or stepped to its end if it is a move's."""
    response, end = engine.handle_line(line)
    steps = 0
    while engine.stream is not None and (steps < 3 or not engine.stream.interruptible):
        response += engine.stream_step()
        steps += 1
    if engine.stream is not None:
        response += engine.stream_stop()
    return response, end


COMMANDS = sorted(GtpEngine(GtpConfig(warmup=False), RandomMoves()).dispatcher.commands()
                  ) + ["nosuch", "Genmove", "PLAY", "boardsize\u00e9", ""]
# printsgf with an argument writes a file: only ever into the test's directory (below)
WORDS = ["b", "w", "black", "white", "B", "W", "x", "A1", "a1", "T19", "t19", "J9", "I5",
         "Z25", "A0", "A-1", "pass", "PASS", "resign", "0", "1", "2", "5", "7", "9", "13",
         "19", "25", "26", "-1", "3.5", "-7.5", "1e9", "1e400", "nan", "inf", "-inf", "0x10",
         "none", "absolute", "byoyomi", "canadian", "alive", "dead", "seki", "chinese",
         "japanese", "aga", "tromp-taylor", "playouts", "workers", "rave", "c", "seed",
         "\u5929\u5143", "caf\u00e9", "\x00", "\x07", "#", "=", "?", "\r", "\t", "A" * 300]
word = st.one_of(st.sampled_from(WORDS), st.text(max_size=12))
space = st.sampled_from([" ", "  ", "\t", " \t "])


@st.composite
def command_line(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 9)) == 0:  # a line of anything at all
        return draw(st.text(max_size=200))
    parts: list[str] = []
    if draw(st.booleans()):
        parts.append(draw(st.sampled_from(["1", "42", "007", "99999999999999999999", "-3",
                                           "\u0661"])))
    name = draw(st.sampled_from(COMMANDS))
    if name == "printsgf":
        name = "showboard"
    parts.append(name)
    parts += draw(st.lists(word, max_size=5))
    line = "".join(p + draw(space) for p in parts).rstrip()
    if draw(st.integers(0, 7)) == 0:
        line += " # " + draw(st.text(max_size=20))
    if draw(st.integers(0, 5)) == 0:
        line += "\r"
    return line.replace("\n", " ")


def answers(data: bytes) -> list[object]:
    c = Controller()
    c.receive_data(data)
    out = []
    while (r := c.next_response()) is not None:
        out.append(r)
    return out


def check_answer(line: str, response: bytes, end: bool) -> None:
    if not preprocess(line):
        assert response == b"" and not end
        return
    assert response.endswith(b"\n\n") and response.count(b"\n\n") == 1, response
    (r,) = answers(response)
    assert "internal error" not in r.text, (line, response)  # type: ignore[attr-defined]
    words = preprocess(line).split()
    if words[0].isdigit() and words[0].isascii():
        assert r.id == int(words[0])  # type: ignore[attr-defined]
    if end:
        assert words[-1] == "quit" or words[0] == "quit" or "quit" in words[:2]


def test_engine_random_command_sequences(fuzz: Fuzz) -> None:
    @fuzz.check("gtp engine (commands)", st.lists(command_line(), min_size=1, max_size=25))
    def prop(lines: list[str]) -> None:
        engine = GtpEngine(GtpConfig(warmup=False, default_size=9), RandomMoves())
        for line in lines:
            response, end = answer(engine, line)
            check_answer(line, response, end)
            if end:
                return
        # whatever happened, the engine still knows its position
        response, _ = engine.handle_line("showboard")
        assert response.startswith(b"= \n")


def test_engine_random_bytes_as_lines(fuzz: Fuzz) -> None:
    @fuzz.check("gtp engine (commands)", st.binary(max_size=300))
    def prop(raw: bytes) -> None:
        engine = GtpEngine(GtpConfig(warmup=False, default_size=9), RandomMoves())
        for line in raw.split(b"\n"):
            response, end = answer(engine, line)
            check_answer(line.decode("utf-8", errors="replace"), response, end)
            if end:
                return


def test_stdin_loop_random_streams(fuzz: Fuzz) -> None:
    # the real loop of `corvid gtp` (UCT at 8 playouts) on a byte stream: overlong lines,
    # CR/LF, NUL and invalid UTF-8 included; one answer per non-empty line
    cfg = GtpConfig(warmup=False, playouts=8, default_size=9)
    long_line = b"play b " + b"A" * (MAX_LINE + 10)

    @fuzz.check("gtp engine (stdin loop)",
                st.lists(st.one_of(command_line().map(lambda s: s.encode("utf-8")),
                                   st.binary(max_size=60), st.just(long_line)),
                         min_size=1, max_size=12),
                st.sampled_from([b"\n", b"\r\n"]), st.booleans(), share=0.3)
    def prop(lines: list[bytes], eol: bytes, last_newline: bool) -> None:
        lines = [ln.replace(b"\n", b" ") for ln in lines]
        lines = [ln for ln in lines if b"quit" not in ln and b"corvid-param" not in ln
                 and b"loadsgf" not in ln and b"printsgf" not in ln]
        data = eol.join(lines) + (eol if last_newline else b"")
        out = io.BytesIO()
        assert serve(io.BytesIO(data), out, cfg) in (0, 1)  # 1: ended mid-game
        expected = sum(1 for ln in data.split(b"\n")
                       if len(ln) > MAX_LINE or preprocess(ln.decode("utf-8", "replace")))
        got = answers(out.getvalue())
        assert len(got) == expected
        if long_line in lines:
            assert any(r.text == "line too long" for r in got)  # type: ignore[attr-defined]
        assert not any("internal error" in r.text for r in got)  # type: ignore[attr-defined]


def test_sgf_commands_on_random_files(fuzz: Fuzz, tmp_path: Path) -> None:
    good = b"(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[dd])"

    @fuzz.check("gtp engine (loadsgf)", st.one_of(st.binary(max_size=200),
                                                  st.just(good).map(lambda g: g[:30]),
                                                  st.text(max_size=100).map(str.encode)),
                st.sampled_from(["", " 0", " 2", " -1", " 99"]))
    def prop(content: bytes, upto: str) -> None:
        f = tmp_path / "fuzz.sgf"
        f.write_bytes(content)
        engine = GtpEngine(GtpConfig(warmup=False, default_size=9), RandomMoves())
        for line in (f"loadsgf {f}{upto}", "showboard", f"printsgf {tmp_path / 'out.sgf'}",
                     "genmove b"):
            response, end = answer(engine, line)
            check_answer(line, response, end)


# -- the controller side (what the referee reads from an engine) ----------------------------
def test_controller_random_engine_output(fuzz: Fuzz) -> None:
    pieces = st.one_of(st.binary(max_size=40),
                       st.sampled_from([b"= ", b"? ", b"=1 ", b"\n", b"\n\n", b"\r\n",
                                        b"= D4\n\n", b"=12 pass\n\n", b"? illegal move\n\n",
                                        b"= A\nB\n\n", b"x", b"=x\n\n", b"\t"]))

    @fuzz.check("gtp controller", st.lists(pieces, max_size=20), st.booleans())
    def prop(chunks: list[bytes], eof: bool) -> None:
        c = Controller()
        try:
            for ch in chunks + ([b""] if eof else []):
                c.receive_data(ch)
                while (r := c.next_response()) is not None:
                    assert "\n\n" not in r.text
        except RemoteProtocolError:
            pass


# -- `corvid gtp` as a process ----------------------------------------------------------------
def test_corvid_gtp_process_on_random_input(fuzz: Fuzz) -> None:
    @fuzz.check("gtp engine (process)",
                st.lists(command_line().map(lambda s: s.encode("utf-8", "surrogatepass")
                                            .replace(b"\n", b" ")),
                         min_size=1, max_size=30),
                st.binary(max_size=200), slow=True, share=0.4)
    def prop(lines: list[bytes], tail: bytes) -> None:
        lines = [ln for ln in lines if b"quit" not in ln and b"param" not in ln
                 and b"sgf" not in ln]
        data = b"\n".join(lines) + b"\n" + tail.replace(b"quit", b"") + b"\nquit\n"
        proc = subprocess.run(
            [sys.executable, "-m", "clients.cli", "--log-level", "error", "gtp", "--set",
             "playouts=8", "--set", "warmup=false"],
            input=data, capture_output=True, timeout=120)
        assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
        got = answers(proc.stdout)
        assert got and got[-1].ok  # type: ignore[attr-defined]  # quit
        assert not any("internal error" in r.text for r in got)  # type: ignore[attr-defined]
        assert b"Traceback" not in proc.stderr
