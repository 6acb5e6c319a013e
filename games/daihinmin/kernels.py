"""numba kernels of the rules: legal-move generation, the state machine and the dealing of
worlds consistent with what a seat knows. ``rules.py`` is the plain-Python reference; the
tests compare the two on random positions. The playout policies that run on these kernels are
in :mod:`knowledge.daihinmin`.

The position is an int64 array laid out as in :mod:`games.daihinmin.rules` (``STATE_SIZE``
cells). Randomness comes from the splitmix64 generator of :mod:`games.splitmix`, its state
held in a uint64 array of length 1 seeded by the caller (``rng.integers(2**62)``), so every
kernel result is reproducible from a seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from games.daihinmin.cards import ALL_CARDS, ALL_REAL, JOKER_BIT, SINGLE_JOKER
from games.daihinmin.rules import (
    FINISH,
    H0,
    LAST,
    LOCK,
    NOUT,
    NP,
    ORDER,
    OUTMASK,
    PASSCOUNT,
    PASSED,
    REV,
    SEATOF,
    STALE,
    STALEMATE_PASSES,
    TABLE,
    TURN,
)
from games.splitmix import rng_next

_F = TypeVar("_F", bound=Callable[..., Any])


def _has_nrt_option() -> bool:
    """``_nrt`` is a private numba option (0.5x-0.6x); without it the kernels still work,
    only slower."""
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:  # pragma: no cover
        return False
    return hasattr(CPUTargetOptions, "_nrt")


_NRT_OPTION = _has_nrt_option()


def hot(inline: bool = False) -> Callable[[_F], _F]:
    """``njit(cache=True)`` for hot helpers that never allocate: compiled without NRT, so
    array arguments are passed without atomic reference counting (which cost more than the
    work itself); ``inline=True`` also inlines them into the caller at the numba IR level."""

    def deco(f: _F) -> _F:
        opts: dict[str, Any] = {"_nrt": False} if _NRT_OPTION else {}
        if inline:
            opts["inline"] = "always"
        return cast(_F, njit(cache=True, **opts)(f))

    return deco


MAX_MOVES = 2048

_KIND_SINGLE = 1 << 60
_KIND_GROUP = 2 << 60
_KIND_SEQ = 3 << 60
_SPADE3 = _KIND_SINGLE | 1
_EIGHTS = (1 << 5) | (1 << 18) | (1 << 31) | (1 << 44)
ROW = 0x1FFF


# ----------------------------------------------------------------------------- random

@hot(inline=True)
def rng_below(rs: np.ndarray, n: int) -> int:
    """Uniform int in [0, n) for n < 2**31 (multiply-shift of the top 32 bits; the bias is
    below n / 2**32)."""
    return np.int64(((rng_next(rs) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))  # type: ignore[return-value]


@hot(inline=True)
def rng_uniform(rs: np.ndarray) -> float:
    """Uniform float in [0, 1) (the top 53 bits)."""
    return float(rng_next(rs) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def py_rng_next(state: list[int]) -> int:
    """Plain-Python splitmix64, the reference of :func:`games.splitmix.rng_next` (the same
    stream)."""
    m = (1 << 64) - 1
    state[0] = (state[0] + 0x9E3779B97F4A7C15) & m
    z = state[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    return z ^ (z >> 31)


def py_rng_below(state: list[int], n: int) -> int:
    return ((py_rng_next(state) >> 32) * n) >> 32


# ----------------------------------------------------------------------------- bits

def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    n = 1 << 13
    low = np.full(n, -1, np.int64)
    high = np.full(n, -1, np.int64)
    pop = np.zeros(n, np.int64)
    for x in range(1, n):
        low[x] = (x & -x).bit_length() - 1
        high[x] = x.bit_length() - 1
        pop[x] = bin(x).count("1")
    spread = np.zeros(16, np.int64)
    for sub in range(16):
        for s in range(4):
            if sub >> s & 1:
                spread[sub] |= 1 << (13 * s)
    return low, high, pop, spread


LOW13, _HIGH13, POP13, _SPREAD = _tables()


@hot()
def popcount(x: int) -> int:
    y = np.uint64(x)
    y = y - ((y >> np.uint64(1)) & np.uint64(0x5555555555555555))
    y = (y & np.uint64(0x3333333333333333)) + ((y >> np.uint64(2)) & np.uint64(0x3333333333333333))
    y = (y + (y >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((y * np.uint64(0x0101010101010101)) >> np.uint64(56))  # type: ignore[return-value]


@hot()
def lowbit_index(x: int) -> int:
    return popcount((x & -x) - 1)


@hot()
def suits_of(m: int) -> int:
    """Suit set (4 bits) of a non-pass move; joker's row counts (< 4); single joker = 0."""
    real = m & ALL_REAL
    s = 0
    for suit in range(4):
        if (real >> (13 * suit)) & ROW:
            s |= 1 << suit
    if m & JOKER_BIT and (m >> 60) & 3 != 1:
        jr = (m >> 57) & 7
        if jr < 4:
            s |= 1 << jr
    return s


