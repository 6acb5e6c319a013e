"""Five corvid clients against the mock server on loopback; the log replays clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.uecda.agent import UecdaPlayer
from games.daihinmin.replay import replay_log
from servers.uecda.config import ServerConfig
from tests.uecda.helpers import ServerThread, corvid_client, run_threads


@pytest.mark.integration
def test_five_corvid_clients_play_a_match(tmp_path: Path) -> None:
    path = tmp_path / "corvid.log"
    # generous per-move timeout: the first decision may (re)compile the numba kernels when
    # their cache is cold, which takes long on a loaded machine; timing is not under test
    srv = ServerThread(ServerConfig(games=3, seed=21, log=str(path), timeout=900.0))
    specs: list[dict[str, object]] = [
        {"playouts": 100, "seed": 1},  # the default player
        {"core": "flat", "playouts": 100, "seed": 2, "alpha": 1.0, "policy": "heuristic",
         "deal": "uniform", "opponents": "fixed", "prune": 0.9},  # the first release's kernels
        {"core": "uct", "playouts": 30, "seed": 3, "worlds": 8, "reward": "cards"},
        {"core": "ismcts", "playouts": 100, "seed": 4, "exchange": "heuristic",
         "final": "visits"},
        {"core": "baseline"},
    ]
    results: list[tuple[int, UecdaPlayer]] = []

    def wrap(i: int, spec: dict[str, object]):  # type: ignore[no-untyped-def]
        run = corvid_client(srv.port, f"c{i}", **spec)
        return lambda: results.append(run())

    threads = run_threads([wrap(i, s) for i, s in enumerate(specs)])
    rec = srv.join(timeout=1800)
    for t in threads:
        t.join(60)
    assert rec.drops == []  # nobody timed out, sent garbage or broke the protocol
    assert len(rec.points) == 3
    assert len(results) == 5
    for games, player in results:
        assert games == 3  # every client saw three games and the match end
        assert player.rejected == 0 and player.tracker.resyncs == 0
        assert player.decider.fallbacks == 0
        if player.config.core != "baseline":
            assert player.decider.searches > 0
        if player.config.core != "baseline" and player.config.opponents == "adapt":
            models = player.decider.models
            assert models is not None and models.games == 3
            assert player.decider.sampler is not None and player.decider.sampler.steps > 0
    res = replay_log(path)
    assert res.ok, res.first_divergence
    assert res.games == 3
