"""Evaluation features for a learned linear evaluation (Osaki and Kotani).

Nine feature planes per colour, each a value per board cell:

====  ==========  ===========================================================================
 f    name        value at a cell
====  ==========  ===========================================================================
 0    score       1 if a piece of the colour covers the cell
 1    effective   1 if the colour may attach there: empty, not edge-adjacent to its own
                  pieces, corner-adjacent to them (its start cell before its first move);
                  this is also the influence at distance d = 0
 2    dead        1 if empty and edge-adjacent to the colour's pieces (it can never play there)
 3    sure        1 if effective for the colour and dead for the opponent
 4+k  infl d=k+1  for k = 0..4: the number of the colour's effective squares at Manhattan
                  distance d = k+1 from the cell such that the cell is empty and not dead for
                  the colour, and some shortest (monotone) path from the effective square to
                  the cell crosses no opponent piece
====  ==========  ===========================================================================

Vector layout (``S`` = 196 cells, ``B = 9*S + 9`` = 1773, total ``2*B`` = 3546), from the
point of view of colour ``v`` (the mover by default), opponent ``o``::

    x[f*S + cell]          own plane f at cell        (f = 0..8)
    x[9*S + f]             own plane f summed over the board (the shared feature)
    x[B + f*S + cell]      the opponent's plane f at cell
    x[B + 9*S + f]         the opponent's plane f summed

Cells are ``y*14 + x`` with row 0 at the top (contest row 1). A symmetric evaluation can use
``x[:B] - x[B:]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from games.blokus_duo import kernels as _kernels
from games.blokus_duo.state import BlokusState
from games.contract import FloatArray
from knowledge.blokus_duo import policy as _policy

K: Any = _kernels  # numba dispatchers: untyped for mypy
P: Any = _policy
NUM_PLANES = 9
MAX_INFLUENCE = 5
PLANE_NAMES = ("score", "effective", "dead", "sure", "infl1", "infl2", "infl3", "infl4",
               "infl5")


def block_len(num_cells: int) -> int:
    """Length of one colour's block: planes per cell plus the shared sums."""
    return NUM_PLANES * num_cells + NUM_PLANES


def num_features(num_cells: int = 196) -> int:
    return 2 * block_len(num_cells)


def feature_index(plane: int, cell: int | None, own: bool = True, num_cells: int = 196) -> int:
    """Index of a plane's value at a cell (``cell=None``: its shared sum) in the vector."""
    base = 0 if own else block_len(num_cells)
    return base + (NUM_PLANES * num_cells + plane if cell is None else plane * num_cells + cell)


@njit(cache=True)
def k_planes(board, forb, att, colour, size, out):  # type: ignore[no-untyped-def]
    """Fill ``out`` (NUM_PLANES, S) float64 with colour's planes (see module doc)."""
    W = 2 * MAX_INFLUENCE + 1
    k_planes_into(board, forb, att, colour, size, out, np.zeros((W, W), dtype=np.uint8))


@njit(cache=True)
def k_planes_into(board, forb, att, colour, size, out, reach):  # type: ignore[no-untyped-def]
    """:func:`k_planes` with a (2R+1, 2R+1) uint8 scratch array ``reach`` (no allocation)."""
    S = size * size
    o = 1 - colour
    out[:, :] = 0.0
    for x in range(S):
        if board[x] == colour:
            out[0, x] = 1.0
        if att[colour, x]:
            out[1, x] = 1.0
        if board[x] < 0 and forb[colour, x]:
            out[2, x] = 1.0
        if att[colour, x] and board[x] < 0 and forb[o, x]:
            out[3, x] = 1.0
    R = MAX_INFLUENCE
    for e in range(S):
        if att[colour, e] == 0:
            continue
        ey = e // size
        ex = e - ey * size
        reach[:, :] = 0
        reach[R, R] = 1
        for d in range(1, R + 1):
            for ady in range(0, d + 1):
                adx = d - ady
                for sy in (-1, 1):
                    if ady == 0 and sy == 1:
                        continue
                    for sx in (-1, 1):
                        if adx == 0 and sx == 1:
                            continue
                        dx = sx * adx
                        dy = sy * ady
                        nx = ex + dx
                        ny = ey + dy
                        if nx < 0 or nx >= size or ny < 0 or ny >= size:
                            continue
                        y = ny * size + nx
                        if board[y] == o:
                            continue
                        ok = False
                        if adx > 0 and reach[R + dy, R + dx - sx]:
                            ok = True
                        if ady > 0 and reach[R + dy - sy, R + dx]:
                            ok = True
                        if not ok:
                            continue
                        reach[R + dy, R + dx] = 1
                        if board[y] < 0 and forb[colour, y] == 0:
                            out[3 + d, y] += 1.0