@hot()
def low_high(m: int) -> tuple[int, int]:
    """Lowest / highest wire column of a group or sequence or real single (joker included)."""
    real = m & ALL_REAL
    lo = 15
    hi = -1
    for suit in range(4):
        row = (real >> (13 * suit)) & ROW
        if row:
            a = LOW13[row] + 1
            b = _HIGH13[row] + 1
            if a < lo:
                lo = a
            if b > hi:
                hi = b
    if m & JOKER_BIT:
        jc = (m >> 53) & 15
        if jc < lo:
            lo = jc
        if jc > hi:
            hi = jc
    return lo, hi


# ----------------------------------------------------------------------------- move generation

@njit(cache=True)
def gen_moves(hand: int, table: int, rev: int, lock: int, out: np.ndarray) -> int:
    """Write every legal meld (no pass) of ``hand`` on ``table`` into ``out``; return the count."""
    tinfo = np.empty(5, np.int64)
    tinfo[0] = -1
    return gen_moves_cached(hand, table, rev, lock, out, tinfo)


@hot()
def gen_moves_cached(hand: int, table: int, rev: int, lock: int, out: np.ndarray,
                     tinfo: np.ndarray) -> int:
    """gen_moves with the table's analysis (count, suits, low, high) cached in ``tinfo``
    (recomputed when ``tinfo[0] != table``)."""
    n = 0
    joker = (hand & JOKER_BIT) != 0
    if table == SINGLE_JOKER:
        if hand & 1:
            out[0] = _SPADE3
            return 1
        return 0
    empty = table == 0
    tkind = (table >> 60) & 3
    if tinfo[0] != table:
        tinfo[0] = table
        tinfo[1] = popcount(table & ALL_CARDS)
        if not empty:
            tinfo[2] = suits_of(table)
            tinfo[3], tinfo[4] = low_high(table)
        else:
            tinfo[2] = 0
            tinfo[3] = 0
            tinfo[4] = 0
    tcount = tinfo[1]
    tsuits = tinfo[2]
    tlo = tinfo[3]
    thi = tinfo[4]
    locked = lock != 0 and not empty
    # ---- singles
    if empty or tkind == 1:
        allowed = ROW
        if not empty:
            # col = r + 1: normal col > tlo <=> r >= tlo; revolution col < tlo <=> r < tlo - 1
            if rev:
                allowed = (1 << max(tlo - 1, 0)) - 1
            else:
                allowed = ROW & ~((1 << tlo) - 1)
        for suit in range(4):
            if locked and (1 << suit) != tsuits:
                continue
            row = (hand >> (13 * suit)) & allowed
            while row:
                r = LOW13[row]
                row &= row - 1
                out[n] = _KIND_SINGLE | (1 << (13 * suit + r))
                n += 1
        if joker:
            out[n] = SINGLE_JOKER
            n += 1
        if not empty:
            return n
    # ---- groups
    if empty or tkind == 2:
        kmin = 2
        kmax = 5
        if not empty:
            kmin = tcount
            kmax = tcount
        r0 = hand & ROW
        r1 = (hand >> 13) & ROW
        r2 = (hand >> 26) & ROW
        r3 = (hand >> 39) & ROW
        if joker:
            ranks = r0 | r1 | r2 | r3
        else:
            ranks = (r0 & r1) | (r0 & r2) | (r0 & r3) | (r1 & r2) | (r1 & r3) | (r2 & r3)
        if not empty:
            # col = r + 1: normal col > tlo <=> r >= tlo; revolution col < tlo <=> r < tlo - 1
            if rev:
                ranks &= (1 << max(tlo - 1, 0)) - 1
            else:
                ranks &= ~((1 << tlo) - 1)
        while ranks:
            r = LOW13[ranks]
            ranks &= ranks - 1
            col = r + 1
            rs = ((hand >> r) & 1) | (((hand >> (13 + r)) & 1) << 1) \
                | (((hand >> (26 + r)) & 1) << 2) | (((hand >> (39 + r)) & 1) << 3)
            npc = POP13[rs]
            if npc + (1 if joker else 0) < kmin or npc == 0:
                continue
            sub = rs
            while sub:
                pc = POP13[sub]
                real = _SPREAD[sub] << r
                if pc >= 2 and kmin <= pc <= kmax:
                    if not locked or sub == tsuits:
                        out[n] = _KIND_GROUP | real
                        n += 1
                if joker:
                    k = pc + 1
                    if kmin <= k <= kmax:
                        if k <= 4:
                            for js in range(4):
                                if (sub >> js) & 1:
                                    continue
                                if locked and (sub | (1 << js)) != tsuits:
                                    continue
                                out[n] = _KIND_GROUP | real | JOKER_BIT | (col << 53) \
                                    | (js << 57)
                                n += 1
                        elif not locked or tsuits == 15:
                            out[n] = _KIND_GROUP | real | JOKER_BIT | (col << 53) | (4 << 57)
                            n += 1
                sub = (sub - 1) & rs
        if not empty:
            return n
    # ---- sequences
    if empty or tkind == 3:
        for s in range(4):
            if locked and (1 << s) != tsuits:
                continue
            row = (hand >> (13 * s)) & ROW
            if POP13[row] < (2 if joker else 3):
                continue
            rowcols = row << 1
            if joker:  # windows of 3 columns holding at least 2 cards
                a = rowcols
                b = rowcols >> 1
                c = rowcols >> 2
                starts = ((a & b) | (a & c) | (b & c)) & ROW
            else:
                starts = rowcols & (rowcols >> 1) & (rowcols >> 2)
            if not empty:
                if rev:  # hi = lo + tcount - 1 < tlo
                    starts &= (1 << max(tlo - tcount + 1, 0)) - 1
                else:
                    starts &= ~((1 << (thi + 1)) - 1)
            while starts:
                lo = LOW13[starts]
                starts &= starts - 1
                nmin = 3
                nmax = 15 - lo
                if not empty:
                    nmin = tcount
                    nmax = min(tcount, 15 - lo)
                for ln in range(nmin, nmax + 1):
                    hi = lo + ln - 1
                    if not empty and rev and hi >= tlo:
                        break
                    w = ((1 << ln) - 1) << lo
                    missing = w & ~rowcols
                    pm = popcount(missing)
                    if pm >= 2 or (pm == 1 and not joker):
                        break
                    base = _KIND_SEQ
                    if pm == 0:
                        out[n] = base | (((w >> 1) & ROW) << (13 * s))
                        n += 1
                        if joker:
                            x = w
                            while x:
                                j = lowbit_index(x)
                                x &= x - 1
                                out[n] = base | ((((w & ~(1 << j)) >> 1) & ROW) << (13 * s)) \
                                    | JOKER_BIT | (j << 53) | (s << 57)
                                n += 1
                    else:
                        j = lowbit_index(missing)
                        out[n] = base | ((((w & ~missing) >> 1) & ROW) << (13 * s)) \
                            | JOKER_BIT | (j << 53) | (s << 57)
                        n += 1
    return n


