"""The rules, plain Python: the reference for the numba kernels and the engine behind
:class:`GameState`, the replay oracle and the mock server.

A game position is a flat list of ints (the same layout as the kernels' int64 arrays), indexed
by the constants below. Players are UECda player numbers 0..4; ``ORDER`` holds the player in
each seat (play goes seat 0 -> 1 -> ... -> 4 -> 0).
"""

from __future__ import annotations

from itertools import combinations

from games.daihinmin.cards import (
    ALL_REAL,
    JOKER_BIT,
    KIND_GROUP,
    KIND_SEQ,
    KIND_SINGLE,
    PASS,
    SINGLE_JOKER,
    card_index,
    cards_of,
    make_move,
    move_count,
    move_has_joker,
    move_jcol,
    move_kind,
    move_low_high,
    move_real,
    move_suits,
)

NP = 5
H0 = 0  # hands of players 0..4 at H0..H0+4
TABLE = 5  # the move on the table (0 = empty)
REV = 6  # revolution in effect
LOCK = 7  # lock (shibari) in effect
PASSED = 8  # bit set of players who passed in this trick
LAST = 9  # player who made the last accepted play (-1 none yet)
TURN = 10  # player to move (-1 when the game is over)
OUTMASK = 11  # bit set of players out
NOUT = 12  # number of players in FINISH
PASSCOUNT = 13  # consecutive passes (20 = stalemate)
ORDER = 14  # ORDER+s: player in seat s
SEATOF = 19  # SEATOF+p: seat of player p
FINISH = 24  # FINISH+i: the i-th player to finish
STALE = 29  # 1 if the game ended by the 20-pass stalemate
STATE_SIZE = 30

STALEMATE_PASSES = 20
POINTS = (5, 4, 3, 2, 1)


# ------------------------------------------------------------------ meld enumeration

def all_melds(hand: int) -> list[int]:
    """Every meld (non-pass move) that can be formed from ``hand``, by brute force."""
    out: list[int] = []
    joker = bool(hand & JOKER_BIT)
    reals = cards_of(hand & ALL_REAL)
    for c in reals:
        out.append(make_move(1 << c, KIND_SINGLE))
    if joker:
        out.append(SINGLE_JOKER)
    # groups
    for r in range(13):
        suits = [s for s in range(4) if hand >> card_index(s, r) & 1]
        for k in range(2, 5):
            for sub in combinations(suits, k):
                out.append(make_move(sum(1 << card_index(s, r) for s in sub), KIND_GROUP))
        if joker:
            for k in range(1, 4):
                for sub in combinations(suits, k):
                    real = sum(1 << card_index(s, r) for s in sub)
                    for js in range(4):
                        if js not in sub:
                            out.append(make_move(real, KIND_GROUP, True, js, r + 1))
            if len(suits) == 4:
                out.append(make_move(sum(1 << card_index(s, r) for s in suits), KIND_GROUP,
                                     True, 4, r + 1))
    # sequences: windows of columns [lo, lo+n-1] inside 0..14
    for s in range(4):
        held = {r + 1 for r in range(13) if hand >> card_index(s, r) & 1}
        if len(held) < 2:
            continue
        for lo in range(15):
            for n in range(3, 16 - lo):
                cols = range(lo, lo + n)
                missing = [c for c in cols if c not in held]
                if len(missing) > 1:
                    break  # longer windows only miss more
                if not missing and lo >= 1 and lo + n - 1 <= 13:
                    out.append(make_move(sum(1 << card_index(s, c - 1) for c in cols),
                                         KIND_SEQ))
                if joker:
                    for jc in (missing if missing else list(cols)):
                        real = sum(1 << card_index(s, c - 1) for c in cols if c != jc)
                        out.append(make_move(real, KIND_SEQ, True, s, jc))
    return out


def can_follow(table: int, m: int, rev: int, lock: int) -> bool:
    """Whether meld ``m`` may be played onto ``table`` (``table`` = 0: empty, anything goes)."""
    if table == PASS:
        return True
    if table == SINGLE_JOKER:
        return m == make_move(1 << card_index(0, 0), KIND_SINGLE)  # the spade 3
    kt, km = move_kind(table), move_kind(m)
    if kt != km or move_count(table) != move_count(m):
        return False
    if m == SINGLE_JOKER:
        return True  # beats every single, lock or not
    if lock and move_suits(m) != move_suits(table):
        return False
    tlo, thi = move_low_high(table)
    mlo, mhi = move_low_high(m)
    if km == KIND_SEQ:
        return mhi < tlo if rev else mlo > thi
    return mlo < tlo if rev else mlo > tlo


def legal_moves(hand: int, table: int, rev: int, lock: int, lead_pass: bool = False) -> list[int]:
    """Legal moves of a hand, sorted. Pass is included when following, and on an empty
    table only if ``lead_pass`` (the server accepts it; the search never wants it)."""
    ms = sorted(m for m in all_melds(hand) if can_follow(table, m, rev, lock))
    if table != PASS or lead_pass:
        ms.insert(0, PASS)
    return ms


