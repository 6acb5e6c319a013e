"""`corvid learn go balance --target uct`: UCT balancing's targets are the search's values,
kept in a file the next run resumes from, and the option runs end to end through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from games.go import GoState
from games.go.coords import point
from games.go.sgf import to_sgf
from knowledge.go.weights import load_weights
from tests.goweights import make_weights, random_games
from tests.paths import REPO
from training.go.balance import balance_weights, load_positions, uct_targets
from training.go.label import labelling_config, read_labels, search_value


def lost_game(directory: Path) -> Path:
    """A game recorded as won by black (B+R) though a komi of 80 loses it for black from
    every position: the result says one thing, any search the other."""
    directory.mkdir(parents=True, exist_ok=True)
    s = GoState(9, 80.0)
    for r, c in ((2, 2), (6, 6), (2, 6), (6, 2), (4, 4), (4, 6), (3, 3), (5, 5), (3, 4),
                 (5, 4)):
        s.play(point(9, r, c))
    s.pass_move()
    (directory / "game-00001.sgf").write_bytes(to_sgf(s, result="B+R"))
    return directory


def test_the_uct_target_is_the_search_value_not_the_result(tmp_path: Path) -> None:
    positions = load_positions([lost_game(tmp_path / "g")], every=1, skip=2)
    assert len(positions) == 8
    assert [t for _, t in positions] == [1.0, 0.0] * 4  # black won, says the record
    cache = tmp_path / "targets.jsonl"
    logs: list[str] = []
    got = uct_targets(positions, 300, cache, log=logs.append)
    assert [p for p, _ in got] == [p for p, _ in positions]
    values = np.array([v for _, v in got])
    # white wins, whoever is to move (the priors' virtual wins keep black's above 0 at 300)
    assert np.all(values[0::2] < 0.5) and np.all(values[1::2] > 0.9)
    pos, value = got[3]
    rng = np.random.default_rng([zlib.crc32(Path(pos.game).name.encode()), pos.move])
    again, run = search_value(pos.state.clone(), labelling_config([]), 300, rng)
    assert round(again, 5) == value and run >= 300  # the search's value, seeded by position
    assert [(x.game, x.move, x.value) for x in read_labels(cache)] == \
        [(p.game, p.move, v) for p, v in got]
    logs.clear()
    assert uct_targets(positions, 300, cache, log=logs.append) == got  # read back, not searched
    assert "8 in" in logs[0] and "searching 0" in logs[0]


def test_an_interrupted_uct_run_resumes_from_its_targets(tmp_path: Path) -> None:
    games = lost_game(tmp_path / "g")
    positions = load_positions([games], every=1, skip=2)
    cache = tmp_path / "targets.jsonl"
    first = uct_targets(positions[:3], 40, cache, log=lambda _m: None)
    logs: list[str] = []
    whole = uct_targets(positions, 40, cache, log=logs.append)
    assert whole[:3] == first and "3 in" in logs[0] and "searching 5" in logs[0]
    assert len(read_labels(cache)) == 8


def test_uct_balancing_through_the_cli(tmp_path: Path) -> None:
    weights = make_weights(tmp_path / "w", games=2)
    games = random_games(tmp_path / "g", games=2, seed=5)
    out = tmp_path / "uct.npz"
    cmd = [sys.executable, "-m", "clients.cli", "learn", "go", "balance", "--weights",
           str(weights), "--games", str(games), "--out", str(out), "--positions", "4",
           "--m", "2", "--n", "2", "--batch", "2", "--target", "uct", "--target-playouts",
           "30"]
    p = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stderr
    assert "searching 4 at 30 playouts" in p.stdout
    manifest = load_weights(str(out)).manifest["simulation_balancing"]
    assert manifest["target"] == "uct" and manifest["target_playouts"] == 30
    assert manifest["targets_file"] == "uct.uct-30.jsonl"
    assert "--target uct" in manifest["command"]
    targets = read_labels(tmp_path / "uct.uct-30.jsonl")
    assert len(targets) == 4 and all(0 <= x.value <= 1 for x in targets)
    again = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    assert again.returncode == 0 and "4 in" in again.stdout and "searching 0" in again.stdout
    bad = subprocess.run([*cmd[:-4], "--target", "deep"], cwd=REPO, capture_output=True,
                         text=True, check=False)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
    helptext = subprocess.run([*cmd[:6], "--help"], cwd=REPO, capture_output=True, text=True,
                              check=False).stdout
    assert "--target" in helptext and "UCT balancing" in helptext and "result" in helptext


def test_the_result_target_is_recorded_in_the_manifest(tmp_path: Path) -> None:
    weights = make_weights(tmp_path / "w", games=2)
    games = random_games(tmp_path / "g", games=2, seed=5)
    out = tmp_path / "sb.npz"
    balance_weights(str(weights), [games], out, positions=4, m_playouts=2, n_playouts=2,
                    batch=2, log=lambda _m: None)
    manifest = json.loads(out.with_suffix(".json").read_text())["simulation_balancing"]
    assert manifest["target"] == "result" and manifest["target_playouts"] is None
    assert not list(tmp_path.glob("*.jsonl"))  # no search made
    with pytest.raises(ValueError, match="one of result, uct"):
        balance_weights(str(weights), [games], out, target="deep", log=lambda _m: None)
