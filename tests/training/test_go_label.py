"""`corvid learn go label` and bench/go_mse.py on random games: labels, resuming, the MSE table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.goweights import make_weights, random_games
from tests.paths import REPO
from training.go.dataset import sgf_files
from training.go.label import label_positions, pick_positions, position_at, read_labels


def test_labels_resume_and_feed_the_mse_bench(tmp_path: Path) -> None:
    games = random_games(tmp_path / "g", games=3, seed=2)
    picks = pick_positions(sgf_files(games), 4, seed=5)
    assert len(set(picks)) == 4 and picks == pick_positions(sgf_files(games), 4, seed=5)
    f, m = picks[0]
    s = position_at(f, m)
    assert len(s.history) == m
    out = tmp_path / "labels.jsonl"
    labels = label_positions(games, out, positions=2, playouts=40, seed=5,
                             settings=["seed=3"], log=lambda _m: None)
    assert len(labels) == 2 and all(0 <= x.value <= 1 and x.playouts >= 40 for x in labels)
    again = label_positions(games, out, positions=3, playouts=40, seed=5, settings=[],
                            log=lambda _m: None)
    assert len(again) == 3 and again[:2] == labels  # the first two were kept
    weights = make_weights(tmp_path / "w", games=2)
    p = subprocess.run([sys.executable, "bench/go_mse.py", "--labels", str(out), "--games",
                        str(games), "--playouts", "16", "--policies", "2,3", "--weights",
                        str(weights), "--json"], cwd=REPO, capture_output=True, text=True,
                       check=False)
    assert p.returncode == 0, p.stderr
    figures = json.loads(p.stdout.strip().splitlines()[-1])
    assert figures["positions"] == 3 and set(figures["mse"]) == {"2", "3"}
    assert all(0 <= v <= 1 for v in figures["mse"].values())
    bad = subprocess.run([sys.executable, "bench/go_mse.py", "--labels", str(out), "--games",
                          str(games), "--policies", "2,9"], cwd=REPO, capture_output=True,
                         text=True, check=False)
    assert bad.returncode == 2 and "from 0 to 6" in bad.stderr
    assert read_labels(tmp_path / "none.jsonl") == []
