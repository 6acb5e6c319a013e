"""structlog, set up once at the entry point.

Console rendering (on stderr) for a person; JSON lines to ``--log-file`` for machines. Never
stdout: GTP engines own stdout.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, TextIO

import structlog

_log_file: TextIO | None = None


def setup_logging(level: str = "info", log_file: str | None = None) -> None:
    global _log_file
    lvl = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    processors: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if log_file:
        if _log_file is not None:
            _log_file.close()
        _log_file = open(log_file, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
        processors += [structlog.processors.dict_tracebacks, structlog.processors.JSONRenderer()]
        factory: Any = structlog.WriteLoggerFactory(file=_log_file)
    else:
        processors.append(structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty()))
        factory = structlog.PrintLoggerFactory(file=sys.stderr)
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(lvl),
        logger_factory=factory,
        cache_logger_on_first_use=False,
    )
