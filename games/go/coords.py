"""Colours, points and GTP vertices.

A board of size N is stored as a 1-D array of (N+2)^2 cells with a one-cell border all round
(stride ``W = N + 2``). The point of the intersection in 0-based ``row`` (0 = the bottom row,
GTP row 1) and ``col`` (0 = column A) is ``(row + 1) * W + col + 1``. Points are plain ints;
``PASS`` (-1) is the pass move.
"""

from __future__ import annotations

EMPTY = 0
BLACK = 1
WHITE = 2
BORDER = 3
PASS = -1

MIN_SIZE = 5
MAX_SIZE = 19
COLUMNS = "ABCDEFGHJKLMNOPQRST"  # GTP letters, no I

_COLOUR_NAMES = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}


def opponent(colour: int) -> int:
    """The other colour."""
    return 3 - colour


def parse_colour(text: str) -> int:
    """``b``/``black``/``w``/``white`` (any case) -> BLACK/WHITE; ValueError otherwise."""
    try:
        return _COLOUR_NAMES[text.strip().lower()]
    except KeyError:
        raise ValueError(f"invalid colour {text!r}") from None


def colour_name(colour: int) -> str:
    """BLACK -> 'black', WHITE -> 'white'."""
    if colour == BLACK:
        return "black"
    if colour == WHITE:
        return "white"
    raise ValueError(f"not a colour: {colour!r}")


def check_size(size: int) -> None:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size {size} not in {MIN_SIZE}..{MAX_SIZE}")


def stride(size: int) -> int:
    return size + 2


def point(size: int, row: int, col: int) -> int:
    """The point of 0-based (row, col), row 0 at the bottom (GTP row 1)."""
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"({row}, {col}) is off a {size}x{size} board")
    return (row + 1) * (size + 2) + col + 1


def row_col(size: int, pt: int) -> tuple[int, int]:
    """Inverse of :func:`point`."""
    w = size + 2
    r, c = divmod(pt, w)
    if not (1 <= r <= size and 1 <= c <= size):
        raise ValueError(f"{pt} is not a point of a {size}x{size} board")
    return r - 1, c - 1


def on_board(size: int, pt: int) -> bool:
    w = size + 2
    r, c = divmod(pt, w)
    return pt >= 0 and 1 <= r <= size and 1 <= c <= size


def all_points(size: int) -> list[int]:
    """Every point of the board, bottom row first, left to right."""
    return [point(size, r, c) for r in range(size) for c in range(size)]


def point_to_vertex(pt: int, size: int) -> str:
    """GTP vertex of a point (``'D4'``) or ``'pass'`` for PASS."""
    if pt == PASS:
        return "pass"
    r, c = row_col(size, pt)
    return f"{COLUMNS[c]}{r + 1}"


def vertex_to_point(vertex: str, size: int) -> int:
    """GTP vertex (case-insensitive, ``'pass'`` allowed) -> point; ValueError if malformed or
    off the board."""
    v = vertex.strip().upper()
    if v == "PASS":
        return PASS
    if len(v) < 2 or v[0] not in COLUMNS or not v[1:].isdigit():
        raise ValueError(f"invalid vertex {vertex!r}")
    col = COLUMNS.index(v[0])
    row = int(v[1:]) - 1
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"vertex {vertex!r} is off a {size}x{size} board")
    return point(size, row, col)


def max_fixed_handicap(size: int) -> int:
    """Largest ``fixed_handicap`` the GTP spec defines for this size (0: none)."""
    if size < 7:
        return 0
    if size == 7 or size % 2 == 0:
        return 4
    return 9


def fixed_handicap_points(size: int, stones: int) -> list[int]:
    """The GTP ``fixed_handicap`` placement (GTP 2 spec §4.1.1) as points.

    Stones are on the 3rd line (4th from 13x13 up); 2: lower-left and upper-right, 3: + upper
    left, 4: + lower right, 5: + centre, 6: 4 + the middle of the left and right sides,
    7: 6 + centre, 8: 6 + the middle of the bottom and top sides, 9: 8 + centre.
    ValueError when the spec does not define the number for this size.
    """
    if stones < 2 or stones > max_fixed_handicap(size):
        raise ValueError(f"invalid number of handicap stones {stones} for size {size}")
    lo = 2 if size < 13 else 3
    hi = size - 1 - lo
    mid = (size - 1) // 2
    corners = [(lo, lo), (hi, hi), (hi, lo), (lo, hi)]  # (row, col): D4 Q16 D16 Q4
    sides_lr = [(mid, lo), (mid, hi)]
    sides_bt = [(lo, mid), (hi, mid)]
    centre = [(mid, mid)]
    layout = {
        2: corners[:2],
        3: corners[:3],
        4: corners,
        5: corners + centre,
        6: corners + sides_lr,
        7: corners + sides_lr + centre,
        8: corners + sides_lr + sides_bt,
        9: corners + sides_lr + sides_bt + centre,
    }[stones]
    return [point(size, r, c) for r, c in layout]
