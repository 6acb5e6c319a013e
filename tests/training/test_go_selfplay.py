"""`corvid learn go selfplay`: GNU Go on 5x5 at level 0 (a second a game), seeds, resuming."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sgfmill import sgf

from tests.paths import REPO
from training.go.selfplay import SelfplayConfig, engine_seeds, pending_games, run_selfplay


def _gnugo() -> str | None:
    return shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games:/usr/local/games")


GNUGO = _gnugo()
needs_gnugo = pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed")


def test_seeds_and_pending_games(tmp_path: Path) -> None:
    cfg = SelfplayConfig("a {seed}", "b", games=3, out=tmp_path, seed=10)
    assert engine_seeds(cfg, 1) == (12, 13) and engine_seeds(cfg, 2) == (14, 15)
    (tmp_path / "game-00002.sgf").write_text("(;)")
    assert pending_games(cfg) == [1, 3]


@needs_gnugo
def test_selfplay_writes_games_and_resumes(tmp_path: Path) -> None:
    engine = f"{GNUGO} --mode gtp --level 0 --seed {{seed}}"
    cfg = SelfplayConfig(engine, engine, games=2, out=tmp_path, size=5, komi=3.0, seed=1)
    assert run_selfplay(cfg) == 2
    assert run_selfplay(cfg) == 0  # nothing left to do
    wider = SelfplayConfig(engine, engine, games=3, out=tmp_path, size=5, komi=3.0, seed=1,
                           parallel=2)
    assert run_selfplay(wider) == 1
    records = [json.loads(x) for x in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert sorted(r["game"] for r in records) == [1, 2, 3]
    assert {r["black_seed"] for r in records} == {3, 5, 7}
    for g in (1, 2, 3):
        game = sgf.Sgf_game.from_bytes((tmp_path / f"game-{g:05d}.sgf").read_bytes())
        assert game.get_size() == 5
        assert "seed" in game.get_root().get("PB")
        assert len(game.get_main_sequence()) > 3


def corvid(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clients.cli", "--log-level", "warning",
                           *args], capture_output=True, text=True, check=False, cwd=REPO)


@needs_gnugo
def test_cli(tmp_path: Path) -> None:
    p = corvid("learn", "go", "selfplay", "--engine",
               f"{GNUGO} --mode gtp --level 0 --seed {{seed}}",
               "--games", "1", "--size", "5", "--out", str(tmp_path / "d"))
    assert p.returncode == 0, p.stderr
    assert "0 of 1 games already" in p.stdout and "game     1" in p.stdout
    bad = corvid("learn", "go", "selfplay", "--engine", "x", "--games", "0", "--out", str(tmp_path))
    assert bad.returncode == 2 and "at least 1" in bad.stderr
