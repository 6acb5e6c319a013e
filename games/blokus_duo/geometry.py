"""Pieces, orientations, every placement on the empty board, and the move notations.

Everything here is built once per board size by :func:`geometry` (cached) and shared by all
states; kernels receive the numpy arrays as arguments.

Coordinates
-----------
* A **cell** is an int ``y * size + x`` with ``x`` the column and ``y`` the row, both 0-based,
  row 0 at the top (the contest's ``(X, Y)`` is ``(x + 1, y + 1)``).
* A **placement** (a move that puts a piece) is an int ``0 .. num_placements-1``; placements
  are numbered piece by piece (a..u). :data:`PASS` (``-1``) is the pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt

PASS = -1
PASS_CODE = "0000"
PIECE_LETTERS = "abcdefghijklmnopqrstu"
NUM_PIECES = 21
DIGITS = "123456789abcdefghijklmnopqrstuvwxyz"  # contest coordinate characters (1-based)

# 5x5 templates, row 0 at the top, centre (2, 2): (row, col) cells of each piece (spec table)
TEMPLATES: tuple[tuple[tuple[int, int], ...], ...] = (
    ((2, 2),),  # a monomino
    ((2, 2), (3, 2)),  # b domino
    ((1, 2), (2, 2), (3, 2)),  # c I3
    ((1, 2), (2, 2), (2, 3)),  # d V3
    ((1, 2), (2, 2), (3, 2), (4, 2)),  # e I4
    ((1, 2), (2, 2), (3, 2), (3, 1)),  # f L4
    ((1, 2), (2, 2), (3, 2), (2, 3)),  # g T4
    ((2, 2), (2, 3), (3, 2), (3, 3)),  # h O4
    ((2, 1), (2, 2), (3, 2), (3, 3)),  # i Z4
    ((0, 2), (1, 2), (2, 2), (3, 2), (4, 2)),  # j I5
    ((0, 2), (1, 2), (2, 2), (3, 2), (3, 1)),  # k L5
    ((0, 2), (1, 2), (2, 1), (2, 2), (3, 1)),  # l N
    ((1, 2), (2, 1), (2, 2), (3, 1), (3, 2)),  # m P
    ((1, 1), (1, 2), (2, 2), (3, 1), (3, 2)),  # n U
    ((1, 2), (2, 2), (3, 2), (4, 2), (2, 3)),  # o Y
    ((1, 2), (2, 2), (3, 1), (3, 2), (3, 3)),  # p T5
    ((0, 2), (1, 2), (2, 2), (2, 3), (2, 4)),  # q V5
    ((1, 1), (1, 2), (2, 2), (2, 3), (3, 3)),  # r W
    ((1, 1), (2, 1), (2, 2), (2, 3), (3, 3)),  # s Z5
    ((1, 1), (2, 1), (2, 2), (2, 3), (3, 2)),  # t F
    ((1, 2), (2, 1), (2, 2), (2, 3), (3, 2)),  # u X
)
PIECE_SIZES = tuple(len(t) for t in TEMPLATES)


def orient(dx: int, dy: int, r: int) -> tuple[int, int]:
    """Orientation ``r`` of the offset (dx, dy) from the centre, y pointing down: even ``r``
    rotates 90°·(r/2) clockwise, odd ``r`` then mirrors left↔right (x → −x)."""
    for _ in range(r // 2):
        dx, dy = -dy, dx  # 90° clockwise on a y-down screen
    if r % 2:
        dx = -dx
    return dx, dy


def oriented_offsets(piece: int, r: int) -> tuple[tuple[int, int], ...]:
    """The (dx, dy) offsets of piece ``piece`` (0..20) in orientation ``r`` (0..7)."""
    return tuple(orient(c - 2, row - 2, r) for row, c in TEMPLATES[piece])


@dataclass(frozen=True, eq=False)
class Geometry:
    """All static tables of Blokus Duo on a ``size`` x ``size`` board.

    Arrays (``NP`` = number of placements, ``S`` = size*size cells):

    cells (NP, 5) int16
        the cells of each placement, padded with -1; ``ncells`` (NP,) int8 its size.
    piece (NP,) int8
        the piece 0..20 (letter ``PIECE_LETTERS[piece]``).
    corners (NP, MC) int16, ncorners (NP,)
        the cells diagonally adjacent to the placement but neither in it nor edge-adjacent
        to it (where the same colour may attach next), padded with -1.
    edges (NP, ME) int16, nedges (NP,)
        the cells edge-adjacent to the placement (forbidden to the same colour afterwards).
    cell_mask, corner_mask, edge_mask (NP, S) bool
        the same three sets as masks.
    bcp_start (S, NUM_PIECES + 1) int32, bcp (…) int32
        the placements of piece k covering cell c are ``bcp[bcp_start[c, k]:bcp_start[c, k+1]]``.
    diamond (S, 41) int16, bcp_mask (…) uint64
        ``diamond[c, j]`` is the j-th cell at Manhattan distance <= 4 from c (-1 off the
        board); every placement covering c lies inside that diamond, and ``bcp_mask[t]`` has
        bit j set when placement ``bcp[t]`` covers ``diamond[c, j]`` (one AND tests a
        placement against a set of bad cells).
    bcpp_start (S, 16, NUM_PIECES + 1) int32, bcpp, bcpp_mask
        the same entries as ``bcp``/``bcp_mask`` grouped by cell, then by the pattern (4 bits:
        left, right, up, down) of the cell's edge neighbours the placement covers, then by
        piece (``bcpp_piece``); ``diamond_nbr`` (4,) are the diamond bits of those neighbours.
    diamond_word, diamond_bit (S, 41)
        the bitboard word and bit of ``diamond[c, j]`` (an always-empty padding word when off
        the board); ``diamond_index`` (81,) maps ``(dy+4)*9 + dx+4`` to j (-1 if outside).
        The diamond is row-major (dy, then dx), so its row dy is a run of bits.
    bcpp_pat (S, 17) int32, bcpp_ent (…) uint64
        ``bcpp_ent[t]`` packs ``bcpp_mask[t]`` (bits 0-40) and ``bcpp[t]`` (bits 41-63) into
        one word (one load per entry in the hot loop); the entries of cell c and pattern k are
        ``bcpp_pat[c, k] : bcpp_pat[c, k + 1]``.
    pstart (NUM_PIECES + 1,)
        placements of piece k are ``pstart[k] .. pstart[k+1]-1``.
    bb_word (NP,), bb_mask (NP, 2) uint64; eb_word (NP,), eb_mask (NP, 3) uint64
        bitboards (:func:`bit_of`: 4 rows of 16 bits per uint64 word): a placement's cells
        are ``bb_mask[m, i]`` in word ``bb_word[m] + i``, its edge cells likewise
        ``eb_mask`` from ``eb_word``. A board bitboard has :attr:`bb_len` words.
    codes
        the canonical ``XYpr`` code of each placement; ``code_index`` maps every valid code
        (all orientations that produce the placement) to the placement.
    start (2,) int64
        the start cell of colour 0 (contest (5,5)) and colour 1 (contest (a,a)).
    zobrist (2, NP) uint64, zobrist_side (2,) uint64
        random keys for (colour, placement) and for the colour to move.
    """

    size: int
    cells: npt.NDArray[np.int16]
    ncells: npt.NDArray[np.int8]
    piece: npt.NDArray[np.int8]
    corners: npt.NDArray[np.int16]
    ncorners: npt.NDArray[np.int8]
    edges: npt.NDArray[np.int16]
    nedges: npt.NDArray[np.int8]
    cell_mask: npt.NDArray[np.bool_]
    corner_mask: npt.NDArray[np.bool_]
    edge_mask: npt.NDArray[np.bool_]
    bcp_start: npt.NDArray[np.int32]
    bcp: npt.NDArray[np.int32]
    bcp_mask: npt.NDArray[np.uint64]
    diamond: npt.NDArray[np.int16]
    bcpp_start: npt.NDArray[np.int32]
    bcpp: npt.NDArray[np.int32]
    bcpp_mask: npt.NDArray[np.uint64]
    bcpp_piece: npt.NDArray[np.int8]
    diamond_nbr: npt.NDArray[np.int64]
    diamond_word: npt.NDArray[np.int64]
    diamond_bit: npt.NDArray[np.uint64]
    diamond_index: npt.NDArray[np.int64]
    bcpp_pat: npt.NDArray[np.int32]
    bcpp_ent: npt.NDArray[np.uint64]
    pstart: npt.NDArray[np.int64]
    bb_word: npt.NDArray[np.int64]
    bb_mask: npt.NDArray[np.uint64]
    eb_word: npt.NDArray[np.int64]
    eb_mask: npt.NDArray[np.uint64]
    codes: tuple[str, ...]
    code_index: dict[str, int] = field(repr=False)
    cellset_index: dict[frozenset[int], int] = field(repr=False)
    start: npt.NDArray[np.int64]
    zobrist: npt.NDArray[np.uint64]
    zobrist_side: npt.NDArray[np.uint64]
    shapes_per_piece: tuple[int, ...]

    @property
    def kernel_args(self) -> tuple[npt.NDArray[np.generic], ...]:
        """The geometry arrays in the order the kernels take them."""
        return (self.cells, self.ncells, self.piece, self.corners, self.ncorners, self.edges,
                self.nedges, self.bcp_start, self.bcp, self.bcp_mask, self.diamond,
                self.bb_word, self.bb_mask, self.eb_word, self.eb_mask, self.bcpp_start,
                self.bcpp, self.bcpp_mask, self.bcpp_piece, self.diamond_nbr, self.pstart,
                self.diamond_word, self.diamond_bit, self.diamond_index, self.bcpp_pat,
                self.bcpp_ent)

    @property
    def bb_len(self) -> int:
        """Words of a board bitboard (padded so that every mask fits)."""
        return (self.size + 3) // 4 + 3

    @property
    def num_cells(self) -> int:
        return self.size * self.size

    @property
    def num_placements(self) -> int:
        return len(self.piece)

    # -- contest move codes ---------------------------------------------------------------
    def code(self, move: int) -> str:
        """The canonical ``XYpr`` code of a placement, ``0000`` for :data:`PASS`."""
        return PASS_CODE if move == PASS else self.codes[move]

    def parse_code(self, code: str) -> int:
        """The placement named by any valid ``XYpr`` code (or PASS for ``0000``).
        Raises ValueError for a malformed code or one that does not fit on the board."""
        if code == PASS_CODE:
            return PASS
        move = self.code_index.get(code)
        if move is None:
            raise ValueError(f"invalid Blokus Duo move code {code!r}")
        return move

    # -- Pentobi notation -----------------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        """Pentobi's name of a cell: column a.., row counted from the bottom (``e10``)."""
        y, x = divmod(cell, self.size)
        return f"{chr(ord('a') + x)}{self.size - y}"

    def parse_cell(self, name: str) -> int:
        name = name.strip()
        if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
            raise ValueError(f"invalid cell name {name!r}")
        x = ord(name[0].lower()) - ord("a")
        y = self.size - int(name[1:])
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ValueError(f"cell {name!r} is off the board")
        return y * self.size + x

    def pentobi(self, move: int) -> str:
        """Pentobi's notation: the covered cells, sorted from the top row down, or ``pass``."""
        if move == PASS:
            return "pass"
        return ",".join(self.cell_name(c) for c in self.move_cells(move))

    def parse_pentobi(self, text: str) -> int:
        """A move in Pentobi notation (cells in any order, an optional leading colour ``b``/
        ``w`` is ignored; ``pass``)."""
        text = text.strip()
        parts = text.split()
        if len(parts) == 2 and parts[0].lower() in ("b", "w", "black", "white"):
            text = parts[1]
        if text.lower() == "pass":
            return PASS
        cells = frozenset(self.parse_cell(s) for s in text.split(","))
        move = self.cellset_index.get(cells)
        if move is None:
            raise ValueError(f"{text!r} is not a piece placement")
        return move

    # -- helpers --------------------------------------------------------------------------
    def move_cells(self, move: int) -> list[int]:
        """The cells of a placement, in increasing order."""
        n = int(self.ncells[move])
        return sorted(int(c) for c in self.cells[move, :n])

    def move_piece(self, move: int) -> int:
        return int(self.piece[move])

    def contest_xy(self, cell: int) -> tuple[int, int]:
        """The contest's 1-based (X, Y) of a cell."""
        y, x = divmod(cell, self.size)
        return x + 1, y + 1


