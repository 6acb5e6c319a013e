# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""numba kernels of the Blokus Duo rules: the board, incremental move lists, scores.

State arrays (owned by :class:`games.blokus_duo.state.BlokusState`, ``S`` cells, ``NP``
placements):

board (S,) int8
    -1 empty, else the colour on the cell.
forb (2, S) uint8
    1 where colour c may not put a cell: occupied, or edge-adjacent to its own colour.
forbb (4, bb_len) uint64
    rows 0, 1: ``forb`` of colour 0, 1 as bitboards (``Geometry.bb_*``), for branch-free
    legality tests; rows 2, 3: the attach points (``att == 1``) of colour 0, 1.
att (2, S) uint8
    1 on colour c's attach points: empty, not forbidden, corner-adjacent to its own colour
    (or its start cell before its first move). 2 only transiently inside :func:`k_play`.
used (2, 21) uint8
    pieces already placed.
cand (2, NP) int32, ncand (2, 21) int32
    per colour and piece a bucket of candidate placements: a superset of the legal placements
    (every placement that covered an attach point while it was legal, each at most once).
    Piece k's bucket is ``cand[c, pstart[k] : pstart[k] + ncand[c, k]]`` (emptied when the
    piece is placed). Entries that became illegal are dropped lazily when met
    (:func:`k_valid`).
meta (META_LEN,) int64
    scalars, indexed by the ``M_*`` constants below.

Kernels take the geometry arrays ``G = Geometry.kernel_args`` (cells, ncells, piece,
corners, ncorners, edges, nedges, bcp_start, bcp, bcp_mask, diamond, bb_word, bb_mask,
eb_word, eb_mask, bcpp_start, bcpp, bcpp_mask, bcpp_piece, diamond_nbr, pstart,
diamond_word, diamond_bit, diamond_index, bcpp_pat, bcpp_ent) and the
state arrays ``(board, forb, forbb, att, used, cand, ncand, meta)`` in this order.

The playout policies over these kernels are in :mod:`knowledge.blokus_duo.policy`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

_F = TypeVar("_F", bound=Callable[..., Any])


def _has_nrt_option() -> bool:
    """``_nrt`` is a private numba option; without it the kernels still work, only slower."""
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:  # pragma: no cover
        return False
    return hasattr(CPUTargetOptions, "_nrt")


def hot(inline: bool = False) -> Callable[[_F], _F]:
    """``njit(cache=True)`` without the numba runtime (no allocation inside, and array
    arguments passed without atomic reference counting); ``inline=True`` also inlines the
    function into its caller at the numba IR level."""

    def deco(f: _F) -> _F:
        opts: dict[str, Any] = {"_nrt": False} if _has_nrt_option() else {}
        if inline:
            opts["inline"] = "always"
        return cast(_F, njit(cache=True, **opts)(f))

    return deco

# meta layout
M_TO_MOVE = 0  # colour to move
M_PASSES = 1  # successive passes just played
M_PLACED = 2  # 2, 3: pieces placed by colour 0, 1
M_LAST_PIECE = 4  # 4, 5: last piece placed by colour c (-1 none)
M_REMAINING = 6  # 6, 7: squares not yet placed by colour c
M_LAST_MOVE = 8  # 8, 9: last placement of colour c (-1 none)
M_OVER = 10  # 1 when the game is over
M_PLIES = 11  # moves played (passes included)
META_LEN = 12

NUM_PIECES = 21
_DROW = (0, 1, 4, 9, 16, 25, 32, 37, 40)  # first diamond bit of each row

