"""``corvid gtp``: a GTP 2 engine on stdin/stdout (GoGui, Sabaki, CGOS, kgsGtp, twogtp)."""

from __future__ import annotations

import argparse
import functools
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO

import structlog

from clients.config import add_config_arguments
from clients.gtp.config import GtpConfig, load_gtp_config, preset_help, styles_help

if TYPE_CHECKING:
    from clients.gtp.warmup import Player

DESCRIPTION = """\
A Go engine speaking GTP 2 on stdin/stdout: UCT with RAVE and learned priors (move-pattern
ratings fitted to Pachi's moves on 9x9, used up to 14x14, and to GNU Go's on 19x19, by the
board's size; `weights` loads another file, learned_priors=false gives the heuristic priors)
over fast playouts with Go knowledge, tree reuse between moves, Tromp-Taylor-safe passing and
dead-stone cleanup (CGOS), resignation, and time management from time_settings / time_left /
kgs-time_settings that keeps a reserve so it never loses on time; area or Japanese (territory)
rules (kgs-rules); live analysis for Sabaki and Lizzie (lz-analyze, kata-analyze,
genmove_analyze) and pondering (ponder=true).
Nothing but GTP is written to stdout; logs go to stderr (or --log-file, a global option given
before `gtp`).

Settings: a TOML file with --config, --set key=value, or the GTP command
`corvid-param key value` at runtime; all of them with their defaults are listed at the end
(docs/gtp.md explains them). The budget per move: seconds=S is S seconds per move (time only
unless playouts=N is given too, then whichever ends first); playouts=N alone (the default
3000) is N playouts; visits=V caps the root's visits, those kept from the last move
included, as Pachi's -t =V counts (alone, it is the budget); a clock from time_settings /
time_left takes over from seconds. A setting of a core not in use is refused. The exit
status is 0 after `quit` (or the end of input with no game in progress), 1 when the
controller went away mid-game, stopped reading, or sent nothing for `idle_timeout` seconds.

Examples:
  corvid gtp --set playouts=3000
  corvid gtp --set seconds=1 --set workers=2     # 1 s per move, two search processes
  corvid gtp --set preset=v1                      # the first release's engine
  corvid gtp --set style=fighting:2               # a fighting player, twice the default
  gogui -program "corvid gtp --set seconds=2"     # 2 s per move
  CGOS client: CommandLine = corvid --log-file corvid.log gtp --set playouts=0
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "gtp", help="run the Go engine (GTP on stdin/stdout)", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_config_arguments(p, GtpConfig, example="playouts=1000")
    p.epilog = f"{p.epilog}\n\npresets:\n  " + "\n  ".join(preset_help().splitlines())
    p.epilog += "\n\n" + styles_help()
    p.set_defaults(func=run)


MAX_LINE = 1 << 16  # bytes; a longer command line is answered "? line too long"
_EOF = None


def _input_fd(engine_input: BinaryIO) -> int | None:
    """The reader thread's own duplicate of the input's file descriptor (None for an
    in-memory stream). Taken before the thread starts, so the caller may close its file at
    any time after ``serve`` returns: the reader never reads a number the process has since
    given to another file, and reads its own descriptor until the end of input."""
    try:
        return os.dup(engine_input.fileno())
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both
        return None


def _read_lines(engine_input: BinaryIO, fd: int | None,
                lines: queue.Queue[bytes | None]) -> None:
    """The reader thread: whole lines (at most MAX_LINE bytes, then b"" for one too long),
    None at the end of input. A real file is read with os.read on ``fd`` (from
    :func:`_input_fd`, closed here at the end), so a thread still blocked in it when the
    engine exits holds no lock of the buffered stdin object."""
    buf = bytearray()
    overlong = False
    try:
        while True:
            chunk = os.read(fd, 65536) if fd is not None else engine_input.read(65536)
            if not chunk:
                break
            buf += chunk
            while (nl := buf.find(b"\n")) >= 0:
                lines.put(b"" if overlong or nl > MAX_LINE else bytes(buf[:nl + 1]))
                overlong = False
                del buf[:nl + 1]
            if len(buf) > MAX_LINE:  # no end in sight: keep nothing of it
                overlong = True
                buf.clear()
        if overlong or len(buf) > MAX_LINE:
            lines.put(b"")
        elif buf:
            lines.put(bytes(buf))
    except (OSError, ValueError):  # the input was closed under us
        pass
    finally:
        if fd is not None:
            os.close(fd)
    lines.put(_EOF)


def serve(engine_input: BinaryIO, engine_output: BinaryIO, config: GtpConfig,
          player: Player | None = None, warm: Callable[[], None] | None = None) -> int:
    """Answer GTP commands from ``engine_input`` until ``quit`` or end of input.

    ``player`` chooses the moves (default: the :class:`SearchPlayer` of ``config``). With
    ``config.warmup`` its warm-up (``warm``, default :func:`clients.gtp.warmup.warm_up` for
    the default board size) runs in the background: the protocol is answered at once, and
    the first command that needs the player waits for it.

    Returns 0 after ``quit``, or at the end of input with no game in progress; 1 when the
    input ends in the middle of a game without ``quit``, when no command came for
    ``idle_timeout`` seconds, or when the controller stopped reading our answers (each
    logged as ``gtp_controller_gone`` with the reason)."""
    from clients.gtp.engine import GtpEngine
    from clients.gtp.warmup import BackgroundWarmUp, warm_up

    log = structlog.get_logger()
    if player is None:
        from clients.gtp.player import SearchPlayer

        player = SearchPlayer(config)
    background = None
    if config.warmup:
        background = BackgroundWarmUp(
            player, warm or functools.partial(warm_up, player, config.default_size))
        background.start()
    engine = GtpEngine(config, player, ready=background.wait if background else None)
    lines: queue.Queue[bytes | None] = queue.Queue()
    reader = threading.Thread(target=_read_lines,
                              args=(engine_input, _input_fd(engine_input), lines),
                              name="gtp-stdin", daemon=True)
    try:
        log.info("gtp_ready", name=config.name, workers=config.workers)
        reader.start()

        def write(response: bytes) -> bool:
            if not response:
                return True
            try:
                engine_output.write(response)
                engine_output.flush()
            except (BrokenPipeError, OSError, ValueError) as e:
                log.error("gtp_controller_gone",
                          reason=f"cannot write the answer: {type(e).__name__}: {e}")
                return False
            log.debug("gtp_out", response=response.decode())
            return True

        last_command = time.monotonic()  # when the last answer went out
        while True:
            if engine.stream is not None:  # an answer streamed while no command waits
                interrupted = engine.stream.interruptible and not lines.empty()
                if not write(engine.stream_stop() if interrupted else engine.stream_step()):
                    return 1
                last_command = time.monotonic()
                if not interrupted:
                    continue
            idle = engine.config.idle_timeout
            waited = time.monotonic() - last_command
            if engine.ponder is not None and lines.empty() and (idle <= 0 or waited < idle):
                engine.ponder_step()  # on the opponent's time, until a command comes
                continue
            try:
                raw = lines.get(timeout=max(idle - waited, 0.0) if idle > 0 else None)
            except queue.Empty:
                log.error("gtp_controller_gone", reason=f"no command for {idle:g} s "
                          "(idle_timeout)", moves=len(engine.board.moves))
                return 1
            if raw is _EOF:
                if engine.board.moves:
                    log.error("gtp_controller_gone", reason="the input ended in the middle "
                              "of a game without quit", moves=len(engine.board.moves))
                    return 1
                log.info("gtp_input_closed")
                return 0
            if raw:
                line = raw.decode("utf-8", errors="replace")
                log.debug("gtp_in", line=line.rstrip("\n"))
                response, end = engine.handle_line(line)
            else:
                log.warning("gtp_line_too_long", limit=MAX_LINE)
                response, end = b"? line too long\n\n", False
            if not write(response):
                return 1
            last_command = time.monotonic()  # the controller's turn from now
            if end:
                return 0
    finally:
        if background is not None:  # stops the worker processes, if any
            background.close()
        else:
            player.close()


def run(args: argparse.Namespace) -> int:
    from clients.gtp.player import load_knowledge

    config = load_gtp_config(args.config, args.set)
    load_knowledge(config)  # a weights file the settings need must load (ConfigError)
    # Nothing but GTP may ever reach the real stdout: keep a private copy of it for the
    # answers and point both sys.stdout and file descriptor 1 at stderr, so a stray print
    # (ours or a library's, even from C) cannot corrupt the protocol stream.
    sys.stdout.flush()
    gtp_fd = os.dup(1)
    saved_fd = os.dup(1)
    saved_stdout = sys.stdout
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        with os.fdopen(gtp_fd, "wb", buffering=0) as gtp_out:
            return serve(sys.stdin.buffer, gtp_out, config)
    finally:
        os.dup2(saved_fd, 1)
        os.close(saved_fd)
        sys.stdout = saved_stdout
