"""Move features φ(s, a) of Daihinmin for learned policies (Gelly and Silver 2007; Silver and
Tesauro 2009).

A feature vector describes one legal move (or the pass) of the player to move, from what that
player knows: its hand ``h``, the cards the other players still hold taken together
(``others``: in a world, the union of their hands; for a player's view, every card neither
in ``h`` nor played), the table, the revolution and the lock, and ``opp_min``, the fewest
cards any other player still holds. Nothing else: the same features serve the playouts (every
player moves by them), the opponent model of the inference (P(action | hand, state)) and the
move ordering.

Two kinds of columns. The first ``N_DENSE`` (``DENSE``) describe the move and what it
leaves. The rest (``SHAPE_TABLE``) are a one-hot table of the move's shape and strength by
role, one weight per cell: ``lead_<shape>_s<k>`` and ``follow_<shape>_s<k>`` for a meld of
that shape (single, pair, triple, quad — four cards or more —, seq3, seq4, seq5 — five or
more —) whose strength (:func:`py_strength`) is k/12, and ``pass_on_<shape>_s<k>`` for the
pass on such a table. A softmax over such move classes is what the strongest Monte Carlo
clients of the tournament learn many weights of; with the dense columns beside it the table
only has to learn what they miss, so a few thousand decisions fit it.

After the table, ``CONTEXT``: the move's role crossed with what the player keeps, one pair
of columns per cell ``<role>_left<a>_top<c>`` and ``<role>_left<a>_top<c>_s``: ``a`` the
cards left after the move (0: 0–2, 1: 3–5, 2: 6–8, 3: nine or more; the hand for a pass),
``c`` the control cards left (the joker and the cards of the strongest rank after the move,
up to 3); the first column is 1, the second the strength of the table's cell (k/12). How a
strong player leads, follows or passes depends on how near it is to going out and how much
control it keeps; the dense columns and the table see each alone. A weights file made
before a block (the dense columns alone, or with the table) loads with the later blocks'
weights 0.

``FEATURES`` names the columns. :func:`py_features` is the plain-Python reference (built on
``rules.py``); :func:`features_into` is the numba kernel the playouts use (it writes the dense
columns and returns the table's column and the context's, so a logit costs a few weights
more, not ``N_TABLE`` products); the tests compare the two on random positions.
"""

from __future__ import annotations

import math

import numpy as np

import games.daihinmin.rules as R
from games.daihinmin.cards import (
    ALL_CARDS,
    ALL_REAL,
    JOKER_BIT,
    KIND_SEQ,
    KIND_SINGLE,
    PASS,
    SINGLE_JOKER,
    move_cards,
    move_count,
    move_kind,
    move_low_high,
    move_suits,
)
from games.daihinmin.kernels import (
    LOW13,
    POP13,
    ROW,
    hot,
    low_high,
    popcount,
    suits_of,
)

DENSE = (
    "pass", "pass_opp_near", "lead_single", "lead_group", "lead_seq", "lead_size",
    "lead_strength", "follow_strength", "follow_overkill", "joker_in_meld", "single_joker",
    "top_cards_used", "eight_cut", "eight_cut_lead", "revolution", "revolution_gain",
    "lock", "finishes", "sure", "answers", "cards_left", "ranks_left", "weak_singles_left",
    "joker_kept", "top_cards_kept", "eights_kept", "breaks_group", "breaks_sequence",
    "lead_sure", "lead_then_one_rank", "follow_strength_opp_near", "lead_single_opp_one",
    "lead_wider_than_opp", "follow_sure_opp_near", "pass_strong_table", "pass_cards_held",
)
N_DENSE = len(DENSE)
SHAPES = ("single", "pair", "triple", "quad", "seq3", "seq4", "seq5")
N_SHAPES = len(SHAPES)
ROLES = ("lead", "follow", "pass_on")
N_STRENGTHS = 13
SHAPE_TABLE = tuple(f"{role}_{shape}_s{k}" for role in ROLES for shape in SHAPES
                    for k in range(N_STRENGTHS))
N_TABLE = len(SHAPE_TABLE)
LEFT_BUCKETS = (3, 6, 9)  # cards left after the move: below 3, below 6, below 9, 9 or more
N_LEFT = len(LEFT_BUCKETS) + 1
N_TOP = 4  # control cards left: 0, 1, 2, 3 or more
CONTEXT = tuple(f"{role}_left{a}_top{c}{v}" for role in ROLES for a in range(N_LEFT)
                for c in range(N_TOP) for v in ("", "_s"))
