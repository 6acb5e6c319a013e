"""Stage 1: games for learning, played through the arena on the mock UECda server.

The games are split into chunks of ``chunk`` games (one match each, seeds S, S+1, ...), each
written as a tndhms game log ``OUT/games-SSSS.log``; a chunk whose log is complete is not
played again, so an interrupted run resumes. The logs record every dealt hand, the exchange
and every play, which is all the later stages need.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from clients.uecda.config import PRESETS
from games.daihinmin.replay import parse_log
from servers.arena.uecda import run_arena

DEFAULT_PLAYER = "corvid:preset=v1,playouts=10000"


def chunk_log(out: Path, i: int) -> Path:
    return out / f"games-{i:04d}.log"


def complete(path: Path, games: int) -> bool:
    if not path.exists():
        return False
    try:
        return len(parse_log(path.read_text()).games) == games
    except (ValueError, KeyError, IndexError):
        return False


def generate(out: Path, games: int, chunk: int, seed: int, players: list[str],
             on_chunk: Callable[[int, Path], None] | None = None) -> list[Path]:
    """Play ``games`` games in chunks into ``out``; returns the chunk logs. Each corvid player
    ``i`` gets ``seed=S*10+i`` unless its spec sets one, and the newest preset (the default
    player) unless it names one, so the run is reproducible after a default changes."""
    out.mkdir(parents=True, exist_ok=True)
    specs = []
    for i, p in enumerate(players):
        if p.startswith("corvid"):
            if "preset=" not in p:
                p = p + ("," if ":" in p else ":") + f"preset={list(PRESETS)[-1]}"
            if "seed=" not in p:
                p = p + f",seed={seed * 10 + i}"
        specs.append(p)
    (out / "generate.json").write_text(json.dumps({"games": games, "chunk": chunk,
                                                   "seed": seed, "players": specs}, indent=1))
    logs = []
    for i, start in enumerate(range(0, games, chunk)):
        n = min(chunk, games - start)
        path = chunk_log(out, i)
        if not complete(path, n):
            tmp = path.with_suffix(".partial")
            res = run_arena(specs, n, seed + i, timeout=120.0, log=str(tmp))
            if res.record.drops:
                raise RuntimeError(f"chunk {i}: a client was replaced by a stand-in: "
                                   f"{res.record.drops[0]}")
            tmp.replace(path)
        logs.append(path)
        if on_chunk is not None:
            on_chunk(i, path)
    return logs
