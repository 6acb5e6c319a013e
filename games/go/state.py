"""GoState: the rules of Go (the search plays it through a position of the knowledge layer).

Rules: Tromp-Taylor area scoring with fractional komi, positional superko (a move may not
recreate any earlier board position of the game, setup included), suicide illegal, the game
ends after two consecutive passes. Seats: seat 0 is black and seat 1 is white. That seat ==
colour - 1 is a Go-specific choice of this class, not a convention of the contract: code
speaking about colours uses BLACK/WHITE and ``to_play``; code speaking about seats uses
``to_move`` and :meth:`seat_of` / :meth:`colour_of`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

import games.go.board as K
from games.go.coords import (
    BLACK,
    EMPTY,
    PASS,
    WHITE,
    check_size,
    colour_name,
    on_board,
    point_to_vertex,
)
from games.go.diagram import grid_diagram
from games.go.hashing import k_hash, k_hash_after, k_legal_superko
from games.go.scoring import k_area


class IllegalMove(ValueError):
    """An illegal move. ``reason`` is one of 'occupied', 'suicide', 'superko', 'off board'."""

    def __init__(self, reason: str, colour: int, point: int, size: int) -> None:
        where = point_to_vertex(point, size) if on_board(size, point) else str(point)
        super().__init__(f"illegal move {colour_name(colour)} {where}: {reason}")
        self.reason = reason
        self.colour = colour
        self.point = point


@functools.lru_cache(maxsize=32)
def zobrist(size: int) -> np.ndarray:
    """Zobrist keys (3, P) int64 for a board size, from a fixed seed (stable across runs).
    Row 1 black, row 2 white; ``[0, 0]`` is the key of 'white to play'."""
    w = size + 2
    rng = np.random.default_rng(0x60D5EED + size)
    z = rng.integers(-(2**63), 2**63 - 1, size=(3, w * w), dtype=np.int64)
    z.setflags(write=False)
    return z


class _Snapshot(NamedTuple):
    board: np.ndarray
    hash: int
    history_len: int


class GoState:
    """A Go position with its history (for superko, undo and SGF)."""

    num_players = 2

    def __init__(self, size: int = 9, komi: float = 7.5) -> None:
        check_size(size)
        self.size = size
        self.komi = float(komi)
        self._b = K.new_board(size)
        self._z = zobrist(size)
        self._hash = 0
        self._seen: dict[int, int] = {0: 1}  # positions of the game -> occurrences
        self._undo: list[_Snapshot] = []
        self.history: list[tuple[int, int]] = []  # (colour, point) of each move, PASS too
        self.setup: list[tuple[int, int]] = []  # (colour, point) of setup/handicap stones
        self._owner: np.ndarray | None = None  # score()'s work array
        self._legal_cache: tuple[tuple[int, ...], list[int]] | None = None

    # -- colours, seats, turns ---------------------------------------------------------
    @staticmethod
    def seat_of(colour: int) -> int:
        return colour - 1

    @staticmethod
    def colour_of(seat: int) -> int:
        return seat + 1

    @property
    def to_play(self) -> int:
        """The colour to play (BLACK or WHITE)."""
        return int(self._b[K.META, K.M_TOPLAY])

    @to_play.setter
    def to_play(self, colour: int) -> None:
        if colour not in (BLACK, WHITE):
            raise ValueError(f"not a colour: {colour!r}")
        self._b[K.META, K.M_TOPLAY] = colour

    @property
    def to_move(self) -> int:
        """The seat to move (contract): seat 0 = black."""
        return self.to_play - 1

    @property
    def passes(self) -> int:
        """Consecutive passes at the end of the history."""
        return int(self._b[K.META, K.M_PASSES])

    @property
    def last_move(self) -> int | None:
        return self.history[-1][1] if self.history else None

    @property
    def ko_point(self) -> int | None:
        """The simple-ko point (the one point retaking a ko would recapture), if any."""
        k = int(self._b[K.META, K.M_KO])
        return k if k > 0 else None

    def captures(self, colour: int) -> int:
        """Stones captured so far by ``colour``."""
        return int(self._b[K.META, K.M_CAPB if colour == BLACK else K.M_CAPW])

    # -- the board ---------------------------------------------------------------------
    def colour_at(self, point: int) -> int:
        """EMPTY, BLACK or WHITE."""
        if not on_board(self.size, point):
            raise ValueError(f"{point} is not a point of a {self.size}x{self.size} board")
        return int(self._b[K.COL, point])

    def stones(self, colour: int) -> list[int]:
        """The points holding ``colour``'s stones, increasing."""
        return [int(p) for p in np.flatnonzero(self._b[K.COL] == colour)]

    def grid(self) -> np.ndarray:
        """(size, size) array of colours, row 0 = GTP row 1 (the bottom)."""
        w = self.size + 2
        grid: np.ndarray = self._b[K.COL].reshape(w, w)[1:-1, 1:-1].copy()
        return grid

    def is_empty(self) -> bool:
        return int(self._b[K.META, K.M_NEMPTY]) == self.size * self.size

    def group(self, point: int) -> list[int]:
        """The stones of the group at ``point`` (empty list on an empty point)."""
        if self.colour_at(point) == EMPTY:
            return []
        g = int(self._b[K.GID, point])
        out = [g]
        s = int(self._b[K.NXT, g])
        while s != g:
            out.append(s)
            s = int(self._b[K.NXT, s])
        return sorted(out)

    def liberties(self, point: int) -> int:
        """Number of distinct liberties of the group at ``point``."""
        w = self.size + 2
        col = self._b[K.COL]
        libs = {q for s in self.group(point) for q in (s + 1, s - 1, s + w, s - w)
                if col[q] == EMPTY}
        return len(libs)

    # -- legality and moves ------------------------------------------------------------
    def illegal_reason(self, colour: int, point: int) -> str | None:
        """None if ``colour`` may play ``point`` now (PASS is always legal), else the reason:
        'off board', 'occupied', 'suicide' or 'superko'."""
        if point == PASS:
            return None
        if not on_board(self.size, point):
            return "off board"
        if self._b[K.COL, point] != EMPTY:
            return "occupied"
        if not K.k_legal_noko(self._b, point, colour):
            return "suicide"
        h = int(k_hash_after(self._b, self._z, np.int64(self._hash), point, colour))
        if h in self._seen:
            return "superko"
        return None

    def is_legal(self, colour: int, point: int) -> bool:
        return self.illegal_reason(colour, point) is None

    def legal_points(self, colour: int | None = None, include_eyes: bool = True) -> list[int]:
        """Every legal point (not PASS) for ``colour`` (default: the colour to play); without
        ``include_eyes``, the points filling one of its own true eyes are left out."""
        c = self.to_play if colour is None else colour
        out = np.empty(self._b.shape[1], dtype=np.int32)
        n = k_legal_superko(self._b, c, self._z, np.int64(self._hash), self.seen_hashes(),
                              not include_eyes, out)
        points: list[int] = out[:n].tolist()
        return points

    def legal_moves(self) -> list[int]:
        """Contract: the legal points of the colour to play that do not fill its own true
        eyes, then PASS. Empty when the game is over. (A fresh list each call.)"""
        if self.is_terminal():
            return []
        tag = (self._hash, self.to_play, len(self.history), len(self._seen))
        cached = self._legal_cache
        if cached is None or cached[0] != tag:
            cached = (tag, self.legal_points(self.to_play, include_eyes=False) + [PASS])
            self._legal_cache = cached
        return list(cached[1])

    def play_colour(self, colour: int, point: int) -> None:
        """Play ``colour`` at ``point`` (or PASS) whoever is to play; afterwards the other
        colour is to play. Raises IllegalMove (the position is unchanged then)."""
        if colour not in (BLACK, WHITE):
            raise ValueError(f"not a colour: {colour!r}")
        h = self._hash
        if point != PASS:
            if not on_board(self.size, point):
                raise IllegalMove("off board", colour, point, self.size)
            if self._b[K.COL, point] != EMPTY:
                raise IllegalMove("occupied", colour, point, self.size)
            if not K.k_legal_noko(self._b, point, colour):
                raise IllegalMove("suicide", colour, point, self.size)
            h = int(k_hash_after(self._b, self._z, np.int64(self._hash), point, colour))
            if h in self._seen:
                raise IllegalMove("superko", colour, point, self.size)
        self._undo.append(_Snapshot(self._b.copy(), self._hash, len(self.history)))
        if point != PASS:
            self._hash = h
            self._seen[h] = self._seen.get(h, 0) + 1
        K.k_play(self._b, point, colour)
        self.history.append((colour, point))

    def play(self, move: Any) -> None:
        """Contract: the colour to play plays ``move`` (a point or PASS)."""
        self.play_colour(self.to_play, int(move))

    def pass_move(self, colour: int | None = None) -> None:
        self.play_colour(self.to_play if colour is None else colour, PASS)

    def undo(self) -> None:
        """Take back the last move (not setup stones). ValueError if there is none."""
        if not self._undo:
            raise ValueError("no move to undo")
        snap = self._undo.pop()
        if self.history[-1][1] != PASS:
            n = self._seen[self._hash] - 1
            if n:
                self._seen[self._hash] = n
            else:
                del self._seen[self._hash]
        self._b = snap.board.copy()  # snapshots may be shared with clones
        self._hash = snap.hash
        del self.history[snap.history_len:]

    def forget_undo(self) -> None:
        """Drop the undo snapshots (one board per move): a search copy never takes a move
        back, and is then much cheaper to clone and to send to another process."""
        self._undo = []

    def place_setup(self, colour: int, points: Iterable[int]) -> None:
        """Put setup stones (handicap, SGF AB/AW) on empty points. Only before any move;
        they are not moves and cannot be undone. ValueError on an occupied/invalid point."""
        if self.history:
            raise ValueError("setup stones only before the first move")
        for p in points:
            if not on_board(self.size, p) or self._b[K.COL, p] != EMPTY:
                raise ValueError(f"cannot place a setup stone on {p}")
            if not K.k_legal_noko(self._b, p, colour):
                raise ValueError(f"setup stone on {p} would have no liberty")
            K.k_place(self._b, p, colour)
            self.setup.append((colour, p))
        self._hash = int(k_hash(self._b, self._z))
        self._seen = {self._hash: 1}

    def place_handicap(self, points: Sequence[int]) -> None:
        """Black handicap stones on ``points``; white plays next."""
        self.place_setup(BLACK, points)
        self.to_play = WHITE

    # -- end of game and scoring -------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.passes >= 2

    def clear_passes(self) -> None:
        """Forget the consecutive passes so the game goes on (GTP may ask for a move after
        two passes, e.g. ``kgs-genmove_cleanup``). History and undo are unchanged."""
        self._b[K.META, K.M_PASSES] = 0

    def area(self) -> tuple[int, int]:
        """Tromp-Taylor (black area, white area): stones plus empty points reaching only
        that colour."""
        owner = self.area_owner()
        return int(np.sum(owner == BLACK)), int(np.sum(owner == WHITE))

    def area_owner(self) -> np.ndarray:
        """Per point (1-D, border included): BLACK, WHITE or EMPTY (neutral)."""
        owner = np.empty(self._b.shape[1], dtype=np.int32)
        k_area(self._b, owner)  # uses only the scratch row of the board
        return owner

    def score(self) -> float:
        """Tromp-Taylor area score: black area - white area - komi (> 0: black wins)."""
        if self._owner is None:
            self._owner = np.empty(self._b.shape[1], dtype=np.int32)
        return int(k_area(self._b, self._owner)) - self.komi

    def returns(self) -> list[float]:
        """Contract: per seat (0 = black) 1 for a win, 0 for a loss, 0.5 for a jigo."""
        s = self.score()
        if s > 0:
            return [1.0, 0.0]
        if s < 0:
            return [0.0, 1.0]
        return [0.5, 0.5]

    # -- contract odds and ends --------------------------------------------------------
    def key(self) -> int:
        """Zobrist hash of the stones and the side to move."""
        return self._hash ^ (int(self._z[0, 0]) if self.to_play == WHITE else 0)

    def position_hash(self) -> int:
        """Zobrist hash of the stones only (what superko compares)."""
        return self._hash

    def seen_hashes(self) -> np.ndarray:
        """The stone hashes of every position of the game so far, sorted (int64): a move
        that recreates one of them breaks positional superko."""
        seen = np.fromiter(self._seen, dtype=np.int64, count=len(self._seen))
        seen.sort()
        return seen

    def board_array(self) -> np.ndarray:
        """The board as the kernels hold it (the (NROWS, P) int32 array of
        :mod:`games.go.board`). The state's own array, not a copy: read it, pass it to
        kernels that do not write to it, or copy it; never modify it."""
        return self._b

    def clone(self) -> GoState:
        new = GoState.__new__(GoState)
        new.size = self.size
        new.komi = self.komi
        new._b = self._b.copy()
        new._z = self._z
        new._hash = self._hash
        new._seen = dict(self._seen)
        new._undo = list(self._undo)
        new.history = list(self.history)
        new.setup = list(self.setup)
        new._owner = None  # not shared: clones may be used from other threads
        new._legal_cache = self._legal_cache
        return new

    def diagram(self) -> str:
        return grid_diagram(self.grid().tolist())

    def showboard(self) -> str:
        """The diagram for GTP ``showboard`` (starts with a newline)."""
        return "\n" + self.diagram()

    def __repr__(self) -> str:
        return f"GoState(size={self.size}, komi={self.komi}, moves={len(self.history)})"
