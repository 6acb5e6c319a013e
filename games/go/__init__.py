"""Go: the rules (area scoring, positional superko), the board kernels, SGF. See docs/go.md."""

from games.go.coords import (
    BLACK,
    EMPTY,
    PASS,
    WHITE,
    all_points,
    colour_name,
    fixed_handicap_points,
    max_fixed_handicap,
    opponent,
    parse_colour,
    point,
    point_to_vertex,
    row_col,
    vertex_to_point,
)
from games.go.state import GoState, IllegalMove


def score_string(score: float) -> str:
    """GTP ``final_score`` text of a score (black - white - komi): 'B+3.5', 'W+2', '0'."""
    if score > 0:
        return f"B+{score:g}"
    if score < 0:
        return f"W+{-score:g}"
    return "0"


__all__ = [
    "BLACK", "EMPTY", "PASS", "WHITE", "GoState", "IllegalMove", "all_points", "colour_name",
    "fixed_handicap_points", "max_fixed_handicap", "opponent", "parse_colour", "point",
    "point_to_vertex", "row_col", "score_string", "vertex_to_point",
]
