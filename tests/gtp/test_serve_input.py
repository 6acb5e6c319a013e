"""The reader of ``serve``'s input: it reads a descriptor of its own, so a caller that closes
its file once ``serve`` has returned cannot have the still-running reader read whatever file
the process opens next under the same number."""

from __future__ import annotations

import io
import os
import queue

import pytest

from clients.gtp.cli import _input_fd, _read_lines


def test_the_reader_keeps_its_own_descriptor_when_the_caller_closes_its_file() -> None:
    r1, w1 = os.pipe()
    engine_input = os.fdopen(r1, "rb")
    fd = _input_fd(engine_input)
    engine_input.close()  # the caller is done with it; the number r1 is free again
    r2, w2 = os.pipe()  # the next file, most likely under r1's number
    try:
        os.write(w2, b"not for the engine\n")
        os.write(w1, b"quit\n")
        os.close(w1)
        lines: queue.Queue[bytes | None] = queue.Queue()
        _read_lines(engine_input, fd, lines)  # as the reader thread starts late, now
        assert [lines.get_nowait(), lines.get_nowait()] == [b"quit\n", None]
        assert os.read(r2, 100) == b"not for the engine\n"  # untouched
        assert fd is not None
        with pytest.raises(OSError):  # closed by the reader at the end of input
            os.fstat(fd)
    finally:
        os.close(r2)
        os.close(w2)


def test_an_in_memory_input_is_read_without_a_descriptor() -> None:
    engine_input = io.BytesIO(b"name\nquit")
    assert _input_fd(engine_input) is None
    lines: queue.Queue[bytes | None] = queue.Queue()
    _read_lines(engine_input, None, lines)
    assert [lines.get_nowait() for _ in range(3)] == [b"name\n", b"quit", None]
