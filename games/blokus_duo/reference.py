"""Plain-Python references of the Blokus Duo rules, written from the spec independently of
the incremental kernels (no candidate lists, no attach-point bookkeeping): a brute-force
legal-move test over every placement, the game end and the score, and a uniform random
playout. Slow; for tests. Also :func:`generate`, the numba full generator from the board
alone. The references of the playout policies and priors are ``knowledge.blokus_duo.reference``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from games.blokus_duo import kernels as K
from games.blokus_duo.geometry import PASS, PIECE_SIZES, geometry

if TYPE_CHECKING:
    from games.blokus_duo.state import BlokusState


@lru_cache(maxsize=4)
def placements(size: int) -> tuple[list[list[tuple[int, int]]], list[int]]:
    """The cells (x, y) of every placement and its piece."""
    g = geometry(size)
    cells = [[divmod(int(c), size)[::-1] for c in g.move_cells(m)]
             for m in range(g.num_placements)]
    return cells, [int(p) for p in g.piece]


@dataclass
class RefBoard:
    """A position: ``grid[y][x]`` is -1 or a colour; per colour the pieces placed in order."""

    size: int = 14
    first: int = 0
    grid: list[list[int]] = field(default_factory=list)
    pieces: list[list[int]] = field(default_factory=lambda: [[], []])
    to_move: int = 0
    passes: int = 0
    last_move: list[int] = field(default_factory=lambda: [PASS, PASS])

    def __post_init__(self) -> None:
        if not self.grid:
            self.grid = [[-1] * self.size for _ in range(self.size)]
            self.to_move = self.first

    @classmethod
    def from_state(cls, s: BlokusState) -> RefBoard:
        size = s.geo.size
        r = cls(size=size, first=s.first)
        for colour, move in s.history:
            r.to_move = colour
            r.play(move)
        return r

    def start(self, colour: int) -> tuple[int, int]:
        return (4, 4) if colour == 0 else (self.size - 5, self.size - 5)

    def is_terminal(self) -> bool:
        return self.passes >= 2 or any(len(p) == 21 for p in self.pieces)

    def score(self, colour: int) -> int:
        p = self.pieces[colour]
        s = -(89 - sum(PIECE_SIZES[k] for k in p))
        if len(p) == 21:
            s += 20 if p[-1] == 0 else 15
        return s

    def play(self, move: int) -> None:
        c = self.to_move
        if move == PASS:
            self.passes += 1
        else:
            self.passes = 0
            cells, piece = placements(self.size)
            for x, y in cells[move]:
                self.grid[y][x] = c
            self.pieces[c].append(piece[move])
            self.last_move[c] = move
        self.to_move = 1 - c


def reference_legal(b: RefBoard, colour: int) -> list[int]:
    """Every legal placement of ``colour``, by testing all of them against the rules."""
    cells, piece = placements(b.size)
    n = b.size
    grid = b.grid
    used = set(b.pieces[colour])
    own = {(x, y) for y in range(n) for x in range(n) if grid[y][x] == colour}
    # cells the colour may not cover: occupied, or sharing an edge with its own pieces
    blocked = {(x, y) for y in range(n) for x in range(n) if grid[y][x] >= 0}
    for x, y in own:
        blocked.update(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
    # cells of which one must be covered: the start square first, then corner contacts
    if not own:
        touch = {b.start(colour)}
    else:
        touch = set()
        for x, y in own:
            touch.update(((x + 1, y + 1), (x - 1, y + 1), (x + 1, y - 1), (x - 1, y - 1)))
    out = []
    for m, cs in enumerate(cells):
        if piece[m] in used:
            continue
        if any(c in blocked for c in cs):
            continue
        if any(c in touch for c in cs):
            out.append(m)
    return out


def neighbours(cells: set[tuple[int, int]], deltas: tuple[tuple[int, int], ...],
               size: int) -> set[tuple[int, int]]:
    """The cells on the board at one of ``deltas`` from ``cells``, not in ``cells``."""
    out = {(x + dx, y + dy) for x, y in cells for dx, dy in deltas}
    return {(x, y) for x, y in out if 0 <= x < size and 0 <= y < size} - cells


EDGE = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (-1, 1), (1, -1), (-1, -1))


def reference_attach(b: RefBoard, colour: int) -> set[tuple[int, int]]:
    """The cells where ``colour`` may attach: empty, not edge-adjacent to its pieces, corner-
    adjacent to them (its start square while it has none)."""
    n = b.size
    own = {(x, y) for y in range(n) for x in range(n) if b.grid[y][x] == colour}
    if not own:
        x, y = b.start(colour)
        return {(x, y)} if b.grid[y][x] < 0 else set()
    edge = neighbours(own, EDGE, n)
    return {(x, y) for x, y in neighbours(own, DIAG, n)
            if b.grid[y][x] < 0 and (x, y) not in edge}


def forbidden(b: RefBoard, colour: int) -> set[tuple[int, int]]:
    """The cells where ``colour`` may not put a square: occupied, or edge-adjacent to it."""
    n = b.size
    own = {(x, y) for y in range(n) for x in range(n) if b.grid[y][x] == colour}
    occupied = {(x, y) for y in range(n) for x in range(n) if b.grid[y][x] >= 0}
    return occupied | neighbours(own, EDGE, n)


def reference_playout(b: RefBoard, rng: random.Random) -> list[int]:
    """Play ``b`` to the end by uniform random legal moves (pass when none); the moves."""
    moves = []
    while not b.is_terminal():
        legal = reference_legal(b, b.to_move)
        m = rng.choice(legal) if legal else PASS
        moves.append(m)
        b.play(m)
    return moves


def generate(s: BlokusState, colour: int) -> list[int]:
    """The numba full generator (attach points from the board, no incremental lists)."""
    g = s.geo
    mark = np.zeros(g.num_placements, dtype=np.int32)
    out = np.empty(g.num_placements, dtype=np.int32)
    n = K.k_generate(colour, s.board, s.used, g.start, g.size, g.cells, g.ncells,
                     g.bcp_start, g.bcp, mark, out)
    return [int(v) for v in out[:n]]
