"""Card cells <-> the rules engine's hands (bit sets) and moves (ints).

The engine (:mod:`games.daihinmin.cards`) keeps the joker's row and column inside a move, so a
group or sequence with the joker round-trips cell for cell. A single joker is always the
engine's ``SINGLE_JOKER`` whatever cell the wire used; :func:`move_to_cells` puts it at
``[0][0]`` unless told otherwise.
"""

from __future__ import annotations

from games.daihinmin.cards import (
    PASS,
    SINGLE_JOKER,
    hand_from_rows,
    hand_to_rows,
    move_from_rows,
    move_to_rows,
)
from protocols.uecda.table import COLS, Cells, make_cells


def _cells(rows: list[list[int]]) -> Cells:
    return tuple(tuple(int(v) for v in row) for row in rows)


def hand_to_cells(hand: int) -> Cells:
    """A hand as card cells (the joker at ``[4][1] = 2``)."""
    return _cells(hand_to_rows(hand))


def hand_from_cells(cells: Cells) -> int:
    """A set of cards from cells (a 2 anywhere is the joker): hands and exchange tables."""
    return int(hand_from_rows(cells))


def move_to_cells(move: int, single_joker_cell: tuple[int, int] = (0, 0)) -> Cells:
    """A move as card cells; a pass is all zeros. A single joker goes at
    ``single_joker_cell`` (row 0..3, column 0..14)."""
    if move == SINGLE_JOKER:
        r, c = single_joker_cell
        if not (0 <= r <= 3 and 0 <= c < COLS):
            raise ValueError(f"a single joker cannot stand at row {r} column {c}")
        return make_cells([(r, c, 2)])
    return _cells(move_to_rows(move))


def move_from_cells(cells: Cells) -> int:
    """The move a table of cells encodes (PASS for all zeros). ValueError if the cells form
    no single, group or sequence (the server rejects such a table)."""
    return int(move_from_rows(cells))


__all__ = ["PASS", "hand_from_cells", "hand_to_cells", "move_from_cells", "move_to_cells"]