@njit(cache=True)
def k_features(board, forb, att, colour, size, planes, out):  # type: ignore[no-untyped-def]
    """The full vector for colour's view into ``out`` (length 2*(9*S+9))."""
    S = size * size
    B = NUM_PLANES * S + NUM_PLANES
    for side in range(2):
        c = colour if side == 0 else 1 - colour
        k_planes(board, forb, att, c, size, planes)
        base = side * B
        for f in range(NUM_PLANES):
            tot = 0.0
            for x in range(S):
                v = planes[f, x]
                out[base + f * S + x] = v
                tot += v
            out[base + NUM_PLANES * S + f] = tot


@njit(cache=True)
def k_apply(board, forb, att, cells, ncells, edges, nedges, corners, ncorners, mv, colour,  # type: ignore[no-untyped-def]  # noqa: E501
            sb, sf, sa):
    """Scratch copies ``sb``, ``sf``, ``sa`` of the board, forbidden and attach-point arrays
    after colour plays the placement ``mv`` (the updates of ``kernels.k_play`` that the
    features read: ``kernels.k_cover``)."""
    sb[:] = board
    sf[:, :] = forb
    sa[:, :] = att
    K.k_cover(cells, ncells, edges, nedges, corners, ncorners, sb, sf, sa, colour, mv, 1)


@njit(cache=True, nogil=True)
def k_child_raw(board, forb, att, cells, ncells, edges, nedges, corners, ncorners,  # type: ignore[no-untyped-def]  # noqa: E501
                moves, colour, size, w, planes, feat, sb, sf, sa, out):
    """out[i] = w · features(state + moves[i]) from the opponent's (the next mover's) view."""
    o = 1 - colour
    for i in range(len(moves)):
        k_apply(board, forb, att, cells, ncells, edges, nedges, corners, ncorners, moves[i],
                colour, sb, sf, sa)
        k_features(sb, sf, sa, o, size, planes, feat)
        acc = 0.0
        for j in range(len(w)):
            acc += w[j] * feat[j]
        out[i] = acc


def folded_weights(w: FloatArray, num_cells: int) -> FloatArray:
    """(2, NUM_PLANES, S) weights with each plane's shared-sum weight added to its cells':
    w · x = Σ planes · folded, without building x."""
    S = num_cells
    B = block_len(S)
    out = np.empty((2, NUM_PLANES, S))
    for side in range(2):
        blk = np.asarray(w[side * B:(side + 1) * B], dtype=np.float64)
        out[side] = blk[:NUM_PLANES * S].reshape(NUM_PLANES, S) + blk[NUM_PLANES * S:, None]
    return out


@njit(cache=True)
def k_folded_raw(sb, sf, sa, view, size, wf, planes, reach):  # type: ignore[no-untyped-def]
    """w · features from ``view``'s side, with the folded weights ``wf``."""
    acc = 0.0
    S = size * size
    for side in range(2):
        k_planes_into(sb, sf, sa, view if side == 0 else 1 - view, size, planes, reach)
        for f in range(NUM_PLANES):
            for x in range(S):
                acc += planes[f, x] * wf[side, f, x]
    return acc