FEATURES = DENSE + SHAPE_TABLE + CONTEXT
N_FEATURES = len(FEATURES)
CONTEXT0 = N_DENSE + N_TABLE  # the first CONTEXT column
_EIGHT_RANK = 5  # rank index of the 8s (3 4 5 6 7 8 ...)


# ----------------------------------------------------------------------------- reference

def _eff(r: int, rev: int) -> int:
    """Strength of rank index r (0..12 = 3..2) in the current order: 12 = strongest."""
    return 12 - r if rev else r


def py_strength(m: int, rev: int) -> float:
    """How hard a meld is to beat, 0 (weakest) .. 1 (strongest): a sequence counts by its top
    (by its bottom under a revolution); the single joker is 1."""
    if m == SINGLE_JOKER:
        return 1.0
    lo, hi = move_low_high(m)
    col = lo if rev else hi
    if move_kind(m) != KIND_SEQ:
        col = lo
    s = (13 - col) / 12 if rev else (col - 1) / 12
    return min(1.0, max(0.0, s))


def _rank_counts(h: int) -> list[int]:
    return [sum(h >> (13 * s + r) & 1 for s in range(4)) for r in range(13)]


def _seq_members(h: int) -> int:
    """Real cards of ``h`` in a run of three or more consecutive ranks of one suit."""
    out = 0
    for s in range(4):
        row = (h >> (13 * s)) & 0x1FFF
        starts = row & (row >> 1) & (row >> 2)
        mem = starts | (starts << 1) | (starts << 2)
        out |= (mem & 0x1FFF) << (13 * s)
    return out


def _reals(h: int) -> list[int]:
    return [c for c in range(52) if h >> c & 1]


def py_shape(m: int) -> int:
    """The index in ``SHAPES`` of meld ``m``'s shape."""
    n = move_count(m)
    if move_kind(m) == KIND_SEQ:
        return 4 + min(n, 5) - 3
    return min(n, 4) - 1


def py_shape_column(m: int, table: int, rev: int) -> int | None:
    """The ``SHAPE_TABLE`` column of move ``m`` on ``table`` (an index into ``FEATURES``):
    its role, shape and strength, of the table's meld for a pass; None for a pass on an
    empty table."""
    if m == PASS and table == PASS:
        return None
    role = 2 if m == PASS else int(table != PASS)
    meld = table if m == PASS else m
    k = round(py_strength(meld, rev) * 12)
    return N_DENSE + (role * N_SHAPES + py_shape(meld)) * N_STRENGTHS + k


def py_context_column(hand: int, m: int, table: int, rev: int) -> int | None:
    """The first of the pair of ``CONTEXT`` columns of move ``m`` on ``table`` (an index into
    ``FEATURES``): its role, the cards it leaves and the control among them; None for a pass
    on an empty table."""
    if m == PASS and table == PASS:
        return None
    role = 2 if m == PASS else int(table != PASS)
    after = hand if m == PASS else hand & ~move_cards(m)
    rev2 = rev if m == PASS else rev ^ int(R.revolts(m))
    left = sum(popcount_py(after) >= b for b in LEFT_BUCKETS)
    top = sum(_eff(c % 13, rev2) == 12 for c in _reals(after)) + int(bool(after & JOKER_BIT))
    return CONTEXT0 + ((role * N_LEFT + left) * N_TOP + min(top, N_TOP - 1)) * 2