# ------------------------------------------------------------------ the state machine

def cuts(m: int) -> bool:
    """8-cut: a real 8, or the joker standing as an 8 in a group or sequence."""
    if m == PASS:
        return False
    real = move_real(m)
    for s in range(4):
        if real >> card_index(s, 5) & 1:
            return True
    return move_kind(m) != KIND_SINGLE and move_has_joker(m) and move_jcol(m) == 6


def revolts(m: int) -> bool:
    k = move_kind(m)
    n = move_count(m)
    return (k == KIND_GROUP and n >= 4) or (k == KIND_SEQ and n >= 5)


def new_state(hands: list[int], order: list[int], first: int) -> list[int]:
    """A fresh game: ``hands`` by player, ``order`` = player in each seat, ``first`` leads."""
    st = [0] * STATE_SIZE
    for p in range(NP):
        st[H0 + p] = hands[p]
        st[ORDER + p] = order[p]
        st[SEATOF + order[p]] = p
        st[FINISH + p] = -1
    st[LAST] = -1
    st[TURN] = first
    return st


def _next(st: list[int], p: int, skip_passed: bool) -> int:
    seat = st[SEATOF + p]
    for i in range(1, NP + 1):
        q = st[ORDER + (seat + i) % NP]
        if st[H0 + q] and not (skip_passed and st[PASSED] >> q & 1):
            return q
    return -1


def _flush(st: list[int], leader: int) -> None:
    st[TABLE] = 0
    st[LOCK] = 0
    st[PASSED] = 0
    if not st[H0 + leader]:
        leader = _next(st, leader, False)
    st[TURN] = leader


def _finish_rest_random(st: list[int], rand: list[int]) -> None:
    rest = [p for p in range(NP) if not st[OUTMASK] >> p & 1]
    # Fisher-Yates driven by the caller's random numbers (rand[i] in [0, i])
    for i in range(len(rest) - 1, 0, -1):
        j = rand[i] % (i + 1) if i < len(rand) else 0
        rest[i], rest[j] = rest[j], rest[i]
    for p in rest:
        st[FINISH + st[NOUT]] = p
        st[NOUT] += 1
        st[OUTMASK] |= 1 << p
    st[TURN] = -1
    st[STALE] = 1


def apply_move(st: list[int], m: int, rand: list[int] | None = None) -> None:
    """Play move ``m`` for ``st[TURN]`` (assumed legal; see :func:`legal_moves`). ``rand``
    supplies the random numbers of a stalemate's ranking (default: seat order)."""
    p = st[TURN]
    if m == PASS:
        st[PASSED] |= 1 << p
        st[PASSCOUNT] += 1
        if st[PASSCOUNT] >= STALEMATE_PASSES:
            _finish_rest_random(st, rand or [])
            return
        q = _next(st, p, True)
        if q < 0:
            last = st[LAST] if st[LAST] >= 0 else p
            _flush(st, last)
        else:
            st[TURN] = q
        return
    prev = st[TABLE]
    st[H0 + p] &= ~(m & (ALL_REAL | JOKER_BIT))
    st[PASSCOUNT] = 0
    st[LAST] = p
    if revolts(m):
        st[REV] ^= 1
    if m == SINGLE_JOKER:
        st[LOCK] = 0
    elif prev != PASS and prev != SINGLE_JOKER and move_suits(m) == move_suits(prev):
        st[LOCK] = 1
    st[TABLE] = m
    if not st[H0 + p]:
        st[OUTMASK] |= 1 << p
        st[FINISH + st[NOUT]] = p
        st[NOUT] += 1
        if st[NOUT] == NP - 1:
            q = _next(st, p, False)
            st[FINISH + NP - 1] = q
            st[NOUT] = NP
            st[OUTMASK] |= 1 << q
            st[TURN] = -1
            return
    spade3_over_joker = prev == SINGLE_JOKER
    if cuts(m) or spade3_over_joker:
        _flush(st, p)
        return
    q = _next(st, p, True)
    if q < 0:
        _flush(st, p)
    else:
        st[TURN] = q


def is_over(st: list[int]) -> bool:
    return st[TURN] < 0


def points_of(st: list[int]) -> list[int]:
    """Points by player (5 for the first out .. 1 for the last); 0 for unranked players."""
    pts = [0] * NP
    for i in range(st[NOUT]):
        pts[st[FINISH + i]] = POINTS[i]
    return pts


def first_leader(hands: list[int]) -> int:
    """The holder of the diamond 3 leads the first trick."""
    d3 = 1 << card_index(2, 0)
    for p in range(NP):
        if hands[p] & d3:
            return p
    raise ValueError("nobody holds the diamond 3")


__all__ = [
    "all_melds", "can_follow", "legal_moves", "apply_move", "new_state", "cuts", "revolts",
    "points_of", "first_leader", "is_over",
]
