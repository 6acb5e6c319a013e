"""ASCII diagrams: ``X`` black, ``O`` white, ``.`` empty; the top row is printed first.

::

     5 . . . . .
     4 . X O . .
     3 . X O . .
     2 . . . . .
     1 . . . . .
       A B C D E
"""

from __future__ import annotations

from games.go.coords import BLACK, COLUMNS, EMPTY, WHITE, point

_CHAR = {EMPTY: ".", BLACK: "X", WHITE: "O"}


def grid_diagram(rows: list[list[int]]) -> str:
    """Diagram of a grid of colours given bottom row first (``rows[0]`` = GTP row 1)."""
    size = len(rows)
    lines = []
    for r in range(size - 1, -1, -1):
        lines.append(f"{r + 1:2d} " + " ".join(_CHAR[int(v)] for v in rows[r]))
    lines.append("   " + " ".join(COLUMNS[:size]))
    return "\n".join(lines) + "\n"


def parse_diagram(text: str) -> tuple[int, list[int], list[int]]:
    """Read a diagram (row labels and the column line optional) -> (size, black points,
    white points)."""
    rows = []
    for line in text.strip("\n").splitlines():
        toks = line.split()
        if not toks:
            continue
        if toks[0].isdigit():
            toks = toks[1:]
        if toks and all(t in "XO." for t in toks):
            rows.append(toks)
    size = len(rows)
    if size == 0 or any(len(r) != size for r in rows):
        raise ValueError("not a square diagram")
    black: list[int] = []
    white: list[int] = []
    for i, toks in enumerate(rows):
        r = size - 1 - i
        for c, t in enumerate(toks):
            if t == "X":
                black.append(point(size, r, c))
            elif t == "O":
                white.append(point(size, r, c))
    return size, black, white
