"""Blokus Duo game records in Pentobi's SGF dialect (``.blksgf``), and a reader for them.

What Pentobi writes and reads (its "Blokus SGF" document):

* root: ``FF[4]``, ``CA[UTF-8]``, ``GM[Blokus Duo]`` (a string, not a number), ``AP``, player
  names ``PB``/``PW``, ``DT``, ``RE``;
* colours: ``B`` is the first colour (contest player 1, start (5,5) = e10), ``W`` the second
  (player 2, start (a,a) = j5) — whichever moved first in the game;
* one move per node, the value the covered cells separated by commas without spaces, each
  cell a column letter ``a``-``n`` and a row number 1-14 counted from the **bottom**, in the
  order a1, b1, ..., a2, b2, ... (row first): ``B[e8,d9,e9,f9,e10]``;
* Pentobi has no pass move: a pass is simply absent (the next node names its colour).

We write the host's passes nowhere but in the root comment; the result ``RE`` is
``B+n``/``W+n`` (score difference), ``0`` for a draw, ``B+F``/``W+F`` for a forfeit (illegal or
malformed move, pass on the first move, disconnect), ``B+T``/``W+T`` for a timeout and
``B+R``/``W+R`` for a resignation (a GTP engine's).
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field

from games.blokus_duo import PASS, geometry

COLOUR_PROP = ("B", "W")


@dataclass
class GameRecord:
    """One game as the host saw it. Colours: 0 = player 1, 1 = player 2."""

    first: int  # the colour that moved first
    moves: list[tuple[int, int]] = field(default_factory=list)  # (colour, placement or PASS)
    times: list[float] = field(default_factory=list)  # answer time of each move (s), 0 built-in
    names: tuple[str, str] = ("", "")
    scores: tuple[int, int] | None = None
    winner: int | None = None  # colour, None for a draw
    reason: str = "end"  # end, resign, timeout, illegal, malformed, first-pass, disconnect,
    # refused (a GTP engine refused a move the host had accepted)
    violator: int | None = None
    detail: str = ""
    dialect: str = "2014"
    size: int = 14


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def cells_value(move: int, size: int = 14) -> str:
    """Pentobi's move value: the cells, row 1 (bottom) first, then by column."""
    g = geometry(size)
    cells = g.move_cells(move)
    cells.sort(key=lambda c: (size - c // size, c % size))
    return ",".join(g.cell_name(c) for c in cells)


def result_value(rec: GameRecord) -> str:
    if rec.winner is None:
        return "0"
    w = COLOUR_PROP[rec.winner]
    if rec.reason == "end":
        assert rec.scores is not None
        return f"{w}+{abs(rec.scores[0] - rec.scores[1])}"
    return {"timeout": f"{w}+T", "resign": f"{w}+R"}.get(rec.reason, f"{w}+F")


def write_sgf(rec: GameRecord, date: _dt.date | None = None) -> str:
    d = date or _dt.date.today()
    g = geometry(rec.size)
    passes = [i for i, (_, m) in enumerate(rec.moves) if m == PASS]
    comment = [f"ICFPT host {rec.dialect}; first to move: player {rec.first + 1} "
               f"({COLOUR_PROP[rec.first]})"]
    if rec.scores is not None:
        comment.append(f"scores: player 1 {rec.scores[0]}, player 2 {rec.scores[1]}")
    comment.append(f"end: {rec.reason}" + (f" ({rec.detail})" if rec.detail else ""))
    if passes:
        comment.append("passes at plies " + ",".join(str(i + 1) for i in passes))
    codes = " ".join(g.code(m) for _, m in rec.moves)
    comment.append(f"codes: {codes}")
    root = (f"(;FF[4]CA[UTF-8]AP[corvid]GM[Blokus Duo]DT[{d.isoformat()}]"
            f"PB[{_escape(rec.names[0])}]PW[{_escape(rec.names[1])}]RE[{result_value(rec)}]"
            f"C[{_escape(chr(10).join(comment))}]")
    nodes = [f";{COLOUR_PROP[c]}[{cells_value(m, rec.size)}]" for c, m in rec.moves
             if m != PASS]
    lines = [root]
    for i in range(0, len(nodes), 4):
        lines.append("".join(nodes[i:i + 4]))
    return "\n".join(lines) + ")\n"


# --- reading ------------------------------------------------------------------------------
_PROP = re.compile(r"\s*([A-Z][A-Z0-9]*)\s*")


def parse_sgf(text: str) -> list[list[tuple[str, list[str]]]]:
    """The main line of the first game tree: a list of nodes, each a list of
    (property, values). Enough SGF for Pentobi's files (variations are skipped)."""
    i = text.index("(")
    nodes: list[list[tuple[str, list[str]]]] = []
    depth = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "(":
            depth += 1
            if depth > 1:  # a variation: skip it
                i = _skip_tree(text, i)
                depth -= 1
                continue
            i += 1
        elif ch == ")":
            break
        elif ch == ";":
            nodes.append([])
            i += 1
        elif ch.isspace():
            i += 1
        else:
            m = _PROP.match(text, i)
            if not m:
                raise ValueError(f"SGF syntax error at {i}: {text[i:i + 20]!r}")
            ident = m.group(1)
            i = m.end()
            values = []
            while i < n and text[i] == "[":
                j = i + 1
                buf = []
                while text[j] != "]":
                    if text[j] == "\\":
                        j += 1
                    buf.append(text[j])
                    j += 1
                values.append("".join(buf))
                i = j + 1
                while i < n and text[i].isspace():
                    i += 1
            if not nodes:
                raise ValueError("SGF property before the first node")
            nodes[-1].append((ident, values))
    return nodes


def _skip_tree(text: str, i: int) -> int:
    depth = 0
    in_value = False
    while i < len(text):
        ch = text[i]
        if in_value:
            if ch == "\\":
                i += 1
            elif ch == "]":
                in_value = False
        elif ch == "[":
            in_value = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def read_moves(text: str, size: int = 14) -> tuple[dict[str, str], list[tuple[int, int]]]:
    """Root properties (first values) and the (colour, placement) moves of a Blokus Duo
    SGF record."""
    nodes = parse_sgf(text)
    root = {k: v[0] if v else "" for k, v in nodes[0]}
    if root.get("GM") != "Blokus Duo":
        raise ValueError(f"not a Blokus Duo record: GM[{root.get('GM')}]")
    g = geometry(size)
    moves = []
    for node in nodes[1:]:
        for k, v in node:
            if k in COLOUR_PROP:
                moves.append((COLOUR_PROP.index(k), g.parse_pentobi(v[0])))
    return root, moves
