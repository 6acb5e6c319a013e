"""Move features for learned move ratings (Coulom 2007), as numba kernels.

:func:`k_move_features` describes each candidate move of the colour c to play by one level per
feature group (0: the move does not have the feature), and column 0 holds the move's 3x3
pattern code. The groups:

===========  ======================================================================
PATTERN      :func:`pattern20`: the 8 neighbours (empty, the mover's, the opponent's,
             off the board) and whether each orthogonal neighbour's group is in atari,
             with the mover's stones always as colour 1 (so black and white share it);
             :mod:`knowledge.go.patterns` makes it canonical under the 8 symmetries
CAPTURE      1 the capture saves one of our groups in atari, 2 it captures the stone(s)
             of the last move, 3 it captures one stone, 4 two or more
ESCAPE       (no capture) a group of ours in atari next to the move gets out of atari:
             1 to three or more liberties, 2 to two and no ladder catches it, 3 to two
             and a ladder does; 4-6 the same when the last move gave that atari
ATARI        the move puts an opponent group in atari: 1 a one-stone group, 2 a larger
             one, 3 and 4 the same when a ladder captures it (the highest level of the
             groups it ataris)
SELF_ATARI   the move's group is left in atari (nothing captured): 1, 2, 3+ stones
DIST         distance to the last move, d = dx + dy + max(dx, dy) (Coulom 2007): level
             d - 1 for d = 2..9, 9 for d = 10..12, 10 for d = 13..16, none beyond
DIST2        the same for the second-last move
LINE         1..4: the move is on the first..fourth line
EYE          1: all four neighbours are ours or off the board (an eye-like point)
EMPTY_AREA   no stone within Manhattan distance 3: the line, 1..4 (4 for the 4th and up)
PASS         (the PASS move only) 1, or 2 after the opponent's pass
LIBS         capturing races, by the liberties of the groups next to the move: 1 it
             takes an opponent group from three liberties to two, 2 the same when a
             group of ours touching that group has two or three liberties; (the move
             captures nothing) 3 a group of ours with two liberties gets three or more,
             4 the same when the last move is next to that group (the highest level)
===========  ======================================================================

Large patterns (:func:`large_codes`, Coulom 2007's "shape" patterns, not a group: they have
their own table): the stones within Manhattan distance 3 of the move (24 points: empty, the
mover's, the opponent's, off the board; 2 bits each), canonical under the 8 symmetries (the
least code), and the same for distance 2 (12 points, tagged with ``LARGE_R2``). A move's γ is
multiplied by the γ of its distance-3 pattern if the table lists it, else by that of its
distance-2 pattern if listed. At play the table is a hash table of every symmetric image of
its patterns (:func:`large_images`, :func:`large_hash_table`), so a move's codes are read as
they lie (:func:`large_raw_codes`) and need no canonical form.

Ladders (:func:`ladder_captured`): the defender, in atari, first escapes if any attacker
group next to it is in atari (it captures); else it extends: three or more liberties escape,
one (or an illegal extension) is captured, two let the attacker try each liberty in
increasing order. Reading stops (as an escape) at ``LADDER_DEPTH`` extensions or after
``LADDER_NODES`` positions. Simple ko is ignored inside ladders.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go import board as K
from games.go.board import group_libs
from games.go.coords import BORDER, EMPTY, PASS
from knowledge.go.patterns import pattern20, square_symmetry
from knowledge.go.tactics import (
    G_ATARI,
    G_CAPTURE,
    G_DIST,
    G_DIST2,
    G_EMPTY_AREA,
    G_ESCAPE,
    G_EYE,
    G_LIBS,
    G_LINE,
    G_PASS,
    G_PATTERN,
    G_SELF_ATARI,
    LADDER_DEPTH,
    LADDER_NODES,
    LEVELS,
    NG,
    atari_level,
    capture_level,
    coulom_distance,
    distance_level,
    edge_line,
    empty_area,
    escape_level,
    k_self_atari,
    ladder_attack,
    ladder_captured,
    libs_after,
)

__all__ = [
    "G_ATARI", "G_CAPTURE", "G_DIST", "G_DIST2", "G_EMPTY_AREA", "G_ESCAPE", "G_EYE", "G_LIBS",
    "G_LINE", "G_PASS", "G_PATTERN", "G_SELF_ATARI", "GROUP_NAMES", "LADDER_DEPTH",
    "LADDER_NODES", "LEVELS", "NG", "atari_level", "capture_level", "coulom_distance",
    "distance_level", "escape_level", "group_libs", "k_gammas", "k_large_codes",
    "k_learned_priors", "k_move_features", "LARGE_OFFSETS", "LARGE_R2", "ladder_attack",
    "ladder_captured", "large_codes", "large_gamma", "large_hash_table", "large_images",
    "large_raw_codes", "large_with_parts", "libs_level", "memo_libs", "pattern20",
]
GROUP_NAMES = ("pattern", "capture", "escape", "atari", "self_atari", "dist", "dist2",
               "line", "eye", "empty_area", "pass", "libs")


def _large_offsets() -> tuple[tuple[int, int], ...]:
    """(dx, dy) of the points at Manhattan distance 1, 2, 3 from the move, ring by ring."""
    out: list[tuple[int, int]] = []
    for d in (1, 2, 3):
        out += sorted((dx, dy) for dx in range(-d, d + 1) for dy in range(-d, d + 1)
                      if abs(dx) + abs(dy) == d)
    return tuple(out)


LARGE_OFFSETS = _large_offsets()  # 24 points; the first 12 are within distance 2
LARGE_R2 = np.int64(1) << 50  # the tag of a distance-2 code
_R2_CELLS = np.int64((1 << 24) - 1)  # the bits of the 12 points within distance 2
_LARGE_XY = np.array(LARGE_OFFSETS, dtype=np.int64)
# _LARGE_PERM[t, j]: the index in LARGE_OFFSETS of symmetry t's image of offset j
_LARGE_PERM = np.array([[LARGE_OFFSETS.index(square_symmetry(t, dx, dy))
                         for dx, dy in LARGE_OFFSETS] for t in range(8)], dtype=np.int64)


@njit(cache=True)
def _large_image(code: np.int64, t: int) -> np.int64:
    """``code`` seen through symmetry t (a distance-2 code keeps its tag, and its cells
    12-23 stay 0: the symmetries map each ring onto itself)."""
    out = code & LARGE_R2
    for j in range(24):
        out |= ((code >> (2 * _LARGE_PERM[t, j])) & 3) << (2 * j)
    return out


@njit(cache=True)
def _large_images(codes: np.ndarray, out: np.ndarray) -> None:
    for t in range(8):
        for i in range(codes.shape[0]):
            out[t, i] = _large_image(codes[i], t)


def large_images(codes: np.ndarray) -> np.ndarray:
    """(8, len(codes)) int64: each code of :func:`large_codes` seen through the 8 symmetries
    (the codes of the same neighbourhood turned and mirrored; row 0 is the code itself).
    Distance-2 codes (tagged) keep their tag."""
    codes = np.asarray(codes, dtype=np.int64)
    out = np.zeros((8, len(codes)), dtype=np.int64)
    _large_images(codes, out)
    return out


def large_with_parts(codes: np.ndarray, gammas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``codes`` (canonical) and their γ with the distance-2 part of each distance-3 code
    added at γ 1 where ``codes`` lacks it (so :func:`large_gamma` may probe distance 2
    first); sorted. Fitted tables lack none: a pattern's part is played whenever it is."""
    codes = np.asarray(codes, dtype=np.int64)
    r3 = codes[(codes & LARGE_R2) == 0]
    parts = large_images((r3 & _R2_CELLS) | LARGE_R2).min(axis=0)
    extra = np.setdiff1d(parts, codes)
    out = np.concatenate([codes, extra])
    order = np.argsort(out)
    return out[order], np.concatenate([np.asarray(gammas, dtype=np.float64),
                                       np.ones(len(extra))])[order]


