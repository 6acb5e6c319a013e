"""The arena on a real local Ray (2 CPUs, one session for the module): a few short games of
each game with corvid client processes, and a failing task retried then recorded."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.daihinmin.replay import replay_log
from servers.arena import run
from servers.arena.backends import start_ray

pytestmark = pytest.mark.integration
PASSER = f"cmd:{sys.executable} {Path(__file__).with_name('passer.py')}"


@pytest.fixture(scope="module")
def ray_session() -> Iterator[Any]:
    ray, started = start_ray(cpus=2)
    assert ray.cluster_resources()["CPU"] == 2
    yield ray
    if started:
        ray.shutdown()


def test_each_game_runs_as_ray_tasks(ray_session: Any, tmp_path: Path) -> None:
    seen: list[int] = []
    uecda = run("uecda", ["corvid:playouts=20", "baseline", "standin", "standin", "standin"],
                games=4, chunk=2, seed=1, backend="ray", out=tmp_path / "uecda",
                on_game=lambda r: seen.append(r.index))
    assert sorted(seen) == [0, 1, 2, 3] and len(uecda.ok) == 4
    assert all(r.faults == [""] * 5 and r.standin == [False, False, True, True, True]
               for r in uecda.ok)
    for log in (tmp_path / "uecda" / "uecda").glob("*.log"):
        assert replay_log(log).ok
    go = run("gtp", ["corvid:playouts=10", PASSER], games=2, chunk=1, seed=1,
             options={"size": 5, "komi": 0.5}, backend="ray", out=tmp_path / "gtp")
    assert [r.players[0] for r in go.ok] == ["corvid:playouts=10", PASSER]
    assert all(r.reason in ("score", "resign") for r in go.ok)
    assert len(list((tmp_path / "gtp" / "sgf").glob("*.sgf"))) == 2
    blokus = run("blokus", ["corvid:core=greedy", "biggest"], games=2, chunk=1, seed=1,
                 options={"timeout": 5.0}, backend="ray", out=tmp_path / "blokus")
    assert len(blokus.ok) == 2 and all(r.faults == ["", ""] for r in blokus.ok)
    assert [r.players[0] for r in blokus.ok] == ["corvid:core=greedy", "biggest"]


def test_a_failed_ray_task_is_retried_then_recorded(ray_session: Any) -> None:
    res = run("gtp", [f"{PASSER} --exit 1", PASSER], games=2, chunk=1, seed=1,
              options={"size": 5}, backend="ray")
    assert [(r.status, r.attempt) for r in res.records] == [("failed", 2), ("failed", 2)]
    assert "exit code 1" in res.records[0].error
    ok = run("gtp", [PASSER, PASSER], games=2, chunk=1, seed=1, options={"size": 5},
             backend="ray")
    assert len(ok.ok) == 2  # the session is still fine after failures
