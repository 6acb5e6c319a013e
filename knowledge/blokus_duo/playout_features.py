# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""The learned playout policy's features of a placement, and its weights file (numba kernels
over the rules' state arrays, :mod:`games.blokus_duo.kernels`).

Five groups, one feature of each per placement q of colour c (opponent o = 1 − c): its piece
by the mover's phase (pieces placed 0–3, 4–7, 8–11, 12 or more), whether it touches o's last
placement (by an edge or a corner), how many of o's attach points it covers (``take``), how
many new attach points it creates (``gain``, :func:`~knowledge.blokus_duo.placement.k_gain`)
and how many of c's own it spends beyond the one it needs (``spent``). The policy
(:func:`knowledge.blokus_duo.policy.k_learned_weight`) draws a placement in proportion to the
product of its features' strengths γ, fitted by minorization-maximization to a strong
engine's placements (``corvid learn blokus playouts``). The plain-Python reference is
``knowledge.blokus_duo.reference.reference_playout_team``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from games.blokus_duo.kernels import M_LAST_MOVE, M_PLACED, NUM_PIECES, hot
from games.blokus_duo.state import BlokusState
from knowledge.blokus_duo.placement import k_gain
from knowledge.blokus_duo.strengths import load_strengths, save_strengths

# learned playouts: the feature groups of colour c's placement q (k_playout_team), one
# feature of each group per placement
PF_PHASES = 4  # the mover's phase: pieces placed 0-3, 4-7, 8-11, 12 or more
PF_MAX_TAKE = 3  # the opponent's attach points covered, 0..3 or more
PF_MAX_GAIN = 6  # new attach points created, 0..6 or more
PF_MAX_SPENT = 3  # own attach points spent beyond the one used, 0..3 or more
PF_GROUP_NAMES = ("piece", "near", "take", "gain", "spent")
PF_GROUP_SIZES = (NUM_PIECES * PF_PHASES, 2, PF_MAX_TAKE + 1, PF_MAX_GAIN + 1,
                  PF_MAX_SPENT + 1)
PF_GROUPS = len(PF_GROUP_SIZES)
PF_BASE = tuple(int(b) for b in np.cumsum((0,) + PF_GROUP_SIZES[:-1]))
PF_FEATURES = sum(PF_GROUP_SIZES)
PF_B_NEAR, PF_B_TAKE, PF_B_GAIN, PF_B_SPENT = PF_BASE[1:]


