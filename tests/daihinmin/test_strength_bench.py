"""bench/daihinmin_strength.py --rotate: each chunk seats the line-up one place further round
the player numbers, and the points come back in the line-up's order (the matches are
replaced by a stand-in that scores each player number by its number)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from tests.paths import REPO

BENCH = REPO / "bench" / "daihinmin_strength.py"
SPECS = ["corvid:seed=1", "corvid:seed=2", "baseline", "baseline", "baseline"]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("daihinmin_strength", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> list[list[str]]:
    """Run the bench for 5 chunks of 2 games; the seatings the stand-in saw, per chunk."""
    bench = _bench()
    seatings: list[list[str]] = []

    def fake_arena(specs: list[str], games: int, seed: int, **_: Any) -> Any:
        seatings.append(list(specs))
        # player number k scores 1 + k in every game
        return SimpleNamespace(record=SimpleNamespace(points=[[1 + k for k in range(5)]] * games,
                                                      drops=[]))

    monkeypatch.setattr(bench, "run_arena", fake_arena)
    args = ["--games", "10", "--chunk", "2", "--out", str(tmp_path / "out.jsonl"), *extra]
    for s in SPECS:
        args += ["--player", s]
    assert bench.main(args) == 0
    return seatings


def test_rotated_chunks_seat_every_spec_at_every_number(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    seatings = _run(tmp_path, monkeypatch, "--rotate", "--json")
    for i, seated in enumerate(seatings):
        assert seated == SPECS[i:] + SPECS[:i]
    lines = [json.loads(ln) for ln in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [ln["rotation"] for ln in lines] == [0, 1, 2, 3, 4]
    # spec j sat at number (j - i) % 5 in chunk i and scored 1 + that number
    for i, ln in enumerate(lines):
        assert ln["specs"] == SPECS
        assert ln["points"] == [[1 + (j - i) % 5 for j in range(5)]] * 2
    # over the five chunks every spec averaged the mean number's score
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [p["points_per_game"] for p in figures["players"]] == [3.0] * 5
    assert figures["rotate"] is True


def test_a_run_resumes_only_as_it_was_begun(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _run(tmp_path, monkeypatch)  # without --rotate
    with pytest.raises(SystemExit, match="without --rotate"):
        _run(tmp_path, monkeypatch, "--rotate")
    assert _run(tmp_path, monkeypatch) == []  # all chunks done: nothing replayed
