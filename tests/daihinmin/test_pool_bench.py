"""bench/daihinmin_pool.py on hand-made --out files: the games of several runs pooled, the
first player against the others and against another set of runs on the same seeds, the next
game after each result; a match met twice or two line-ups refused."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.paths import load_bench

SPECS = ["new=corvid:seed=1", "paoon=cmd:client", "v2=corvid:preset=v2", "v1=corvid:preset=v1",
         "baseline=baseline"]


def _bench() -> ModuleType:
    return load_bench("daihinmin_pool")


def _write(path: Path, chunks: dict[int, list[list[int]]], specs: list[str] = SPECS) -> str:
    path.write_text("".join(json.dumps({"chunk": i, "seed": seed, "specs": specs,
                                        "points": games}) + "\n"
                            for i, (seed, games) in enumerate(chunks.items())))
    return str(path)


def _figures(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert _bench().main([*argv, "--json"]) == 0
    figures: dict[str, Any] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return figures


def test_the_runs_games_are_pooled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _write(tmp_path / "a.out", {1: [[5, 4, 3, 2, 1], [4, 5, 3, 2, 1]]})
    b = _write(tmp_path / "b.out", {301: [[1, 5, 4, 3, 2], [5, 1, 4, 3, 2], [5, 4, 3, 1, 2]]})
    fig = _figures(capsys, a, b, "--block", "1")
    assert fig["games"] == 5
    assert [p["name"] for p in fig["players"]] == ["new", "paoon", "v2", "v1", "baseline"]
    assert [p["points_per_game"] for p in fig["players"]] == [4.0, 3.8, 3.4, 2.2, 1.6]
    paoon = fig["diffs"][0]
    assert paoon["names"] == ["new", "paoon"] and paoon["mean"] == pytest.approx(0.2)
    lo, hi = paoon["ci95"]
    assert lo < 0.2 < hi
    # new: 5 then 4 (seed 1); 1, 5, 5 (seed 301): after a 5, a 4 and a 5; after the 1, a 5
    assert fig["after"]["new"] == {"5": [2, 4.5], "1": [1, 5.0]}


def test_against_pairs_the_first_players_on_the_seeds_both_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new = _write(tmp_path / "new.out", {1: [[5, 1, 1, 1, 1]] * 4, 2: [[4, 1, 1, 1, 1]] * 4,
                                        3: [[3, 1, 1, 1, 1]] * 4})
    old = _write(tmp_path / "old.out", {1: [[3, 1, 1, 1, 1]] * 4, 2: [[4, 1, 1, 1, 1]] * 2},
                 specs=["old=corvid:seed=2"] + SPECS[1:])
    fig = _figures(capsys, new, "--against", old, "--block", "2")
    a = fig["against"]
    # seed 1: +2 in four games; seed 2: 0 in the two games both played; seed 3: old has none
    assert a["games"] == 6 and a["spec"] == "old=corvid:seed=2"
    assert a["mean"] == pytest.approx(8 / 6, abs=1e-4)


def test_a_match_met_twice_or_two_lineups_are_refused(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.out", {1: [[5, 4, 3, 2, 1]]})
    again = _write(tmp_path / "again.out", {1: [[5, 4, 3, 2, 1]]})
    with pytest.raises(SystemExit, match="seed 1 is in"):
        _bench().main([a, again])
    other = _write(tmp_path / "other.out", {2: [[5, 4, 3, 2, 1]]}, specs=SPECS[::-1])
    with pytest.raises(SystemExit, match="other players"):
        _bench().main([a, other])
    (tmp_path / "bad.out").write_text("{\"seed\": 3}\n")
    with pytest.raises(SystemExit, match="not a record"):
        _bench().main([str(tmp_path / "bad.out")])
    with pytest.raises(SystemExit, match="no such file"):
        _bench().main([str(tmp_path / "missing.out")])
    short = _write(tmp_path / "short.out", {4: [[5, 4, 3, 2]]})
    with pytest.raises(SystemExit, match="one result per player"):
        _bench().main([short])