@hot(inline=True)
def k_pf_piece(c, q, piece, meta):
    """The learned playouts' piece feature of colour c's placement q: its piece by the
    mover's phase."""
    return piece[q] * PF_PHASES + min(meta[M_PLACED + c] // 4, PF_PHASES - 1)


@hot(inline=True)
def k_mark_near(last, edges, nedges, corners, ncorners, near, value):
    """Set ``near`` to ``value`` on the cells that touch placement ``last`` by an edge or a
    corner (the marks :func:`k_pf_near` reads; 0 clears them)."""
    for i in range(nedges[last]):
        near[edges[last, i]] = value
    for i in range(ncorners[last]):
        near[corners[last, i]] = value


@hot(inline=True)
def k_pf_near(q, cells, ncells, near, last):
    """1 if placement q touches the opponent's last placement (``near``, ``last`` >= 0)."""
    if last >= 0:
        for j in range(ncells[q]):
            if near[cells[q, j]]:
                return 1
    return 0


@hot(inline=True)
def k_pf_take_spent(c, q, cells, ncells, edges, nedges, att):
    """(take, spent), capped: the opponent's attach points placement q covers, and colour c's
    own it spends beyond the one it needs (covered, or on its edge cells)."""
    o = 1 - c
    take = 0
    spent = -1
    for j in range(ncells[q]):
        x = cells[q, j]
        take += att[o, x]
        spent += att[c, x]
    for j in range(nedges[q]):
        spent += att[c, edges[q, j]]
    return min(take, PF_MAX_TAKE), min(max(spent, 0), PF_MAX_SPENT)


@njit(cache=True)
def k_playout_team(G, board, forb, att, meta, c, moves, near, out):
    """The learned playouts' features (ids, ``PF_GROUP_NAMES`` order) of colour c's legal
    placements ``moves`` into ``out`` ((len(moves), PF_GROUPS) int): for fitting them.
    ``near``: a zeroed (S,) uint8 scratch array."""
    cells, ncells, piece, corners, ncorners, edges, nedges = G[0], G[1], G[2], G[3], G[4], \
        G[5], G[6]
    last = meta[M_LAST_MOVE + 1 - c]
    if last >= 0:
        k_mark_near(last, edges, nedges, corners, ncorners, near, 1)
    for i in range(moves.shape[0]):
        q = moves[i]
        take, spent = k_pf_take_spent(c, q, cells, ncells, edges, nedges, att)
        out[i, 0] = k_pf_piece(c, q, piece, meta)
        out[i, 1] = PF_B_NEAR + k_pf_near(q, cells, ncells, near, last)
        out[i, 2] = PF_B_TAKE + take
        out[i, 3] = PF_B_GAIN + min(k_gain(c, q, corners, ncorners, board, forb, att),
                                   PF_MAX_GAIN)
        out[i, 4] = PF_B_SPENT + spent
    if last >= 0:
        k_mark_near(last, edges, nedges, corners, ncorners, near, 0)


def feature_names() -> list[str]:
    """A readable name for every feature id (the weights file's report)."""
    names = [f"piece {p} phase {ph}" for p in range(NUM_PIECES) for ph in range(PF_PHASES)]
    names += ["far", "near"]
    names += [f"take {t}" for t in range(PF_MAX_TAKE + 1)]
    names += [f"gain {g}" for g in range(PF_MAX_GAIN + 1)]
    names += [f"spent {s}" for s in range(PF_MAX_SPENT + 1)]
    assert len(names) == PF_FEATURES
    return names


def playout_team(state: BlokusState, moves: list[int]) -> np.ndarray:
    """(len(moves), PF_GROUPS) int64 playout features of the mover's legal placements
    ``moves``."""
    g = state.geo
    out = np.empty((len(moves), PF_GROUPS), dtype=np.int64)
    if moves:
        k_playout_team(g.kernel_args, state.board, state.forb, state.att, state.meta,
                       state.to_move_colour, np.asarray(moves, dtype=np.int64),
                       np.zeros(g.num_cells, dtype=np.uint8), out)
    return out


DEFAULT_WEIGHTS = Path(__file__).with_name("data") / "playout-weights.npz"


class PlayoutWeights(NamedTuple):
    """The learned strengths of the playout features and how they were made."""

    gamma: np.ndarray  # (PF_FEATURES,) float64
    manifest: dict[str, Any]

    def save(self, path: str | Path) -> None:
        """Write ``path`` (:func:`knowledge.blokus_duo.strengths.save_strengths`)."""
        save_strengths(path, self.gamma, feature_names(), self.manifest)


@lru_cache(maxsize=8)
def load_playout_weights(path: str = "") -> PlayoutWeights:
    """The weights file ``path`` ("" = the bundled one); ValueError naming the file when it
    cannot be read or is not a file of these features."""
    where = Path(path) if path else DEFAULT_WEIGHTS
    return PlayoutWeights(*load_strengths(where, "playout_weights", PF_FEATURES))


def scaled_strengths(gamma: np.ndarray, tau: float) -> np.ndarray:
    """γ^tau with each group scaled to a largest value of 1: the policy's factors, all in
    (0, 1] for rejection sampling."""
    out = np.asarray(gamma, dtype=np.float64) ** tau
    for base, size in zip(PF_BASE, PF_GROUP_SIZES, strict=True):
        out[base:base + size] /= out[base:base + size].max()
    return out
