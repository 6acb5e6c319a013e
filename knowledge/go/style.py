"""The playing styles of Go (:mod:`knowledge.style`): each a move feature, as a numba kernel
beside its plain-Python reference (:func:`knowledge.go.reference.reference_style_feature`).

Lines are counted from the edge (:func:`knowledge.go.tactics.edge_line`: 1 on the edge); the
centre line of an N x N board is ``(N + 1) // 2`` (5 on 9x9, 7 on 13x13, 10 on 19x19). The
**opening** is the first ``N * N // 8`` moves of the game, passes included (10 on 9x9, 21 on
13x13, 45 on 19x19).

- **territorial**: in the opening, a move on the low lines that secure a corner or a side:
  the third line, and the fourth on boards where it is not next to the centre line
  (``3 <= line <= min(4, centre - 2)``: the third line alone on 9x9, the third and fourth on
  13x13 and 19x19). An enclosure (the second stone of a corner, a knight's move or a jump
  from the first) lies on those lines too.
- **influential**: in the opening, a move on the fourth or fifth line facing an open centre:
  no stone (of either colour) on a higher line within Chebyshev distance 2 of it. On 9x9 the
  fourth and fifth lines are the centre nine points, so the two styles split the board's
  middle lines between them; on larger boards both hold the fourth line, one reaching down,
  the other up and out.
- **fighting**: at any time, a contact move near the opponent's last stone: next to an
  opponent stone and within Chebyshev distance 2 of the opponent's last move (none after a
  pass). A cut (a move next to two opponent groups) is such a move.

A styled search gives each legal move with its style's feature ``strength * BASE_VISITS``
pseudo-visits, all wins, on top of its other priors (:func:`add_style_priors`, in both
:meth:`knowledge.go.position.GoPosition.priors` and the compiled tree's ``t_legal``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go.board import COL, M_LAST, M_NMOVES, M_SIZE, M_W, META, groups_next_to
from games.go.coords import BLACK, PASS, WHITE
from knowledge.go.tactics import edge_line
from knowledge.style import StyleSpec

STYLES = {
    "territorial": "third/fourth-line moves (enclosures among them) in the opening",
    "influential": "fourth/fifth-line moves facing an open centre in the opening",
    "fighting": "contact and cutting moves near the opponent's last stone",
}
STYLE_IDS = {name: i for i, name in enumerate(STYLES)}
TERRITORIAL, INFLUENTIAL, FIGHTING = range(3)
# the pseudo-visits (all wins) of a feature move at strength 1, calibrated on 9x9 at the
# bench's playouts (docs/results/go.md, "Playing styles")
BASE_VISITS = 15.0

# the style parameters of a plain search: (style id, pseudo-visits); none added
NO_STYLE = np.array([-1.0, 0.0])
NO_STYLE.setflags(write=False)


def style_params(spec: StyleSpec | None) -> np.ndarray:
    """(style id, pseudo-visits of a feature move) of ``spec``; :data:`NO_STYLE` for None."""
    if spec is None:
        return NO_STYLE
    out = np.array([float(STYLE_IDS[spec.name]), spec.strength * BASE_VISITS])
    out.setflags(write=False)
    return out


@njit(cache=True)
def opening_moves(size: int) -> int:
    """The moves of the opening on a size x size board."""
    return size * size // 8


@njit(cache=True)
def style_feature(B: np.ndarray, p: int, c: int, style: int) -> bool:
    """Does the move of colour c at the empty point p have the feature of ``style`` (an id
    of :data:`STYLE_IDS`)?"""
    m = B[META]
    size = m[M_SIZE]
    w = m[M_W]
    if style == FIGHTING:
        last = m[M_LAST]
        if last == PASS:
            return False
        if max(abs(last // w - p // w), abs(last % w - p % w)) > 2:
            return False
        return bool(groups_next_to(B, p, 3 - c, False)[0] >= 0)
    if m[M_NMOVES] >= opening_moves(size):
        return False
    line = edge_line(B, p)
    if style == TERRITORIAL:
        return bool(3 <= line <= min(4, (size + 1) // 2 - 2))
    if line != 4 and line != 5:
        return False
    col = B[COL]
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            q = p + dr * w + dc
            if 0 <= q < col.shape[0] and (col[q] == BLACK or col[q] == WHITE) \
                    and edge_line(B, q) > line:
                return False
    return True


@njit(cache=True)
def k_style_features(B: np.ndarray, c: int, moves: np.ndarray, style: int,
                     out: np.ndarray) -> None:
    """out[i] = 1 if the move of c at ``moves[i]`` (legal points) has the feature of
    ``style``, else 0."""
    for i in range(moves.shape[0]):
        out[i] = 1 if style_feature(B, moves[i], c, style) else 0


@njit(cache=True)
def add_style_priors(B: np.ndarray, c: int, moves: np.ndarray, params: np.ndarray,
                     wins: np.ndarray, visits: np.ndarray) -> None:
    """Each of ``moves`` (legal points of c) with the feature of the style ``params`` =
    (id, pseudo-visits) gets that many more wins and visits; none if the id is negative."""
    style = int(params[0])
    extra = params[1]
    if style < 0 or extra <= 0:
        return
    for i in range(moves.shape[0]):
        if style_feature(B, moves[i], c, style):
            wins[i] += extra
            visits[i] += extra

