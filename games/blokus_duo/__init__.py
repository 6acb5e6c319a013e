"""Blokus Duo under the ICFPT contest rules: pieces, notation, state, kernels, features.

See docs/blokus-duo.md for the API summary.
"""

from games.blokus_duo.geometry import PASS, PASS_CODE, PIECE_LETTERS, Geometry, geometry
from games.blokus_duo.state import BlokusConfig, BlokusState

__all__ = [
    "PASS",
    "PASS_CODE",
    "PIECE_LETTERS",
    "BlokusConfig",
    "BlokusState",
    "Geometry",
    "geometry",
]
