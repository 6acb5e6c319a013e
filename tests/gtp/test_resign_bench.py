"""bench/go_resign.py on a small recorded run: the resigned game played on to the end by the
run's own players, the result kept and a rerun resuming, and clear refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

OPTIONS = {"size": 5, "komi": 0.5, "timeout": 60.0, "main_time": 0.0, "scorer": None}
SPECS = ["corvid:playouts=40", "corvid:playouts=40,seed=3"]


def make_run(tmp: Path, main_time: float = 0.0) -> Path:
    """A run of three 5x5 games: corvid resigned the second (as black, after four moves) and
    won the others."""
    run = tmp / "run"
    run.mkdir()
    options = OPTIONS | {"main_time": main_time}
    (run / "run.json").write_text(json.dumps({"game": "gtp", "options": options}))
    games = [
        {"index": 0, "players": ["corvid", "opponent"], "specs": SPECS, "result": [1.0, 0.0],
         "reason": "resign", "moves": ["C3", "B2"]},
        {"index": 1, "players": ["corvid", "opponent"], "specs": SPECS, "result": [0.0, 1.0],
         "reason": "resign", "moves": ["C3", "C2", "B2", "D3"], "record": "sgf/g2.sgf"},
        {"index": 2, "players": ["opponent", "corvid"], "specs": SPECS[::-1],
         "result": [0.0, 1.0], "reason": "score", "moves": ["C3", "pass", "pass"]},
    ]
    (run / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))
    return run


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(REPO / "bench" / "go_resign.py"), *args],
                          capture_output=True, text=True, cwd=REPO, timeout=600)


def test_the_resigned_game_is_played_on_and_a_rerun_resumes(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    r = bench(str(run), "--json")
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout.strip().splitlines()[-1])
    assert figures["games"] == 3 and figures["resigned"] == figures["played_on"] == 1
    assert figures["won"] + figures["drawn"] + figures["lost"] == 1
    gain = (figures["won"] + figures["drawn"] / 2) / 3
    assert figures["gain_per_game"] == pytest.approx(gain, abs=1e-4)
    rec = json.loads((run / "resign.jsonl").read_text())
    assert rec["index"] == 1 and rec["resigned_at"] == 4 and rec["moves"] > 4
    assert rec["outcome"] in ("won", "drawn", "lost") and rec["record"] == "sgf/g2.sgf"
    if rec["reason"] == "score":  # as black: the margin has the sign of the score
        assert (rec["margin"] > 0) == (rec["outcome"] == "won")
    again = bench(str(run), "--json")  # resumes: nothing left to play
    assert again.returncode == 0 and "played on:" not in again.stdout
    assert json.loads(again.stdout.strip().splitlines()[-1]) == figures
    assert rec["settings"] == ["resign_threshold=0"]
    other = bench(str(run), "--set", "resign_threshold=0.01", "--json")  # other settings:
    assert other.returncode == 0 and "played on:" in other.stdout  # played on again
    assert len((run / "resign.jsonl").read_text().splitlines()) == 2


def test_a_clocked_run_and_a_missing_run_are_refused(tmp_path: Path) -> None:
    r = bench(str(make_run(tmp_path, main_time=30.0)))
    assert r.returncode != 0 and "clocked run" in r.stderr
    r = bench(str(tmp_path / "nowhere"))
    assert r.returncode != 0 and "not a readable Go arena run" in r.stderr
    assert "Traceback" not in r.stderr
