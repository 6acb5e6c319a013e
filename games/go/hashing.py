"""Zobrist hashing of the board (numba) and the legality of moves under positional superko."""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go.board import COL, NXT, groups_next_to, k_is_eye, k_legal_noko
from games.go.coords import BLACK, EMPTY, WHITE


@njit(cache=True)
def k_hash(B: np.ndarray, Z: np.ndarray) -> np.int64:
    """Zobrist hash of the stones (not the side to move)."""
    col = B[COL]
    h = np.int64(0)
    for p in range(col.shape[0]):
        cp = col[p]
        if cp == BLACK or cp == WHITE:
            h ^= Z[cp, p]
    return h


@njit(cache=True)
def k_hash_after(B: np.ndarray, Z: np.ndarray, h: np.int64, p: int, c: int) -> np.int64:
    """The stone hash after c plays the legal point p (captures included), from hash h."""
    h ^= Z[c, p]
    o = 3 - c
    for g in groups_next_to(B, p, o, True):
        if g < 0:
            break
        s = g
        while True:
            h ^= Z[o, s]
            s = B[NXT, s]
            if s == g:
                break
    return h


@njit(cache=True)
def hash_seen(sorted_hashes: np.ndarray, h: np.int64) -> bool:
    i = np.searchsorted(sorted_hashes, h)
    return bool(i < sorted_hashes.shape[0] and sorted_hashes[i] == h)


@njit(cache=True)
def k_legal_superko(B: np.ndarray, c: int, Z: np.ndarray, h: np.int64,
                    seen_sorted: np.ndarray, skip_eyes: bool, out: np.ndarray) -> int:
    """Like :func:`k_legal_mask` with positional superko instead of simple ko: a point is
    left out if the stone hash after the move is in ``seen_sorted`` (sorted int64)."""
    col = B[COL]
    k = 0
    for p in range(col.shape[0]):
        if col[p] != EMPTY or not k_legal_noko(B, p, c):
            continue
        if skip_eyes and k_is_eye(B, p, c):
            continue
        if hash_seen(seen_sorted, k_hash_after(B, Z, h, p, c)):
            continue
        out[k] = p
        k += 1
    return k