def py_features(hand: int, others: int, table: int, rev: int, lock: int, opp_min: int,
                m: int) -> list[float]:
    """φ of move ``m`` (PASS included) for a player holding ``hand`` (reference)."""
    f = [0.0] * N_FEATURES
    col = py_shape_column(m, table, rev)
    if col is not None:
        f[col] = 1.0
        cc = py_context_column(hand, m, table, rev)
        assert cc is not None
        f[cc] = 1.0
        f[cc + 1] = (col - N_DENSE) % N_STRENGTHS / 12
    lead = table == PASS
    near = opp_min <= 2
    if m == PASS:
        f[0] = 1.0
        f[1] = float(near)
        f[34] = float(py_strength(table, rev) >= 0.75)
        f[35] = popcount_py(hand) / 11
        return f
    cards = move_cards(m)
    kind = move_kind(m)
    n = move_count(m)
    after = hand & ~cards
    revolts = R.revolts(m)
    rev2 = rev ^ int(revolts)
    cut = R.cuts(m)
    s = py_strength(m, rev)
    if lead:
        f[2 + kind - 1] = 1.0
        f[5] = n / 4
        f[6] = s
    else:
        f[7] = s
        f[8] = s - py_strength(table, rev)
    f[9] = float(bool(m & JOKER_BIT) and m != SINGLE_JOKER)
    f[10] = float(m == SINGLE_JOKER)
    f[11] = float(sum(_eff(c % 13, rev) == 12 for c in _reals(cards)))
    f[12] = float(cut)
    f[13] = float(cut and lead)
    f[14] = float(revolts)
    if revolts:
        rc = _reals(after)
        if rc:
            f[15] = sum(12 - 2 * _eff(c % 13, rev) for c in rc) / (12 * len(rc))
    locks, answers = py_reply(others, m, table, rev, lock)
    f[16] = float(locks)
    f[17] = float(after == 0)
    f[18] = float(answers == 0)
    f[19] = math.log1p(answers) / 3
    f[20] = popcount_py(after) / 11
    ranks_after = _rank_counts(after)
    f[21] = sum(1 for x in ranks_after if x) / 13
    members = _seq_members(after)
    f[22] = sum(1 for c in _reals(after) if ranks_after[c % 13] == 1 and not members >> c & 1
                and _eff(c % 13, rev2) <= 5) / 5
    f[23] = float(bool(after & JOKER_BIT))
    f[24] = sum(_eff(c % 13, rev2) == 12 for c in _reals(after)) / 2
    f[25] = sum(c % 13 == _EIGHT_RANK for c in _reals(after)) / 2
    held = _rank_counts(hand)
    used = _rank_counts(cards & ALL_REAL)
    f[26] = float(any(used[r] and held[r] > used[r] for r in range(13)))
    f[27] = float(kind != KIND_SEQ and bool(cards & _seq_members(hand)))
    if lead:
        f[28] = f[18]
        f[29] = float(after != 0 and f[21] * 13 + float(bool(after & JOKER_BIT)) <= 1)
        f[31] = float(kind == KIND_SINGLE and opp_min == 1)
        f[32] = float(n > opp_min)
    else:
        f[30] = s * near
        f[33] = f[18] * near
    return f


def popcount_py(x: int) -> int:
    return bin(x).count("1")


def py_reply(others: int, m: int, table: int, rev: int, lock: int) -> tuple[bool, int]:
    """Meld ``m`` played on ``table``: whether it starts a lock (the table's suits, neither a
    single joker), and how the other players, ``others`` taken together, could answer it
    (:func:`py_answers` under the revolution and lock it leaves; 0 if it cuts). The policy's
    "lock" and "answers" features; no answer makes ``m`` sure (knowledge.daihinmin.endgame)."""
    locks = (table != PASS and table != SINGLE_JOKER and m != SINGLE_JOKER and not lock
             and move_suits(m) == move_suits(table))
    if R.cuts(m):
        return locks, 0
    lock2 = int((lock or locks) and m != SINGLE_JOKER)
    return locks, py_answers(others, m, rev ^ int(R.revolts(m)), lock2)


def py_answers(others: int, m: int, rev: int, lock: int) -> int:
    """How the other players taken together could answer meld ``m`` (reference): for a
    single or a group, the number of stronger ranks at which they hold enough cards (of the
    locked suits under a lock; their joker fills one; their joker alone answers a single);
    a single joker is answered by the spade 3 only; for a sequence, the number of windows of
    as many columns beyond it, in one suit (the locked one under a lock), in which they hold
    every card but at most one (their joker fills it)."""
    kind = move_kind(m)
    joker = bool(others & JOKER_BIT)
    if m == SINGLE_JOKER:
        return int(bool(others & 1))
    if kind == KIND_SEQ:
        lo, hi = move_low_high(m)
        k = move_count(m)
        suits = move_suits(m)
        n = 0
        for s in range(4):
            if lock and not suits >> s & 1:
                continue
            cols = {c + 1 for c in range(13) if others >> (13 * s + c) & 1}
            for j in range(16 - k):
                if not (j + k - 1 < lo if rev else j > hi):
                    continue
                held = sum(1 for c in range(j, j + k) if c in cols)
                n += held >= k or (joker and held >= k - 1)
        return n
    lo, _ = move_low_high(m)
    r = lo - 1
    suits = move_suits(m)
    k = move_count(m)
    n = 0
    for r2 in range(13):
        if not (r2 < r if rev else r2 > r):
            continue
        held = sum(1 for s in range(4) if others >> (13 * s + r2) & 1
                   and (not lock or suits >> s & 1))
        if kind == KIND_SINGLE:
            n += held >= 1
        else:
            n += held >= k or (joker and held >= 1 and held + 1 >= k)
    if kind == KIND_SINGLE and joker:
        n += 1
    return n


