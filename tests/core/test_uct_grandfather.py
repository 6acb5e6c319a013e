"""The grandfather prior of search.UCT: a new node inherits the experience of the same move
two plies up, capped at ``grandfather`` pseudo-visits."""

from __future__ import annotations

import numpy as np
import pytest

from games.go import GoState
from knowledge.go.position import GoPosition
from search.budget import Budget
from search.uct import UCT, Node, UCTConfig
from tests.toygames import Nim, TicTacToe


def _grandchild(uct: UCT) -> tuple[Node, Node]:
    root = uct.root
    assert root is not None
    for child in root.children:
        if child is None:
            continue
        for grand in child.children:
            if grand is not None:
                return root, grand
    raise AssertionError("no node two plies down")


def test_grandfather_prior_copies_capped_experience() -> None:
    uct = UCT(UCTConfig(grandfather=3.0, priors=False))
    uct.search(Nim(10), None, Budget(playouts=400), np.random.default_rng(1))
    root, grand = _grandchild(uct)
    assert grand.to_move == root.to_move
    inherited = 0
    for i, m in enumerate(grand.moves):
        j = root.index.get(m)
        prior = grand.N0[i]
        if j is None or root.N[j] - root.N0[j] <= 0:
            assert prior == 0.0
            continue
        # visits the grandfather had when the node was made, at most the cap
        assert 0.0 <= prior <= 3.0
        inherited += prior > 0
    assert inherited > 0


def test_no_grandfather_prior_by_default() -> None:
    uct = UCT(UCTConfig(priors=False))
    uct.search(Nim(10), None, Budget(playouts=400), np.random.default_rng(1))
    _, grand = _grandchild(uct)
    assert not np.any(grand.N0)


def _tree_stats(node: Node | None) -> list[list[float]]:
    """Every node's statistics, depth first in child order."""
    if node is None:
        return []
    out = [node.N.tolist(), node.N0.tolist(), node.W.tolist(), node.RN.tolist(),
           node.RW.tolist()]
    for child in node.children:
        out += _tree_stats(child)
    return out


@pytest.mark.parametrize("game", ["nim", "tictactoe", "go"])
def test_compiled_grandfather_and_rave_match_the_python_ones(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import search.uct as uct_mod

    def run() -> list[list[float]]:
        state = {"nim": lambda: Nim(12), "tictactoe": TicTacToe,
                 "go": lambda: GoPosition(GoState(5, 0.5))}[game]()
        u = UCT(UCTConfig(rave=True, rave_k=300, c=0.0, grandfather=5.0))
        u.search(state, None, Budget(playouts=300), np.random.default_rng(4))
        return _tree_stats(u.root)

    fast = run()
    monkeypatch.setattr(uct_mod, "_RAVE_TABLE_LIMIT", 0)  # int moves take the Python paths
    slow = run()
    assert fast == slow
    assert any(n0 > 0 for row in fast[1::5][1:] for n0 in row)  # something was inherited
