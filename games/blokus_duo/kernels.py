# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""numba kernels of Blokus Duo: incremental move lists, random and weighted playouts.

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

Randomness: a splitmix64 generator whose one-word state (a uint64 array of length 1) is
seeded by the caller, so playouts are reproducible from a seed.
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
MAX_PLAYOUT_MOVES = 4 * NUM_PIECES + 4
_COMPACT_AFTER = 16  # k_pick: compact the lists after this many dead draws in one pick

POLICY_UNIFORM = 0
POLICY_WEIGHTED = 1

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@hot(inline=True)
def rng_next(s: Any) -> Any:
    """splitmix64: advance the one-word state ``s[0]`` and return 64 random bits."""
    s[0] += _GOLDEN
    z = s[0]
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@hot(inline=True)
def rng_below(s: Any, n: int) -> Any:
    """Uniform in 0..n-1 for 0 < n < 2**32 (multiply-shift: no slow 64-bit division)."""
    return np.int64(((rng_next(s) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@hot(inline=True)
def rng_unit(s: Any) -> float:
    return float(rng_next(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


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
    for i in range(n):
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
    # new attach points (marked 2), then the placements through them not already listed
    for i in range(ncorners[move]):
        x = corners[move, i]
        if forb[c, x] == 0 and att[c, x] == 0:
            att[c, x] = 2
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


# weighted playouts: the layout of the policy's weights (BlokusState._policy())
W_NEAR = 6  # factor of a placement touching the opponent's last placement (edge or corner)
W_FAR = 7  # ... of one that does not
W_GAIN = 8  # factor per new attach point short of W_GAIN_CAP (1: no corner-gain term)
W_GAIN_CAP = 9
W_NOTAKE = 10  # factor of a placement covering none of the opponent's attach points
W_OPEN_PIECES = 11  # while the mover has placed fewer pieces than this ...
W_OPEN = 12  # ... a placement of fewer than 5 squares gets this factor
W_REWARD = 13  # the reward: weight of the score margin term (0: win/draw/loss only) ...
W_REWARD_SCALE = 14  # ... the margin that counts fully
POLICY_WEIGHTS = 15


@hot(inline=True)
def k_weight(c, q, weights, cells, ncells, corners, ncorners, board, forb, att, meta, near,
             last, u):
    """The weighted policy's weight (in (0, 1]) of colour c's legal placement q: size, the
    opening, local reply to the opponent's last placement (``near`` marks its edge and corner
    cells, ``last`` >= 0), taking the opponent's attach points, corner gain (new attach
    points). Every factor is at most 1, so as soon as the product so far is at most ``u`` it
    is returned at once (the placement is rejected by ``u`` either way)."""
    n = ncells[q]
    wt = weights[n]
    if n < 5 and meta[M_PLACED + c] < weights[W_OPEN_PIECES]:
        wt *= weights[W_OPEN]
    f = weights[W_FAR]
    if last >= 0:
        for j in range(n):
            if near[cells[q, j]]:
                f = weights[W_NEAR]
                break
    wt *= f
    if wt <= u:
        return wt
    if weights[W_NOTAKE] < 1.0:
        o = 1 - c
        take = False
        for j in range(n):
            if att[o, cells[q, j]]:
                take = True
                break
        if not take:
            wt *= weights[W_NOTAKE]
            if wt <= u:
                return wt
    if weights[W_GAIN] < 1.0:
        cap = weights[W_GAIN_CAP]
        gain = 0
        for j in range(ncorners[q]):
            x = corners[q, j]
            if board[x] < 0 and forb[c, x] == 0 and att[c, x] == 0:
                gain += 1
                if gain >= cap:
                    break
        if gain < cap:
            wt *= weights[W_GAIN] ** (cap - gain)
    return wt


@hot(inline=True)
def k_pick(c, policy, weights, cells, ncells, piece, edges, nedges, corners, ncorners,
           bb_word, bb_mask, pstart, board, forb, forbb, att, used, cand, ncand, meta, near,
           rng):
    """Draw colour c's playout move from its candidate buckets, or -1 (pass) if it has none.

    uniform: every legal placement with the same probability (rejection over the lazy
    buckets: a uniform entry; an illegal one is dropped and the draw repeated; after
    ``_COMPACT_AFTER`` dead draws all of c's buckets are compacted at once).
    weighted: probability proportional to :func:`k_weight` (rejection sampling: a uniform
    legal placement is accepted when a uniform number is below its weight). ``near`` is a
    (S,) uint8 scratch array."""
    total = 0
    for p in range(NUM_PIECES):
        total += ncand[c, p]
    last = -1
    if policy == POLICY_WEIGHTED:
        last = meta[M_LAST_MOVE + 1 - c]
        if last >= 0:
            for i in range(nedges[last]):
                near[edges[last, i]] = 1
            for i in range(ncorners[last]):
                near[corners[last, i]] = 1
    q = -1
    misses = 0
    while total > 0:
        r = rng_below(rng, total)
        p = 0
        while r >= ncand[c, p]:
            r -= ncand[c, p]
            p += 1
        idx = pstart[p] + r
        q = cand[c, idx]
        w = bb_word[q]
        if ((forbb[c, w] & bb_mask[q, 0]) | (forbb[c, w + 1] & bb_mask[q, 1])) != 0:
            n = ncand[c, p] - 1
            cand[c, idx] = cand[c, pstart[p] + n]
            ncand[c, p] = n
            total -= 1
            q = -1
            misses += 1
            if misses == _COMPACT_AFTER:
                # mostly dead entries: drop them all in one pass, then draw among the rest
                total = k_compact(c, bb_word, bb_mask, pstart, forbb, cand, ncand)
            continue
        if policy == POLICY_UNIFORM:
            break
        u = rng_unit(rng)
        if k_weight(c, q, weights, cells, ncells, corners, ncorners, board, forb, att, meta,
                    near, last, u) > u:
            break
        q = -1
    if last >= 0:
        for i in range(nedges[last]):
            near[edges[last, i]] = 0
        for i in range(ncorners[last]):
            near[corners[last, i]] = 0
    return q


@njit(cache=True)
def k_sample_picks(G, board, forb, forbb, att, used, cand, ncand, meta, colour, policy, weights,
                   rng, out, near):
    """Draw ``len(out)`` playout moves for ``colour`` from the same position (picking only
    drops dead list entries, so the position does not change): for testing the policies.
    ``near``: a zeroed (S,) uint8 scratch array."""
    cells = G[0]
    ncells = G[1]
    piece = G[2]
    corners = G[3]
    ncorners = G[4]
    edges = G[5]
    nedges = G[6]
    bb_word = G[11]
    bb_mask = G[12]
    pstart = G[20]
    for i in range(out.shape[0]):
        out[i] = k_pick(colour, policy, weights, cells, ncells, piece, edges, nedges, corners,
                        ncorners, bb_word, bb_mask, pstart, board, forb, forbb, att, used, cand,
                        ncand, meta, near, rng)


@hot(inline=True)
def k_score(meta, c):
    """The contest score of colour c: -(squares left), +15 for all 21 (+20 if the last piece
    was the monomino)."""
    s = -meta[M_REMAINING + c]
    if meta[M_PLACED + c] == NUM_PIECES:
        s += 20 if meta[M_LAST_PIECE + c] == 0 else 15
    return s


@hot(inline=True)
def k_reward(d, weight, scale):
    """The reward of a finished game for a colour whose score margin (own - opponent) is
    ``d``: 1 win, 0.5 draw, 0 loss, blended with the margin: (1 - weight) * that + weight *
    (0.5 + 0.5 * clip(d / scale, -1, 1)). In [0, 1]; the two colours' rewards sum to 1."""
    r = 1.0 if d > 0 else 0.0 if d < 0 else 0.5
    if weight > 0.0:
        m = min(1.0, max(-1.0, d / scale))
        r = (1.0 - weight) * r + weight * (0.5 + 0.5 * m)
    return r


@hot()
def k_playout(G, board, forb, forbb, att, used, cand, ncand, meta, policy, weights, rng,
              moves_out, colours_out, near):
    """Play the (mutable) state to the end; record the moves and who played them. Returns
    the number of moves played. ``near``: a zeroed (S,) uint8 scratch array. (No numba
    runtime: no allocation, no reference counting in the loop.)"""
    (cells, ncells, piece, corners, ncorners, edges, nedges, bcp_start, bcp, bcp_mask, diamond,
     bb_word, bb_mask, eb_word, eb_mask, bcpp_start, bcpp, bcpp_mask, bcpp_piece, diamond_nbr,
     pstart, diamond_word, diamond_bit, diamond_index, bcpp_pat, bcpp_ent) = G
    n = 0
    while meta[M_OVER] == 0:
        c = meta[M_TO_MOVE]
        q = k_pick(c, policy, weights, cells, ncells, piece, edges, nedges, corners, ncorners,
                   bb_word, bb_mask, pstart, board, forb, forbb, att, used, cand, ncand, meta,
                   near, rng)
        moves_out[n] = q
        colours_out[n] = c
        n += 1
        k_play(G, board, forb, forbb, att, used, cand, ncand,
               meta, q)
    return n


@njit(cache=True)
def k_playout_copy(G, board, forb, forbb, att, used, cand, ncand, meta, policy, weights, rng,
                   moves_out, colours_out, scores_out):
    """:func:`k_playout` on a copy (allocated here); the state is not changed. The final
    scores of colours 0 and 1 go to ``scores_out``. Returns the number of moves played."""
    board2 = np.empty_like(board)
    forb2 = np.empty_like(forb)
    forbb2 = np.empty_like(forbb)
    att2 = np.empty_like(att)
    used2 = np.empty_like(used)
    cand2 = np.empty_like(cand)
    ncand2 = np.empty_like(ncand)
    meta2 = np.empty_like(meta)
    near = np.zeros(board.shape[0], dtype=np.uint8)
    k_copy_state(G[20], board, forb, forbb, att, used, cand, ncand, meta, board2, forb2,
                 forbb2, att2, used2, cand2, ncand2, meta2)
    n = k_playout(G, board2, forb2, forbb2, att2, used2, cand2, ncand2, meta2, policy, weights,
                  rng, moves_out, colours_out, near)
    scores_out[0] = k_score(meta2, 0)
    scores_out[1] = k_score(meta2, 1)
    return n


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


@hot()
def k_playout_batch(G, board, forb, forbb, att, used, cand, ncand, meta, board2, forb2, forbb2,
                    att2, used2, cand2, ncand2, meta2, near, first_moves, colour, policy,
                    weights, rng, out_returns, out_scores):
    """For each ``first_moves[i]``: copy the state into the scratch arrays, play that move (a
    placement or -1), play out to the end; write colour ``colour``'s return (1 win, 0.5 draw,
    0 loss, or the blend of :func:`k_reward`) and its score difference (own - opponent). The
    root state is not changed."""
    (cells, ncells, piece, corners, ncorners, edges, nedges, bcp_start, bcp, bcp_mask, diamond,
     bb_word, bb_mask, eb_word, eb_mask, bcpp_start, bcpp, bcpp_mask, bcpp_piece, diamond_nbr,
     pstart, diamond_word, diamond_bit, diamond_index, bcpp_pat, bcpp_ent) = G
    for b in range(first_moves.shape[0]):
        k_copy_state(pstart, board, forb, forbb, att, used, cand, ncand, meta,
                     board2, forb2, forbb2, att2, used2, cand2, ncand2, meta2)
        if meta2[M_OVER] == 0:
            k_play(G, board2, forb2, forbb2, att2, used2, cand2,
                   ncand2, meta2, first_moves[b])
        while meta2[M_OVER] == 0:
            c = meta2[M_TO_MOVE]
            q = k_pick(c, policy, weights, cells, ncells, piece, edges, nedges, corners,
                       ncorners, bb_word, bb_mask, pstart, board2, forb2, forbb2, att2, used2,
                       cand2, ncand2, meta2, near, rng)
            k_play(G, board2, forb2, forbb2, att2, used2, cand2,
                   ncand2, meta2, q)
        d = k_score(meta2, colour) - k_score(meta2, 1 - colour)
        out_scores[b] = d
        out_returns[b] = k_reward(d, weights[W_REWARD], weights[W_REWARD_SCALE])