# ----------------------------------------------------------------------------- kernel

@hot()
def _strength12(m: int, lo: int, hi: int, rev: int) -> int:
    """12 x :func:`py_strength` (an integer 0..12) of a meld whose columns are lo..hi."""
    if m == SINGLE_JOKER:
        return 12
    col = lo
    if (m >> 60) & 3 == 3 and not rev:
        col = hi
    s = 13 - col if rev else col - 1
    return min(12, max(0, s))


@hot()
def _eff_k(r: int, rev: int) -> int:
    return 12 - r if rev else r


@hot()
def _members(h: int) -> int:
    out = 0
    for s in range(4):
        row = (h >> (13 * s)) & ROW
        starts = row & (row >> 1) & (row >> 2)
        mem = starts | (starts << 1) | (starts << 2)
        out |= (mem & ROW) << (13 * s)
    return out


@hot()
def _rank_rows(h: int) -> tuple[int, int, int]:
    """(ranks held, ranks held twice or more, ranks held exactly once) as 13-bit masks."""
    r0 = h & ROW
    r1 = (h >> 13) & ROW
    r2 = (h >> 26) & ROW
    r3 = (h >> 39) & ROW
    anyr = r0 | r1 | r2 | r3
    two = (r0 & r1) | (r0 & r2) | (r0 & r3) | (r1 & r2) | (r1 & r3) | (r2 & r3)
    return anyr, two, anyr & ~two


@hot()
def _count_rank_cards(h: int, ranks: int) -> int:
    """Real cards of ``h`` whose rank is in the 13-bit mask ``ranks``."""
    n: int = (POP13[(h & ROW) & ranks] + POP13[((h >> 13) & ROW) & ranks]
              + POP13[((h >> 26) & ROW) & ranks] + POP13[((h >> 39) & ROW) & ranks])
    return n


@hot()
def _rank_count(h: int, r: int) -> int:
    return ((h >> r) & 1) + ((h >> (13 + r)) & 1) + ((h >> (26 + r)) & 1) \
        + ((h >> (39 + r)) & 1)


@hot()
def _revolts(m: int) -> bool:
    kind = (m >> 60) & 3
    cnt = popcount(m & ALL_CARDS)
    return (kind == 2 and cnt >= 4) or (kind == 3 and cnt >= 5)


@hot()
def _cuts(m: int) -> bool:
    kind = (m >> 60) & 3
    eights = (1 << 5) | (1 << 18) | (1 << 31) | (1 << 44)
    return (m & eights) != 0 or (kind != 1 and (m & JOKER_BIT) != 0
                                 and ((m >> 53) & 15) == 6)


@hot()
def _ge(o0: int, o1: int, o2: int, o3: int, k: int) -> int:
    """Ranks (13-bit mask) at which the four suit rows hold at least ``k`` cards."""
    if k <= 0:
        return ROW
    if k == 1:
        return o0 | o1 | o2 | o3
    if k == 2:
        return (o0 & o1) | (o0 & o2) | (o0 & o3) | (o1 & o2) | (o1 & o3) | (o2 & o3)
    if k == 3:
        return (o0 & o1 & o2) | (o0 & o1 & o3) | (o0 & o2 & o3) | (o1 & o2 & o3)
    if k == 4:
        return o0 & o1 & o2 & o3
    return 0


CTX_SIZE = 8


