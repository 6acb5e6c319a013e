# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""An exact endgame solver for Blokus Duo: the score-maximising line of a late position.

:func:`solve` searches every line of play from a position to the end of the game with
negamax and α-β pruning on the final score difference (the contest's score, bonuses
included, :func:`games.blokus_duo.kernels.k_score`) seen from the colour to move. Passes are
played as the rules play them: a colour with no placement passes, and the game ends after two
successive passes or when a colour has placed all 21 pieces. The value it proves is the
margin itself, not only the win, draw or loss: the contest breaks ties between match results
by the margin.

The search is one numba kernel over the rules' state arrays: a stack of state copies, one
per ply (a move is played on a copy of its parent with ``k_play``), the moves of a node from
the incremental lists (``k_legal``). Moves are ordered by the transposition table's move
first, then by the squares they place plus the opponent's attach points they cover, then by
the history heuristic (Schaeffer, "The History Heuristic and Alpha-Beta Search Enhancements
in Practice", 1989); all but the first are searched with a null window first (principal
variation search, Marsland and Campbell, "Parallel Search of Strongly Ordered Game Trees",
1982). The transposition table holds, per Zobrist key of (placements, colour to move, a
pending pass), the value found, whether it is exact or a bound, and the best move. On
positions of 8 to 12 pieces left per colour, the history heuristic, the principal variation
search and the attach-point term each cut the nodes searched (by about 25 %, 20 % and 8 %).

It proves the result first: a search in the window (-1, 1) around the draw, which on
positions of 8 to 12 pieces left per colour costs about a seventh of the nodes of the margin
(it proved 41 of 45 such positions in 100,000 nodes, the margin 23). Then the margin, in the
nodes left, on the same table (its entries are bounds, true in any window). When the budget
runs out before the margin is proved, a proved win is still a result (``exact`` false): its
move wins, by at least ``value``.

