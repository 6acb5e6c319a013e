"""Shared helpers for benchmark scripts: a table printer, the --json last line, and the
options and run of a bench that plays on the arena."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from servers.arena import GameRecord, RunResult

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # so `python bench/x.py` works from anywhere
    sys.path.insert(0, str(ROOT))

from clients.jitcache import drop_stale_caches  # noqa: E402

drop_stale_caches()  # no bench runs a compiled copy of an older source


def print_table(title: str, rows: list[tuple[str, Any]]) -> None:
    width = max(len(k) for k, _ in rows)
    print(title)
    print("-" * len(title))
    for k, v in rows:
        if isinstance(v, float):
            v = f"{v:,.3f}" if abs(v) < 100 else f"{v:,.0f}"
        print(f"{k:<{width}}  {v}")


def emit_json(figures: dict[str, Any]) -> None:
    print(json.dumps(figures))


def add_arena_arguments(p: Any, name: str) -> None:
    """The options of a bench that plays on the arena: --parallel, --backend,
    --ray-address, --out / --resume (default run directory runs/NAME-TIME)."""
    p.add_argument("--parallel", type=int, default=1, metavar="J", help="games at once")
    p.add_argument("--backend", choices=["inprocess", "ray"], default="inprocess")
    p.add_argument("--ray-address", metavar="ADDR", help="with --backend ray: a cluster")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--out", metavar="DIR", help=f"run directory (default runs/{name}-TIME)")
    where.add_argument("--resume", metavar="DIR", help="continue the run in DIR")


def arena_out(args: Any, name: str) -> str:
    """The run directory: --resume's, --out's, or a new runs/NAME-TIME."""
    import datetime

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return str(args.resume or args.out or f"runs/{name}-{stamp}")


def play_on_arena(args: Any, game: str, players: list[str], options: dict[str, Any],
                  on_game: Callable[[GameRecord], None], name: str) -> RunResult | None:
    """Play (or resume) a bench's run on the arena; None, after saying why on stderr, when
    it cannot be made."""
    from servers.arena import ArenaError, run

    common: dict[str, Any] = {"backend": args.backend, "parallel": args.parallel,
                              "ray_address": args.ray_address, "on_game": on_game}
    try:
        if args.resume:
            return run(game, resume=args.resume, **common)
        return run(game, players, games=args.games, seed=args.seed, options=options,
                   out=arena_out(args, name), **common)
    except ArenaError as e:
        print(f"{name}: {e}", file=sys.stderr)
        return None
