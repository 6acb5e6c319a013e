import numpy as np

from search.abucb import ABUCB, ABUCBConfig
from search.budget import Budget
from tests.toygames import Nim, TicTacToe


def test_abucb_takes_the_win_and_blocks() -> None:
    g = TicTacToe()
    for m in (0, 3, 1, 4):  # X to move wins at 2
        g.play(m)
    res = ABUCB(ABUCBConfig(depth=1)).search(g, None, Budget(playouts=300),
                                             np.random.default_rng(0))
    assert res.move == 2 and res.value == 1.0
    g = TicTacToe()
    for m in (0, 4, 1):  # O must block at 2 (depth 2 sees X's threat)
        g.play(m)
    res = ABUCB(ABUCBConfig(depth=2)).search(g, None, Budget(playouts=1500),
                                             np.random.default_rng(1))
    assert res.move == 2, res.summary()


def test_abucb_finds_the_nim_win_and_spends_its_budget() -> None:
    res = ABUCB(ABUCBConfig(depth=3)).search(Nim(9, 3), None, Budget(playouts=2000),
                                             np.random.default_rng(2))
    assert res.move == 1
    assert res.playouts == 2000


def test_bounds_steer_playouts_to_the_contested_leaves() -> None:
    g = TicTacToe()
    for m in (4, 0):  # an open middle game: leaves differ in value
        g.play(m)
    res = ABUCB(ABUCBConfig(depth=1, min_playouts=4)).search(
        g, None, Budget(playouts=3000), np.random.default_rng(3))
    # the best move gets far more than the uniform share of the playouts
    assert max(res.visits) > 2 * 3000 / len(res.visits)


def test_a_time_budget_is_kept_while_the_leaves_get_their_first_playouts() -> None:
    from games.blokus_duo import BlokusState
    from knowledge.blokus_duo.position import BlokusPosition

    ticks = iter(range(10**6))

    def clock() -> float:  # every reading is 1 ms later: deterministic time
        return next(ticks) * 0.001

    s = BlokusPosition(BlokusState())
    cfg = ABUCBConfig(depth=2, width=6, min_playouts=4)
    res = ABUCB(cfg).search(s, None, Budget(seconds=0.05, clock=clock),
                            np.random.default_rng(4))
    assert 0 < res.playouts < 36 * 4  # stopped during the first rounds over the 36 leaves
    assert s.is_legal(res.move) and len(res.moves) == 6


def test_batched_leaf_playouts_spend_the_budget_exactly() -> None:
    from games.blokus_duo import BlokusState
    from knowledge.blokus_duo.position import BlokusPosition

    s = BlokusPosition(BlokusState())
    res = ABUCB(ABUCBConfig(depth=2, width=4, min_playouts=2, batch=8)).search(
        s, None, Budget(playouts=301), np.random.default_rng(5))
    assert res.playouts == 301 and sum(res.visits) == 301
