"""The playout policies of the kernels and their plain-Python reference.

A policy is named by an integer code, which the playout kernel
(:func:`knowledge.daihinmin.playout.playout`) takes as a parameter: ``POLICY_UNIFORM`` (every
legal move equally likely, the pass included when following), ``POLICY_HEURISTIC`` (the rule
player's move: the sample client's choice) and ``POLICY_LEARNED`` (the softmax of
:mod:`knowledge.daihinmin.learned`). The reference (:func:`py_choose_move`,
:func:`py_playout`) draws the same random stream and makes the same choices when the kernel
is asked to sort its moves.
"""

from __future__ import annotations

import numpy as np

import games.daihinmin.rules as R
from games.daihinmin.cards import (
    ALL_CARDS,
    JOKER_BIT,
    PASS,
    SINGLE_JOKER,
    move_count,
    move_kind,
    move_low_high,
)
from games.daihinmin.kernels import (
    gen_moves_cached,
    hot,
    low_high,
    popcount,
    py_rng_below,
    rng_below,
)
from games.daihinmin.rules import H0, LOCK, REV, TABLE, TURN

POLICY_UNIFORM = 0
POLICY_HEURISTIC = 1
POLICY_LEARNED = 2
POLICIES = {"uniform": POLICY_UNIFORM, "heuristic": POLICY_HEURISTIC,
            "learned": POLICY_LEARNED}


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


def py_choose_move(st: list[int], policy: int, rstate: list[int]) -> int:
    """Reference of :func:`choose_move` (uniform or heuristic)."""
    p = st[R.TURN]
    hand, table, rev, lock = st[R.H0 + p], st[R.TABLE], st[R.REV], st[R.LOCK]
    if policy == POLICY_HEURISTIC:
        return heuristic_move(hand, table, rev, lock)
    moves = R.legal_moves(hand, table, rev, lock)
    if all(m == PASS for m in moves):  # no meld: pass without a draw
        return PASS
    return moves[py_rng_below(rstate, len(moves))]


def py_playout(st: list[int], seat: int, policy: int, rstate: list[int],
               stop_when_out: bool) -> tuple[list[float], list[tuple[int, int]]]:
    """Reference of the playout kernel with a uniform or heuristic policy (no stalemate:
    neither policy passes on a lead). Returns the evals of ``seat`` and the (player, move)
    plies."""
    evals: list[float] = []
    plies: list[tuple[int, int]] = []
    while not R.is_over(st):
        if stop_when_out and st[R.OUTMASK] >> seat & 1:
            break
        p = st[R.TURN]
        if p == seat:
            k = R.NP - st[R.NOUT]
            evals.append(((k + 1) * 0.5 - 1.0) * 0.25)
        m = py_choose_move(st, policy, rstate)
        plies.append((p, m))
        R.apply_move(st, m)
    return evals, plies


# ----------------------------------------------------------------------------- kernels

@hot()
def heuristic_pick(moves: np.ndarray, n: int, rev: int, empty: bool) -> int:
    """Sample-client-like choice: the weakest meld; on a lead prefer sequences, then groups,
    then singles, more cards first; keep the joker unless nothing else plays."""
    best = -1
    best_cost = 1 << 40
    for i in range(n):
        m = moves[i]
        if m == SINGLE_JOKER:
            lo = 14
            strength = 20
        else:
            lo, hi = low_high(m)
            strength = (14 - hi) if rev else lo
        cost = strength
        if m & JOKER_BIT:
            cost += 10000
        if empty:
            kind = (m >> 60) & 3
            cost += (3 - kind) * 1000 - popcount(m & ALL_CARDS) * 20
        if cost < best_cost or (cost == best_cost and m < moves[best]):
            best_cost = cost
            best = i
    return best


@hot()
def sort_small(a: np.ndarray, n: int) -> None:
    """Insertion sort of ``a[:n]`` in place."""
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@hot(inline=True)
def choose_move(st: np.ndarray, policy: int, rs: np.ndarray, buf: np.ndarray,
                sort_moves: bool, tinfo: np.ndarray) -> int:
    """The move of the player to move by the uniform or the heuristic ``policy``, its
    candidates generated into ``buf`` (``sort_moves``: sorted first, as the reference lists
    them)."""
    p = st[TURN]
    table = st[TABLE]
    n = gen_moves_cached(st[H0 + p], table, st[REV], st[LOCK], buf, tinfo)
    empty = table == 0
    if n == 0:
        return 0
    if sort_moves:
        sort_small(buf, n)
    if policy == POLICY_HEURISTIC:
        return buf[heuristic_pick(buf, n, st[REV], empty)]  # type: ignore[no-any-return]
    if empty:
        return buf[rng_below(rs, n)]  # type: ignore[no-any-return]
    k = rng_below(rs, n + 1)  # index 0 = pass (as in the sorted reference list)
    if k == 0:
        return 0
    return buf[k - 1]  # type: ignore[no-any-return]
