# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""The move features of Blokus Duo whose strengths are learned from strong play (numba
kernels over the rules' state arrays, :mod:`games.blokus_duo.kernels`).

Each legal placement q of the mover c is a *team* of features, one from each group (Coulom
2007, "Computing Elo ratings of move patterns in the game of Go"); its strength is the
product of their γ, fitted by minorization-maximization to the moves strong players chose
(``corvid learn blokus priors``, :mod:`training.blokus.moves`), and the priors of kind
``learned`` (:mod:`knowledge.blokus_duo.priors`) turn it into equivalent experience. With
``placed`` the mover's pieces on the board, ``late`` = placed ≥ 6 and ``phase`` = 0, 1, 2, 3
for placed in 0–2, 3–5, 6–9, 10+:

=========  =====================================================================  ======
group      feature                                                                values
=========  =====================================================================  ======
piece      the piece (21) × phase                                                 84
gain       new attach points it creates for c (``placement.k_gain``, ≤ 7) × late  16
take       the opponent's attach points it covers (≤ 3) × late                    8
spent      c's attach points it spends beyond the one it needs (≤ 4)              5
front      its Chebyshev distance to the opponent's pieces (1..≤ 6) × late        12
last       its distance to the opponent's last placement: 1, 2, 3–4, ≥ 5, none     5
open       new attach points ≥ 3 cells from every piece (``placement.k_open``, ≤ 3) 4
centre     while placed < 4: its distance to the board's central 2 × 2 (≤ 6)      7
ring       the opponent's attach points it touches, by an edge or a corner (≤ 4)  10
           × late
dup        c's attach points already at its corners (≤ 3)                         4
=========  =====================================================================  ======

The plain-Python reference is ``knowledge.blokus_duo.reference.reference_move_features``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from games.blokus_duo.kernels import M_LAST_MOVE, M_PLACED, M_TO_MOVE, NUM_PIECES, hot
from games.blokus_duo.state import BlokusState
from knowledge.blokus_duo.placement import (
    k_chessboard,
    k_cover,
    k_distance,
    k_gain,
    k_open,
    k_reach,
)
from knowledge.blokus_duo.strengths import load_strengths, save_strengths

G_PIECE, G_GAIN, G_TAKE, G_SPENT, G_FRONT, G_LAST, G_OPEN, G_CENTRE, G_RING, G_DUP = range(10)
NUM_GROUPS = 10
GROUP_NAMES = ("piece", "gain", "take", "spent", "front", "last", "open", "centre", "ring",
               "dup")
GROUP_SIZES = (4 * NUM_PIECES, 16, 8, 5, 12, 5, 4, 7, 10, 4)
GROUP_BASE = tuple(int(b) for b in np.cumsum((0,) + GROUP_SIZES[:-1]))
NUM_FEATURES = sum(GROUP_SIZES)
LATE_PIECES = 6  # "late": the mover has placed at least this many pieces
CENTRE_PIECES = 4  # the centre group while the mover has placed fewer
OPEN_RADIUS = 3  # the open group: new attach points at least this far from every piece
MAX_GAIN, MAX_TAKE, MAX_SPENT, MAX_FRONT, MAX_OPEN, MAX_CENTRE = 7, 3, 4, 6, 3, 6
MAX_RING, MAX_DUP = 4, 3

(_B_PIECE, _B_GAIN, _B_TAKE, _B_SPENT, _B_FRONT, _B_LAST, _B_OPEN, _B_CENTRE, _B_RING,
 _B_DUP) = GROUP_BASE


def scratch_size(cells: int) -> int:
    """The int64 scratch :func:`k_prepare` and :func:`k_team` need on a board of ``cells``."""
    return 3 * cells + NUM_GROUPS


@hot(inline=True)
def k_phase(placed):
    if placed < 3:
        return 0
    if placed < 6:
        return 1
    if placed < 10:
        return 2
    return 3


@njit(cache=True)
def k_distance_from(cells, ncells, q, size, dist):
    """``dist[x]``: the Chebyshev distance from cell x to the nearest cell of placement q."""
    S = size * size
    for x in range(S):
        dist[x] = S
    for j in range(ncells[q]):
        dist[cells[q, j]] = 0
    k_chessboard(size, dist)


@njit(cache=True)
def k_prepare(cells, ncells, start, board, meta, scratch):
    """The maps the features of the mover's placements read, into ``scratch``
    (:func:`scratch_size`): the distance to the opponent's pieces, to every piece, and to the
    opponent's last placement (all the board's size when it has none)."""
    c = meta[M_TO_MOVE]
    o = 1 - c
    size = int(np.sqrt(board.shape[0]) + 0.5)
    S = size * size
    dist = scratch[:S]
    reach = scratch[S:2 * S]
    dlast = scratch[2 * S:3 * S]
    k_distance(board, o, start[o], size, dist)
    k_reach(board, c, start[c], size, dist, reach)
    last = meta[M_LAST_MOVE + o]
    if last >= 0:
        k_distance_from(cells, ncells, last, size, dlast)
    else:
        dlast[:] = S


