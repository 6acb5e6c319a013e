"""Iterative-deepening α-β on toy games: exact values against plain minimax, move ordering,
interrupted searches."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from search.alphabeta import AlphaBeta, AlphaBetaConfig
from search.budget import Budget
from tests.toygames import Nim, TicTacToe


def minimax(state) -> float:  # type: ignore[no-untyped-def]
    """Exact value for the seat to move (reference)."""
    mover = state.to_move
    best = -1.0
    for m in state.legal_moves():
        c = state.clone()
        c.play(m)
        if c.is_terminal():
            v = c.returns()[mover]
        else:
            v = 1.0 - minimax(c)
        best = max(best, v)
    return best


def half(_state) -> float:  # type: ignore[no-untyped-def]
    return 0.5


@pytest.mark.parametrize("heap,winning", [(10, 2), (7, 3), (9, 1)])
def test_nim_finds_the_winning_take(heap: int, winning: int) -> None:
    ab = AlphaBeta(half, AlphaBetaConfig(max_depth=heap))
    res = ab.search(Nim(heap), 0, Budget(playouts=10**6), np.random.default_rng(0))
    assert res.move == winning
    assert res.value == 1.0
    assert res.info["depth"] >= 2


def test_nim_lost_position_values_zero() -> None:
    ab = AlphaBeta(half, AlphaBetaConfig(max_depth=12))
    res = ab.search(Nim(8), 0, Budget(playouts=10**6), np.random.default_rng(0))
    assert res.value == 0.0


def _random_ttt(rng: np.random.Generator, plies: int) -> TicTacToe:
    s = TicTacToe()
    for _ in range(plies):
        if s.is_terminal():
            break
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves)))])
    return s


@pytest.mark.parametrize("order,width", [(True, 0), (False, 0)])
def test_tictactoe_matches_minimax(order: bool, width: int) -> None:
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(25):
        s = _random_ttt(rng, int(rng.integers(3, 7)))
        if s.is_terminal() or len(s.legal_moves()) < 2:
            continue
        ab = AlphaBeta(half, AlphaBetaConfig(max_depth=9, order=order, width=width))
        res = ab.search(s, s.to_move, Budget(playouts=10**7), rng)
        exact = minimax(s)
        assert res.value == exact
        c = s.clone()
        c.play(res.move)
        got = c.returns()[s.to_move] if c.is_terminal() else 1.0 - minimax(c)
        assert got == exact  # the chosen move keeps the exact value
        checked += 1
    assert checked > 10


def test_evaluation_drives_depth_one() -> None:
    # an evaluation that says "the mover is lost when heap % 4 == 0" plays Nim perfectly at 1 ply
    def ev(state) -> float:  # type: ignore[no-untyped-def]
        return 0.1 if state.heap % 4 == 0 else 0.9

    ab = AlphaBeta(ev, AlphaBetaConfig(max_depth=1))
    res = ab.search(Nim(11, 3), 0, Budget(playouts=10**6), np.random.default_rng(0))
    assert res.move == 3
    assert res.info["depth"] == 1
    assert abs(res.value - 0.9) < 1e-12


def test_fake_clock_interrupts_but_returns_a_legal_move() -> None:
    ticks = itertools.count()

    def clock() -> float:
        return next(ticks) * 0.001

    s = TicTacToe()
    ab = AlphaBeta(half, AlphaBetaConfig(max_depth=9, check_every=1))
    res = ab.search(s, 0, Budget(seconds=0.05, clock=clock), np.random.default_rng(0))
    assert res.move in s.legal_moves()
    assert 1 <= res.info["depth"] < 9


def test_node_budget_is_deterministic() -> None:
    s = _random_ttt(np.random.default_rng(5), 2)
    a = AlphaBeta(half).search(s, s.to_move, Budget(playouts=300), np.random.default_rng(1))
    b = AlphaBeta(half).search(s, s.to_move, Budget(playouts=300), np.random.default_rng(2))
    assert (a.move, a.value, a.info) == (b.move, b.value, b.info)


class CountingEval:
    """An evaluation of Tic-tac-toe positions (centre and corners are good for the mover's
    opponent's last stones... any deterministic function will do) with a batch path."""

    def __call__(self, state) -> float:  # type: ignore[no-untyped-def]
        me = state.to_move
        score = sum((1 if v == me else -1 if v >= 0 else 0) * (2 if i == 4 else 1)
                    for i, v in enumerate(state.board))
        return 0.5 + score / 40.0

    def child_values(self, state, moves):  # type: ignore[no-untyped-def]
        out = []
        for m in moves:
            c = state.clone()
            c.play(m)
            out.append(c.returns()[state.to_move] if c.is_terminal() else 1.0 - self(c))
        return np.asarray(out)


class PlainEval:
    def __init__(self) -> None:
        self.e = CountingEval()

    def __call__(self, state) -> float:  # type: ignore[no-untyped-def]
        return self.e(state)


@pytest.mark.parametrize("depth,width", [(1, 0), (2, 0), (3, 3), (4, 2)])
def test_batch_child_values_same_search(depth: int, width: int) -> None:
    rng = np.random.default_rng(11)
    for _ in range(8):
        s = _random_ttt(rng, int(rng.integers(0, 4)))
        if s.is_terminal():
            continue
        cfg = AlphaBetaConfig(max_depth=depth, width=width)
        a = AlphaBeta(CountingEval(), cfg).search(s, s.to_move, Budget(playouts=10**7), rng)
        b = AlphaBeta(PlainEval(), cfg).search(s, s.to_move, Budget(playouts=10**7), rng)
        assert a.move == b.move and abs(a.value - b.value) < 1e-12
        assert a.info["depth"] == b.info["depth"] == depth


def test_batch_evaluation_still_stops_on_time() -> None:
    # regression: counting a batch of children at once must not skip the clock checks
    ticks = itertools.count()

    def clock() -> float:
        return next(ticks) * 0.001

    s = TicTacToe()
    ab = AlphaBeta(CountingEval(), AlphaBetaConfig(max_depth=9, check_every=4))
    res = ab.search(s, 0, Budget(seconds=0.03, clock=clock), np.random.default_rng(0))
    assert res.move in s.legal_moves()
    assert res.info["depth"] < 9
    assert next(ticks) < 60  # the clock was read about every check_every nodes, then stop