@njit(cache=True)
def k_init(start, piece, bcp_start, bcp, pstart, bb_word, bb_mask, board, forb, forbb, att,
           used, cand, ncand, meta, first):
    """The empty board, ``first`` (a colour) to move."""
    board[:] = -1
    forb[:, :] = 0
    forbb[:, :] = 0
    att[:, :] = 0
    used[:, :] = 0
    for c in range(2):
        s = start[c]
        att[c, s] = 1
        forbb[2 + c, bb_word[s]] |= bb_mask[s, 0]  # placement s = the monomino on s
        ncand[c, :] = 0
        for t in range(bcp_start[s, 0], bcp_start[s, NUM_PIECES]):
            q = bcp[t]
            p = piece[q]
            cand[c, pstart[p] + ncand[c, p]] = q
            ncand[c, p] += 1
    meta[:] = 0
    meta[M_TO_MOVE] = first
    for c in range(2):
        meta[M_LAST_PIECE + c] = -1
        meta[M_LAST_MOVE + c] = -1
        meta[M_REMAINING + c] = 89


@hot(inline=True)
def k_valid(c, q, piece, bb_word, bb_mask, forbb, used):
    """Is candidate ``q`` (taken from colour c's candidate list) still legal for c?"""
    if used[c, piece[q]]:
        return False
    w = bb_word[q]
    return ((forbb[c, w] & bb_mask[q, 0]) | (forbb[c, w + 1] & bb_mask[q, 1])) == 0


@hot(inline=True)
def k_cover(cells, ncells, edges, nedges, corners, ncorners, board, forb, att, c, move, mark):
    """The board, forbidden and attach-point updates of colour c placing ``move``: its cells
    taken, its edge cells forbidden to c, and each corner cell that becomes a new attach
    point of c set to ``mark`` in ``att`` (:func:`k_play` marks them 2, then lists the
    placements through them)."""
    for i in range(ncells[move]):
        x = cells[move, i]
        board[x] = c
        forb[0, x] = 1
        forb[1, x] = 1
        att[0, x] = 0
        att[1, x] = 0
    for i in range(nedges[move]):
        x = edges[move, i]
        forb[c, x] = 1
        att[c, x] = 0
    for i in range(ncorners[move]):
        x = corners[move, i]
        if forb[c, x] == 0 and att[c, x] == 0:
            att[c, x] = mark


