"""The decision core's formulas pinned to hand-computed numbers (Auer, Cesa-Bianchi and
Fischer 2002; Kocsis and Szepesvári 2006; Gelly and Silver 2007).

Each test fails for a plausible wrong formula: a different variance term in UCB1-TUNED, a β
without the square root or without the 3, widening thresholds that are not the cumulative
sums 40, 96, 174.4, ..., priors that miss the RAVE statistics, a tree that is not reused.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from games.contract import Playout, Priors
from search.bandit import arm_index, ucb1_tuned
from search.budget import Budget
from search.uct import UCT, UCTConfig, _select_child, rave_beta
from tests.toygames import TicTacToe

# -- UCB1-TUNED ------------------------------------------------------------------------------
# arm A: n = 4, sum 3, sum of squares 3, total pulls 14. mean 0.75; ln 14 = 2.639057;
#   V = 3/4 - 0.75^2 + sqrt(2 ln 14 / 4) = 0.1875 + 1.148707 = 1.336207 -> min(1/4, V) = 1/4;
#   index = 0.75 + sqrt(ln 14 / 4 * 1/4) = 0.75 + 0.406129 = 1.156129
# arm B: n = 1000, sum 500, sum of squares 250, total 2000: every reward 1/2, no variance;
#   V = 0 + sqrt(2 ln 2000 / 1000) = sqrt(0.0152018) = 0.123296 (< 1/4: V binds);
#   index = 0.5 + sqrt(ln 2000 / 1000 * 0.123296) = 0.5 + 0.030613 = 0.530613
UCB_CASES = [(4.0, 3.0, 3.0, 14, 1.156129), (1000.0, 500.0, 250.0, 2000, 0.530613)]


@pytest.mark.parametrize("n,s,s2,total,expected", UCB_CASES)
def test_ucb1_tuned_index_hand_computed(n: float, s: float, s2: float, total: int,
                                        expected: float) -> None:
    got = ucb1_tuned(np.array([n]), np.array([s]), np.array([s2]), total)[0]
    assert got == pytest.approx(expected, abs=1e-6)
    # the compiled kernel the flat core runs computes the same number
    assert arm_index(n, s, s2, math.log(total), True, 0.0) == pytest.approx(expected, abs=1e-6)


# -- RAVE β = sqrt(k / (3 n + k)) -------------------------------------------------------------
def _choose(N: list[float], W: list[float], RN: list[float], RW: list[float], n: float,
            k: float = 1000.0, mse: bool = False, N0: list[float] | None = None,
            child: bool = False) -> int:
    """The child that ``_select_child`` picks with RAVE, c = 0, among all the children
    (visits N of which N0 pseudo-visits, value sums W, RAVE visits RN and sums RW) of a
    node visited n times."""
    n0 = np.zeros(len(N)) if N0 is None else np.array(N0)
    return int(_select_child(np.array(N), np.array(W), n0, np.array(RN), np.array(RW),
                             np.zeros(0, dtype=np.int64), n, 0.0, k, True, mse, child, 0.5))


def _rave_choice(n: float, k: float) -> int:
    """Two children, both visited 10 times and RAVE-credited 10 times: child 0 has Q 0.6 and
    Q_RAVE 0.2, child 1 has Q 0.4 and Q_RAVE 0.8. With c = 0, child 1 wins iff
    0.4 + 0.4 β > 0.6 - 0.4 β, i.e. β > 1/4, i.e. k / (3n + k) > 1/16, i.e. n < 5 k."""
    return _choose([10.0, 10.0], [6.0, 4.0], [10.0, 10.0], [2.0, 8.0], n, k)


@pytest.mark.parametrize("k", [100.0, 1000.0])
def test_rave_beta_switches_exactly_at_n_equal_5k(k: float) -> None:
    # sqrt(k / (n + k)) would switch at n = 15 k, k / (3n + k) without the root at n = k
    assert _rave_choice(5 * k - 1, k) == 1
    assert _rave_choice(5 * k + 1, k) == 0
    assert _rave_choice(k + 1, k) == 1 and _rave_choice(15 * k - 1, k) == 0


def test_rave_alone_for_a_child_never_visited_but_credited() -> None:
    # child 0: Q 0.55 from 10 visits; child 1: no visit of its own, Q_RAVE 0.6 from 5 credits
    assert _choose([10.0, 0.0], [5.5, 0.0], [10.0, 5.0], [5.5, 3.0], 10.0) == 1
    # Q_RAVE 0.5 < 0.55
    assert _choose([10.0, 0.0], [5.5, 0.0], [10.0, 5.0], [5.5, 2.5], 10.0) == 0


def test_rave_mse_schedule_is_per_child() -> None:
    """The minimum-MSE β = RN / (RN + N + N RN / k) is the child's own: under a node visited
    10^5 times (hand-selected β 0.06 for every child), a child tried twice with a Q_RAVE of
    0.9 from 200 credits (β 0.988) beats a child at 0.6 from 1000 visits and credits
    (β 0.33), and loses to it under the hand-selected schedule."""
    assert rave_beta(5.0, 1000.0, 1000.0, 1000.0, True) == pytest.approx(1 / 3)
    assert rave_beta(5.0, 2.0, 200.0, 1000.0, True) == pytest.approx(200 / 202.4)
    assert rave_beta(5.0, 2.0, 200.0, 5.0, False) == pytest.approx(0.5)  # sqrt(5 / 20)
    children = ([1000.0, 2.0], [600.0, 0.0], [1000.0, 200.0], [600.0, 180.0])
    assert _choose(*children, 1e5, mse=True) == 1
    assert _choose(*children, 1e5, mse=False) == 0


def test_rave_child_schedule_keeps_an_untried_move_open() -> None:
    """With ``rave_child`` the hand-selected β takes the child's real visits N − N0 for n.
    Under a node visited 10^4 times (β 0.18 for every child otherwise), child 0 has 3000
    real visits at Q 0.55 (Q_RAVE 0.55); child 1 has only its prior's 35 pseudo-visits at
    0.49 and a Q_RAVE of 0.58 from 1000 credits. By the node's β child 1 scores
    0.18 · 0.58 + 0.82 · 0.49 = 0.506 and is never tried; by its own (no real visit, β 1)
    it scores 0.58 and is."""
    N, N0, W = [3035.0, 35.0], [35.0, 35.0], [0.55 * 3035, 0.49 * 35]
    RN, RW = [4035.0, 1035.0], [0.55 * 4035, 0.49 * 35 + 0.58 * 1000]
    assert _choose(N, W, RN, RW, 1e4, N0=N0) == 0
    assert _choose(N, W, RN, RW, 1e4, N0=N0, child=True) == 1
    # a child tried 2000 times at 0.50 (β by its own visits 0.38) stays below child 0
    W1 = [0.55 * 3035, 0.49 * 35 + 0.50 * 2000]
    N1 = [3035.0, 2035.0]
    assert _choose(N1, W1, RN, RW, 1e4, N0=N0, child=True) == 0


# -- priors as pseudo-counts, on the RAVE statistics too ------------------------------------
class OneShot:
    """One move among ``moves`` and the game is over; the mover scores ``payoff[move]``.
    Priors: ``values`` with ``counts`` pseudo-visits."""

    num_players = 2

    def __init__(self, moves: list[object], payoff: list[float], values: list[float],
                 counts: list[float]) -> None:
        self.moves, self.payoff = moves, payoff
        self.values, self.counts = values, counts
        self.to_move = 0
        self.chosen: object | None = None

    def legal_moves(self) -> list[object]:
        return [] if self.chosen is not None else list(self.moves)

    def play(self, move: object) -> None:
        self.chosen = move
        self.to_move = 1

    def clone(self) -> OneShot:
        c = OneShot(self.moves, self.payoff, self.values, self.counts)
        c.chosen, c.to_move = self.chosen, self.to_move
        return c

    def is_terminal(self) -> bool:
        return self.chosen is not None

    def returns(self) -> list[float]:
        r = self.payoff[self.moves.index(self.chosen)]
        return [r, 1.0 - r]

    def key(self) -> int:
        return 0 if self.chosen is None else 1 + self.moves.index(self.chosen)

    def diagram(self) -> str:
        return repr(self.chosen)

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        raise AssertionError("terminal after one move: no playout")

    def priors(self) -> Priors:
        return Priors(list(self.moves), np.array(self.values), np.array(self.counts))


@pytest.mark.parametrize("moves", [[0, 1, 2], [(0, "a"), (1, "b"), (2, "c")]])
@pytest.mark.parametrize("rave", [True, False])
def test_priors_seed_the_visit_and_the_rave_statistics(moves: list[object], rave: bool) -> None:
    # priors 0.9 x 20, 0.3 x 10, 0.5 x 4; with c = 0 the one episode goes to the 0.9 child
    # (Q 0.9), which pays 0.25: N = 21, W = 18 + 0.25; with RAVE the move's own AMAF pair
    # gets the same episode. Int moves take the vectorised RAVE update, tuples the sets.
    game = OneShot(moves, [0.25, 1.0, 1.0], [0.9, 0.3, 0.5], [20.0, 10.0, 4.0])
    uct = UCT(UCTConfig(c=0.0, rave=rave, priors=True))
    res = uct.search(game, None, Budget(playouts=1), np.random.default_rng(0))
    root = uct.root
    assert root is not None
    assert res.visits == [1, 0, 0]  # pseudo-visits are not reported as visits
    assert root.N.tolist() == [21.0, 10.0, 4.0]
    assert root.N0.tolist() == [20.0, 10.0, 4.0]
    assert root.W.tolist() == pytest.approx([18.25, 3.0, 2.0])
    if rave:
        assert root.RN.tolist() == [21.0, 10.0, 4.0]
        assert root.RW.tolist() == pytest.approx([18.25, 3.0, 2.0])
    else:
        assert root.RN.tolist() == [0.0, 0.0, 0.0] and root.RW.tolist() == [0.0, 0.0, 0.0]


# -- progressive widening: t1 = 40, t_{n+1} = t_n + 40 * 1.4^n --------------------------------
def _widening_visits(playouts: int) -> list[int]:
    """Visits per child after ``playouts`` episodes; children in prior order 4, 3, 2, 1, 0
    (prior values, no pseudo-counts, so an unlocked child is untried and taken at once)."""
    game = OneShot([0, 1, 2, 3, 4], [0.5] * 5, [0.1, 0.2, 0.3, 0.4, 0.5], [0.0] * 5)
    uct = UCT(UCTConfig(widening=True, widening_initial=1, widening_a=40.0, widening_b=1.4,
                        reuse=False))
    res = uct.search(game, None, Budget(playouts=playouts), np.random.default_rng(0))
    assert uct.root is not None and uct.root.thresholds is not None
    assert uct.root.thresholds[:4] == pytest.approx([40.0, 96.0, 174.4, 284.16])
    by_move = dict(zip(res.moves, res.visits, strict=True))
    return [by_move[m] for m in (4, 3, 2, 1, 0)]


def test_progressive_widening_thresholds_hand_computed() -> None:
    # the root has seen n episodes when it selects the (n+1)-th: 1 + #{t <= n} children open
    assert _widening_visits(40) == [40, 0, 0, 0, 0]
    v = _widening_visits(41)
    assert v[1] == 1 and v[2:] == [0, 0, 0]  # the 41st episode (n = 40) opens the second
    v = _widening_visits(96)
    assert v[2:] == [0, 0, 0] and sum(v) == 96
    v = _widening_visits(97)
    assert v[2] == 1 and v[3:] == [0, 0]  # n = 96 opens the third
    assert _widening_visits(175)[3] == 0  # n = 174 < 174.4
    v = _widening_visits(176)
    assert v[3] == 1 and v[4] == 0  # n = 175 opens the fourth
    assert _widening_visits(285)[4] == 0  # n = 284 < 284.16
    assert _widening_visits(286)[4] == 1  # n = 285 opens the fifth


# -- tree reuse --------------------------------------------------------------------------------
def test_tree_reuse_keeps_the_subtree_statistics() -> None:
    uct = UCT(UCTConfig(reuse=True))
    g = TicTacToe()
    rng = np.random.default_rng(4)
    first = uct.search(g, None, Budget(playouts=1000), rng)
    root = uct.root
    assert root is not None
    reply = 4 if first.move != 4 else 0
    child = root.children[root.index[first.move]]
    assert child is not None
    grandchild = child.children[child.index[reply]]
    assert grandchild is not None and grandchild.n > 0
    kept = grandchild.n
    kept_visits = (grandchild.N - grandchild.N0).copy()
    g.play(first.move)
    g.play(reply)
    second = uct.search(g, None, Budget(playouts=300), rng)
    assert uct.root is grandchild  # the old node became the root, statistics and all
    assert second.info["reused_visits"] == int(kept)
    assert sum(second.visits) == int(kept_visits.sum()) + 300
    assert all(a >= b for a, b in zip(second.visits, kept_visits.tolist(), strict=True))
    # without reuse the statistics start from nothing
    fresh = UCT(UCTConfig(reuse=False))
    fresh.search(TicTacToe(), None, Budget(playouts=200), rng)
    res = fresh.search(g, None, Budget(playouts=50), rng)
    assert res.info["reused_visits"] == 0 and sum(res.visits) == 50