@njit(cache=True)
def k_selective(G, board, forb, forbb, att, used, cand, ncand, meta, board2, forb2, forbb2,  # type: ignore[no-untyped-def]  # noqa: E501
                att2, used2, cand2, ncand2, meta2, wf, k, n, m, colour, rng, out, pick,
                values, planes, reach, sb, sf, sa, moves_out):
    """m best-of-n simulations from the position (not changed): at each step n legal
    placements are drawn at random (all of them when n <= 0 or fewer are legal), sorted, and
    the one whose child the evaluation σ(k w·x) likes best for the mover is played (a child
    that ends the game is valued by its result). Returns colour's wins (a draw 1/2); the last
    simulation's moves go to ``moves_out`` (their number is returned in ``moves_out[-1]``).
    Scratch: the second state set, ``out``/``pick`` (NP) int32/int64, ``values`` (NP),
    ``planes``, ``reach``, ``sb``/``sf``/``sa``."""
    (cells, ncells, piece, corners, ncorners, edges, nedges, bcp_start, bcp, bcp_mask, diamond,
     bb_word, bb_mask, eb_word, eb_mask, bcpp_start, bcpp, bcpp_mask, bcpp_piece, diamond_nbr,
     pstart, diamond_word, diamond_bit, diamond_index, bcpp_pat, bcpp_ent) = G
    size = int(np.sqrt(board.shape[0]) + 0.5)
    wins = 0.0
    for _ in range(m):
        K.k_copy_state(pstart, board, forb, forbb, att, used, cand, ncand, meta, board2, forb2,
                       forbb2, att2, used2, cand2, ncand2, meta2)
        nm = 0
        while meta2[K.M_OVER] == 0:
            c = meta2[K.M_TO_MOVE]
            nl = K.k_legal(c, bb_word, bb_mask, pstart, forbb2, cand2, ncand2, out)
            if nl == 0:
                mv = -1
            else:
                if 0 < n < nl:  # n distinct placements at random (partial Fisher-Yates)
                    for i in range(n):
                        j = i + P.rng_below(rng, nl - i)
                        t = out[i]
                        out[i] = out[j]
                        out[j] = t
                    nl = n
                for i in range(nl):
                    pick[i] = out[i]
                pick[:nl].sort()
                mv = pick[0]
                if nl > 1:
                    best = -1.0
                    last_piece = meta2[K.M_PLACED + c] == K.NUM_PIECES - 1
                    for i in range(nl):
                        q = pick[i]
                        if last_piece:  # the game ends at once: valued by its result
                            own = 15 + (5 if piece[q] == 0 else 0)
                            d = own - K.k_score(meta2, 1 - c)
                            v = 1.0 if d > 0 else 0.0 if d < 0 else 0.5
                        else:
                            k_apply(board2, forb2, att2, cells, ncells, edges, nedges, corners,
                                    ncorners, q, c, sb, sf, sa)
                            z = k * k_folded_raw(sb, sf, sa, 1 - c, size, wf, planes, reach)
                            z = min(700.0, max(-700.0, z))
                            v = 1.0 - 1.0 / (1.0 + np.exp(-z))
                        values[i] = v
                        if v > best:
                            best = v
                            mv = q
            moves_out[nm] = mv
            nm += 1
            K.k_play(G, board2, forb2, forbb2, att2, used2, cand2, ncand2, meta2, mv)
        moves_out[moves_out.shape[0] - 1] = nm
        d = K.k_score(meta2, colour) - K.k_score(meta2, 1 - colour)
        wins += 1.0 if d > 0 else 0.0 if d < 0 else 0.5
    return wins


def selective_simulation(state: BlokusState, w: FloatArray, k: float, n: int, m: int,
                         rng: np.random.Generator) -> tuple[float, list[int]]:
    """The win rate of ``state``'s seat to move in m best-of-n simulations (:func:`k_selective`
    over the evaluation σ(k w·x)) and the last simulation's moves."""
    if state.is_terminal():
        return float(state.returns()[state.to_move]), []
    g = state.geo
    S = g.num_cells
    arrays = state.arrays()
    scratch = tuple(np.empty_like(a) for a in arrays)
    W = 2 * MAX_INFLUENCE + 1
    moves = np.empty(4 * 21 + 5, dtype=np.int64)
    r = np.array([rng.integers(2**63)], dtype=np.uint64)
    kernel: Any = k_selective
    wins = kernel(g.kernel_args, *arrays, *scratch, folded_weights(w, S), float(k), int(n),
                  int(m), state.to_move_colour, r, np.empty(g.num_placements, dtype=np.int32),
                  np.empty(g.num_placements, dtype=np.int64), np.empty(g.num_placements),
                  np.empty((NUM_PLANES, S)), np.zeros((W, W), dtype=np.uint8),
                  np.empty_like(state.board), np.empty_like(state.forb),
                  np.empty_like(state.att), moves)
    return wins / m, [int(x) for x in moves[:int(moves[-1])]]


