"""Sure finishes: a line of plays that takes a hand out with no other player able to play.

A meld is *sure* when the other players, all their cards taken together, cannot answer it
(``features.py_answers`` is 0: the same test as the policy's "sure" feature), or when it
cuts (an 8). After a sure meld every other player passes and the turn comes back to its
player: an 8-cut flushes at once, otherwise he passes on his own meld, the trick flushes and
he leads again. So a hand that splits into sure melds and one last meld of any kind — each
sure meld sure in the order (revolution) its predecessors leave — goes out before anybody
else plays a card: the best place still open, whatever the hidden hands are.

Flat Monte Carlo finds such lines only as often as its playouts play them (our own later
moves come from the playout policy), so the client plays a sure finish when one exists
(``endgame`` setting) instead of searching. Pure Python: it runs once per decision at the
root, over the sure melds only.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

import games.daihinmin.rules as R
from games.daihinmin.cards import ALL_CARDS, PASS, move_cards
from games.daihinmin.kernels import (
    MAX_MOVES,
    gen_moves_cached,
    hot,
    low_high,
    suits_of,
)
from knowledge.daihinmin.features import (
    CTX_SIZE,
    _cuts,
    _reply,
    _revolts,
    py_reply,
    step_context,
)

SURE_DEPTH = 16  # melds in a line (a hand holds at most 11 cards, plus the ones received)
SURE_BUDGET = 200  # sure melds the kernel tries before it gives up


def sure(m: int, others: int, table: int, rev: int, lock: int) -> bool:
    """Nobody holding only ``others`` can answer meld ``m`` played on ``table``."""
    return py_reply(others, m, table, rev, lock)[1] == 0


def sure_finish(hand: int, others: int, table: int, rev: int, lock: int,
                own_table: bool = False) -> list[int] | None:
    """The plays (our moves only; the passes back to us on our own melds included) that take
    ``hand`` out before any of the holders of ``others`` can play, or None if there is none.

    ``table`` is the meld to follow (``PASS``: we lead); ``own_table``: it is our own meld,
    everybody else passed, so passing flushes the trick and we lead."""
    if hand == 0:
        return None
    if table == PASS:
        return _lead(hand, others, rev)
    moves = [m for m in R.legal_moves(hand, table, rev, lock) if m != PASS]
    out = _out_at_once(hand, moves)
    if out is not None:
        return out
    if own_table:
        line = _lead(hand, others, rev)
        if line is not None:
            return [PASS, *line]
    return _through_sure(hand, moves, others, table, rev, lock)


@lru_cache(maxsize=4096)
def _lead(hand: int, others: int, rev: int) -> list[int] | None:
    moves = R.legal_moves(hand, PASS, rev, 0)
    return _out_at_once(hand, moves) or _through_sure(hand, moves, others, PASS, rev, 0)


def _out_at_once(hand: int, moves: list[int]) -> list[int] | None:
    """The one meld of ``moves`` that is the whole hand, if there is one."""
    for m in moves:
        if move_cards(m) == hand:
            return [m]
    return None


def _through_sure(hand: int, moves: list[int], others: int, table: int, rev: int,
                  lock: int) -> list[int] | None:
    """A line that starts with a sure meld of ``moves`` on ``table`` and goes on with a lead
    (after the pass on our own meld, unless it cut)."""
    for m in moves:
        if sure(m, others, table, rev, lock):
            rest = _lead(hand & ~move_cards(m), others, rev ^ int(R.revolts(m)))
            if rest is not None:
                return [m, *rest] if R.cuts(m) else [m, PASS, *rest]
    return None


# ----------------------------------------------------------------------------- kernel

@njit(cache=True)
def sure_buffers(on: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scratch of :func:`sure_first_kernel` for lines of up to ``SURE_DEPTH`` melds: (moves
    by depth, feature context, table cache, the search's stack). ``on=False``: empty
    placeholders, for a playout loop that does not search sure finishes."""
    depth = SURE_DEPTH if on else 0
    return (np.empty((depth, MAX_MOVES + 1), np.int64), np.empty(CTX_SIZE, np.int64),
            np.empty(5, np.int64), np.empty((4, depth), np.int64))


@hot()
def _sure_k(m: int, table: int, rev: int, lock: int, others: int, ctx: np.ndarray) -> bool:
    """Kernel of :func:`sure` (``ctx``: :func:`step_context` of ``others``)."""
    lo, hi = low_high(m)
    tsuits = suits_of(table) if table != 0 else 0
    _, answers = _reply(others, ctx, m, lo, hi, table, tsuits, rev ^ (1 if _revolts(m) else 0),
                        lock, _cuts(m))
    return answers == 0


@hot()
def _enter(hand: int, table: int, rev: int, lock: int, row: np.ndarray,
           tinfo: np.ndarray) -> int:
    """Generate the melds of ``hand`` on ``table`` into ``row``: their count, or -1 - i when
    meld i is the whole hand."""
    n = gen_moves_cached(hand, table, rev, lock, row, tinfo)
    for i in range(n):
        if (row[i] & ALL_CARDS) == hand:
            return -1 - i
    return n


@hot()
def sure_first_kernel(hand: int, others: int, table: int, rev: int, lock: int,
                      buf: np.ndarray, ctx: np.ndarray, tinfo: np.ndarray,
                      stack: np.ndarray, nodes: int) -> int:
    """The first meld of :func:`sure_finish`'s line (its ``own_table`` is never needed in a
    playout: a trick everybody passed on is flushed before its player moves again), or -1
    if there is none within ``nodes`` sure melds tried or lines as deep as the buffers
    (:func:`sure_buffers`)."""
    if hand == 0 or buf.shape[0] == 0:
        return -1
    step_context(hand, others, 0, rev, ctx)
    tinfo[0] = -1
    # depth-first, without recursion: per depth its hand, revolution, move count and the
    # next move to try (the rows of ``stack``); depth 0 follows ``table``, the deeper ones lead
    hands, revs, counts, nexts = stack[0], stack[1], stack[2], stack[3]
    n = _enter(hand, table, rev, lock, buf[0], tinfo)
    if n < 0:
        return buf[0, -1 - n]  # type: ignore[no-any-return]
    hands[0] = hand
    revs[0] = rev
    counts[0] = n
    nexts[0] = 0
    left = nodes
    d = 0
    while d >= 0:
        t = table if d == 0 else 0
        lk = lock if d == 0 else 0
        pushed = False
        while nexts[d] < counts[d]:
            m = buf[d, nexts[d]]
            nexts[d] += 1
            if d + 1 >= buf.shape[0] or not _sure_k(m, t, revs[d], lk, others, ctx):
                continue
            if left <= 0:
                return -1
            left -= 1
            h2 = hands[d] & ~(m & ALL_CARDS)
            r2 = revs[d] ^ (1 if _revolts(m) else 0)
            n = _enter(h2, 0, r2, 0, buf[d + 1], tinfo)
            if n < 0:
                return buf[0, nexts[0] - 1]  # type: ignore[no-any-return]
            d += 1
            hands[d] = h2
            revs[d] = r2
            counts[d] = n
            nexts[d] = 0
            pushed = True
            break
        if not pushed:
            d -= 1
    return -1


def sure_first(hand: int, others: int, table: int, rev: int, lock: int,
               nodes: int = SURE_BUDGET) -> int | None:
    """:func:`sure_first_kernel` from Python: the first meld of a sure finish or None."""
    buf, ctx, tinfo, stack = sure_buffers()
    m = int(sure_first_kernel(hand, others, table, rev, lock, buf, ctx, tinfo, stack, nodes))
    return None if m < 0 else m