_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _large_slot(code: np.int64, mask: int) -> int:
    return int((np.uint64(code) * _HASH_MUL) >> np.uint64(40)) & mask


def large_hash_table(codes: np.ndarray, gammas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An open-addressing hash table (linear probing, at most half full) of the distinct
    ``codes`` (>= 0) and their γ: (keys, γ) of a power-of-two length, -1 for an empty slot.
    :func:`large_gamma` reads it."""
    size = 64
    while size < 2 * len(codes):
        size *= 2
    keys = np.full(size, -1, dtype=np.int64)
    vals = np.ones(size)
    _fill_hash(np.asarray(codes, dtype=np.int64), np.asarray(gammas, dtype=np.float64), keys,
               vals)
    return keys, vals


@njit(cache=True)
def _fill_hash(codes: np.ndarray, gammas: np.ndarray, keys: np.ndarray, vals: np.ndarray
               ) -> None:
    mask = keys.shape[0] - 1
    for i in range(codes.shape[0]):
        j = _large_slot(codes[i], mask)
        while keys[j] != -1 and keys[j] != codes[i]:
            j = (j + 1) & mask
        keys[j] = codes[i]
        vals[j] = gammas[i]


@njit(cache=True)
def _hash_get(keys: np.ndarray, vals: np.ndarray, code: np.int64) -> float:
    """γ of ``code`` in the table, or -1 if it is not there."""
    mask = keys.shape[0] - 1
    j = _large_slot(code, mask)
    while True:
        k = keys[j]
        if k == code:
            return float(vals[j])
        if k == -1:
            return -1.0
        j = (j + 1) & mask


@njit(cache=True)
def large_raw_codes(B: np.ndarray, p: int, c: int) -> tuple[np.int64, np.int64]:
    """The codes of :func:`large_codes` without the canonical form: the neighbourhood as it
    lies (symmetry 0)."""
    w = B[K.META, K.M_W]
    size = B[K.META, K.M_SIZE]
    r = p // w - 1
    cc = p % w - 1
    code = np.int64(0)
    for j in range(24):
        rr = r + _LARGE_XY[j, 1]
        c2 = cc + _LARGE_XY[j, 0]
        s = 3
        if 0 <= rr < size and 0 <= c2 < size:
            v = B[K.COL, (rr + 1) * w + c2 + 1]
            s = 0 if v == 0 else (1 if v == c else 2)
        code |= np.int64(s) << (2 * j)
    return code, (code & _R2_CELLS) | LARGE_R2


@njit(cache=True)
def large_codes(B: np.ndarray, p: int, c: int) -> tuple[np.int64, np.int64]:
    """(distance-3 code, tagged distance-2 code) of the point p for the mover c: 2 bits per
    point of :data:`LARGE_OFFSETS` (0 empty, 1 c's, 2 the opponent's, 3 off the board), the
    least over the 8 symmetries (the images of :func:`large_images`)."""
    raw, _ = large_raw_codes(B, p, c)
    best3 = np.int64(1) << 62
    best2 = np.int64(1) << 62
    for t in range(8):
        image = _large_image(raw, t)
        best3 = min(best3, image)
        best2 = min(best2, image & _R2_CELLS)
    return best3, best2 | LARGE_R2


@njit(cache=True)
def k_large_codes(B: np.ndarray, c: int, moves: np.ndarray, out: np.ndarray) -> None:
    """:func:`large_codes` of each move into ``out[i, 0:2]`` (-1, -1 for PASS)."""
    for i in range(moves.shape[0]):
        if moves[i] == PASS:
            out[i, 0] = -1
            out[i, 1] = -1
        else:
            out[i, 0], out[i, 1] = large_codes(B, moves[i], c)


@njit(cache=True)
def large_gamma(B: np.ndarray, p: int, c: int, lkeys: np.ndarray, lgam: np.ndarray
                ) -> float:
    """γ of p's large pattern: of its distance-3 code if the hash table (``lkeys``, ``lgam``:
    :func:`large_hash_table` of every symmetric image) lists it, else of its distance-2
    code, else 1 (and 1 for an empty table). The table lists the distance-2 part of every
    distance-3 pattern it lists (:func:`large_with_parts`), so a distance-2 code it lacks
    ends the search after one probe."""
    if lkeys.shape[0] == 0:
        return 1.0
    r3, r2 = large_raw_codes(B, p, c)
    g2 = _hash_get(lkeys, lgam, r2)
    if g2 < 0:
        return 1.0
    g3 = _hash_get(lkeys, lgam, r3)
    return g3 if g3 >= 0 else g2


@njit(cache=True)
def new_libs_memo(B: np.ndarray) -> np.ndarray:
    """A memo for :func:`memo_libs` and :func:`memo_libs_level` on the board B: nothing
    known yet."""
    return np.full((B.shape[1], 4), -1, dtype=np.int32)


@njit(cache=True)
def memo_libs(B: np.ndarray, g: int, memo: np.ndarray) -> tuple[int, int, int]:
    """(distinct liberties of the group at root g, capped at 4; the smallest and the other
    of them when there are at most two, else -1), read once per group into ``memo`` (rows
    by root, -1 while unknown: :func:`new_libs_memo`; valid while B is unchanged)."""
    if memo[g, 0] < 0:
        n = 0
        l1 = -1
        l2 = -1
        l3 = -1
        if B[K.PLIB, g] > 12:
            n = 4  # each liberty is counted at most 4 times: four or more
        else:
            w = B[K.META, K.M_W]
            s = g
            while n < 4:
                for q in (s + 1, s - 1, s + w, s - w):
                    if B[K.COL, q] == EMPTY and q != l1 and q != l2 and q != l3:
                        if n == 0:
                            l1 = q
                        elif n == 1:
                            l2 = q
                        elif n == 2:
                            l3 = q
                        n += 1
                        if n == 4:
                            break
                s = B[K.NXT, s]
                if s == g:
                    break
        memo[g, 0] = n
        memo[g, 1] = min(l1, l2) if n == 2 else l1 if n == 1 else -1
        memo[g, 2] = max(l1, l2) if n == 2 else -1
    return int(memo[g, 0]), int(memo[g, 1]), int(memo[g, 2])


@njit(cache=True)
def memo_atari_level(B: np.ndarray, p: int, c: int, ladders: bool, memo: np.ndarray) -> int:
    """:func:`atari_level` with the groups' liberties read through ``memo``
    (:func:`memo_libs`)."""
    best = 0
    for g in K.groups_next_to(B, p, 3 - c, False):
        if g < 0:
            break
        n, l1, l2 = memo_libs(B, g, memo)
        if n != 2 or (l1 != p and l2 != p):
            continue
        level = 1 if B[K.GSIZE, g] == 1 else 2
        if ladders:
            B2 = B.copy()
            K.k_play(B2, p, c)
            nodes = np.zeros(1, dtype=np.int64)
            if ladder_captured(B2, g, nodes):
                level += 2
        best = max(best, level)
    return best


@njit(cache=True)
def libs_level(B: np.ndarray, p: int, c: int, captures: bool) -> int:
    """The LIBS level of c playing at the empty point p (module docstring); ``captures``:
    the move captures something."""
    return memo_libs_level(B, p, c, captures, new_libs_memo(B))


@njit(cache=True)
def memo_libs_level(B: np.ndarray, p: int, c: int, captures: bool, memo: np.ndarray) -> int:
    """:func:`libs_level` with the groups' liberties read through ``memo``
    (:func:`new_libs_memo`, for this board and mover c)."""
    w = B[K.META, K.M_W]
    last = B[K.META, K.M_LAST]
    best = 0
    for g in K.groups_next_to(B, p, 3 - c, False):
        if g < 0:
            break
        if memo_libs(B, g, memo)[0] != 3:
            continue
        if memo[g, 3] < 0:  # 2 if a group of c touching g has two or three liberties
            level = 1
            s = g
            while level == 1:
                for q in (s + 1, s - 1, s + w, s - w):
                    if B[K.COL, q] == c and 2 <= memo_libs(B, B[K.GID, q], memo)[0] <= 3:
                        level = 2
                s = B[K.NXT, s]
                if s == g:
                    break
            memo[g, 3] = level
        best = max(best, int(memo[g, 3]))
    if captures:
        return best
    after = -1
    for g in K.groups_next_to(B, p, c, False):
        if g < 0:
            break
        if memo_libs(B, g, memo)[0] != 2:
            continue
        if after < 0:
            after = libs_after(B, p, c)
        if after >= 3:
            best = max(best, 4 if last > 0 and K.touches(B, g, last) else 3)
    return best


@njit(cache=True)
def k_move_features(B: np.ndarray, c: int, moves: np.ndarray, out: np.ndarray,
                    libs: bool = True) -> None:
    """Features of each move in ``moves`` (legal for c; PASS allowed) into ``out[i, :NG]``:
    column 0 the :func:`pattern20` code (-1 for PASS), the others the level of each group
    (module docstring); without ``libs`` the LIBS level is left 0 (not computed)."""
    w = B[K.META, K.M_W]
    last = B[K.META, K.M_LAST]
    last2 = B[K.META, K.M_LAST2]
    memo = new_libs_memo(B)
    for i in range(moves.shape[0]):
        p = moves[i]
        for j in range(NG):
            out[i, j] = 0
        if p == PASS:
            out[i, G_PATTERN] = -1
            out[i, G_PASS] = 2 if B[K.META, K.M_PASSES] > 0 else 1
            continue
        out[i, G_PATTERN] = pattern20(B, p, c)
        out[i, G_DIST] = distance_level(coulom_distance(B, p, last))
        out[i, G_DIST2] = distance_level(coulom_distance(B, p, last2))
        line = edge_line(B, p)
        out[i, G_LINE] = line if line <= 4 else 0
        out[i, G_EMPTY_AREA] = min(line, 4) if empty_area(B, p) else 0
        stones = 0
        for n in (p + 1, p - 1, p + w, p - w):
            if B[K.COL, n] != EMPTY and B[K.COL, n] != BORDER:
                stones += 1
        if stones == 0:
            continue  # no group next to p: no capture, escape, atari, self-atari, eye, LIBS
        cap = capture_level(B, p, c)
        out[i, G_CAPTURE] = cap
        if cap == 0:
            out[i, G_ESCAPE] = escape_level(B, p, c, True)
        out[i, G_ATARI] = memo_atari_level(B, p, c, True, memo)
        out[i, G_SELF_ATARI] = min(k_self_atari(B, p, c), 3)
        eye = 1
        for n in (p + 1, p - 1, p + w, p - w):
            if B[K.COL, n] != c and B[K.COL, n] != BORDER:
                eye = 0
        out[i, G_EYE] = eye
        if libs:
            out[i, G_LIBS] = memo_libs_level(B, p, c, cap > 0, memo)


@njit(cache=True)
def k_gammas(B: np.ndarray, c: int, moves: np.ndarray, ptab: np.ndarray, levels: np.ndarray,
             lkeys: np.ndarray, lgam: np.ndarray, F: np.ndarray, gam: np.ndarray) -> None:
    """γ of each move in ``moves`` (legal for c): the product of the γ of its features,
    ``ptab`` indexed by the raw :func:`pattern20` code, ``levels[group, level]`` and the
    large pattern's (:func:`large_gamma`: ``lkeys``, ``lgam`` are a weights file's
    ``large_table``; empty: none). ``F`` (at least len(moves) rows) receives the features;
    the LIBS level is not computed when all its γ are 1 (weights from before it)."""
    n = moves.shape[0]
    libs = False
    for j in range(levels.shape[1]):
        if levels[G_LIBS, j] != 1.0:
            libs = True
    k_move_features(B, c, moves, F[:n], libs)
    for i in range(n):
        code = F[i, G_PATTERN]
        g = np.float64(ptab[code]) if code >= 0 else 1.0
        for j in range(1, NG):
            g *= levels[j, F[i, j]]
        if code >= 0:
            g *= large_gamma(B, moves[i], c, lkeys, lgam)
        gam[i] = g


@njit(cache=True)
def k_learned_priors(B: np.ndarray, c: int, moves: np.ndarray, ptab: np.ndarray,
                     levels: np.ndarray, lkeys: np.ndarray, lgam: np.ndarray,
                     prm: np.ndarray, F: np.ndarray, wins: np.ndarray,
                     visits: np.ndarray) -> None:
    """Priors of the points in ``moves`` from their γ (:func:`k_gammas`) as equivalent
    experience: with r = (γ / max γ)^τ, each move gets ``n`` pseudo-visits at value
    v0 + (v1 - v0) r; ``prm`` = (n, v0, v1, τ)."""
    n = moves.shape[0]
    if n == 0:
        return
    k_gammas(B, c, moves, ptab, levels, lkeys, lgam, F, wins)
    top = 0.0
    for i in range(n):
        top = max(top, wins[i])
    count, v0, v1, tau = prm[0], prm[1], prm[2], prm[3]
    for i in range(n):
        r = (wins[i] / top) ** tau if top > 0 else 1.0
        wins[i] = count * (v0 + (v1 - v0) * r)
        visits[i] = count