def features(state: BlokusState, colour: int) -> FloatArray:
    """The feature vector of ``state`` from ``colour``'s view (numba)."""
    size = state.geo.size
    S = size * size
    out = np.empty(num_features(S))
    planes = np.empty((NUM_PLANES, S))
    k_features(state.board, state.forb, state.att, colour, size, planes, out)
    return out


# -- plain-Python reference ------------------------------------------------------------------
def reference_planes(board: list[int], colour: int, size: int, started: bool,
                     start: int) -> list[list[float]]:
    """Planes of ``colour`` computed from the board alone (``board[cell]`` -1 / colour);
    ``started``: whether the colour has placed a piece (else its start cell is effective)."""
    S = size * size
    o = 1 - colour

    def nbrs(x: int, diag: bool) -> list[int]:
        y, cx = divmod(x, size)
        ds = ((1, 1), (1, -1), (-1, 1), (-1, -1)) if diag else ((1, 0), (-1, 0), (0, 1), (0, -1))
        return [(y + dy) * size + cx + dx for dx, dy in ds
                if 0 <= cx + dx < size and 0 <= y + dy < size]

    def dead_for(c: int) -> set[int]:
        return {x for x in range(S) if board[x] < 0 and any(board[n] == c for n in nbrs(x, False))}

    def effective_for(c: int, has_started: bool) -> set[int]:
        dead = dead_for(c)
        if not has_started:
            return {start} if board[start] < 0 and start not in dead else set()
        return {x for x in range(S) if board[x] < 0 and x not in dead
                and any(board[n] == c for n in nbrs(x, True))}

    planes = [[0.0] * S for _ in range(NUM_PLANES)]
    dead = dead_for(colour)
    eff = effective_for(colour, started)
    odead = dead_for(o)
    for x in range(S):
        planes[0][x] = float(board[x] == colour)
        planes[1][x] = float(x in eff)
        planes[2][x] = float(x in dead)
        planes[3][x] = float(x in eff and x in odead)
    for e in eff:
        ey, ex = divmod(e, size)
        for y in range(S):
            ty, tx = divmod(y, size)
            d = abs(tx - ex) + abs(ty - ey)
            if not 1 <= d <= MAX_INFLUENCE or board[y] >= 0 or y in dead:
                continue
            if _monotone_path(board, size, ex, ey, tx, ty, o):
                planes[3 + d][y] += 1.0
    return planes


def _monotone_path(board: list[int], size: int, ex: int, ey: int, tx: int, ty: int,
                   opp: int) -> bool:
    """Is there a shortest lattice path from (ex, ey) to (tx, ty) on no ``opp`` cell?"""
    sx = 1 if tx >= ex else -1
    sy = 1 if ty >= ey else -1
    w, h = abs(tx - ex), abs(ty - ey)
    ok = [[False] * (w + 1) for _ in range(h + 1)]
    for j in range(h + 1):
        for i in range(w + 1):
            cell = (ey + sy * j) * size + ex + sx * i
            if board[cell] == opp and (i, j) != (0, 0):
                continue
            ok[j][i] = (i == 0 and j == 0) or (i > 0 and ok[j][i - 1]) or (j > 0 and ok[j - 1][i])
    return ok[h][w]


def reference_features(state: BlokusState, colour: int) -> FloatArray:
    """The same vector as :func:`features`, in plain Python from the board alone."""
    g = state.geo
    S = g.num_cells
    board = [int(v) for v in state.board]
    out: list[float] = []
    for c in (colour, 1 - colour):
        planes = reference_planes(board, c, g.size, state.placed(c) > 0, int(g.start[c]))
        for f in range(NUM_PLANES):
            out.extend(planes[f])
        out.extend(sum(planes[f]) for f in range(NUM_PLANES))
    assert len(out) == num_features(S)
    return np.asarray(out)