def bit_of(cell: int, size: int) -> tuple[int, int]:
    """(word, bit) of a cell in a bitboard: 4 rows of 16 bits per uint64 word."""
    y, x = divmod(cell, size)
    return y // 4, (y % 4) * 16 + x


def _word_masks(cs: list[int], size: int, nwords: int) -> tuple[int, list[int]]:
    pos = [bit_of(c, size) for c in cs]
    w0 = min(w for w, _ in pos)
    masks = [0] * nwords
    for w, b in pos:
        masks[w - w0] |= 1 << b
    return w0, masks


def _xy_char(v: int) -> str:
    return DIGITS[v - 1]


@lru_cache(maxsize=4)
def geometry(size: int = 14) -> Geometry:
    """Build (once) the tables of Blokus Duo on a size x size board."""
    if not 5 <= size <= len(DIGITS):
        raise ValueError(f"unsupported board size {size}")
    S = size * size
    cells_l: list[list[int]] = []
    piece_l: list[int] = []
    codes_l: list[str] = []
    code_index: dict[str, int] = {}
    cellset_index: dict[frozenset[int], int] = {}
    shapes_per_piece: list[int] = []
    for p in range(NUM_PIECES):
        shapes: set[tuple[tuple[int, int], ...]] = set()
        for r in range(8):
            offs = oriented_offsets(p, r)
            mx = min(o[0] for o in offs)
            my = min(o[1] for o in offs)
            shapes.add(tuple(sorted((o[0] - mx, o[1] - my) for o in offs)))
            for y in range(size):
                for x in range(size):
                    cs = []
                    for dx, dy in offs:
                        cx, cy = x + dx, y + dy
                        if not (0 <= cx < size and 0 <= cy < size):
                            break
                        cs.append(cy * size + cx)
                    else:
                        code = f"{_xy_char(x + 1)}{_xy_char(y + 1)}{PIECE_LETTERS[p]}{r}"
                        key = frozenset(cs)
                        mid = cellset_index.get(key)
                        if mid is None:
                            mid = len(piece_l)
                            cellset_index[key] = mid
                            cells_l.append(sorted(cs))
                            piece_l.append(p)
                            codes_l.append(code)
                        code_index[code] = mid
        shapes_per_piece.append(len(shapes))
    NP = len(piece_l)
    cells = np.full((NP, 5), -1, dtype=np.int16)
    ncells = np.zeros(NP, dtype=np.int8)
    cell_mask = np.zeros((NP, S), dtype=np.bool_)
    edge_mask = np.zeros((NP, S), dtype=np.bool_)
    corner_mask = np.zeros((NP, S), dtype=np.bool_)
    for m, cs in enumerate(cells_l):
        cells[m, : len(cs)] = cs
        ncells[m] = len(cs)
        cell_mask[m, cs] = True
        for c in cs:
            y, x = divmod(c, size)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= x + dx < size and 0 <= y + dy < size:
                    edge_mask[m, (y + dy) * size + x + dx] = True
            for dx, dy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
                if 0 <= x + dx < size and 0 <= y + dy < size:
                    corner_mask[m, (y + dy) * size + x + dx] = True
        edge_mask[m] &= ~cell_mask[m]
        corner_mask[m] &= ~(cell_mask[m] | edge_mask[m])

    def pad(mask: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
        counts = mask.sum(axis=1)
        out = np.full((NP, int(counts.max())), -1, dtype=np.int16)
        for m in range(NP):
            idx = np.flatnonzero(mask[m])
            out[m, : len(idx)] = idx
        return out, counts.astype(np.int8)

    corners, ncorners = pad(corner_mask)
    edges, nedges = pad(edge_mask)
    # placements by (cell, piece)
    lists: list[list[list[int]]] = [[[] for _ in range(NUM_PIECES)] for _ in range(S)]
    for m, cs in enumerate(cells_l):
        for c in cs:
            lists[c][piece_l[m]].append(m)
    doffs = [(dx, dy) for dy in range(-4, 5) for dx in range(-4, 5) if abs(dx) + abs(dy) <= 4]
    diamond = np.full((S, len(doffs)), -1, dtype=np.int16)
    for c in range(S):
        y, x = divmod(c, size)
        for j, (dx, dy) in enumerate(doffs):
            if 0 <= x + dx < size and 0 <= y + dy < size:
                diamond[c, j] = (y + dy) * size + x + dx
    bcp_start = np.zeros((S, NUM_PIECES + 1), dtype=np.int32)
    flat: list[int] = []
    masks: list[int] = []
    for c in range(S):
        bit = {int(d): j for j, d in enumerate(diamond[c]) if d >= 0}
        for k in range(NUM_PIECES):
            bcp_start[c, k] = len(flat)
            flat.extend(lists[c][k])
            masks.extend(sum(1 << bit[d] for d in cells_l[m]) for m in lists[c][k])
        bcp_start[c, NUM_PIECES] = len(flat)
    # the same entries grouped by (cell, neighbour pattern, piece)
    nbr = np.asarray([doffs.index(o) for o in ((-1, 0), (1, 0), (0, -1), (0, 1))],
                     dtype=np.int64)
    bcp_arr = np.asarray(flat, dtype=np.int64)
    mask_arr = np.asarray(masks, dtype=np.uint64)
    ent_cell = np.repeat(np.arange(S), np.diff(bcp_start[:, [0, NUM_PIECES]], axis=1)[:, 0])
    ent_piece = np.asarray(piece_l, dtype=np.int64)[bcp_arr]
    ent_pat = np.zeros(len(flat), dtype=np.int64)
    for i, j in enumerate(nbr):
        ent_pat |= ((mask_arr >> np.uint64(j)) & np.uint64(1)).astype(np.int64) << i
    order = np.lexsort((bcp_arr, ent_piece, ent_pat, ent_cell))
    ent_key = (ent_cell * 16 + ent_pat) * (NUM_PIECES + 1) + ent_piece
    bounds = np.arange(S * 16 * (NUM_PIECES + 1))
    bcpp_start = np.searchsorted(ent_key[order], bounds).astype(np.int32).reshape(
        S, 16, NUM_PIECES + 1)
    assert len(doffs) == 41 and NP < 1 << 23
    bcpp_pat = np.concatenate([bcpp_start[:, :, 0], bcpp_start[:, 15:, NUM_PIECES]], axis=1)
    bcpp_ent = mask_arr[order] | (bcp_arr[order].astype(np.uint64) << np.uint64(41))
    pstart = np.searchsorted(np.asarray(piece_l), np.arange(NUM_PIECES + 1)).astype(np.int64)
    if size > 16:
        raise ValueError("bitboards hold at most 16 columns")
    bb_len = (size + 3) // 4 + 3
    diamond_word = np.full((S, len(doffs)), bb_len - 1, dtype=np.int64)  # padding: always 0
    diamond_bit = np.zeros((S, len(doffs)), dtype=np.uint64)
    for c in range(S):
        for j, d in enumerate(diamond[c]):
            if d >= 0:
                w, b = bit_of(int(d), size)
                diamond_word[c, j] = w
                diamond_bit[c, j] = b
    diamond_index = np.full(81, -1, dtype=np.int64)
    for j, (dx, dy) in enumerate(doffs):
        diamond_index[(dy + 4) * 9 + dx + 4] = j
    bb_word = np.zeros(NP, dtype=np.int64)
    bb_mask = np.zeros((NP, 2), dtype=np.uint64)
    eb_word = np.zeros(NP, dtype=np.int64)
    eb_mask = np.zeros((NP, 3), dtype=np.uint64)
    for m, cs in enumerate(cells_l):
        w, ms = _word_masks(cs, size, 2)
        bb_word[m] = w
        bb_mask[m] = ms
        w, ms = _word_masks([int(e) for e in np.flatnonzero(edge_mask[m])], size, 3)
        eb_word[m] = w
        eb_mask[m] = ms
    # kernels rely on it: the monomino's placement on cell c has id c
    assert all(cells_l[c] == [c] for c in range(S))
    zrng = np.random.default_rng(0x5EED_B10C)
    zobrist = zrng.integers(0, 2**63, size=(2, NP), dtype=np.uint64)
    zobrist_side = zrng.integers(0, 2**63, size=2, dtype=np.uint64)
    return Geometry(
        size=size,
        cells=cells,
        ncells=ncells,
        piece=np.asarray(piece_l, dtype=np.int8),
        corners=corners,
        ncorners=ncorners,
        edges=edges,
        nedges=nedges,
        cell_mask=cell_mask,
        corner_mask=corner_mask,
        edge_mask=edge_mask,
        bcp_start=bcp_start,
        bcp=np.asarray(flat, dtype=np.int32),
        bcp_mask=np.asarray(masks, dtype=np.uint64),
        diamond=diamond,
        bcpp_start=bcpp_start,
        bcpp=bcp_arr[order].astype(np.int32),
        bcpp_mask=mask_arr[order],
        bcpp_piece=ent_piece[order].astype(np.int8),
        diamond_nbr=nbr,
        diamond_word=diamond_word,
        diamond_bit=diamond_bit,
        diamond_index=diamond_index,
        bcpp_pat=np.ascontiguousarray(bcpp_pat, dtype=np.int32),
        bcpp_ent=bcpp_ent,
        pstart=pstart,
        bb_word=bb_word,
        bb_mask=bb_mask,
        eb_word=eb_word,
        eb_mask=eb_mask,
        codes=tuple(codes_l),
        code_index=code_index,
        cellset_index=cellset_index,
        start=np.asarray([4 * size + 4, (size - 5) * size + (size - 5)], dtype=np.int64),
        zobrist=zobrist,
        zobrist_side=zobrist_side,
        shapes_per_piece=tuple(shapes_per_piece),
    )