# ----------------------------------------------------------------------------- state machine

@hot(inline=True)
def _next(st: np.ndarray, p: int, skip_passed: bool) -> int:
    s = st[SEATOF + p]
    blocked = st[PASSED] if skip_passed else 0
    for _ in range(NP):
        s += 1
        if s == NP:
            s = 0
        q = st[ORDER + s]
        if st[H0 + q] != 0 and not (blocked >> q) & 1:
            return q  # type: ignore[no-any-return]
    return -1


@hot(inline=True)
def _flush(st: np.ndarray, leader: int) -> None:
    st[TABLE] = 0
    st[LOCK] = 0
    st[PASSED] = 0
    if st[H0 + leader] == 0:
        leader = _next(st, leader, False)
    st[TURN] = leader


@hot(inline=True)
def apply_move(st: np.ndarray, m: int, rs: np.ndarray) -> None:
    """Kernel twin of rules.apply_move (stalemate ranking drawn from ``rs``)."""
    p = st[TURN]
    if m == 0:
        st[PASSED] |= 1 << p
        st[PASSCOUNT] += 1
        if st[PASSCOUNT] >= STALEMATE_PASSES:
            rest = 0  # bit set of the players still in, ranked in a uniform random order
            k = 0
            for q in range(NP):
                if not (st[OUTMASK] >> q) & 1:
                    rest |= 1 << q
                    k += 1
            for slot in range(k):
                j = rng_below(rs, k - slot)
                q = 0
                while True:
                    if (rest >> q) & 1:
                        if j == 0:
                            break
                        j -= 1
                    q += 1
                rest &= ~(1 << q)
                st[FINISH + st[NOUT]] = q
                st[NOUT] += 1
                st[OUTMASK] |= 1 << q
            st[TURN] = -1
            st[STALE] = 1
            return
        q = _next(st, p, True)
        if q < 0:
            last = st[LAST] if st[LAST] >= 0 else p
            _flush(st, last)
        else:
            st[TURN] = q
        return
    prev = st[TABLE]
    st[H0 + p] &= ~(m & ALL_CARDS)
    st[PASSCOUNT] = 0
    st[LAST] = p
    kind = (m >> 60) & 3
    cnt = popcount(m & ALL_CARDS)
    if (kind == 2 and cnt >= 4) or (kind == 3 and cnt >= 5):
        st[REV] ^= 1
    if m == SINGLE_JOKER:
        st[LOCK] = 0
    elif prev != 0 and prev != SINGLE_JOKER and st[LOCK] == 0 and suits_of(m) == suits_of(prev):
        st[LOCK] = 1
    st[TABLE] = m
    if st[H0 + p] == 0:
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
    cut = (m & _EIGHTS) != 0 or (kind != 1 and (m & JOKER_BIT) != 0 and ((m >> 53) & 15) == 6)
    if cut or prev == SINGLE_JOKER:
        _flush(st, p)
        return
    q = _next(st, p, True)
    if q < 0:
        _flush(st, p)
    else:
        st[TURN] = q