A **node budget** bounds the work: when it runs out the search stops and says so
(``solved`` false, or a win without its exact margin); the caller picks a budget that fits
its time (the nodes per second are in docs/blokus-duo.md). The kernel releases the GIL, so
a thread waiting on it keeps its own clock. The plain-Python reference is the plain minimax
of the tests (``tests/blokus_knowledge/test_endgame.py``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from games.blokus_duo import kernels as _kernels
from games.blokus_duo.geometry import PASS
from games.blokus_duo.state import PASS_KEY, BlokusState

K: Any = _kernels  # numba dispatchers: untyped for mypy

TT_BITS = 17  # the transposition table's entries: 2**TT_BITS
_PASS_KEY = np.int64(PASS_KEY)
_INF = 1 << 20  # beyond every score difference
# transposition-table entry kinds (0: empty)
_EXACT = 1
_LOWER = 2  # the value is a lower bound (the search failed high)
_UPPER = 3  # the value is an upper bound (the search failed low)
# the counters array: nodes searched, the node budget, 1 once the budget ran out
_NODES = 0
_BUDGET = 1
_OUT = 2


class Solution(NamedTuple):
    """What :func:`solve` found. solved: ``move`` (a placement, or PASS when the mover has
    none) is proved to secure ``value``: with ``exact``, the exact final score difference
    (mover minus opponent) of perfect play by both, the score-maximising move; without, a
    win by at least ``value`` (> 0), the margin unproved. Unsolved (a loss proved without its
    margin, or nothing proved): ``move`` PASS, ``value`` 0. nodes: positions searched."""

    solved: bool
    exact: bool
    move: int
    value: int
    nodes: int


@njit(cache=True, nogil=True)
def _negamax(G, zob, zside, st, ws, d, key, alpha, beta):
    """The exact value of the position at ply ``d`` of the stack ``st`` for its mover, as
    fail-soft α-β within (alpha, beta); ``key`` is the Zobrist key of its placements. ``ws``:
    the move lists and their ordering keys per ply, the history counts, the best move per
    ply (this node's goes to ``best[d]``), the transposition table and the counters. Returns
    0 once the budget has run out (``count[_OUT]``)."""
    board, forb, forbb, att, used, cand, ncand, meta = st
    moves, keys, hist, best, tt_key, tt_val, tt_kind, tt_move, count = ws
    count[_NODES] += 1
    if count[_NODES] > count[_BUDGET]:
        count[_OUT] = 1
        return 0
    m = meta[d]
    c = m[K.M_TO_MOVE]
    best[d] = PASS
    if m[K.M_OVER]:
        return K.k_score(m, c) - K.k_score(m, 1 - c)
    full = key ^ zside[c]
    if m[K.M_PASSES]:
        full ^= _PASS_KEY
    slot = full & (tt_key.shape[0] - 1)
    hint = PASS
    if tt_kind[slot] != 0 and tt_key[slot] == full:
        v = tt_val[slot]
        kind = tt_kind[slot]
        if kind == _EXACT or (kind == _LOWER and v >= beta) or (kind == _UPPER and v <= alpha):
            best[d] = tt_move[slot]
            return v
        hint = tt_move[slot]
    out = moves[d]
    n = K.k_legal(c, G[11], G[12], G[20], forbb[d], cand[d], ncand[d], out)
    e = d + 1
    if n == 0:
        _child(G, st, d, PASS)
        return -_negamax(G, zob, zside, st, ws, e, key, -beta, -alpha)
    # by the squares placed plus the opponent's attach points covered, then by how often
    # the move was best (the history heuristic); the table's move before them all
    ks = keys[d]
    for i in range(n):
        q = out[i]
        take = 0
        for t in range(G[1][q]):
            take += att[d][1 - c, G[0][q, t]]
        k = (np.int64(G[1][q] + take) << 32) + hist[c, q]
        if q == hint:
            k = np.int64(1) << 44
        j = i
        while j > 0 and ks[j - 1] < k:
            ks[j] = ks[j - 1]
            out[j] = out[j - 1]
            j -= 1
        ks[j] = k
        out[j] = q
    # principal variation search: the first move with the window, the others with a null
    # window first (scores are integers), searched again when they might be better
    a0 = alpha
    value = -_INF
    move = PASS
    for i in range(n):
        q = out[i]
        _child(G, st, d, q)
        k = key ^ zob[c, q]
        if i == 0:
            v = -_negamax(G, zob, zside, st, ws, e, k, -beta, -alpha)
        else:
            v = -_negamax(G, zob, zside, st, ws, e, k, -alpha - 1, -alpha)
            if alpha < v < beta and not count[_OUT]:
                v = -_negamax(G, zob, zside, st, ws, e, k, -beta, -v)
        if count[_OUT]:
            return 0
        if v > value:
            value = v
            move = q
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    if value > a0:
        hist[c, move] += 1
    best[d] = move
    tt_key[slot] = full
    tt_val[slot] = value
    tt_move[slot] = move
    if value <= a0:
        tt_kind[slot] = _UPPER
    elif value >= beta:
        tt_kind[slot] = _LOWER
    else:
        tt_kind[slot] = _EXACT
    return value


@njit(cache=True, nogil=True)
def _child(G, st, d, move):
    """Ply ``d + 1`` of the stack: ply ``d`` with ``move`` played."""
    board, forb, forbb, att, used, cand, ncand, meta = st
    e = d + 1
    K.k_copy_state(G[20], board[d], forb[d], forbb[d], att[d], used[d], cand[d], ncand[d],
                   meta[d], board[e], forb[e], forbb[e], att[e], used[e], cand[e], ncand[e],
                   meta[e])
    K.k_play(G, board[e], forb[e], forbb[e], att[e], used[e], cand[e], ncand[e], meta[e],
             move)


def endgame_ready(state: BlokusState, most_moves: int) -> bool:
    """Is ``state`` one to try the solver on: do both colours together have at most
    ``most_moves`` legal placements?"""
    return state.legal_count(0) + state.legal_count(1) <= most_moves


def solve(state: BlokusState, max_nodes: int, tt_bits: int = TT_BITS) -> Solution:
    """The score-maximising move of ``state``'s mover and the final score difference it
    secures, if the game tree from ``state`` can be searched in ``max_nodes`` nodes, else a
    move that wins if that much is proved (``state`` itself is not changed). The
    transposition table has ``2**tt_bits`` entries."""
    if max_nodes < 1:
        raise ValueError("max_nodes must be >= 1")
    g = state.geo
    # each ply places a piece or passes, and no two passes come without a placement between
    left = 2 * K.NUM_PIECES - int(state.meta[K.M_PLACED] + state.meta[K.M_PLACED + 1])
    depth = 2 * left + 3
    st = tuple(np.empty((depth,) + a.shape, dtype=a.dtype) for a in state.arrays())
    for a, b in zip(state.arrays(), st, strict=True):
        b[0] = a
    moves = np.empty((depth, g.num_placements), dtype=np.int32)
    keys = np.empty((depth, g.num_placements), dtype=np.int64)
    hist = np.zeros((2, g.num_placements), dtype=np.int64)
    best = np.full(depth, PASS, dtype=np.int32)
    size = 1 << tt_bits
    tt_key = np.empty(size, dtype=np.int64)
    tt_val = np.empty(size, dtype=np.int32)
    tt_kind = np.zeros(size, dtype=np.int8)
    tt_move = np.empty(size, dtype=np.int32)
    count = np.array([0, max_nodes, 0], dtype=np.int64)
    key = np.array([state.placements_key], dtype=np.uint64).view(np.int64)[0]
    ws = (moves, keys, hist, best, tt_key, tt_val, tt_kind, tt_move, count)
    args = (g.kernel_args, g.zobrist.view(np.int64), g.zobrist_side.view(np.int64), st, ws, 0,
            key)
    # the result first (a window around a draw), then the margin with what is left
    value = int(_negamax(*args, -1, 1))
    if count[_OUT]:
        return Solution(False, False, PASS, 0, max_nodes)
    if value == 0:
        return Solution(True, True, int(best[0]), 0, int(count[_NODES]))
    result = (int(best[0]), value)
    value = int(_negamax(*args, -_INF, _INF))
    if not count[_OUT]:
        return Solution(True, True, int(best[0]), value, int(count[_NODES]))
    if result[1] > 0:
        return Solution(True, False, result[0], result[1], max_nodes)
    return Solution(False, False, PASS, 0, max_nodes)
