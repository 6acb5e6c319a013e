"""The learned policy (numba): a softmax over the move features of
:mod:`knowledge.daihinmin.features`, π(a) ∝ exp(φ(s, a)ᵀθ_p), with one weight row θ_p per
player (``W`` is a 5 × N_FEATURES array: the same row five times, or rows adapted to each
opponent; the kernels take it without the context columns when their weights are all 0,
:func:`compact_weights`). It moves the players of the playouts (``POLICY_LEARNED``), orders
the moves of the search and is the opponent model of the inference. Its weights ship in
``data/policy-NAME.json`` (``v1-selfplay``, the default player's; ``strong`` and
``strong-context``, fitted to strong play); a file made before a block of the features
(``DENSE`` alone, before the shape table, or with the table, before the context) loads with
that block's weights 0.

:func:`py_policy_probs` is the plain-Python reference of the probabilities.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

from games.daihinmin.cards import PASS
from games.daihinmin.kernels import (
    MAX_MOVES,
    gen_moves_cached,
    gen_moves_list,
    hot,
    popcount,
    rng_uniform,
)
from games.daihinmin.rules import H0, LOCK, NP, REV, TABLE, TURN
from games.daihinmin.state import GameState
from knowledge.bundled import bundled_names, bundled_path
from knowledge.daihinmin.features import (
    CONTEXT0,
    CTX_SIZE,
    DENSE,
    FEATURES,
    N_DENSE,
    N_FEATURES,
    SHAPE_TABLE,
    cell_twelfths,
    features_into,
    py_features,
    step_context,
)

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_NAME = "v1-selfplay"  # the default player's weights (preset v2)
DEFAULT_POLICY = DATA_DIR / f"policy-{DEFAULT_NAME}.json"


def bundled_policies() -> list[str]:
    """The names of the bundled weights files: ``NAME`` for ``data/policy-NAME.json``."""
    return bundled_names(DATA_DIR, "policy", "json")


def policy_path(path: str | Path | None = None) -> Path:
    """The file that ``path`` names: "" or None the default (``DEFAULT_POLICY``), a name of
    :func:`bundled_policies` (a value without a path separator or ``.json``) that bundled
    file, anything else a path. ValueError for a name that is not bundled."""
    return bundled_path(path, DATA_DIR, "policy", "json") if path else DEFAULT_POLICY


def load_policy(path: str | Path | None = None) -> np.ndarray:
    """θ of a weights file written by ``corvid learn daihinmin`` (:func:`policy_path`: by
    default the bundled ``DEFAULT_POLICY``; a file made before a block of the features, of
    the dense ones only or without the context, gets zeros for the blocks it lacks). Raises
    ValueError if it cannot be read or was made for other features."""
    p = policy_path(path)
    try:
        data = json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"cannot read policy weights {p}: {e}") from e
    names = data.get("features")
    if names not in (list(FEATURES), list(DENSE + SHAPE_TABLE), list(DENSE)):
        raise ValueError(f"{p} holds weights of other move features")
    theta = np.zeros(N_FEATURES)
    theta[:len(names)] = np.asarray(data["theta"], dtype=np.float64)
    return theta


def policy_names(value: str) -> list[str]:
    """The weights a setting names: one (a name or a path; "" the default) or several joined
    by ``+`` (``strong+v1-selfplay``), the default written out by its name. ValueError for an
    empty name in a list."""
    names = [name.strip() for name in value.split("+")]
    if len(names) > 1 and not all(names):
        raise ValueError(f"{value!r}: an empty name in the list")
    return [name or DEFAULT_NAME for name in names]


def load_policies(value: str) -> np.ndarray:
    """θ of each weights file of :func:`policy_names`, one per row."""
    return np.vstack([load_policy(name) for name in policy_names(value)])


def view(st: GameState, p: int) -> tuple[int, int, int, int, int, int]:
    """What the features see of player ``p`` in a full state: (hand, others, table,
    revolution, lock, opp_min)."""
    others = 0
    opp = 0
    for q in range(NP):
        h = st.hand(q)
        if q != p and h:
            others |= h
            c = bin(h).count("1")
            opp = c if opp == 0 else min(opp, c)
    return st.hand(p), others, st.table, int(st.revolution), int(st.lock), opp


def decision_rows(st: GameState, p: int, move: int) -> tuple[np.ndarray, int] | None:
    """The feature rows of p's candidates in ``st`` and the index of ``move`` among them,
    or None if there was no choice (one candidate), ``move`` is a pass on an empty table
    (the policy never plays it) or not a candidate."""
    v = view(st, p)
    if move == PASS and v[2] == PASS:
        return None
    cands = gen_moves_list(v[0], v[2], v[3], v[4])
    if len(cands) < 2 or move not in cands:
        return None
    return features_matrix(*v, np.array(cands, dtype=np.int64)), cands.index(move)


# ----------------------------------------------------------------------------- reference

def py_policy_probs(hand: int, others: int, table: int, rev: int, lock: int, opp_min: int,
                    moves: list[int], theta: np.ndarray) -> np.ndarray:
    """π over ``moves`` (the legal moves, PASS included when following)."""
    z = np.array([float(np.dot(theta, py_features(hand, others, table, rev, lock, opp_min, m)))
                  for m in moves])
    z -= z.max()
    p = np.exp(z)
    return p / p.sum()  # type: ignore[no-any-return]


# ----------------------------------------------------------------------------- kernels

@hot()
def view_of(st: np.ndarray, p: int) -> tuple[int, int]:
    """(others, opp_min) of player ``p`` in a full state: the union of the other hands and
    the fewest cards any other player holds (0 if nobody else holds any)."""
    others = 0
    opp_min = 0
    for q in range(NP):
        h = st[H0 + q]
        if q != p and h != 0:
            others |= h
            c = popcount(h)
            if opp_min == 0 or c < opp_min:
                opp_min = c
    return others, opp_min


@hot()
def policy_logits(hand: int, others: int, table: int, rev: int, lock: int, opp_min: int,
                  moves: np.ndarray, k: int, theta: np.ndarray, z: np.ndarray,
                  ctx: np.ndarray, feat: np.ndarray) -> float:
    """z[i] = φ(moves[i])ᵀθ for i < k; returns max z. ``feat``: room for the dense
    features (the shape table's and the context's cells add their weights; a θ without the
    context columns, :func:`compact_weights`, skips the context)."""
    zmax = -1e300
    step_context(hand, others, table, rev, ctx)
    context = theta.shape[0] > CONTEXT0  # a θ cut by compact_weights has none
    for i in range(k):
        col, cc = features_into(hand, others, table, rev, lock, opp_min, moves[i], ctx, feat)
        v = 0.0
        if col >= 0:
            v = theta[col]
            if context:
                v += theta[cc] + theta[cc + 1] * cell_twelfths(col) / 12.0
        for j in range(N_DENSE):
            v += feat[j] * theta[j]
        z[i] = v
        if v > zmax:
            zmax = v
    return zmax


@hot()
def candidates(st: np.ndarray, cand: np.ndarray, tinfo: np.ndarray) -> tuple[int, int]:
    """The moves of the player to move into ``cand``: its legal plays, then the pass when
    following; (the number of plays, the number of moves)."""
    table = st[TABLE]
    n = gen_moves_cached(st[H0 + st[TURN]], table, st[REV], st[LOCK], cand, tinfo)
    if table == 0:
        return n, n
    cand[n] = 0  # the pass is a candidate when following
    return n, n + 1


@hot()
def softmax_into(st: np.ndarray, theta: np.ndarray, cand: np.ndarray, k: int, z: np.ndarray,
                 ctx: np.ndarray, feat: np.ndarray) -> float:
    """z[i] = exp(φ(cand[i])ᵀθ − max) for the player to move's ``cand[:k]``; returns their
    sum (π(a) ∝ exp(φᵀθ), unnormalised)."""
    p = st[TURN]
    others, opp_min = view_of(st, p)
    zmax = policy_logits(st[H0 + p], others, st[TABLE], st[REV], st[LOCK], opp_min, cand, k,
                         theta, z, ctx, feat)
    total = 0.0
    for i in range(k):
        z[i] = np.exp(z[i] - zmax)
        total += z[i]
    return total


@hot()
def learned_pick(st: np.ndarray, W: np.ndarray, rs: np.ndarray, cand: np.ndarray,
                 z: np.ndarray, ctx: np.ndarray, feat: np.ndarray, tinfo: np.ndarray) -> int:
    """A move of the player to move, drawn from π(a) ∝ exp(φᵀW[p])."""
    n, k = candidates(st, cand, tinfo)
    if n == 0:
        return 0  # nothing to play: the pass
    u = rng_uniform(rs) * softmax_into(st, W[st[TURN]], cand, k, z, ctx, feat)
    for i in range(k):
        u -= z[i]
        if u <= 0.0:
            return cand[i]  # type: ignore[no-any-return]
    return cand[k - 1]  # type: ignore[no-any-return]


@njit(cache=True)
def scratch(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                np.ndarray]:
    """The buffers of a playout loop or a likelihood: (random state seeded with ``seed``,
    candidates, logits, feature context, dense feature vector, table cache)."""
    rs = np.empty(1, np.uint64)
    rs[0] = np.uint64(seed)
    return (rs, np.empty(MAX_MOVES + 1, np.int64), np.empty(MAX_MOVES + 1, np.float64),
            np.empty(CTX_SIZE, np.int64), np.empty(N_DENSE, np.float64),
            np.empty(5, np.int64))


def compact_weights(W: np.ndarray) -> np.ndarray:
    """The weights as the kernels take them: without the context columns when their weights
    are all 0 (a file made before them), so that the policy does not compute the context for
    nothing (a few per cent of a decision's time); else ``W`` itself."""
    if W.shape[-1] > CONTEXT0 and not W[..., CONTEXT0:].any():
        return np.ascontiguousarray(W[..., :CONTEXT0])
    return W


def no_weights() -> np.ndarray:
    """The weights the kernels take with a policy that needs none (5 x N_FEATURES zeros)."""
    return np.zeros((NP, N_FEATURES), np.float64)


@njit(cache=True)
def policy_probs(hand: int, others: int, table: int, rev: int, lock: int, opp_min: int,
                 moves: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """π over ``moves`` (kernel twin of :func:`py_policy_probs`)."""
    k = moves.shape[0]
    z = np.empty(k, np.float64)
    ctx = np.empty(CTX_SIZE, np.int64)
    feat = np.empty(N_DENSE, np.float64)
    zmax = policy_logits(hand, others, table, rev, lock, opp_min, moves, k, theta, z, ctx,
                         feat)
    z = np.exp(z - zmax)
    return z / z.sum()  # type: ignore[no-any-return]


@njit(cache=True)
def features_matrix(hand: int, others: int, table: int, rev: int, lock: int, opp_min: int,
                    moves: np.ndarray) -> np.ndarray:
    """φ of every move in ``moves`` (rows), for learning."""
    out = np.empty((moves.shape[0], N_FEATURES), np.float64)
    ctx = np.empty(CTX_SIZE, np.int64)
    step_context(hand, others, table, rev, ctx)
    for i in range(moves.shape[0]):
        col, cc = features_into(hand, others, table, rev, lock, opp_min, moves[i], ctx, out[i])
        if col >= 0:
            out[i, col] = 1.0
            out[i, cc] = 1.0
            out[i, cc + 1] = cell_twelfths(col) / 12.0
    return out
