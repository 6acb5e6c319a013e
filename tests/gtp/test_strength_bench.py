"""bench/go_strength.py: the pooled figures of a run split over parallel referees."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.paths import REPO

BENCH = REPO / "bench" / "go_strength.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("go_strength", BENCH)
    assert spec is not None and spec.loader is not None
    sys.path.insert(0, str(BENCH.parent))
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH.parent))
    return module


def test_pool_sums_the_parts_and_counts_draws_half() -> None:
    pool = _bench().pool
    parts = [{"games": 50, "wins": 26, "draws": 5, "losses": 19},
             {"games": 50, "wins": 27, "draws": 7, "losses": 16}]
    got = pool(parts)
    assert (got["games"], got["wins"], got["draws"], got["losses"]) == (100, 53, 12, 35)
    assert got["win_rate"] == 0.59
    lo, hi = got["ci95"]
    assert 0.49 < lo < 0.5 and 0.68 < hi < 0.69


def _gnugo() -> str | None:
    return shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games:/usr/local/games")


@pytest.mark.integration
@pytest.mark.skipif(_gnugo() is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_parallel_run_pools_its_referees(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--games", "3", "--parallel", "2", "--playouts", "30",
         "--size", "5", "--komi", "0.5", "--level", "0", "--sgf-dir", str(tmp_path),
         "--json"],
        capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    parts = [json.loads(ln.split(" ", 1)[1]) for ln in lines if ln.startswith("[") and "{" in ln]
    assert sorted(p["games"] for p in parts) == [1, 2]
    pooled = json.loads(lines[-1])
    for key in ("games", "wins", "draws", "losses"):
        assert pooled[key] == sum(p[key] for p in parts)
    assert pooled["games"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["part-1", "part-2"]
    assert len(list(tmp_path.glob("part-*/game-*.sgf"))) == 3
