"""Blokus Duo under the ICFPT contest rules: pieces, notation, state and the board kernels.

How corvid plays it (playouts, priors, features, book, evaluation) is ``knowledge.blokus_duo``.
See docs/blokus-duo.md for the API summary.
"""

from games.blokus_duo.geometry import PASS, PASS_CODE, PIECE_LETTERS, Geometry, geometry
from games.blokus_duo.state import BlokusState

__all__ = [
    "PASS",
    "PASS_CODE",
    "PIECE_LETTERS",
    "BlokusState",
    "Geometry",
    "geometry",
]
