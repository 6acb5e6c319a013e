"""Plain-Python reference of the kernels' playout policies (same random stream, same choices
when the kernel is asked to sort its moves)."""

from __future__ import annotations

from games.daihinmin import rules as R
from games.daihinmin.cards import (
    JOKER_BIT,
    PASS,
    SINGLE_JOKER,
    move_count,
    move_kind,
    move_low_high,
)
from games.daihinmin.kernels import POLICY_HEURISTIC, py_rng_below


def heuristic_cost(m: int, rev: int, empty: bool) -> int:
    if m == SINGLE_JOKER:
        strength = 20
    else:
        lo, hi = move_low_high(m)
        strength = (14 - hi) if rev else lo
    cost = strength
    if m & JOKER_BIT:
        cost += 10000
    if empty:
        cost += (3 - move_kind(m)) * 1000 - move_count(m) * 20
    return cost


def heuristic_move(hand: int, table: int, rev: int, lock: int) -> int:
    """The heuristic policy's move, the rule player's (the sample client's choice): the
    least ``heuristic_cost`` meld, ties to the smaller move; a pass only when no meld plays."""
    melds = [m for m in R.legal_moves(hand, table, rev, lock) if m != PASS]
    if not melds:
        return PASS
    return min(melds, key=lambda m: (heuristic_cost(m, rev, table == PASS), m))


def choose_move(st: list[int], policy: int, rstate: list[int]) -> int:
    p = st[R.TURN]
    hand, table, rev, lock = st[R.H0 + p], st[R.TABLE], st[R.REV], st[R.LOCK]
    if policy == POLICY_HEURISTIC:
        return heuristic_move(hand, table, rev, lock)
    moves = R.legal_moves(hand, table, rev, lock)
    if all(m == PASS for m in moves):  # no meld: pass without a draw
        return PASS
    return moves[py_rng_below(rstate, len(moves))]


def playout(st: list[int], seat: int, policy: int, rstate: list[int],
            stop_when_out: bool) -> tuple[list[float], list[tuple[int, int]]]:
    """Reference playout (no stalemate: neither policy passes on a lead). Returns the evals
    of ``seat`` and the (player, move) plies."""
    evals: list[float] = []
    plies: list[tuple[int, int]] = []
    while not R.is_over(st):
        if stop_when_out and st[R.OUTMASK] >> seat & 1:
            break
        p = st[R.TURN]
        if p == seat:
            k = R.NP - st[R.NOUT]
            evals.append(((k + 1) * 0.5 - 1.0) * 0.25)
        m = choose_move(st, policy, rstate)
        plies.append((p, m))
        R.apply_move(st, m)
    return evals, plies
