"""Cards as bit sets, and the move encoding (one Python int per move).

Card index
----------
``card = 13 * suit + r`` with suit 0..3 = S, H, D, C (the wire's rows 0..3) and
r = 0..12 for the ranks 3 4 5 6 7 8 9 T J Q K A 2. The wire column of a real card is
``r + 1`` (column = rank - 2). The joker is card 52. A hand is an int with bit ``card`` set
for every card held (53 bits, fits an int64).

Move encoding (int, non-negative, < 2**62)
------------------------------------------
* ``PASS = 0``.
* bits 0..51: the real cards played; bit 52: the joker is used;
* bits 53..56: the joker's column (0..14), bits 57..59: the joker's row (0..4);
* bits 60..61: the kind, 1 single, 2 group, 3 sequence.

A single joker is always ``SINGLE_JOKER`` (row 0, column 0, whatever cells the wire used).
In a group the joker's row is the suit it stands for (row 4 only in the 5-card group); in a
sequence its row is the sequence's suit and its column the position it fills (0 and 14 allowed).
"""

from __future__ import annotations

SUITS = "SHDC"
RANKS = "3456789TJQKA2"
JOKER = 52
JOKER_BIT = 1 << JOKER
ALL_REAL = (1 << 52) - 1
ALL_CARDS = ALL_REAL | JOKER_BIT

PASS = 0
KIND_SINGLE = 1
KIND_GROUP = 2
KIND_SEQ = 3
_JCOL_SHIFT = 53
_JROW_SHIFT = 57
_KIND_SHIFT = 60


def card_index(suit: int, r: int) -> int:
    return 13 * suit + r


def card_suit(card: int) -> int:
    return card // 13


def card_col(card: int) -> int:
    """Wire column (1..13) of a real card."""
    return card % 13 + 1


