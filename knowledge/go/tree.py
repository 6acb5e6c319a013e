"""The Go kernels of the compiled UCT (``search.ctree``; the interface is in its docstring).

The kernel state is ``(B, H)``: the board array of :mod:`games.go.board` and an int64 array
``H`` = (stone hash, n, the stone hashes after the n non-pass moves played since the root).
The context ``ctx`` holds the Zobrist keys, the game's earlier positions (sorted hashes, for
positional superko), the pattern table, the prior weights, the playout settings and scratch
arrays. The kernels do what :class:`knowledge.go.position.GoPosition` does for the Python
UCT, draw for draw: legal moves are the superko-legal points that do not fill the mover's own
true eyes, then PASS (a move may not repeat a position of the game or of the path from the
root); priors are ``GoPosition.priors`` (the style's among them); a playout is
``GoPosition.playout`` with its seed taken from the search's stream as
``1 + x mod (2^62 - 1)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from games.go import board as K
from games.go.coords import PASS, WHITE
from games.go.hashing import hash_seen, k_hash_after
from games.go.scoring import k_area
from games.splitmix import rng_next
from knowledge.go.features import k_learned_priors
from knowledge.go.playout import black_value, k_playout_record
from knowledge.go.priors import k_features, k_prior_sums, k_read_priors, prior_reads_ladders
from knowledge.go.shapes import k_afterstate_values
from knowledge.go.style import add_style_priors

MAX_PATH = 1024  # path positions remembered for superko (deeper ones are not checked)
_SEED_MOD = np.uint64(2**62 - 1)
# ctx: (Z, seen, pat, Wt, ip, fp, moves32, colours32, owner, buf, F, pts, wins, visits,
#       ptab, plv, prior_ptab, prior_levels, lp, FM, two, three, td_theta, lgr, large_keys,
#       large_gammas, style)
# ip: policy, sa_min, playout move cap, last-good-reply level (0: off); lgr: the reply
# tables of knowledge.go.lgrf, shared by the search's playouts (one entry when off)
# fp: komi, even wins, even visits, pass wins, visits, score weight, score scale
# ptab, plv: playout policy 3's weights (placeholders for the other policies); prior_ptab,
# prior_levels, lp (learned priors: use the move ratings (0/1), their params (n, v0, v1, tau),
# TD(0) visits), FM: their feature scratch; two, three, td_theta: the TD(0) shape value;
# large_keys, large_gammas: the learned priors' large patterns, the hash table of
# knowledge.go.weights.FeatureGammas.large_table (empty: none); style: the playing style's
# (id, pseudo-visits) of knowledge.go.style.style_params (id -1: none)


@njit(cache=True)
def t_copy(ctx: Any, src: Any, dst: Any) -> None:
    dst[0][:, :] = src[0]
    dst[1][0] = src[1][0]
    dst[1][1] = 0


@njit(cache=True)
def t_to_move(ctx: Any, st: Any) -> int:
    B = st[0]
    if B[K.META, K.M_PASSES] >= 2:
        return -1
    return int(B[K.META, K.M_TOPLAY]) - 1


@njit(cache=True)
def t_key(ctx: Any, st: Any) -> int:
    h = st[1][0]
    if st[0][K.META, K.M_TOPLAY] == WHITE:
        h ^= ctx[0][0, 0]
    return int(h)


@njit(cache=True)
def _in_path(H: np.ndarray, h: np.int64) -> bool:
    for i in range(min(H[1], MAX_PATH)):
        if H[2 + i] == h:
            return True
    return False


@njit(cache=True)
def t_legal(ctx: Any, st: Any, moves: np.ndarray, values: np.ndarray, counts: np.ndarray,
            priors: bool) -> int:
    Z, seen, pat, Wt, fp = ctx[0], ctx[1], ctx[2], ctx[3], ctx[5]
    F, pts, wins, visits = ctx[10], ctx[11], ctx[12], ctx[13]
    B, H = st
    c = B[K.META, K.M_TOPLAY]
    n = 0
    for p in range(B.shape[1]):
        if B[K.COL, p] != 0 or not K.k_legal_noko(B, p, c) or K.k_is_eye(B, p, c):
            continue
        h = k_hash_after(B, Z, H[0], p, c)
        if hash_seen(seen, h) or _in_path(H, h):
            continue
        moves[n] = p
        pts[n] = p
        n += 1
    moves[n] = PASS
    if priors:
        if n > 0:
            lp = ctx[18]
            if lp[0] > 0:
                k_learned_priors(B, c, pts[:n], ctx[16], ctx[17], ctx[24], ctx[25], lp[1:5],
                                 ctx[19], wins, visits)
            else:
                k_features(B, c, pts[:n], pat, F, prior_reads_ladders(Wt))
                k_prior_sums(F[:n], Wt, wins, visits)
            if lp[5] > 0:
                q = ctx[12][n:2 * n]  # scratch beyond the n moves' wins
                k_afterstate_values(B, c, pts[:n], ctx[20], ctx[21], ctx[22], q)
                for i in range(n):
                    wins[i] += lp[5] / (1.0 + np.exp(-q[i]))
                    visits[i] += lp[5]
            if lp[6] > 0:
                k_read_priors(B, c, pts[:n], lp[6], wins, visits)
            add_style_priors(B, c, pts[:n], ctx[26], wins, visits)
            for i in range(n):
                values[i] = wins[i] / visits[i]
                counts[i] = visits[i]
        w = fp[1] + (fp[3] if n > 0 else 0.0)
        v = fp[2] + (fp[4] if n > 0 else 0.0)
        values[n] = w / v
        counts[n] = v
    return n + 1


@njit(cache=True)
def t_play(ctx: Any, st: Any, move: int) -> None:
    B, H = st
    c = B[K.META, K.M_TOPLAY]
    if move != PASS:
        h = k_hash_after(B, ctx[0], H[0], move, c)
        H[0] = h
        if H[1] < MAX_PATH:
            H[2 + H[1]] = h
        H[1] += 1
    K.k_play(B, move, c)


@njit(cache=True)
def t_playout(ctx: Any, st: Any, rng: np.ndarray, moves: np.ndarray, players: np.ndarray,
              returns: np.ndarray) -> int:
    pat, ip, fp = ctx[2], ctx[4], ctx[5]
    moves32, colours32, owner, buf = ctx[6], ctx[7], ctx[8], ctx[9]
    B = st[0]
    n = 0
    if B[K.META, K.M_PASSES] >= 2:
        score = k_area(B, owner) - fp[0]
    else:
        seed = np.uint64(1) + rng_next(rng) % _SEED_MOD
        sc, n, _ = k_playout_record(B, seed, ip[0], pat, ctx[14], ctx[15], ip[1], ip[2],
                                    moves32, colours32, owner, buf, ctx[23], ip[3], fp[0])
        score = sc - fp[0]
        for i in range(n):
            moves[i] = moves32[i]
            players[i] = colours32[i] - 1
    v = black_value(score, fp[5], fp[6], fp[7])
    returns[0], returns[1] = v, 1.0 - v
    return n


KERNELS = (t_copy, t_to_move, t_key, t_legal, t_play, t_playout)
