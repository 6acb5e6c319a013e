"""``corvid gtp``: a GTP 2 engine on stdin/stdout (GoGui, Sabaki, CGOS, kgsGtp, twogtp)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import BinaryIO

import structlog

from clients.config import add_config_arguments, load_config
from clients.gtp.config import GtpConfig

DESCRIPTION = """\
A Go engine speaking GTP 2 on stdin/stdout: UCT with RAVE and priors over the fast playouts of
games.go, tree reuse between moves, Tromp-Taylor-safe passing and dead-stone cleanup (CGOS),
resignation, and time management from time_settings / time_left / kgs-time_settings that
keeps a reserve so it never loses on time. Nothing but GTP is written to stdout; logs go to
stderr (or --log-file, a global option given before `gtp`).

Settings (see clients/gtp/config.py; TOML file with --config, or --set key=value, or the GTP
command `corvid-param key value` at runtime): playouts (per move, default 3000), seconds (per
move when untimed), seed, workers (search processes, root-parallel), rave, rave_k, c,
priors, prior_scale, reuse, grandfather, playout_policy, weights (a `corvid go learn` file),
learned_priors, prior_visits, resign_threshold, resign_after, cleanup, time_reserve,
time_max_seconds, default_size, default_komi, ... (docs/gtp.md has them all).

Examples:
  corvid gtp --set playouts=3000
  corvid gtp --set playouts=0 --set workers=2    # time-limited, two search processes
  gogui -program "corvid gtp --set seconds=2"
  CGOS client: CommandLine = corvid --log-file corvid.log gtp --set playouts=0
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "gtp", help="run the Go engine (GTP on stdin/stdout)", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_config_arguments(p)
    p.set_defaults(func=run)


def serve(engine_input: BinaryIO, engine_output: BinaryIO, config: GtpConfig) -> int:
    """Answer GTP commands from ``engine_input`` until ``quit`` or end of input."""
    from clients.gtp.engine import GtpEngine
    from clients.gtp.player import SearchPlayer

    log = structlog.get_logger()
    player = SearchPlayer(config)
    engine = GtpEngine(config, player)
    try:
        if config.warmup:
            from clients.gtp.board import warm_up

            warm_up()
            player.warm_up()
            player.start()
        log.info("gtp_ready", name=config.name, workers=config.workers)
        for raw in engine_input:
            line = raw.decode("utf-8", errors="replace")
            log.debug("gtp_in", line=line.rstrip("\n"))
            response, end = engine.handle_line(line)
            if response:
                engine_output.write(response)
                engine_output.flush()
                log.debug("gtp_out", response=response.decode())
            if end:
                break
        return 0
    finally:
        player.close()  # stops the worker processes, if any


def run(args: argparse.Namespace) -> int:
    from clients.gtp.knowledge import load_knowledge

    config = load_config(GtpConfig, args.config, args.set)
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
