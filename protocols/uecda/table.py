"""The 8 x 15 table of big-endian int32 (480 bytes) and the 4-byte integer.

Card cells are rows 0-4 (spades, hearts, diamonds, clubs, joker row) by columns 0-14
(column = rank - 2 for ranks 3..2; columns 0 and 14 hold no real card). A cell holds 0 (no
card), 1 (a card) or 2 (the joker standing there). The codec passes card cells around as
:data:`Cells`, a tuple of 5 rows of 15 ints; turning them into game moves is
:mod:`protocols.uecda.cards`' job.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence

TABLE_BYTES = 480
INT_BYTES = 4
ROWS = 8
COLS = 15
CARD_ROWS = 5

Row = tuple[int, ...]
Cells = tuple[Row, ...]  # 5 rows x 15 columns
Table = tuple[Row, ...]  # 8 rows x 15 columns

_TABLE = struct.Struct(">120i")
_INT = struct.Struct(">i")

EMPTY_ROW: Row = (0,) * COLS
EMPTY_CELLS: Cells = (EMPTY_ROW,) * CARD_ROWS


def unpack_table(data: bytes) -> Table:
    if len(data) != TABLE_BYTES:
        raise ValueError(f"a table is {TABLE_BYTES} bytes, got {len(data)}")
    flat = _TABLE.unpack(data)
    return tuple(flat[COLS * r : COLS * (r + 1)] for r in range(ROWS))


def pack_table(rows: Sequence[Sequence[int]]) -> bytes:
    """Pack up to 8 rows of up to 15 ints (missing rows and cells are 0)."""
    if len(rows) > ROWS:
        raise ValueError(f"a table has {ROWS} rows, got {len(rows)}")
    flat = [0] * (ROWS * COLS)
    for r, row in enumerate(rows):
        if len(row) > COLS:
            raise ValueError(f"a table row has {COLS} cells, got {len(row)}")
        for c, v in enumerate(row):
            flat[COLS * r + c] = int(v)
    return _TABLE.pack(*flat)


def unpack_int(data: bytes) -> int:
    if len(data) != INT_BYTES:
        raise ValueError(f"an int is {INT_BYTES} bytes, got {len(data)}")
    return int(_INT.unpack(data)[0])


def pack_int(value: int) -> bytes:
    return _INT.pack(int(value))


def cells_of(table: Table) -> Cells:
    """The card rows (0-4) of a table."""
    return tuple(table[:CARD_ROWS])


def make_cells(cards: Iterable[tuple[int, int, int]]) -> Cells:
    """Cells from ``(row, col, value)`` triples."""
    grid = [[0] * COLS for _ in range(CARD_ROWS)]
    for r, c, v in cards:
        grid[r][c] = v
    return tuple(tuple(row) for row in grid)


def cell_entries(cells: Cells) -> list[tuple[int, int, int]]:
    """The non-zero cells as ``(row, col, value)``, row-major."""
    return [(r, c, v) for r, row in enumerate(cells) for c, v in enumerate(row) if v]


def count_cards(cells: Cells) -> int:
    """How many cards the cells hold (a joker counts as one)."""
    return sum(1 for row in cells for v in row if v)


def check_cells(cells: Cells) -> Cells:
    """Normalise to 5 x 15 ints in {0, 1, 2}; ValueError otherwise."""
    if len(cells) != CARD_ROWS or any(len(row) != COLS for row in cells):
        raise ValueError("card cells must be 5 rows of 15 ints")
    out = tuple(tuple(int(v) for v in row) for row in cells)
    if any(v not in (0, 1, 2) for row in out for v in row):
        raise ValueError("a card cell holds 0, 1 or 2")
    return out