@hot(inline=True)
def k_team(c, q, cells, ncells, piece, corners, ncorners, edges, nedges, board, forb, att,
           meta, scratch, row):
    """The features (ids, ``GROUP_*`` order; -1: none in the group) of colour c's legal
    placement q into ``row``, from the maps of :func:`k_prepare` in ``scratch``."""
    size = int(np.sqrt(board.shape[0]) + 0.5)
    S = size * size
    o = 1 - c
    reach = scratch[S:2 * S]
    dlast = scratch[2 * S:3 * S]
    placed = meta[M_PLACED + c]
    late = 1 if placed >= LATE_PIECES else 0
    gain = k_gain(c, q, corners, ncorners, board, forb, att)
    take, spent, dmin = k_cover(c, q, cells, ncells, edges, nedges, att, scratch[:S])
    opened = k_open(c, q, corners, ncorners, board, forb, att, reach, OPEN_RADIUS)
    ring = dup = 0
    for j in range(ncorners[q]):
        x = corners[q, j]
        ring += att[o, x]
        dup += att[c, x]
    for j in range(nedges[q]):
        ring += att[o, edges[q, j]]
    dl = S
    for j in range(ncells[q]):
        dl = min(dl, dlast[cells[q, j]])
    dc = size
    if placed < CENTRE_PIECES:
        lo = (size - 1) // 2
        hi = size // 2
        for j in range(ncells[q]):
            x = cells[q, j]
            y = x // size
            xx = x - y * size
            dc = min(dc, max(max(lo - xx, xx - hi), max(lo - y, y - hi), 0))
    row[G_PIECE] = _B_PIECE + piece[q] * 4 + k_phase(placed)
    row[G_GAIN] = _B_GAIN + min(gain, MAX_GAIN) * 2 + late
    row[G_TAKE] = _B_TAKE + min(take, MAX_TAKE) * 2 + late
    row[G_SPENT] = _B_SPENT + min(max(spent, 0), MAX_SPENT)
    row[G_FRONT] = _B_FRONT + (min(max(dmin, 1), MAX_FRONT) - 1) * 2 + late
    if dl >= S:
        row[G_LAST] = _B_LAST + 4
    elif dl <= 1:
        row[G_LAST] = _B_LAST
    elif dl == 2:
        row[G_LAST] = _B_LAST + 1
    elif dl <= 4:
        row[G_LAST] = _B_LAST + 2
    else:
        row[G_LAST] = _B_LAST + 3
    row[G_OPEN] = _B_OPEN + min(opened, MAX_OPEN)
    row[G_CENTRE] = _B_CENTRE + min(dc, MAX_CENTRE) if placed < CENTRE_PIECES else -1
    row[G_RING] = _B_RING + min(ring, MAX_RING) * 2 + late
    row[G_DUP] = _B_DUP + min(dup, MAX_DUP)


@njit(cache=True)
def k_move_features(cells, ncells, piece, corners, ncorners, edges, nedges, start, board,
                    forb, att, meta, moves, n, out, scratch):
    """The features of the mover's legal placements ``moves[:n]`` into ``out[:n]``
    ((n, NUM_GROUPS) int)."""
    c = meta[M_TO_MOVE]
    k_prepare(cells, ncells, start, board, meta, scratch)
    S = board.shape[0]
    row = scratch[3 * S:3 * S + NUM_GROUPS]
    for i in range(n):
        k_team(c, moves[i], cells, ncells, piece, corners, ncorners, edges, nedges, board,
               forb, att, meta, scratch, row)
        for g in range(NUM_GROUPS):
            out[i, g] = row[g]


def feature_names() -> list[str]:
    """A readable name for every feature id (the weights file's report)."""
    names = [f"piece {p} phase {ph}" for p in range(NUM_PIECES) for ph in range(4)]
    names += [f"gain {g}{' late' if late else ''}" for g in range(MAX_GAIN + 1)
              for late in (0, 1)]
    names += [f"take {t}{' late' if late else ''}" for t in range(MAX_TAKE + 1)
              for late in (0, 1)]
    names += [f"spent {s}" for s in range(MAX_SPENT + 1)]
    names += [f"front {d}{' late' if late else ''}" for d in range(1, MAX_FRONT + 1)
              for late in (0, 1)]
    names += ["last 1", "last 2", "last 3-4", "last 5+", "last none"]
    names += [f"open {k}" for k in range(MAX_OPEN + 1)]
    names += [f"centre {d}" for d in range(MAX_CENTRE + 1)]
    names += [f"ring {k}{' late' if late else ''}" for k in range(MAX_RING + 1)
              for late in (0, 1)]
    names += [f"dup {k}" for k in range(MAX_DUP + 1)]
    assert len(names) == NUM_FEATURES
    return names


def move_features(state: BlokusState, moves: list[int] | None = None) -> np.ndarray:
    """(len(moves), NUM_GROUPS) int64 features of the mover's legal placements ``moves``
    (default: all of them, in ``state.legal_placements()`` order)."""
    g = state.geo
    arr = np.asarray(state.legal_placements() if moves is None else moves, dtype=np.int64)
    out = np.empty((len(arr), NUM_GROUPS), dtype=np.int64)
    if len(arr):
        k_move_features(g.cells, g.ncells, g.piece, g.corners, g.ncorners, g.edges, g.nedges,
                        g.start, state.board, state.forb, state.att, state.meta, arr, len(arr),
                        out, np.empty(scratch_size(g.num_cells), dtype=np.int64))
    return out


DEFAULT_WEIGHTS = Path(__file__).with_name("data") / "move-weights.npz"


class MoveWeights(NamedTuple):
    """The learned strengths of the move features and how they were made."""

    gamma: np.ndarray  # (NUM_FEATURES,) float64
    manifest: dict[str, Any]

    def save(self, path: str | Path) -> None:
        """Write ``path`` (:func:`knowledge.blokus_duo.strengths.save_strengths`)."""
        save_strengths(path, self.gamma, feature_names(), self.manifest)


@lru_cache(maxsize=8)
def load_move_weights(path: str = "") -> MoveWeights:
    """The weights file ``path`` ("" = the bundled one); ValueError naming the file when it
    cannot be read or is not a file of these features."""
    where = Path(path) if path else DEFAULT_WEIGHTS
    return MoveWeights(*load_strengths(where, "move_weights", NUM_FEATURES))
