"""Plain-Python references of the Blokus Duo rules, written from the spec independently of
the incremental kernels (no candidate lists, no attach-point bookkeeping): a brute-force
legal-move test over every placement, the game end and the score, and a uniform random
playout. Slow; for tests. Also :func:`generate`, the numba full generator from the board
alone."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from games.blokus_duo import kernels as K
from games.blokus_duo.geometry import PASS, PIECE_SIZES, geometry

if TYPE_CHECKING:
    from games.blokus_duo.state import BlokusConfig, BlokusState


@lru_cache(maxsize=4)
def _placements(size: int) -> tuple[list[list[tuple[int, int]]], list[int]]:
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
            cells, piece = _placements(self.size)
            for x, y in cells[move]:
                self.grid[y][x] = c
            self.pieces[c].append(piece[move])
            self.last_move[c] = move
        self.to_move = 1 - c


def reference_legal(b: RefBoard, colour: int) -> list[int]:
    """Every legal placement of ``colour``, by testing all of them against the rules."""
    cells, piece = _placements(b.size)
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


def _neighbours(cells: set[tuple[int, int]], deltas: tuple[tuple[int, int], ...],
                size: int) -> set[tuple[int, int]]:
    out = {(x + dx, y + dy) for x, y in cells for dx, dy in deltas}
    return {(x, y) for x, y in out if 0 <= x < size and 0 <= y < size} - cells


_EDGE = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAG = ((1, 1), (-1, 1), (1, -1), (-1, -1))


def reference_attach(b: RefBoard, colour: int) -> set[tuple[int, int]]:
    """The cells where ``colour`` may attach: empty, not edge-adjacent to its pieces, corner-
    adjacent to them (its start square while it has none)."""
    n = b.size
    own = {(x, y) for y in range(n) for x in range(n) if b.grid[y][x] == colour}
    if not own:
        x, y = b.start(colour)
        return {(x, y)} if b.grid[y][x] < 0 else set()
    edge = _neighbours(own, _EDGE, n)
    return {(x, y) for x, y in _neighbours(own, _DIAG, n)
            if b.grid[y][x] < 0 and (x, y) not in edge}


def _forbidden(b: RefBoard, colour: int) -> set[tuple[int, int]]:
    n = b.size
    own = {(x, y) for y in range(n) for x in range(n) if b.grid[y][x] == colour}
    occupied = {(x, y) for y in range(n) for x in range(n) if b.grid[y][x] >= 0}
    return occupied | _neighbours(own, _EDGE, n)


def _new_attach(b: RefBoard, colour: int, cells: list[tuple[int, int]],
                att: set[tuple[int, int]], forb: set[tuple[int, int]]) -> int:
    """How many new attach points placing ``cells`` creates for ``colour``."""
    piece = set(cells)
    corners = _neighbours(piece, _DIAG, b.size) - _neighbours(piece, _EDGE, b.size)
    return sum(1 for x, y in corners
               if b.grid[y][x] < 0 and (x, y) not in forb and (x, y) not in att)


def reference_policy(b: RefBoard, colour: int, weights: list[float],
                     uniform: bool) -> dict[int, float]:
    """The playout policy's exact move probabilities for ``colour`` (empty: it passes).

    uniform: equal. weighted: proportional to ``weights[size]`` times ``weights[6]`` when the
    placement touches (by an edge or a corner) the opponent's last placement, else
    ``weights[7]``; times ``weights[8]`` per new attach point short of ``weights[9]``; times
    ``weights[10]`` if it covers none of the opponent's attach points; times ``weights[12]``
    for a piece smaller than 5 while ``colour`` has placed fewer than ``weights[11]`` (as the
    state's parameters: ``BlokusState._policy()[1]``)."""
    legal = reference_legal(b, colour)
    if not legal:
        return {}
    if uniform:
        return {m: 1.0 / len(legal) for m in legal}
    cells, _ = _placements(b.size)
    last = b.last_move[1 - colour]
    touch: set[tuple[int, int]] = set()
    if last != PASS:
        for x, y in cells[last]:
            touch.update((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        touch -= set(cells[last])
    att = reference_attach(b, colour)
    opp_att = reference_attach(b, 1 - colour)
    forb = _forbidden(b, colour)
    raw = {}
    for m in legal:
        cs = cells[m]
        f = weights[6] if last != PASS and any(c in touch for c in cs) else weights[7]
        w = weights[len(cs)] * f
        if weights[8] < 1:
            gain = _new_attach(b, colour, cs, att, forb)
            if gain < weights[9]:
                w *= weights[8] ** (weights[9] - gain)
        if weights[10] < 1 and not any(c in opp_att for c in cs):
            w *= weights[10]
        if len(cs) < 5 and len(b.pieces[colour]) < weights[11]:
            w *= weights[12]
        raw[m] = w
    tot = sum(raw.values())
    return {m: v / tot for m, v in raw.items()}


def reference_priors(b: RefBoard, colour: int, cfg: BlokusConfig
                     ) -> dict[int, tuple[float, float]]:
    """Each legal placement's prior (value, pseudo-count) for ``colour`` to move, from the
    rules as ``games.blokus_duo.knowledge`` describes them."""
    legal = reference_legal(b, colour)
    cells, _ = _placements(b.size)
    placed = len(b.pieces[colour])
    prune = placed < cfg.open_pieces and any(len(cells[m]) >= cfg.open_min_size
                                              for m in legal)
    att = reference_attach(b, colour)
    opp_att = reference_attach(b, 1 - colour)
    forb = _forbidden(b, colour)
    n = b.size
    opp = [(x, y) for y in range(n) for x in range(n) if b.grid[y][x] == 1 - colour]
    if not opp:
        opp = [b.start(1 - colour)]
    out = {}
    for m in legal:
        cs = cells[m]
        k = len(cs)
        if prune and k < cfg.open_min_size:
            out[m] = (0.0, cfg.prune_count)
            continue
        if cfg.priors == "size":
            v = 0.5
            if placed < cfg.prior_early_pieces:
                v = min(1.0, max(0.0, 0.5 + cfg.prior_size_bonus * (k - 3)))
            out[m] = (v, cfg.prior_count)
            continue
        gain = _new_attach(b, colour, cs, att, forb)
        take = sum(1 for c in cs if c in opp_att)
        spent = sum(1 for c in cs if c in att) - 1
        spent += sum(1 for c in _neighbours(set(cs), _EDGE, n) if c in att)
        d = min(max(abs(x - u), abs(y - w)) for x, y in cs for u, w in opp)
        v = (0.5 + cfg.prior_size * (k - 3) + cfg.prior_gain * min(gain, cfg.prior_gain_cap)
             + cfg.prior_take * take - cfg.prior_waste * max(spent, 0)
             + cfg.prior_front * max(0, cfg.prior_front_radius - d))
        out[m] = (min(0.95, max(0.05, v)), cfg.prior_count)
    return out


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