@hot()
def strength_key(c: int) -> int:
    if c == 52:
        return 1000
    return (c % 13) * 4 + 3 - c // 13


@hot()
def sample_hands(st: np.ndarray, pool: np.ndarray, need: np.ndarray, known: np.ndarray,
                 ceil: np.ndarray, rs: np.ndarray, tmp: np.ndarray, fair: bool = False) -> None:
    """Deal the ``pool`` cards (array of card indices) at random: player p gets ``known[p]``
    plus ``need[p]`` pool cards; a player with ``ceil[p] >= 0`` gets only pool cards whose
    strength key is below ``ceil[p]`` when enough exist (tribute inference).

    ``fair=False`` is the v1 player's dealing (``preset=v1``): the others then take the
    cards left in the order of the same shuffle, which favours the first of them with the
    cards the bounded player could not take. ``fair=True`` shuffles the cards left again,
    so every consistent deal is equally likely."""
    np_ = pool.shape[0]
    for i in range(np_):
        tmp[i] = pool[i]
    for i in range(np_ - 1, 0, -1):
        j = rng_below(rs, i + 1)
        t = tmp[i]
        tmp[i] = tmp[j]
        tmp[j] = t
    used = 0  # bit set over tmp positions handed out (np_ <= 53)
    done = 0  # bit set of players dealt
    for p in range(NP):
        if need[p] > 0 and ceil[p] >= 0:
            cnt = 0
            for i in range(np_):
                if strength_key(tmp[i]) < ceil[p]:
                    cnt += 1
            if cnt >= need[p]:
                h = known[p]
                got = 0
                for i in range(np_):
                    if got == need[p]:
                        break
                    if not (used >> i) & 1 and strength_key(tmp[i]) < ceil[p]:
                        h |= 1 << tmp[i]
                        used |= 1 << i
                        got += 1
                st[H0 + p] = h
                done |= 1 << p
    if fair and done != 0:  # shuffle the cards left (compacted to the front) again
        k = 0
        for j in range(np_):
            if not (used >> j) & 1:
                tmp[k] = tmp[j]
                k += 1
        for j in range(k - 1, 0, -1):
            r = rng_below(rs, j + 1)
            t = tmp[j]
            tmp[j] = tmp[r]
            tmp[r] = t
        used = 0
    i = 0
    for p in range(NP):
        if need[p] < 0 or (done >> p) & 1:
            continue  # the searching player's own hand, or dealt above
        h = known[p]
        got = 0
        while got < need[p]:
            while (used >> i) & 1:
                i += 1
            h |= 1 << tmp[i]
            used |= 1 << i
            got += 1
        st[H0 + p] = h


@njit(cache=True)
def deal_worlds(st0: np.ndarray, pool: np.ndarray, need: np.ndarray, known: np.ndarray,
                ceil: np.ndarray, seed: int, k: int) -> np.ndarray:
    """``k`` worlds dealt fairly by :func:`sample_hands`: a k x 5 array of hands."""
    rs = np.empty(1, np.uint64)
    rs[0] = np.uint64(seed)
    tmp = np.empty(64, np.int64)
    st = st0.copy()
    out = np.empty((k, NP), np.int64)
    for i in range(k):
        sample_hands(st, pool, need, known, ceil, rs, tmp, True)
        for p in range(NP):
            out[i, p] = st[H0 + p]
    return out


# ----------------------------------------------------------------------------- Python side

def state_array(st: list[int]) -> np.ndarray:
    return np.asarray(st, dtype=np.int64)


def gen_moves_list(hand: int, table: int, rev: int, lock: int) -> list[int]:
    """Kernel move generation as a sorted Python list (pass included when following)."""
    buf = np.empty(MAX_MOVES, np.int64)
    n = gen_moves(hand, table, rev, lock, buf)
    ms = sorted(int(x) for x in buf[:n])
    if table != 0:
        ms.insert(0, 0)
    return ms
