# mypy: disable-error-code="no-untyped-def,no-untyped-call"
"""The playing styles of Blokus Duo (Watanabe and Kaneko, "Realizing individuality in UCT
with prior knowledge and policy learning"): a preference for the placements with one feature.

For the mover c, its opponent o and a legal placement q (the terms are those of
:mod:`knowledge.blokus_duo.placement`):

``blocking``
    q covers at least ``BLOCK_TAKE`` of o's attach points (``take``: the empty cells where o
    could place next, diagonal to o's pieces and sharing no edge with them), the term the
    knowledge priors weigh with ``prior_take``.
``expanding``
    q creates at least ``EXPAND_GAIN`` new attach points for c that lie at least
    ``EXPAND_RADIUS`` cells (Chebyshev distance) from every piece on the board before q, of
    either colour (a colour's start square standing in for its pieces before its first
    placement): it opens corners into empty regions, where c can go on placing.

Neither holds for every move, so the share of a player's moves that have the feature can
rise above the plain player's.

The style enters the search as optimistic prior knowledge: every legal placement with the
feature (not pruned by the opening pruning) gets ``strength × BASE[style]`` extra
pseudo-visits, all wins, on top of its prior (``knowledge.blokus_duo.priors.k_priors``,
which every core that reads priors calls: the compiled tree, the Python UCT, α-β over UCB
bounds). A move of the opening book is played without search, so the style does not act
there.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt
from numba import njit

from games.blokus_duo.geometry import PASS
from games.blokus_duo.kernels import M_TO_MOVE, hot
from games.blokus_duo.state import BlokusState
from knowledge.blokus_duo.placement import k_cover, k_distance, k_open, k_reach
from knowledge.style import parse_style

STYLES = {
    "blocking": "prefers placements that cover the opponent's attach points",
    "expanding": "prefers placements that open new corners in empty regions of the board",
}
NO_STYLE = 0
BLOCKING = 1
EXPANDING = 2
CODES = {"blocking": BLOCKING, "expanding": EXPANDING}
BLOCK_TAKE = 1  # blocking: the opponent's attach points covered, at least
EXPAND_GAIN = 2  # expanding: new attach points created, at least ...
EXPAND_RADIUS = 3  # ... at least this far from every piece
# per style, the pseudo-visits (all wins) a feature placement gets at strength 1, chosen by
# short runs of bench/style.py at 1000 playouts: enough to move the style rate past its pass
# mark, little enough to keep the cost small (docs/results/blokus-duo.md, "Playing styles")
BASE = {"blocking": 8.0, "expanding": 3.0}


@hot(inline=True)
def k_has_style(code, take, opened):
    """Whether a placement that covers ``take`` of the opponent's attach points and opens
    ``opened`` new attach points (``k_open`` at ``EXPAND_RADIUS``) has the feature of style
    ``code``."""
    if code == BLOCKING:
        return take >= BLOCK_TAKE
    if code == EXPANDING:
        return opened >= EXPAND_GAIN
    return False


@njit(cache=True)
def k_style_moves(code, cells, ncells, corners, ncorners, edges, nedges, start, board, forb,
                  att, meta, moves, n, flags, scratch):
    """``flags[i]``: whether the mover's legal placement ``moves[i]`` (i < n) has the feature
    of style ``code``; ``scratch``: an int64 array of 2 S."""
    c = meta[M_TO_MOVE]
    o = 1 - c
    size = int(np.sqrt(board.shape[0]) + 0.5)
    S = size * size
    dist = scratch[:S]
    reach = scratch[S:2 * S]
    k_distance(board, o, start[o], size, dist)
    if code == EXPANDING:
        k_reach(board, c, start[c], size, dist, reach)
    for i in range(n):
        q = moves[i]
        take, _spent, _dmin = k_cover(c, q, cells, ncells, edges, nedges, att, dist)
        opened = 0
        if code == EXPANDING:
            opened = k_open(c, q, corners, ncorners, board, forb, att, reach, EXPAND_RADIUS)
        flags[i] = k_has_style(code, take, opened)


@lru_cache(maxsize=64)
def style_params(text: str) -> tuple[int, float]:
    """The style setting ``NAME[:STRENGTH]`` as (code, extra pseudo-visits); ``""``: (0, 0).
    A ValueError names a bad one."""
    spec = parse_style(text, STYLES)
    if spec is None:
        return NO_STYLE, 0.0
    return CODES[spec.name], spec.strength * BASE[spec.name]


def style_moves(state: BlokusState, name: str) -> tuple[list[int], npt.NDArray[np.bool_]]:
    """The mover's legal moves and, for each, whether it has the feature of style ``name``
    (a pass has none)."""
    moves = state.legal_moves()
    flags = np.zeros(len(moves), dtype=np.bool_)
    if moves == [PASS] or not moves:
        return moves, flags
    g = state.geo
    k_style_moves(CODES[name], g.cells, g.ncells, g.corners, g.ncorners, g.edges, g.nedges,
                  g.start, state.board, state.forb, state.att, state.meta,
                  np.asarray(moves, dtype=np.int64), len(moves), flags,
                  np.empty(2 * g.num_cells, dtype=np.int64))
    return moves, flags
