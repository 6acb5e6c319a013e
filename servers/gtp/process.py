"""A GTP engine run as a subprocess, driven through the sans-I/O controller.

Every command has a deadline; the engine's output is read with ``selectors`` so a silent
engine is detected without threads. Failures are typed so the referee can say whose fault a
lost game was: :class:`EngineTimeout`, :class:`EngineCrashed`, or
``protocols.gtp.RemoteProtocolError`` for output that is not GTP.
"""

from __future__ import annotations

import os
import selectors
import shlex
import subprocess
import time
from typing import IO

from protocols.gtp import Controller, RemoteProtocolError, Response


class EngineError(Exception):
    """The engine process failed (its fault, not the referee's)."""


class EngineTimeout(EngineError):
    pass


class EngineCrashed(EngineError):
    pass


class EngineProcess:
    def __init__(self, command: str, label: str, stderr: IO[bytes] | int | None = None,
                 cwd: str | None = None) -> None:
        self.cmdline = command
        self.label = label
        self._stderr = subprocess.DEVNULL if stderr is None else stderr
        self._cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self.controller = Controller()
        self.start()

    def start(self) -> None:
        argv = shlex.split(self.cmdline)
        if not argv:
            raise ValueError("empty engine command")
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, bufsize=0, cwd=self._cwd)
        except OSError as e:
            raise EngineCrashed(f"{self.label}: cannot start {argv[0]!r}: {e}") from e
        self.controller = Controller()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def restart(self) -> None:
        self.close(0.5)
        self.start()

    def command_timed(self, name: str, *args: object,
                      timeout: float | None = None) -> tuple[Response, float]:
        """Send one command and wait for its answer; returns (answer, seconds it took)."""
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise EngineCrashed(f"{self.label}: not running")
        data = self.controller.send(name, *args)
        t0 = time.perf_counter()
        try:
            proc.stdin.write(data)
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineCrashed(f"{self.label}: cannot write to the engine ({e})") from e
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                resp = self.controller.next_response()  # may raise RemoteProtocolError
                if resp is not None:
                    return resp, time.perf_counter() - t0
                if self.controller.eof:
                    raise EngineCrashed(f"{self.label}: the engine closed its output")
                left = None if timeout is None else timeout - (time.perf_counter() - t0)
                if left is not None and left <= 0:
                    raise EngineTimeout(f"{self.label}: no answer to {name} in {timeout:g} s")
                if not sel.select(left):
                    continue
                chunk = os.read(fd, 65536)
                self.controller.receive_data(chunk)

    def command(self, name: str, *args: object, timeout: float | None = None) -> Response:
        return self.command_timed(name, *args, timeout=timeout)[0]

    def close(self, grace: float = 2.0) -> None:
        """``quit`` politely, then terminate / kill this engine process."""
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self.command("quit", timeout=grace)
            except (EngineError, RemoteProtocolError):
                pass
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.proc = None
