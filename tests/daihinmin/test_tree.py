"""The information-set MCTS over our own moves: the Daihinmin kernel against its reference,
and the core's search on real positions."""

import itertools

import numpy as np
import pytest

from games.daihinmin.match import Match, MatchConfig
from knowledge.daihinmin.learned import load_policies
from knowledge.daihinmin.policies import POLICY_HEURISTIC, POLICY_LEARNED, POLICY_UNIFORM
from knowledge.daihinmin.position import Root, Settings
from knowledge.daihinmin.tree import own_tree_kernel, py_own_tree
from search.budget import Budget
from search.ismcts import ISMCTS, ISMCTSConfig, OwnTree
from tests.daihinmin.test_kernels import random_positions

_W = np.vstack([load_policies("v1-selfplay")] * 5)


def _positions(n: int):  # type: ignore[no-untyped-def]
    """Positions along random games where the player to move has two moves or more."""
    out = []
    for s in random_positions(7, 20, every=5):
        if len(s.legal_moves()) > 1:
            out.append(s)
        if len(out) == n:
            return out
    raise AssertionError("too few positions")


@pytest.mark.parametrize(("policy", "own_sure", "worlds", "tuned", "priors"), [
    (POLICY_LEARNED, True, True, True, False),
    (POLICY_LEARNED, False, False, False, False),
    (POLICY_HEURISTIC, True, False, True, False),
    (POLICY_UNIFORM, False, True, True, False),
    (POLICY_LEARNED, True, True, True, True),
    (POLICY_HEURISTIC, False, False, True, True),
])
def test_kernel_grows_the_reference_tree(policy: int, own_sure: bool, worlds: bool,
                                         tuned: bool, priors: bool) -> None:
    for k, s in enumerate(_positions(6)):
        seat = s.to_move
        info = s.info_set(seat)
        st0, pool, need, known, ceil = info.arrays()
        rng = np.random.default_rng(k)
        w = (np.array([info.deal_hands(rng) for _ in range(5)], np.int64) if worlds
             else np.empty((0, 5), np.int64))
        rule_w = np.array([0.2, 0.0, 0.5, 0.1, 0.3]) if k % 2 else np.empty(0)
        # a small pool: its edge (a full pool) is part of the comparison
        a, b = OwnTree(40 if k % 3 == 0 else 4096), OwnTree(40 if k % 3 == 0 else 4096)
        args = (st0, seat, w, (pool, need, known, ceil), 300, policy, 0, _W, 100 + k, 0.9,
                own_sure, rule_w, tuned, 0.5, priors)
        own_tree_kernel(a.arrays(), *args)
        py_own_tree(b.arrays(), *args)
        for x, y in zip(a.arrays(), b.arrays(), strict=True):
            assert x.tolist() == y.tolist()
        assert a.N[0] == 300 and a.size[0] > 1


def test_the_tree_is_consistent() -> None:
    """Every node's visits are at most its parent's, the root's children's add up to the
    root's (one own move a visit), and a child's availability is at least its visits."""
    s = _positions(1)[0]
    root = Root(s.info_set(s.to_move), Settings("learned", _W, own_sure=True, alpha=0.9))
    tree = OwnTree(64)
    for _ in range(10):
        tree.reserve(50)
        root.own_tree_batch(tree, 50, np.random.default_rng(1), s.to_move, True, 0.0)
    assert tree.N[0] == 500 and tree.capacity >= tree.size[0]
    assert sum(tree.N[c] for c in tree.children(0)) == 500
    assert {int(tree.move[c]) for c in tree.children(0)} <= set(s.legal_moves())
    for v in range(int(tree.size[0])):
        kids = tree.children(v)
        assert sum(tree.N[c] for c in kids) <= tree.N[v]
        for c in kids:
            assert tree.A[c] >= tree.N[c] >= 1


@pytest.mark.parametrize("final", ["visits", "mean"])
def test_the_search_spends_its_budget_on_legal_moves(final: str) -> None:
    for k, s in enumerate(_positions(4)):
        seat = s.to_move
        root = Root(s.info_set(seat), Settings("learned", _W, own_sure=True, alpha=0.9))
        res = ISMCTS(ISMCTSConfig(final=final, batch=64)).search(
            root, seat, Budget(playouts=1000), np.random.default_rng(k))
        assert res.playouts == 1000 and sum(res.visits) == 1000
        assert res.moves == s.legal_moves() and res.move in res.moves
        assert res.info["nodes"] > len(res.moves) and res.info["depth"] >= 1
        best = res.moves.index(res.move)
        if final == "visits":
            assert res.visits[best] == max(res.visits)
        else:
            assert res.values[best] == max(v for v in res.values if v == v)
        again = ISMCTS(ISMCTSConfig(final=final, batch=64)).search(
            root, seat, Budget(playouts=1000), np.random.default_rng(k))
        assert again.visits == res.visits  # reproducible from the generator


def test_a_time_budget_stops_between_batches() -> None:
    s = _positions(1)[0]
    root = Root(s.info_set(s.to_move), Settings("heuristic"))
    ticks = itertools.count()
    budget = Budget(seconds=0.01, clock=lambda: next(ticks) * 0.001)  # 1 ms a look
    res = ISMCTS(ISMCTSConfig(batch=16)).search(root, s.to_move, budget,
                                               np.random.default_rng(0))
    assert res.playouts == 16 * 9 and res.move in root.legal_moves()


def test_one_legal_move_is_played_without_searching() -> None:
    for s in random_positions(3, 5):
        if len(s.legal_moves()) == 1:
            root = Root(s.info_set(s.to_move), Settings("heuristic"))
            res = ISMCTS().search(root, s.to_move, Budget(playouts=100),
                                  np.random.default_rng(0))
            assert res.move == s.legal_moves()[0] and res.playouts == 0
            return
    raise AssertionError("no position with a single legal move")


def test_the_pool_grows_past_its_first_size() -> None:
    tree = OwnTree(8)
    tree.size[0] = 7
    tree.N[:7] = np.arange(7)
    tree.reserve(20)
    assert tree.capacity == 32 and tree.N[:7].tolist() == list(range(7))
    assert (tree.first[7:] == -1).all() and (tree.N[7:] == 0).all()


def test_a_world_not_ours_is_refused() -> None:
    st = Match(MatchConfig(seed=2)).deal().state()
    other = (st.to_move + 1) % 5
    root = Root(st.info_set(other), Settings("heuristic"))
    with pytest.raises(ValueError, match="own player"):
        root.own_tree_batch(OwnTree(), 1, np.random.default_rng(0), other, True, 0.0)