@hot()
def step_context(hand: int, others: int, table: int, rev: int, ctx: np.ndarray) -> None:
    """What the features of every move of one step share: the sequence members of the hand,
    the suit rows of the others' cards (ctx[1..4]) and their joker (ctx[5]), 12 x the
    table's strength (ctx[6]) and its suits (ctx[7])."""
    ctx[0] = _members(hand)
    for s in range(4):
        ctx[1 + s] = (others >> (13 * s)) & ROW
    ctx[5] = 1 if others & JOKER_BIT else 0
    if table != 0:
        tlo, thi = low_high(table)
        ctx[6] = _strength12(table, tlo, thi, rev)
        ctx[7] = suits_of(table)
    else:
        ctx[6] = 0
        ctx[7] = 0


@hot()
def _answers(others: int, ctx: np.ndarray, m: int, lo: int, hi: int, rev: int,
             lock: int) -> int:
    """Kernel of :func:`py_answers` (``lo``, ``hi``: the columns of ``m``)."""
    if m == SINGLE_JOKER:
        return int(others & 1)
    kind = (m >> 60) & 3
    joker = ctx[5]
    if kind == 3:
        k = popcount(m & ALL_CARDS)
        suits = suits_of(m)
        need = k - 1 if joker else k
        win = (1 << k) - 1
        n = 0
        for s in range(4):
            if lock and not (suits >> s) & 1:
                continue
            cols = ctx[1 + s] << 1
            for j in range(16 - k):
                if (j + k - 1 < lo) if rev else (j > hi):
                    if popcount((cols >> j) & win) >= need:
                        n += 1
        return n
    r = lo - 1
    stronger = (1 << r) - 1 if rev else ROW & ~((1 << (r + 1)) - 1)
    o0 = ctx[1]
    o1 = ctx[2]
    o2 = ctx[3]
    o3 = ctx[4]
    if lock:
        suits = suits_of(m)
        o0 = o0 if suits & 1 else 0
        o1 = o1 if suits & 2 else 0
        o2 = o2 if suits & 4 else 0
        o3 = o3 if suits & 8 else 0
    if kind == 1:
        return POP13[_ge(o0, o1, o2, o3, 1) & stronger] + joker  # type: ignore[no-any-return]
    k = popcount(m & ALL_CARDS)
    mask = _ge(o0, o1, o2, o3, k)
    if joker:
        mask |= _ge(o0, o1, o2, o3, k - 1) & _ge(o0, o1, o2, o3, 1)
    return POP13[mask & stronger]  # type: ignore[no-any-return]


@hot(inline=True)
def _reply(others: int, ctx: np.ndarray, m: int, lo: int, hi: int, table: int, tsuits: int,
           rev2: int, lock: int, cut: bool) -> tuple[bool, int]:
    """Kernel of :func:`py_reply` (``lo``, ``hi``: the columns of ``m``; ``tsuits``: the
    table's suits; ``rev2``: the revolution after ``m``; ``cut``: ``m`` cuts)."""
    locks = (table != 0 and table != SINGLE_JOKER and m != SINGLE_JOKER and lock == 0
             and suits_of(m) == tsuits)
    if cut:
        return locks, 0
    lock2 = 1 if (lock != 0 or locks) and m != SINGLE_JOKER else 0
    return locks, _answers(others, ctx, m, lo, hi, rev2, lock2)


@hot()
def _shape_column(kind: int, n: int, s12: int, role: int) -> int:
    """Kernel of :func:`py_shape_column` for a meld of ``kind`` and ``n`` cards of strength
    ``s12``/12 in ``role`` (0 lead, 1 follow, 2 the pass on it)."""
    shape = 4 + min(n, 5) - 3 if kind == 3 else min(n, 4) - 1
    return N_DENSE + (role * N_SHAPES + shape) * N_STRENGTHS + s12


@hot()
def _context_column(role: int, left: int, top: int) -> int:
    """Kernel of :func:`py_context_column`: the first of the pair of ``CONTEXT`` columns of a
    move in ``role`` (0 lead, 1 follow, 2 the pass on a meld) that leaves ``left`` cards,
    ``top`` of them control cards."""
    a = 0
    for b in LEFT_BUCKETS:
        if left >= b:
            a += 1
    return CONTEXT0 + ((role * N_LEFT + a) * N_TOP + min(top, N_TOP - 1)) * 2


@hot()
def cell_twelfths(col: int) -> int:
    """The strength of the shape table's cell ``col`` in twelfths (k): k/12 is the value of
    the second column of the move's context pair."""
    k: int = (col - N_DENSE) % N_STRENGTHS
    return k