@hot(inline=True)
def k_play(G, board, forb, forbb, att, used, cand, ncand, meta, move):
    """Play ``move`` (a placement, or -1 to pass) for the colour to move. No legality check."""
    (cells, ncells, piece, corners, ncorners, edges, nedges, bcp_start, bcp, bcp_mask, diamond,
     bb_word, bb_mask, eb_word, eb_mask, bcpp_start, bcpp, bcpp_mask, bcpp_piece, diamond_nbr,
     pstart, diamond_word, diamond_bit, diamond_index, bcpp_pat, bcpp_ent) = G
    size = int(np.sqrt(board.shape[0]) + 0.5)
    c = meta[M_TO_MOVE]
    meta[M_PLIES] += 1
    if move < 0:
        meta[M_PASSES] += 1
        if meta[M_PASSES] >= 2:
            meta[M_OVER] = 1
        meta[M_TO_MOVE] = 1 - c
        return
    meta[M_PASSES] = 0
    n = ncells[move]
    # the cells, the forbidden edge cells and the new attach points (marked 2)
    k_cover(cells, ncells, edges, nedges, corners, ncorners, board, forb, att, c, move, 2)
    w = bb_word[move]
    for i in range(2):
        forbb[0, w + i] |= bb_mask[move, i]
        forbb[1, w + i] |= bb_mask[move, i]
    w = eb_word[move]
    for i in range(3):
        forbb[c, w + i] |= eb_mask[move, i]
    for i in range(forbb.shape[1]):  # attach points never stay on forbidden cells
        forbb[2, i] &= ~forbb[0, i]
        forbb[3, i] &= ~forbb[1, i]
    p = piece[move]
    used[c, p] = 1
    ncand[c, p] = 0
    meta[M_PLACED + c] += 1
    meta[M_LAST_PIECE + c] = p
    meta[M_REMAINING + c] -= n
    meta[M_LAST_MOVE + c] = move
    # the placements through the new attach points not already listed
    one = np.uint64(1)
    for j in range(ncorners[move]):
        x = corners[move, j]
        if att[c, x] != 2:
            continue
        # bad cells around x: forbidden or an old attach point (such placements are listed
        # already), from the bitboards; then the new attach points before x (listed through
        # that one)
        # the diamond row by row: row dy (|dy| <= 4) is the run of bits at _DROW[dy + 4]
        # covering columns xx - h .. xx + h (h = 4 - |dy|); bits of cells off the board may
        # be anything (no placement covers them)
        xy = x // size
        xx = x - xy * size
        bad = np.uint64(0)
        for r in range(9):
            yy = xy + r - 4
            if yy < 0 or yy >= size:
                continue
            h = 4 - abs(r - 4)
            sh = np.uint64((yy & 3) * 16)
            wy = yy >> 2
            row = (((forbb[c, wy] | forbb[2 + c, wy]) >> sh) & np.uint64(0xFFFF)) << np.uint64(4)
            seg = (row >> np.uint64(xx + 4 - h)) & np.uint64((1 << (2 * h + 1)) - 1)
            bad |= seg << np.uint64(_DROW[r])
        for i in range(ncorners[move]):
            y = corners[move, i]
            if att[c, y] == 2 and y < x:
                dx = y - (y // size) * size - xx
                dy = y // size - xy
                if -4 <= dx <= 4 and -4 <= dy <= 4:
                    b = diamond_index[(dy + 4) * 9 + dx + 4]
                    if b >= 0:
                        bad |= one << np.uint64(b)
        free = 15
        for i in range(4):
            if (bad >> np.uint64(diamond_nbr[i])) & one:
                free &= ~(1 << i)
        # the patterns that avoid the bad neighbours: the subsets of ``free``, ascending
        pat = 0
        while True:
            for t in range(bcpp_pat[x, pat], bcpp_pat[x, pat + 1]):
                e = bcpp_ent[t]
                if (e & bad) == 0:
                    q = np.int32(e >> np.uint64(41))
                    pc = piece[q]
                    if used[c, pc] == 0:
                        k = ncand[c, pc]
                        cand[c, pstart[pc] + k] = q
                        ncand[c, pc] = k + 1
            pat = (pat - free) & free
            if pat == 0:
                break
    for i in range(ncorners[move]):
        x = corners[move, i]
        if att[c, x] == 2:
            att[c, x] = 1
            forbb[2 + c, bb_word[x]] |= bb_mask[x, 0]  # placement x = the monomino on x
    if meta[M_PLACED + c] == NUM_PIECES:
        meta[M_OVER] = 1
    meta[M_TO_MOVE] = 1 - c


@njit(cache=True)
def k_is_legal(G, forb, att, used, meta, move):
    """Is ``move`` (a placement id, or -1 = pass) legal for the colour to move? A pass is
    legal except as a colour's first move (unless it has no placement at all: then the
    caller decides). Checks the rules directly (no candidate lists)."""
    cells = G[0]
    ncells = G[1]
    piece = G[2]
    if meta[M_OVER]:
        return False
    c = meta[M_TO_MOVE]
    if move < 0:
        return move == -1 and meta[M_PLACED + c] > 0
    if move >= piece.shape[0] or used[c, piece[move]]:
        return False
    touch = False
    for i in range(ncells[move]):
        x = cells[move, i]
        if forb[c, x]:
            return False
        if att[c, x]:
            touch = True
    return touch


@njit(cache=True)
def k_legal(c, bb_word, bb_mask, pstart, forbb, cand, ncand, out):
    """Compact colour c's candidate buckets (``k_compact``) and copy the legal placements
    into ``out``; returns their number."""
    k_compact(c, bb_word, bb_mask, pstart, forbb, cand, ncand)
    k = 0
    for p in range(NUM_PIECES):
        base = pstart[p]
        for i in range(ncand[c, p]):
            out[k] = cand[c, base + i]
            k += 1
    return k


@njit(cache=True)
def k_count_legal(c, piece, bb_word, bb_mask, pstart, forbb, used, cand, ncand):
    n = 0
    for p in range(NUM_PIECES):
        base = pstart[p]
        for i in range(ncand[c, p]):
            if k_valid(c, cand[c, base + i], piece, bb_word, bb_mask, forbb, used):
                n += 1
    return n


@njit(cache=True)
def k_generate(c, board, used, start, size, cells, ncells, bcp_start, bcp, mark, out):
    """Full legal-move generation for colour c from the board alone (no incremental lists):
    attach points from the board, then the placements through them. ``mark`` is an int32
    scratch array of length NP (zeroed on return). Returns the number written to ``out``."""
    S = size * size
    fb = np.zeros(S, dtype=np.uint8)
    ap = np.zeros(S, dtype=np.uint8)
    own = False
    for x in range(S):
        if board[x] >= 0:
            fb[x] = 1
            if board[x] == c:
                own = True
    for x in range(S):
        if board[x] == c:
            cy = x // size
            cx = x - cy * size
            if cx > 0:
                fb[x - 1] = 1
            if cx < size - 1:
                fb[x + 1] = 1
            if cy > 0:
                fb[x - size] = 1
            if cy < size - 1:
                fb[x + size] = 1
    if not own:
        if fb[start[c]] == 0:
            ap[start[c]] = 1
    else:
        for x in range(S):
            if board[x] == c:
                cy = x // size
                cx = x - cy * size
                for dy in (-1, 1):
                    for dx in (-1, 1):
                        nx = cx + dx
                        ny = cy + dy
                        if 0 <= nx < size and 0 <= ny < size:
                            y = ny * size + nx
                            if fb[y] == 0:
                                ap[y] = 1
    k = 0
    for x in range(S):
        if ap[x] == 0:
            continue
        for pc in range(NUM_PIECES):
            if used[c, pc]:
                continue
            for t in range(bcp_start[x, pc], bcp_start[x, pc + 1]):
                q = bcp[t]
                if mark[q]:
                    continue
                ok = True
                for i in range(ncells[q]):
                    if fb[cells[q, i]]:
                        ok = False
                        break
                if ok:
                    mark[q] = 1
                    out[k] = q
                    k += 1
    for i in range(k):
        mark[out[i]] = 0
    return k


@hot(inline=True)
def k_compact(c, bb_word, bb_mask, pstart, forbb, cand, ncand):
    """Drop the entries of colour c's buckets that became illegal (the buckets of placed
    pieces are empty already); returns the number left."""
    total = 0
    for p in range(NUM_PIECES):
        base = pstart[p]
        m = 0
        for i in range(ncand[c, p]):
            q = cand[c, base + i]
            w = bb_word[q]
            cand[c, base + m] = q
            m += ((forbb[c, w] & bb_mask[q, 0]) | (forbb[c, w + 1] & bb_mask[q, 1])) == 0
        ncand[c, p] = m
        total += m
    return total


@hot(inline=True)
def k_score(meta, c):
    """The contest score of colour c: -(squares left), +15 for all 21 (+20 if the last piece
    was the monomino)."""
    s = -meta[M_REMAINING + c]
    if meta[M_PLACED + c] == NUM_PIECES:
        s += 20 if meta[M_LAST_PIECE + c] == 0 else 15
    return s


@hot(inline=True)
def k_copy_state(pstart, board, forb, forbb, att, used, cand, ncand, meta, board2, forb2,
                 forbb2, att2, used2, cand2, ncand2, meta2):
    """Copy the state arrays into a second set (only the used part of the lists)."""
    for i in range(board.shape[0]):
        board2[i] = board[i]
        for c in range(2):
            forb2[c, i] = forb[c, i]
            att2[c, i] = att[c, i]
    for r in range(forbb.shape[0]):
        for i in range(forbb.shape[1]):
            forbb2[r, i] = forbb[r, i]
    for i in range(meta.shape[0]):
        meta2[i] = meta[i]
    for c in range(2):
        for p in range(NUM_PIECES):
            used2[c, p] = used[c, p]
            ncand2[c, p] = ncand[c, p]
            base = pstart[p]
            for i in range(ncand[c, p]):
                cand2[c, base + i] = cand[c, base + i]
