"""Training games made here: a GTP engine against itself (or another), one SGF per game.

    corvid learn go selfplay --engine "gnugo --mode gtp --level 10 --seed {seed}" --games 2000 \\
        --out data/go/gnugo10

Games are played through the GTP referee (:mod:`servers.gtp.match`: every move validated,
Tromp-Taylor scoring). ``{seed}`` in an engine's command line is replaced by a seed of its own
per game and side (``seed + 2 * game`` for black, ``+ 1`` for white), and the engine is
started anew for each game, so a deterministic engine such as GNU Go plays different games;
a command without ``{seed}`` keeps one process for all its games. The run is resumable: game
``g`` goes to ``game-GGGGG.sgf`` (written whole, then renamed), games already in the
directory are skipped, and ``games.jsonl`` gets one line per finished game (seeds, result,
moves, seconds). ``--parallel J`` plays J games at once (the engines are processes; the
referees are threads of this one).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from protocols.gtp import RemoteProtocolError
from servers.gtp.match import GameResult, MatchConfig, play_game, write_sgf
from servers.gtp.process import EngineError, EngineProcess


@dataclass(frozen=True)
class SelfplayConfig:
    black: str  # engine command lines; "{seed}" is replaced per game
    white: str
    games: int
    out: Path
    size: int = 9
    komi: float = 7.0
    seed: int = 1
    parallel: int = 1
    timeout: float = 120.0


def game_path(out: Path, g: int) -> Path:
    return out / f"game-{g:05d}.sgf"


def pending_games(cfg: SelfplayConfig) -> list[int]:
    """Game numbers (1-based) without an SGF in the output directory yet."""
    return [g for g in range(1, cfg.games + 1) if not game_path(cfg.out, g).exists()]


def engine_seeds(cfg: SelfplayConfig, g: int) -> tuple[int, int]:
    return cfg.seed + 2 * g, cfg.seed + 2 * g + 1


class _Side:
    """One side's engine: started per game if its command takes a seed, else kept."""

    def __init__(self, template: str, name: str) -> None:
        self.template = template
        self.name = name
        self.per_game = "{seed}" in template
        self.engine: EngineProcess | None = None
        self.base_label = name

    def for_game(self, seed: int) -> EngineProcess:
        if self.engine is not None and (self.per_game or not self.engine.alive):
            self.engine.close(1.0)
            self.engine = None
        if self.engine is None:
            cmd = self.template.replace("{seed}", str(seed))
            self.engine = EngineProcess(cmd, self.name)
            self.base_label = _label(self.engine, self.name)
        self.engine.label = f"{self.base_label} seed {seed}" if self.per_game else self.base_label
        return self.engine

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close(1.0)
            self.engine = None


def _label(engine: EngineProcess, fallback: str) -> str:
    try:
        name = engine.command("name", timeout=300.0)
        version = engine.command("version", timeout=60.0)
    except (EngineError, RemoteProtocolError):
        return fallback
    text = " ".join(r.text.strip() for r in (name, version) if r.ok and r.text.strip())
    return text or fallback


def run_selfplay(cfg: SelfplayConfig,
                 on_game: Callable[[int, GameResult, float], None] | None = None) -> int:
    """Play the games missing from ``cfg.out``; returns how many were played now."""
    if cfg.games < 1 or cfg.parallel < 1:
        raise ValueError("games and parallel must be at least 1")
    cfg.out.mkdir(parents=True, exist_ok=True)
    todo = pending_games(cfg)
    match = MatchConfig(size=cfg.size, komi=cfg.komi, timeout=cfg.timeout)
    lock = threading.Lock()
    index = cfg.out / "games.jsonl"
    jobs = min(cfg.parallel, len(todo))
    played = 0

    def worker(share: list[int]) -> None:
        nonlocal played
        black, white = _Side(cfg.black, "black"), _Side(cfg.white, "white")
        try:
            for g in share:
                sb, sw = engine_seeds(cfg, g)
                t0 = time.perf_counter()
                result = play_game(black.for_game(sb), white.for_game(sw), match)
                took = time.perf_counter() - t0
                for side, colour in ((black, 0), (white, 1)):
                    if result.faulty == colour and side.engine is not None:
                        side.engine.restart()
                path = game_path(cfg.out, g)
                tmp = path.with_suffix(".tmp")
                write_sgf(result, match, tmp)
                os.replace(tmp, path)
                record = {"game": g, "black_seed": sb, "white_seed": sw,
                          "black": result.black, "white": result.white,
                          "result": result.result_text, "reason": result.reason,
                          "moves": len(result.moves), "seconds": round(took, 2)}
                with lock:
                    with index.open("a", encoding="utf-8") as f:
                        f.write(json.dumps(record) + "\n")
                    played += 1
                    if on_game is not None:
                        on_game(g, result, took)
        finally:
            black.close()
            white.close()

    if jobs == 0:
        return 0
    shares = [todo[j::jobs] for j in range(jobs)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for fut in [pool.submit(worker, s) for s in shares]:
            fut.result()
    return played
