"""3x3 patterns for the playout policy: a small MoGo-like set, hand-written.

Each pattern is three rows (top first) around the candidate empty point in the middle:
``X`` and ``O`` are the two colours (a pattern matches with either assignment), ``.`` empty,
``x`` not X (O or empty), ``o`` not O (X or empty), ``#`` off the board, ``?`` anything.
All 8 rotations/reflections are included. The table is indexed by the 16-bit code of
:func:`knowledge.go.patterns.pattern_code` (2 bits per neighbour: NW N NE W E SW S SE).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
from numba import njit

from games.go.board import COL, GID, M_W, META, in_atari, leaf_kernel
from games.go.coords import BLACK, BORDER, EMPTY, WHITE

# (name, rows). The shapes are the classic ones of the MoGo paper (Gelly et al. 2006).
PATTERNS: tuple[tuple[str, tuple[str, str, str]], ...] = (
    ("hane between two stones", ("XOX", "...", "???")),
    ("hane, no cut", ("XO.", "...", "?.?")),
    ("hane round the corner", ("XO?", "X..", "x.?")),
    ("diagonal attachment", (".O.", "X..", "...")),
    ("cut, unprotected", ("XO?", "O.o", "?o?")),
    ("cut, peeped", ("XO?", "O.X", "???")),
    ("cut between two", ("?X?", "O.O", "ooo")),
    ("knight's move cut", ("OX?", "o.O", "???")),
    ("edge chase", ("X.?", "O.?", "##?")),
    ("edge block the cut", ("OX?", "X.O", "###")),
    ("edge block the connection", ("?X?", "x.O", "###")),
    ("edge descend", ("?XO", "x.x", "###")),
    ("edge cut", ("?OX", "X.O", "###")),
)

# neighbour order of pattern_code, as (row, col) in the 3x3 picture (row 0 at the top)
_ORDER = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))


def _allowed(ch: str, x: int, o: int) -> tuple[int, ...]:
    return {
        "X": (x,),
        "O": (o,),
        ".": (EMPTY,),
        "x": (o, EMPTY),
        "o": (x, EMPTY),
        "#": (BORDER,),
        "?": (EMPTY, BLACK, WHITE, BORDER),
    }[ch]


def _symmetries(rows: tuple[str, str, str]) -> list[list[list[str]]]:
    grid = [list(r) for r in rows]
    out = []
    g = grid
    for _ in range(4):
        g = [list(r) for r in zip(*g[::-1], strict=True)]  # rotate 90 degrees
        out.append(g)
        out.append([r[::-1] for r in g])  # mirror
    return out


def matching_codes(rows: tuple[str, str, str]) -> set[int]:
    """Every neighbourhood code one pattern matches (all symmetries, both colourings)."""
    codes: set[int] = set()
    for g in _symmetries(rows):
        if g[1][1] != ".":
            raise ValueError("the middle of a pattern must be '.'")
        for x, o in ((BLACK, WHITE), (WHITE, BLACK)):
            choices = [_allowed(g[r][c], x, o) for r, c in _ORDER]
            for combo in itertools.product(*choices):
                code = 0
                for i, v in enumerate(combo):
                    code |= v << (2 * i)
                codes.add(code)
    return codes


@functools.lru_cache(maxsize=1)
def pattern_table() -> np.ndarray:
    """bool[65536]: does some pattern match this neighbourhood code. Read-only."""
    table = np.zeros(1 << 16, dtype=np.bool_)
    for _, rows in PATTERNS:
        for code in matching_codes(rows):
            table[code] = True
    table.setflags(write=False)
    return table


# -- the 20-bit codes of learned move ratings (knowledge.go.features.pattern20) -----------------
# Cells of the 3x3 picture as (dx, dy) for the 8 neighbours in code order (NW N NE W E SW S SE,
# dy = +1 is up) and for the 4 atari bits (N W E S).
_CELLS = ((-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (0, -1), (1, -1))
_ORTHO = ((0, 1), (-1, 0), (1, 0), (0, -1))


def square_symmetry(t: int, dx: int, dy: int) -> tuple[int, int]:
    """Symmetry t (0..7) of the square: a mirror if t >= 4, then t % 4 quarter turns."""
    if t >= 4:
        dx = -dx
    for _ in range(t % 4):
        dx, dy = -dy, dx
    return dx, dy


def board_image(t: int, col: int, row: int, size: int) -> tuple[int, int]:
    """The board point (col, row) under symmetry t of the board (:func:`square_symmetry`
    about its centre, in doubled coordinates for an even size)."""
    m = size - 1
    x, y = square_symmetry(t, 2 * col - m, 2 * row - m)
    return (x + m) // 2, (y + m) // 2


def board_images(col: int, row: int, size: int) -> set[tuple[int, int]]:
    """The images of the board point (col, row) under the 8 symmetries of the board."""
    return {board_image(t, col, row, size) for t in range(8)}


def _transform_codes(codes: np.ndarray, t: int) -> np.ndarray:
    """The codes seen through symmetry t of the square (vectorised)."""
    out = np.zeros_like(codes)
    for i, cell in enumerate(_CELLS):
        j = _CELLS.index(square_symmetry(t, *cell))
        out |= ((codes >> (2 * i)) & 3) << (2 * j)
    for i, cell in enumerate(_ORTHO):
        j = _ORTHO.index(square_symmetry(t, *cell))
        out |= ((codes >> (16 + i)) & 1) << (16 + j)
    return out


def valid_code(codes: np.ndarray) -> np.ndarray:
    """Codes that can occur: atari bits only on stones, off-board cells forming an edge or
    corner (a whole row and/or column of the picture)."""
    ok = np.ones(codes.shape, dtype=bool)
    cell = [(codes >> (2 * i)) & 3 for i in range(8)]
    for i, (dx, dy) in enumerate(_ORTHO):
        stone = (cell[_CELLS.index((dx, dy))] == 1) | (cell[_CELLS.index((dx, dy))] == 2)
        ok &= stone | (((codes >> (16 + i)) & 1) == 0)
    off = [c == 3 for c in cell]
    by = {xy: off[i] for i, xy in enumerate(_CELLS)}
    top = by[(0, 1)]
    bottom = by[(0, -1)]
    left = by[(-1, 0)]
    right = by[(1, 0)]
    ok &= ~(top & bottom) & ~(left & right)
    for (dx, dy), o in by.items():
        should = (top if dy == 1 else bottom if dy == -1 else False)
        should = should | (right if dx == 1 else left if dx == -1 else False)
        ok &= o == should
    return ok


@functools.lru_cache(maxsize=1)
def canonical20() -> np.ndarray:
    """int32[2^20]: the canonical code of each 20-bit move pattern (the least code over the
    8 symmetries; -1 for codes that cannot occur). Colours are already relative to the
    mover, so no colour swap is left to do. Read-only."""
    codes = np.arange(1 << 20, dtype=np.int64)
    best = codes.copy()
    for t in range(1, 8):
        best = np.minimum(best, _transform_codes(codes, t))
    best[~valid_code(codes)] = -1
    out = best.astype(np.int32)
    out.setflags(write=False)
    return out


@leaf_kernel
def pattern_code(B: np.ndarray, p: int) -> int:
    """The 3x3 neighbourhood of p as 16 bits: 2 bits per neighbour, NW N NE W E SW S SE
    from the low bits up."""
    w = B[META, M_W]
    return int(B[COL, p + w - 1] | (B[COL, p + w] << 2) | (B[COL, p + w + 1] << 4)
               | (B[COL, p - 1] << 6) | (B[COL, p + 1] << 8) | (B[COL, p - w - 1] << 10)
               | (B[COL, p - w] << 12) | (B[COL, p - w + 1] << 14))


@njit(cache=True)
def swap_colours16(code: int) -> int:
    """Swap colours 1 and 2 in a 16-bit neighbourhood code (3, off the board, stays)."""
    return ((code & 0x5555) << 1) | ((code & 0xAAAA) >> 1)


@leaf_kernel
def pattern20(B: np.ndarray, p: int, c: int) -> int:
    """The 3x3 code of :func:`knowledge.go.patterns.pattern_code` with colours relative to c (c's
    stones as 1) and 4 atari bits (N, W, E, S neighbour: a stone whose group has one
    liberty) from bit 16."""
    code = pattern_code(B, p)
    if c == WHITE:
        code = swap_colours16(code)
    w = B[META, M_W]
    bit = 16
    for n in (p + w, p - 1, p + 1, p - w):
        cn = B[COL, n]
        if (cn == BLACK or cn == WHITE) and in_atari(B, B[GID, n]):
            code |= 1 << bit
        bit += 1
    return code