@hot()
def features_into(hand: int, others: int, table: int, rev: int, lock: int, opp_min: int,
                  m: int, ctx: np.ndarray, out: np.ndarray) -> tuple[int, int]:
    """Kernel of :func:`py_features`: the dense columns of φ(``m``) written into ``out``
    (its first N_DENSE entries; any further ones are zeroed), and returned the column of the
    one-hot shape table and the first of the move's ``CONTEXT`` pair (-1, -1: none; the
    pair's second column holds :func:`cell_twelfths` of the table column over 12). ``ctx`` holds
    :func:`step_context` of (hand, others, table, rev)."""
    for i in range(out.shape[0]):
        out[i] = 0.0
    lead = table == 0
    near = opp_min <= 2
    if m == 0:
        out[0] = 1.0
        out[1] = 1.0 if near else 0.0
        out[34] = 1.0 if ctx[6] >= 9 else 0.0
        held = popcount(hand)
        out[35] = held / 11.0
        if lead:
            return -1, -1
        control = _count_rank_cards(hand, 1 << (12 if rev == 0 else 0))
        if hand & JOKER_BIT:
            control += 1
        return (_shape_column((table >> 60) & 3, popcount(table & ALL_CARDS), ctx[6], 2),
                _context_column(2, held, control))
    cards = m & ALL_CARDS
    kind = (m >> 60) & 3
    n = popcount(cards)
    after = hand & ~cards
    revolts = _revolts(m)
    rev2 = rev ^ (1 if revolts else 0)
    cut = _cuts(m)
    lo, hi = low_high(m)
    s12 = _strength12(m, lo, hi, rev)
    s = s12 / 12.0
    if lead:
        out[1 + kind] = 1.0
        out[5] = n / 4.0
        out[6] = s
    else:
        out[7] = s
        out[8] = s - ctx[6] / 12.0
    if m & JOKER_BIT and m != SINGLE_JOKER:
        out[9] = 1.0
    if m == SINGLE_JOKER:
        out[10] = 1.0
    top = 12 if rev == 0 else 0  # rank index of the strongest rank now
    out[11] = float(_count_rank_cards(cards, 1 << top))
    if cut:
        out[12] = 1.0
        if lead:
            out[13] = 1.0
    if revolts:
        out[14] = 1.0
        k = 0
        tot = 0
        rest = after & ((1 << 52) - 1)
        while rest:
            low = rest & -rest
            c = popcount(low - 1)
            rest ^= low
            tot += 12 - 2 * _eff_k(c % 13, rev)
            k += 1
        if k:
            out[15] = tot / (12.0 * k)
    locks, answers = _reply(others, ctx, m, lo, hi, table, ctx[7], rev2, lock, cut)
    if locks:
        out[16] = 1.0
    if after == 0:
        out[17] = 1.0
    if answers == 0:
        out[18] = 1.0
    out[19] = np.log1p(answers) / 3.0
    left = popcount(after)
    out[20] = left / 11.0
    anyr, two, once = _rank_rows(after)
    nranks = POP13[anyr]
    out[21] = nranks / 13.0
    weak = ROW & ~0x7F if rev2 else 0x3F  # rank indices with strength <= 5 after the move
    out[22] = _count_rank_cards(after & ~_members(after), once & weak) / 5.0
    top2 = 12 if rev2 == 0 else 0
    control = _count_rank_cards(after, 1 << top2)
    out[24] = control / 2.0
    if after & JOKER_BIT:
        out[23] = 1.0
        control += 1
    out[25] = _count_rank_cards(after, 1 << _EIGHT_RANK) / 2.0
    used_ranks, _, _ = _rank_rows(cards)
    ur = used_ranks
    breaks = False
    while ur:
        r = LOW13[ur]
        ur &= ur - 1
        if _rank_count(hand, r) > _rank_count(cards, r):
            breaks = True
            break
    if breaks:
        out[26] = 1.0
    if kind != 3 and (cards & ctx[0]) != 0:
        out[27] = 1.0
    if lead:
        out[28] = out[18]
        if after != 0 and nranks + (1 if after & JOKER_BIT else 0) <= 1:
            out[29] = 1.0
        if kind == 1 and opp_min == 1:
            out[31] = 1.0
        if n > opp_min:
            out[32] = 1.0
    else:
        if near:
            out[30] = s
            out[33] = out[18]
    role = 0 if lead else 1
    return _shape_column(kind, n, s12, role), _context_column(role, left, control)
