"""``corvid arena`` as a user runs it: a subprocess whose stderr is not a terminal (plain
progress lines), the table, ``--json`` last, ``--plot``, ``--resume`` and the help."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

pytestmark = pytest.mark.integration
PASSER = f"cmd:{sys.executable} {REPO / 'tests' / 'arena' / 'passer.py'}"


def corvid(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clients.cli", "--log-level", "error", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=600, check=False)


def test_blokus_run_with_progress_json_plot_and_resume(tmp_path: Path) -> None:
    out, png = tmp_path / "run", tmp_path / "ratings.png"
    p = corvid("arena", "blokus", "--games", "4", "--player", "first-legal", "--player",
               "big=biggest", "--seed", "3", "--out", str(out), "--plot", str(png), "--json",
               "--progress-every", "2")
    assert p.returncode == 0, p.stderr
    progress = [ln for ln in p.stderr.splitlines() if ln.startswith("arena blokus: ")]
    assert [ln.split(" games")[0] for ln in progress[1:]] == ["arena blokus: 2/4",
                                                               "arena blokus: 4/4"]
    assert "big 1.00" in progress[-1] or "big 0.75" in progress[-1]
    report = json.loads(p.stdout.strip().splitlines()[-1])
    assert (report["game"], report["games"], report["failed"], report["seed"]) == \
        ("blokus", 4, 0, 3)
    assert [r["label"] for r in report["players"]] == ["first-legal", "big"]
    assert report["players"][1]["win_rate"] == report["players"][1]["result"]
    assert report["pairings"][0]["games"] == 4
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "win rate" in p.stdout and "first-legal vs big" in p.stdout
    again = corvid("arena", "blokus", "--resume", str(out), "--json")
    assert again.returncode == 0, again.stderr
    assert "0 games to play" in again.stderr
    assert json.loads(again.stdout.strip().splitlines()[-1])["games"] == 4
    bad = corvid("arena", "blokus", "--resume", str(out), "--games", "6")
    assert bad.returncode == 2 and "games 6" in bad.stderr and "Traceback" not in bad.stderr
    clash = corvid("arena", "gtp", "--resume", str(out))
    assert clash.returncode == 2 and "holds a blokus run" in clash.stderr


def test_sweep_plot_with_corvid_engines(tmp_path: Path) -> None:
    png = tmp_path / "sweep.png"
    p = corvid("arena", "gtp", "--size", "5", "--komi", "0.5", "--games", "2", "--sweep",
               "playouts=8,16", "--player", "corvid", "--player", f"passer={PASSER}",
               "--parallel", "1", "--seed", "1", "--out", str(tmp_path / "run"), "--plot",
               str(png), "--json")
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout.strip().splitlines()[-1])
    rows = {r["label"]: r for r in report["players"]}
    assert set(rows) == {"corvid:playouts=8", "corvid:playouts=16", "passer"}
    assert rows["corvid:playouts=8"]["sweep"] == "8" and rows["passer"]["sweep"] is None
    assert rows["passer"]["games"] == 4 and rows["corvid:playouts=16"]["games"] == 2
    assert png.stat().st_size > 10_000
    for line in (tmp_path / "run" / "games.jsonl").read_text().splitlines():
        assert json.loads(line)["status" if "status" in line else "result"] != "failed"


def test_usage_errors_are_short_and_help_is_clean() -> None:
    p = corvid("arena", "uecda", "--player", "corvid", "--player", "gnugo")
    assert p.returncode == 2 and "unknown player 'gnugo'" in p.stderr
    assert "Traceback" not in p.stderr
    p = corvid("arena", "gtp")
    assert p.returncode == 2 and "--player" in p.stderr
    p = corvid("arena", "gtp", "--player", PASSER, "--player", PASSER, "--main-time", "5",
               "--untimed", "gnugo")
    assert p.returncode == 2 and "no player labelled gnugo" in p.stderr
    assert "Traceback" not in p.stderr
    h = corvid("arena", "--help")
    assert h.returncode == 0 and "95%%" not in h.stdout and "95%" in h.stdout
    for game in ("uecda", "gtp", "blokus"):
        h = corvid("arena", game, "--help")
        assert h.returncode == 0 and "--resume DIR" in h.stdout and "``" not in h.stdout


def test_serve_uecda_shows_progress_when_not_a_terminal() -> None:
    p = corvid("serve", "uecda", "--games", "6", "--accept-timeout", "0.2", "--port", "0",
               "--progress-every", "2", "--seed", "1")
    assert p.returncode == 0, p.stderr
    lines = p.stderr.splitlines()
    assert lines[0].startswith("corvid serve uecda: listening on 127.0.0.1:")
    done = [ln.split(" games")[0] for ln in lines if ln.startswith("serve uecda: ")]
    assert done == ["serve uecda: 2/6", "serve uecda: 4/6", "serve uecda: 6/6"]
    assert "0:standin" in lines[-1]
