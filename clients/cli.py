"""The one console script, ``corvid``.

Subcommands are not listed here: each component registers its own through the
``corvid.commands`` entry-point group in pyproject.toml (``name = "module:register"``), where
``register(subparsers)`` adds a sub-parser with ``func(args) -> int``. That keeps the import
arrows of the architecture: this module imports no server or game-specific client.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import entry_points

import structlog

from clients.jitcache import drop_stale_caches
from clients.logs import setup_logging


def add_plugins(subparsers: argparse._SubParsersAction, group: str) -> None:  # type: ignore[type-arg]
    """Register every subcommand of an entry-point group. One that fails to load is reported
    on stderr and left out, so the other commands keep working."""
    for ep in sorted(entry_points(group=group), key=lambda e: e.name):
        try:
            ep.load()(subparsers)
        except Exception as e:  # a broken plugin must not take the whole CLI down
            print(f"corvid: cannot load command {ep.name!r} ({ep.value}): "
                  f"{type(e).__name__}: {e}", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="corvid",
        allow_abbrev=False,  # else `corvid serve uecda --log F` would be taken as --log-file
        description="Tournament clients for Daihinmin (UECda), Go (GTP) and Blokus Duo (ICFPT) "
        "around one Monte Carlo decision core, with local mock servers and an arena.",
    )
    parser.add_argument(
        "--log-level", default="info", choices=["debug", "info", "warning", "error"],
        help="least level logged (default %(default)s)",
    )
    parser.add_argument(
        "--log-file", metavar="FILE", help="write logs as JSON lines to FILE (default: console)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_plugins(sub, "corvid.commands")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    drop_stale_caches()  # before any kernel runs: no compiled copy of an older source
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    setup_logging(args.log_level, args.log_file)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # the client boundary: say what went wrong, no traceback dump
        from clients.config import ConfigError
        from clients.extras import missing_extra
        from clients.faults import ServerFault
        from protocols.transport import TransportError

        if isinstance(e, ConfigError):
            print(f"corvid: {e}", file=sys.stderr)
            return 2
        if isinstance(e, ModuleNotFoundError) and (install := missing_extra(e)) is not None:
            structlog.get_logger().error("missing_extra", command=args.command, module=e.name)
            print(f"corvid {args.command}: {install}", file=sys.stderr)
            return 1
        # not our bug: one line, no traceback. The peer (server, controller, connection)
        # failed, or the system refused something asked of it (a file missing, no room)
        peer = isinstance(e, (ServerFault, TransportError, ConnectionError, TimeoutError))
        if peer or (isinstance(e, OSError) and e.errno is not None):
            structlog.get_logger().error("peer_fault" if peer else "system_error",
                                         command=args.command, error=str(e))
            print(f"corvid {args.command}: {e}", file=sys.stderr)
            return 1
        structlog.get_logger().exception("fatal_error", command=args.command)
        print(f"corvid {args.command}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
