"""An opening book for Blokus Duo: positions of the first plies and the move to play there.

Positions are equal up to the symmetries of the game: the transposition x <-> y keeps both
start squares; a rotation by 180° (or the reflection in the other diagonal) swaps them, so
together with swapping the colours it maps a game where colour 1 moved first onto one where
colour 0 did. A book key is the position in the frame where the first mover is colour 0:
the contest codes of the first mover's placements, sorted, ``|``, the second mover's. Of the
two such frames (with and without the transposition) the builder files a position under the
smaller key; a lookup tries both and maps the move back. Only positions without passes are
in a book.

File (JSON): ``{"manifest": {command, seed, date, ...}, "moves": {key: code}}``, the code in
the key's frame. Built by ``corvid blokus book`` (training/blokus/book.py).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from games.blokus_duo.geometry import PASS, geometry
from games.blokus_duo.state import BlokusState

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_BOOK = DATA_DIR / "book.json"

# frames: identity, transpose (keep the colours); rotation by 180°, anti-transpose (swap them)
SAME_COLOURS = (0, 1)
SWAP_COLOURS = (2, 3)


@lru_cache(maxsize=4)
def symmetries(size: int = 14) -> np.ndarray:
    """(4, NP) int64: the placement each placement becomes under identity, transpose,
    rotation by 180° and anti-transpose (each its own inverse). Each placement's cells are
    mapped at once and found again by their sorted row (a loop over the placements took
    seconds, more than a move's time on the first lookup of the book)."""
    g = geometry(size)
    cells = g.cells.astype(np.int64)
    used = cells >= 0
    x, y, n = cells % size, cells // size, size - 1

    def rows(c: np.ndarray) -> np.ndarray:  # each placement's cells sorted, padding last
        return np.sort(np.where(used, c, size * size), axis=1)

    index = {r.tobytes(): m for m, r in enumerate(rows(cells))}
    out = np.empty((4, g.num_placements), dtype=np.int64)
    for k, (u, v) in enumerate(((x, y), (y, x), (n - x, n - y), (n - y, n - x))):
        out[k] = [index[r.tobytes()] for r in rows(v * size + u)]
    return out


def key_plies(key: str) -> int:
    """How many placements a book key holds."""
    return sum(len(side.split(",")) for side in key.split("|") if side)


def frame_keys(state: BlokusState) -> list[tuple[str, int]]:
    """The position's keys in the two frames where the first mover is colour 0, with the
    symmetry of each; empty if the game had a pass."""
    if any(m == PASS for _, m in state.history):
        return []
    g = state.geo
    sym = symmetries(g.size)
    out = []
    for k in (SAME_COLOURS if state.first == 0 else SWAP_COLOURS):
        sides: tuple[list[str], list[str]] = ([], [])
        for colour, m in state.history:
            sides[0 if colour == state.first else 1].append(g.code(int(sym[k, m])))
        out.append(("|".join(",".join(sorted(s)) for s in sides), k))
    return out


def canonical_key(state: BlokusState) -> tuple[str, int]:
    """The key a builder files the position under (the smaller one) and its symmetry."""
    return min(frame_keys(state))


class Book:
    """Book moves by position key (see the module doc)."""

    def __init__(self, moves: dict[str, str], manifest: dict[str, Any] | None = None,
                 max_plies: int | None = None) -> None:
        self.moves = dict(moves)
        self.manifest = dict(manifest or {})
        self.max_plies = max_plies if max_plies is not None else max(
            (key_plies(k) for k in self.moves), default=0)

    @classmethod
    def load(cls, path: str | Path) -> Book:
        """A book file (ValueError if it is not one)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            moves = data["moves"]
            manifest = data.get("manifest", {})
            if not isinstance(moves, dict) or not isinstance(manifest, dict):
                raise TypeError("moves and manifest must be objects")
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"{path} is not an opening book: {type(e).__name__}: {e}") from e
        return cls({str(k): str(v) for k, v in moves.items()}, manifest)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps({"manifest": self.manifest, "moves": dict(
            sorted(self.moves.items()))}, indent=1) + "\n", encoding="utf-8")

    def __len__(self) -> int:
        return len(self.moves)

    def lookup(self, state: BlokusState) -> int | None:
        """The book move for the mover of ``state`` (a legal placement), or None."""
        if len(state.history) > self.max_plies or state.is_terminal():
            return None
        g = state.geo
        sym = symmetries(g.size)
        for key, k in frame_keys(state):
            code = self.moves.get(key)
            if code is None:
                continue
            try:
                m = int(sym[k, g.parse_code(code)])
            except ValueError:
                return None
            return m if state.is_legal(m) and m != PASS else None
        return None

    def add(self, state: BlokusState, move: int) -> str:
        """File ``move`` (a placement of the mover of ``state``) under the position's
        canonical key; returns the key."""
        key, k = canonical_key(state)
        self.moves[key] = state.geo.code(int(symmetries(state.geo.size)[k, move]))
        self.max_plies = max(self.max_plies, len(state.history))
        return key
