import numpy as np
import pytest

from search.budget import Budget
from search.flat import FlatConfig
from search.parallel import WorkerPool, merge_results, next_margin
from search.result import SearchResult, final_index
from search.uct import UCTConfig
from tests.toygames import HighCard, Nim


def test_merge_sums_visits_and_weights_values() -> None:
    a = SearchResult(1, 0.5, [1, 2], [10, 30], [0.2, 0.6], 40, 0.1)
    b = SearchResult(2, 0.5, [2, 1, 3], [20, 5, 0], [0.5, 0.4, float("nan")], 25, 0.2)
    m = merge_results([a, b])
    assert m.move == 2 and m.playouts == 65 and m.elapsed == 0.2
    assert dict(zip(m.moves, m.visits, strict=True)) == {1: 15, 2: 50, 3: 0}
    v = dict(zip(m.moves, m.values, strict=True))
    assert abs(v[2] - (30 * 0.6 + 20 * 0.5) / 50) < 1e-12
    assert abs(v[1] - (10 * 0.2 + 5 * 0.4) / 15) < 1e-12
    assert merge_results([a, b], final="mean").move == 2
    assert merge_results([a, b], final="lcb").move == 2


def test_final_by_the_lower_confidence_bound() -> None:
    """The most visited move, unless another with at least a tenth of its visits has a
    better bound of its mean; a better mean on fewer visits than that does not count."""
    # 700 visits at 0.435 (bound 0.398) against 330 at 0.476 (0.421): the second
    assert final_index("lcb", [700, 330, 240], [0.435, 0.476, 0.44]) == 1
    assert final_index("visits", [700, 330, 240], [0.435, 0.476, 0.44]) == 0
    # 60 visits at 0.9 is below a tenth of 700: not a candidate, whatever its mean
    assert final_index("lcb", [700, 60], [0.435, 0.9]) == 0
    assert final_index("mean", [700, 60], [0.435, 0.9]) == 1
    # a close mean on fewer visits has the wider interval: the most visited stays
    assert final_index("lcb", [700, 330], [0.50, 0.51]) == 0
    assert final_index("lcb", [0, 0], [float("nan"), float("nan")]) == 0


@pytest.mark.integration
def test_root_parallel_search_over_two_worker_processes() -> None:
    rng = np.random.default_rng(0)
    with WorkerPool(workers=2) as pool:
        res = pool.search("uct", UCTConfig(), Nim(13, 3), None, Budget(playouts=2000), rng,
                          session="nim")
        assert res.move == 1
        assert res.info["workers"] == 2 and res.playouts == 2000
        # tree reuse inside each worker: the same session continues from its old tree
        g = Nim(13, 3)
        g.play(1)
        g.play(3)
        res2 = pool.search("uct", UCTConfig(), g, None, Budget(playouts=200), rng,
                           session="nim")
        assert res2.move == 1
        # determinised flat search on an info set
        h = HighCard(([8, 3, 6], [0, 5, 7]))
        h.play(8)
        res3 = pool.search("flat", FlatConfig(), h.info_set(1), 1, Budget(playouts=1000), rng)
        assert res3.move == 0 and sum(res3.visits) == 1000


def test_the_round_trip_margin_follows_lateness() -> None:
    assert next_margin(0.01, 0.03, 1.0) == pytest.approx(0.04)  # 30 ms late: all of it
    assert next_margin(0.04, -0.02, 1.0) == pytest.approx(0.03)  # 20 ms early: half back
    assert next_margin(0.005, -0.05, 1.0) == 0.0  # never negative
    assert next_margin(0.2, 0.2, 1.0) == 0.25  # at most a quarter of the budget
    m = 0.0  # a steady 25 ms of round trip is learned at once and kept within a few ms
    for _ in range(20):
        m = next_margin(m, 0.025 - m, 1.0)
    assert m == pytest.approx(0.025)


def test_a_time_budget_reaches_the_workers_less_the_margin() -> None:
    rng = np.random.default_rng(3)
    with WorkerPool(workers=1) as pool:
        pool.margin = 0.04
        pool.search("uct", UCTConfig(), Nim(13, 3), None, Budget(playouts=50, seconds=0.05),
                    rng)
        assert pool.margin == 0.04  # a playout cap can end a search early: nothing learned
        pool.margin = 0.05
        res = pool.search("uct", UCTConfig(), Nim(13, 3), None, Budget(seconds=0.05), rng)
        assert res.playouts <= 1  # 0 s for the worker: only what a search always does


@pytest.mark.integration
def test_a_late_answer_is_not_taken_for_the_next_search() -> None:
    rng = np.random.default_rng(1)
    with WorkerPool(workers=1) as pool:
        with pytest.raises(RuntimeError, match="no worker answered"):
            pool.search("uct", UCTConfig(), Nim(13, 3), None, Budget(playouts=20000), rng,
                        session="late", reply_timeout=0.01)
        res = pool.search("uct", UCTConfig(), Nim(13, 3), None, Budget(playouts=10), rng,
                          session="late")
        assert res.playouts == 10  # not the 20000-playout answer that came in late


@pytest.mark.integration
def test_a_dead_worker_is_noticed_and_dropped() -> None:
    rng = np.random.default_rng(2)
    with WorkerPool(workers=2) as pool:
        pool.procs[0].kill()
        pool.procs[0].join(timeout=5)
        res = pool.search("uct", UCTConfig(), Nim(13, 3), None, Budget(playouts=400), rng,
                          reply_timeout=60.0)
        assert res.info["workers"] == 1 and res.playouts == 200  # no 60 s wait for the dead
        assert len(pool.ready) == 1
        res = pool.search("uct", UCTConfig(), Nim(13, 3), None, Budget(playouts=400), rng)
        assert res.playouts == 400  # the whole budget goes to the one left
