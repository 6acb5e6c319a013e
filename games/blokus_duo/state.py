"""The Blokus Duo game state (contest rules), implementing ``games.contract.State``.

Colour 0 is the contest's player 1 (start (5,5), Pentobi ``b``), colour 1 player 2 (start
(a,a), Pentobi ``w``). Either colour may move first (``first``). Seats are the places in the
match: ``seat_colours[seat]`` is the colour a seat plays (default seat i plays colour i).
Moves are ints: a placement id (see :mod:`games.blokus_duo.geometry`) or :data:`PASS` (-1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import games.blokus_duo.kernels as _kernels
from games.blokus_duo.geometry import PASS, PIECE_LETTERS, Geometry, geometry

K: Any = _kernels  # numba dispatchers: untyped for mypy
PASS_KEY = 0x5A5A_0F0F_3C3C_9696  # key(): a pending pass


class BlokusState:
    """A Blokus Duo position under the contest rules (the rules only: how corvid plays it is
    :class:`knowledge.blokus_duo.position.BlokusPosition`, which wraps one)."""

    num_players = 2

    def __init__(
        self,
        first: int = 0,
        seat_colours: tuple[int, int] = (0, 1),
        size: int = 14,
    ) -> None:
        if first not in (0, 1) or sorted(seat_colours) != [0, 1]:
            raise ValueError("first must be a colour (0/1); seat_colours a permutation of 0,1")
        g = geometry(size)
        self.geo: Geometry = g
        self.first = first
        self.seat_colours = tuple(seat_colours)
        S, NP = g.num_cells, g.num_placements
        self.board = np.empty(S, dtype=np.int8)
        self.forb = np.empty((2, S), dtype=np.uint8)
        self.forbb = np.empty((4, g.bb_len), dtype=np.uint64)
        self.att = np.empty((2, S), dtype=np.uint8)
        self.used = np.empty((2, K.NUM_PIECES), dtype=np.uint8)
        self.cand = np.empty((2, NP), dtype=np.int32)
        self.ncand = np.empty((2, K.NUM_PIECES), dtype=np.int32)
        self.meta = np.empty(K.META_LEN, dtype=np.int64)
        K.k_init(g.start, g.piece, g.bcp_start, g.bcp, g.pstart, g.bb_word, g.bb_mask,
                 *self.arrays(), first)
        self._key = 0
        self.history: list[tuple[int, int]] = []  # (colour, move)

    def arrays(self) -> tuple[Any, ...]:
        """The state arrays in kernel order (see :mod:`games.blokus_duo.kernels`), for
        kernels that read them or copy them; only :meth:`play` changes them."""
        return (self.board, self.forb, self.forbb, self.att, self.used, self.cand, self.ncand,
                self.meta)

    @property
    def placements_key(self) -> int:
        """The Zobrist key of the placements alone (:meth:`key` adds the side to move and a
        pending pass)."""
        return self._key

    # -- seats and colours ---------------------------------------------------------------
    @property
    def to_move_colour(self) -> int:
        """The colour to move (0 = player 1 / (5,5), 1 = player 2 / (a,a))."""
        return int(self.meta[K.M_TO_MOVE])

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return self.seat_of(int(self.meta[K.M_TO_MOVE]))

    def colour_of(self, seat: int) -> int:
        return self.seat_colours[seat]

    def seat_of(self, colour: int) -> int:
        return 0 if self.seat_colours[0] == colour else 1

    # -- moves ---------------------------------------------------------------------------
    def legal_placements(self, colour: int | None = None) -> list[int]:
        """The legal placements of ``colour`` (default: the colour to move), sorted; no pass.
        Empty when the game is over."""
        if self.is_terminal():
            return []
        c = self.to_move_colour if colour is None else colour
        g = self.geo
        out = np.empty(int(self.ncand[c].sum()), dtype=np.int32)
        n = K.k_legal(c, g.bb_word, g.bb_mask, g.pstart, self.forbb, self.cand, self.ncand, out)
        out = out[:n]
        out.sort()
        return out.tolist()

    def legal_count(self, colour: int | None = None) -> int:
        """How many legal placements ``colour`` has (ignoring whose turn it is)."""
        c = self.to_move_colour if colour is None else colour
        g = self.geo
        return int(K.k_count_legal(c, g.piece, g.bb_word, g.bb_mask, g.pstart, self.forbb,
                                   self.used, self.cand, self.ncand))

    def legal_moves(self) -> list[int]:
        """Legal placements of the mover, or ``[PASS]`` when it has none; [] when over."""
        if self.is_terminal():
            return []
        moves = self.legal_placements()
        return moves if moves else [PASS]

    def is_legal(self, move: int) -> bool:
        """Is ``move`` legal for the mover? A pass is legal (the host allows passing with
        moves left) except as a colour's first move (unless it has no placement at all)."""
        move = int(move)
        if K.k_is_legal(self.geo.kernel_args, self.forb, self.att, self.used, self.meta, move):
            return True
        return move == PASS and not self.is_terminal() and self.legal_count() == 0

    def play(self, move: int) -> None:
        """Play a placement or PASS for the colour to move (raises ValueError if illegal)."""
        move = int(move)
        if not self.is_legal(move):
            name = self.geo.code(move) if -1 <= move < self.geo.num_placements else move
            raise ValueError(f"illegal move {name}")
        self._play(move)

    def pass_to(self, colour: int) -> None:
        """Pass until ``colour`` is to move or the game is over (a record of the moves, as the
        SGF records are, leaves out the passes); ValueError if a pass is illegal there."""
        while self.to_move_colour != colour and not self.is_terminal():
            self.play(PASS)

    def _play(self, move: int) -> None:
        g = self.geo
        c = self.to_move_colour
        if move != PASS:
            self._key ^= int(g.zobrist[c, move])
        self.history.append((c, move))
        K.k_play(g.kernel_args, *self.arrays(), move)

    def play_code(self, code: str) -> int:
        """Play a contest ``XYpr`` code (any valid one; ``0000`` passes); returns the move."""
        move = self.geo.parse_code(code)
        self.play(move)
        return move

    def play_pentobi(self, text: str) -> int:
        """Play a move in Pentobi notation (``e8,d9,e9,f9,e10`` or ``pass``)."""
        move = self.geo.parse_pentobi(text)
        self.play(move)
        return move

    def code(self, move: int) -> str:
        return self.geo.code(move)

    # -- end and score -------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """Two successive passes, or a colour has placed all 21 pieces."""
        return bool(self.meta[K.M_OVER])

    def placed(self, colour: int) -> int:
        return int(self.meta[K.M_PLACED + colour])

    def pieces_left(self, colour: int) -> list[int]:
        return [p for p in range(K.NUM_PIECES) if not self.used[colour, p]]

    def score(self, colour: int) -> int:
        """-(squares not placed), +15 for all 21 placed, +20 if the last was the monomino."""
        return int(K.k_score(self.meta, colour))

    def scores(self) -> tuple[int, int]:
        """The scores of colour 0 and colour 1."""
        return self.score(0), self.score(1)

    def returns(self) -> list[float]:
        """Per seat: 1 win, 0 loss, 0.5 draw (on the current scores)."""
        d = self.score(self.colour_of(0)) - self.score(self.colour_of(1))
        r0 = 1.0 if d > 0 else 0.0 if d < 0 else 0.5
        return [r0, 1.0 - r0]

    # -- contract plumbing ---------------------------------------------------------------
    def clone(self) -> BlokusState:
        s = BlokusState.__new__(BlokusState)
        s.geo = self.geo
        s.first = self.first
        s.seat_colours = self.seat_colours
        s.board = np.empty_like(self.board)
        s.forb = np.empty_like(self.forb)
        s.forbb = np.empty_like(self.forbb)
        s.att = np.empty_like(self.att)
        s.used = np.empty_like(self.used)
        s.cand = np.empty_like(self.cand)
        s.ncand = np.empty_like(self.ncand)
        s.meta = np.empty_like(self.meta)
        K.k_copy_state(self.geo.pstart, *self.arrays(), *s.arrays())
        s._key = self._key
        s.history = list(self.history)
        return s

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the geometry tables (13 MB; rebuilt from the cache by size), so a
        state travels cheaply to the worker processes."""
        state = dict(self.__dict__)
        state["geo"] = self.geo.size
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        state["geo"] = geometry(state["geo"])
        self.__dict__.update(state)

    def key(self) -> int:
        """Zobrist key of (placements per colour, colour to move, a pending pass)."""
        g = self.geo
        k = self._key ^ int(g.zobrist_side[self.to_move_colour])
        if self.meta[K.M_PASSES]:
            k ^= PASS_KEY
        return k

    def diagram(self) -> str:
        """The board, row 1 at the top: ``X`` colour 0, ``O`` colour 1, ``+`` empty start."""
        g = self.geo
        n = g.size
        cols = "".join(_dig(x + 1) for x in range(n))
        lines = [f"   {cols}"]
        for y in range(n):
            row = []
            for x in range(n):
                cell = y * n + x
                v = int(self.board[cell])
                row.append("X" if v == 0 else "O" if v == 1 else
                           "+" if cell in (int(g.start[0]), int(g.start[1])) else ".")
            lines.append(f"{_dig(y + 1):>2} {''.join(row)}")
        for c, mark in ((0, "X"), (1, "O")):
            left = "".join(PIECE_LETTERS[p] for p in self.pieces_left(c))
            lines.append(f"{mark} colour {c}: score {self.score(c)}, left {left or '-'}")
        if self.is_terminal():
            lines.append("game over")
        else:
            lines.append(f"to move: colour {self.to_move_colour} (seat {self.to_move})")
        return "\n".join(lines)


def _dig(v: int) -> str:
    return "123456789abcdefghijklmnopqrstuvwxyz"[v - 1]