def card_str(card: int) -> str:
    """Log notation of a card in a hand: ``S3`` .. ``C2``; the joker is ``J3``."""
    if card == JOKER:
        return "J3"
    return SUITS[card // 13] + RANKS[card % 13]


def card_from_str(text: str) -> int:
    if text in ("J3", "JK", "Jo"):
        return JOKER
    return card_index(SUITS.index(text[0]), RANKS.index(text[1]))


def cards_of(hand: int) -> list[int]:
    """The card indices of a bit set, ascending."""
    out = []
    while hand:
        low = hand & -hand
        out.append(low.bit_length() - 1)
        hand ^= low
    return out


def hand_from_cards(cards: list[int] | tuple[int, ...]) -> int:
    h = 0
    for c in cards:
        h |= 1 << c
    return h


def popcount(x: int) -> int:
    return bin(x).count("1")


def hand_str(hand: int) -> str:
    """A hand in the log's order: suits S H D C, ranks 3..2, the joker last as ``J3``."""
    return "".join(card_str(c) for c in cards_of(hand))


def hand_from_str(text: str) -> int:
    text = text.strip()
    if len(text) % 2:
        raise ValueError(f"bad hand string {text!r}")
    return hand_from_cards([card_from_str(text[i:i + 2]) for i in range(0, len(text), 2)])


def strength_key(card: int) -> int:
    """Exchange order (strongest = highest key): joker, then 2, A, K, ... 3; within a rank
    spade, heart, diamond, club."""
    if card == JOKER:
        return 1000
    return (card % 13) * 4 + (3 - card // 13)


def strongest(hand: int, n: int) -> int:
    """The n strongest cards of a hand (the automatic tribute), as a bit set."""
    cs = sorted(cards_of(hand), key=strength_key, reverse=True)[:n]
    return hand_from_cards(cs)


# --------------------------------------------------------------------------------- moves

def make_move(real: int, kind: int, joker: bool = False, jrow: int = 0, jcol: int = 0) -> int:
    m = real | (kind << _KIND_SHIFT)
    if joker:
        m |= JOKER_BIT | (jcol << _JCOL_SHIFT) | (jrow << _JROW_SHIFT)
    return m


SINGLE_JOKER = make_move(0, KIND_SINGLE, True, 0, 0)


def move_real(m: int) -> int:
    return m & ALL_REAL


def move_cards(m: int) -> int:
    """The cards (bit set, joker included) that leave the hand."""
    return m & ALL_CARDS


def move_has_joker(m: int) -> bool:
    return bool(m & JOKER_BIT)


def move_kind(m: int) -> int:
    return (m >> _KIND_SHIFT) & 3


def move_jrow(m: int) -> int:
    return (m >> _JROW_SHIFT) & 7


def move_jcol(m: int) -> int:
    return (m >> _JCOL_SHIFT) & 15


def move_count(m: int) -> int:
    return popcount(m & ALL_CARDS)


def move_cells(m: int) -> list[tuple[int, int, int]]:
    """The (row, col, value) cells of the move's wire table; value 1 a card, 2 the joker."""
    cells = [(card_suit(c), card_col(c), 1) for c in cards_of(m & ALL_REAL)]
    if m & JOKER_BIT:
        cells.append((move_jrow(m), move_jcol(m), 2))
    cells.sort()
    return cells


def move_low_high(m: int) -> tuple[int, int]:
    """Lowest and highest wire column covered by the move (the joker's included)."""
    cols = [card_col(c) for c in cards_of(m & ALL_REAL)]
    if m & JOKER_BIT and move_kind(m) != KIND_SINGLE:
        cols.append(move_jcol(m))
    if not cols:  # single joker
        return (14, 14)
    return (min(cols), max(cols))


def move_suits(m: int) -> int:
    """Suit set as a 4-bit mask (bit s for suit s); the joker's chosen suit counts.
    A single joker has the empty suit set."""
    s = 0
    for c in cards_of(m & ALL_REAL):
        s |= 1 << card_suit(c)
    if m & JOKER_BIT and move_kind(m) != KIND_SINGLE and move_jrow(m) < 4:
        s |= 1 << move_jrow(m)
    return s


def move_str(m: int) -> str:
    """Log notation of a play: the cards row-major (rows S H D C then row 4, columns low to
    high); the joker is written with the letter K L M N J for rows 0 1 2 3 4 followed by the
    rank it stands for (``x`` for column 0, ``X`` for column 14). A pass is ``""``; a single
    joker is ``Kx``."""
    if m == PASS:
        return ""
    out = []
    for row, col, val in move_cells(m):
        rank = "x" if col == 0 else ("X" if col == 14 else RANKS[col - 1])
        if val == 2:
            out.append("KLMNJ"[row] + rank)
        else:
            out.append(SUITS[row] + rank)
    return "".join(out)


def move_from_cells(cells: list[tuple[int, int, int]]) -> int:
    """Build a move from wire cells (row 0..4, col 0..14, value 1/2). Raises ValueError if the
    cells do not form a single, group or sequence shape."""
    cells = sorted((r, c, v) for r, c, v in cells if v)
    if not cells:
        return PASS
    jokers = [(r, c) for r, c, v in cells if v == 2]
    reals = [(r, c) for r, c, v in cells if v != 2]
    if len(jokers) > 1:
        raise ValueError("more than one joker")
    for r, c in reals:
        if not (0 <= r <= 3 and 1 <= c <= 13):
            raise ValueError(f"no real card at row {r} col {c}")
    real = 0
    for r, c in reals:
        real |= 1 << card_index(r, c - 1)
    n = len(cells)
    if n == 1:
        if jokers:
            return SINGLE_JOKER
        return make_move(real, KIND_SINGLE)
    cols = {c for _, c, _ in cells}
    rows = {r for r, _, _ in cells}
    if len(cols) == 1:  # group
        if len(rows) != n:
            raise ValueError("two cards in one cell")
        if jokers:
            jr, jc = jokers[0]
            if jr == 4 and n != 5:
                raise ValueError("joker in row 4 outside a 5-card group")
            if jr < 4 and n == 5:
                raise ValueError("5-card group needs the joker in row 4")
            return make_move(real, KIND_GROUP, True, jr, jc)
        if 4 in rows:
            raise ValueError("row 4 in a group")
        return make_move(real, KIND_GROUP)
    if len(rows) == 1 and n >= 3:  # sequence
        cl = sorted(cols)
        if len(cl) != n or cl[-1] - cl[0] != n - 1:
            raise ValueError("sequence with a gap")
        row = next(iter(rows))
        if row > 3:
            raise ValueError("sequence in row 4")
        if jokers:
            return make_move(real, KIND_SEQ, True, row, jokers[0][1])
        return make_move(real, KIND_SEQ)
    raise ValueError("not a single, group or sequence")


def move_from_str(text: str) -> int:
    """Parse a play written in log notation (see :func:`move_str`); ``""`` is a pass."""
    if len(text) % 2:
        raise ValueError(f"bad play string {text!r}")
    cells = []
    toks = [text[i:i + 2] for i in range(0, len(text), 2)]
    for i, tok in enumerate(toks):
        s, r = tok[0], tok[1]
        if s in "KLMNJ":
            row = "KLMNJ".index(s)
            if r == "x":  # column 0, or column 14 when written after the other cards
                col = 0 if (i == 0 or len(toks) == 1) else 14
            elif r == "X":
                col = 14
            else:
                col = RANKS.index(r) + 1
            cells.append((row, col, 2))
        else:
            cells.append((SUITS.index(s), RANKS.index(r) + 1, 1))
    return move_from_cells(cells)


def move_to_rows(m: int) -> list[list[int]]:
    """The move as wire rows 0..4 (5 lists of 15 ints). A pass is all zeros."""
    rows = [[0] * 15 for _ in range(5)]
    for r, c, v in move_cells(m):
        rows[r][c] = v
    return rows


def move_from_rows(rows: object) -> int:
    """Parse wire rows 0..4 (any 5x15 nested sequence / array) into a move (ValueError if
    the shape is not a meld; a lone joker at row 4 is rejected as the server does)."""
    cells = []
    for r in range(5):
        row = rows[r]  # type: ignore[index]
        for c in range(15):
            v = int(row[c])
            if v:
                cells.append((r, c, 2 if v == 2 else 1))
    if len(cells) == 1 and cells[0][2] == 2 and cells[0][0] == 4:
        raise ValueError("single joker in row 4")
    return move_from_cells(cells)


def hand_to_rows(hand: int) -> list[list[int]]:
    """A hand as wire rows 0..4: real cards 1, the joker ``[4][1] = 2``."""
    rows = [[0] * 15 for _ in range(5)]
    for c in cards_of(hand & ALL_REAL):
        rows[card_suit(c)][card_col(c)] = 1
    if hand & JOKER_BIT:
        rows[4][1] = 2
    return rows


def hand_from_rows(rows: object) -> int:
    """Parse wire rows 0..4 as a set of cards (a 2 anywhere is the joker); used for hands and
    for exchange tables."""
    h = 0
    for r in range(5):
        row = rows[r]  # type: ignore[index]
        for c in range(15):
            v = int(row[c])
            if v == 2:
                h |= JOKER_BIT
            elif v and r < 4 and 1 <= c <= 13:
                h |= 1 << card_index(r, c - 1)
    return h
