"""bench/go_openings.py: a player's games scored by the first move's symmetry class."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.paths import REPO

BENCH = REPO / "bench" / "go_openings.py"


def game(players: list[str], result: list[float | None], moves: list[str], size: int = 9
         ) -> str:
    return json.dumps({"players": players, "result": result, "moves": moves,
                       "options": {"size": size}})


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True,
                          text=True, check=False, cwd=REPO)


def test_the_first_moves_are_classed_up_to_symmetry_and_scored(tmp_path: Path) -> None:
    (tmp_path / "games.jsonl").write_text("\n".join([
        game(["corvid", "gnugo"], [1.0, 0.0], ["E5", "C4"]),
        game(["corvid", "gnugo"], [0.5, 0.5], ["E5", "C4"]),
        game(["corvid", "gnugo"], [0.0, 1.0], ["F5", "C4"]),  # beside the centre: D5
        game(["corvid", "gnugo"], [1.0, 0.0], ["E4", "C4"]),
        game(["corvid", "gnugo"], [1.0, 0.0], ["G7", "C4"]),  # the 3-3 point: C3
        game(["gnugo", "corvid"], [0.0, 1.0], ["J1", "E5"]),  # corvid white: its opponent's
        game(["gnugo", "corvid"], [0.0, 1.0], ["pass", "E5"]),
        game(["gnugo", "corvid"], [None, None], ["E5"]),  # unfinished: not counted
        game(["a", "b"], [1.0, 0.0], ["F6", "E5"]),  # no corvid: the first player
    ]) + "\n")
    p = run(str(tmp_path), "--json")
    assert p.returncode == 0, p.stderr
    table = json.loads(p.stdout.splitlines()[-1])
    assert table == {"black": {"E5": [1, 1, 0], "D5": [1, 0, 1], "C3": [1, 0, 0],
                               "D4": [1, 0, 0]},
                     "white": {"A1": [1, 0, 0], "pass": [1, 0, 0]}}
    assert "0.750" in p.stdout  # E5: a win and a jigo of two
    other = json.loads(run(str(tmp_path), "--player", "a", "--json").stdout.splitlines()[-1])
    assert other == {"black": {"D4": [1, 0, 0]}, "white": {}}


def test_a_directory_without_games_is_refused(tmp_path: Path) -> None:
    p = run(str(tmp_path))
    assert p.returncode == 2 and "no games.jsonl" in p.stderr


def test_plies_class_the_first_moves_under_one_symmetry(tmp_path: Path) -> None:
    (tmp_path / "games.jsonl").write_text("\n".join([
        game(["corvid", "gnugo"], [1.0, 0.0], ["D5", "F5", "E3", "C4"]),
        game(["corvid", "gnugo"], [0.0, 1.0], ["D5", "F5", "E4", "G3"]),
        game(["corvid", "gnugo"], [0.5, 0.5], ["F5", "D5", "E6"]),  # mirrored: D5 F5 E4
        game(["corvid", "gnugo"], [0.0, 1.0], ["E6", "E4", "D5"]),  # turned: D5 F5 E4
        game(["corvid", "gnugo"], [1.0, 0.0], ["E6", "E4", "F5"]),  # turned: D5 F5 E6 = E4's
        game(["corvid", "gnugo"], [1.0, 0.0], ["D5", "F5"]),  # too short: left out
        game(["gnugo", "corvid"], [0.0, 1.0], ["E5", "pass", "C3"]),
    ]) + "\n")
    p = run(str(tmp_path), "--plies", "3", "--json")
    assert p.returncode == 0, p.stderr
    table = json.loads(p.stdout.splitlines()[-1])
    assert table == {"black": {"D5 F5 E3": [1, 0, 0], "D5 F5 E4": [1, 1, 2]},
                     "white": {"E5 pass C3": [1, 0, 0]}}
    assert "first 3 moves" in p.stdout
    assert run(str(tmp_path), "--plies", "0").returncode == 2
