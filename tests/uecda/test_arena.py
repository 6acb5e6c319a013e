"""The arena end to end: a server in this process, five client subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.daihinmin.replay import replay_log

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.integration
def test_arena_cli_json(tmp_path: Path) -> None:
    log = tmp_path / "arena.log"
    cmd = [sys.executable, "-m", "clients.cli", "--log-level", "error", "arena", "uecda",
           "--games", "3", "--seed", "4", "--game-log", str(log), "--json",
           "--out", str(tmp_path / "run"),
           "--player", "corvid:playouts=100,seed=1", "--player", "baseline",
           "--player", "baseline", "--player", "corvid:core=baseline", "--player", "baseline"]
    out = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    players = report["players"]
    assert [p["spec"] for p in players][:2] == ["corvid:playouts=100,seed=1", "baseline"]
    assert report["games"] == 3
    assert sum(p["points_per_game"] for p in players) == pytest.approx(15.0)
    for p in players:
        lo, hi = p["ci95"]
        assert lo <= p["points_per_game"] <= hi
    assert "stand-in" not in out.stdout
    assert replay_log(log).ok
