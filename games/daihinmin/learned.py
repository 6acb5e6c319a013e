"""The learned playout policy and the playouts that use it (numba).

``POLICY_LEARNED``: every player moves by a softmax over the move features of
:mod:`games.daihinmin.features`, π(a) ∝ exp(φ(s, a)ᵀθ_p), with one weight row θ_p per player
(``W`` is a 5 × N_FEATURES array: the same row five times, or rows adapted to each opponent).
The uniform and heuristic policies of :mod:`games.daihinmin.kernels` are served here as
well, so one playout loop takes any policy; the wave-1 kernels stay as they were (the
``preset=v1`` player uses them).

:func:`py_policy_probs` is the plain-Python reference of the probabilities.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from games.contract import Playout
from games.daihinmin import rules as R
from games.daihinmin.cards import PASS, card_index
from games.daihinmin.endgame import SURE_BUDGET, sure_buffers, sure_first_kernel
from games.daihinmin.features import (
    CTX_SIZE,
    FEATURES,
    N_FEATURES,
    features_into,
    py_features,
    step_context,
)
from games.daihinmin.kernels import (
    _FINISH,
    _H0,
    _LOCK,
    _NOUT,
    _NP,
    _OUTMASK,
    _REV,
    _TABLE,
    _TURN,
    MAX_EVALS,
    MAX_MOVES,
    MAX_PLIES,
    POLICY_HEURISTIC,
    POLICY_UNIFORM,
    apply_move,
    choose_move,
    gen_moves_cached,
    gen_moves_list,
    hot,
    popcount,
    rng_next,
)

if TYPE_CHECKING:
    from games.daihinmin.state import GameState

POLICY_LEARNED = 2
REWARD_PLAYERS = 0  # r_t: the players still in finish in random order
REWARD_CARDS = 1  # r_t: the players still in finish in the order of their card counts
REWARDS = {"players": REWARD_PLAYERS, "cards": REWARD_CARDS}
DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_POLICY = DATA_DIR / "policy.json"
_DIAMOND3 = 1 << card_index(2, 0)


def load_policy(path: str | Path | None = None) -> np.ndarray:
    """θ of a weights file written by ``corvid learn daihinmin`` (default: the bundled
    ``data/policy.json``). Raises ValueError if it was made for other features."""
    p = Path(path) if path else DEFAULT_POLICY
    try:
        data = json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"cannot read policy weights {p}: {e}") from e
    if data.get("features") != list(FEATURES):
        raise ValueError(f"{p} holds weights of other move features")
    return np.asarray(data["theta"], dtype=np.float64)


def view(st: GameState, p: int) -> tuple[int, int, int, int, int, int]:
    """What the features see of player ``p`` in a full state: (hand, others, table,
    revolution, lock, opp_min)."""
    others = 0
    opp = 0
    for q in range(_NP):
        h = st.hand(q)
        if q != p and h:
            others |= h
            c = bin(h).count("1")
            opp = c if opp == 0 else min(opp, c)
    return st.hand(p), others, st.table, st.st[R.REV], st.st[R.LOCK], opp


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

@hot(inline=True)
def rng_uniform(rs: np.ndarray) -> float:
    return float(rng_next(rs) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@hot()
def view_of(st: np.ndarray, p: int) -> tuple[int, int]:
    """(others, opp_min) of player ``p`` in a full state: the union of the other hands and
    the fewest cards any other player holds (0 if nobody else holds any)."""
    others = 0
    opp_min = 0
    for q in range(_NP):
        h = st[_H0 + q]
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
    """z[i] = φ(moves[i])ᵀθ for i < k; returns max z."""
    zmax = -1e300
    step_context(hand, others, table, rev, ctx)
    for i in range(k):
        features_into(hand, others, table, rev, lock, opp_min, moves[i], ctx, feat)
        v = 0.0
        for j in range(feat.shape[0]):
            v += feat[j] * theta[j]
        z[i] = v
        if v > zmax:
            zmax = v
    return zmax


@hot()
def learned_pick(st: np.ndarray, W: np.ndarray, rs: np.ndarray, cand: np.ndarray,
                 z: np.ndarray, ctx: np.ndarray, feat: np.ndarray, tinfo: np.ndarray) -> int:
    """A move of the player to move, drawn from π(a) ∝ exp(φᵀW[p])."""
    p = st[_TURN]
    table = st[_TABLE]
    hand = st[_H0 + p]
    n = gen_moves_cached(hand, table, st[_REV], st[_LOCK], cand, tinfo)
    if n == 0:
        return 0
    k = n
    if table != 0:
        cand[n] = 0  # the pass is a candidate when following
        k = n + 1
    others, opp_min = view_of(st, p)
    zmax = policy_logits(hand, others, table, st[_REV], st[_LOCK], opp_min, cand, k, W[p],
                         z, ctx, feat)
    total = 0.0
    for i in range(k):
        z[i] = np.exp(z[i] - zmax)
        total += z[i]
    u = rng_uniform(rs) * total
    for i in range(k):
        u -= z[i]
        if u <= 0.0:
            return cand[i]  # type: ignore[no-any-return]
    return cand[k - 1]  # type: ignore[no-any-return]


@hot()
def intermediate(st: np.ndarray, seat: int, reward: int) -> float:
    """r_t at a turn of ``seat`` on the scale of the returns, (points - 1) / 4:
    REWARD_PLAYERS: the points expected if the k players still in finished in random order,
    ((k + 1) / 2 - 1) / 4 (algorithms.md §2); REWARD_CARDS: the points if they finished in
    the order of the cards they hold, fewest first (ties share the places)."""
    k = _NP - st[_NOUT]
    if reward == REWARD_CARDS:
        mine = popcount(st[_H0 + seat])
        fewer = 0
        ties = 0
        for q in range(_NP):
            h = st[_H0 + q]
            if q != seat and h != 0:
                c = popcount(h)
                if c < mine:
                    fewer += 1
                elif c == mine:
                    ties += 1
        place: float = st[_NOUT] + 1 + fewer + 0.5 * ties  # 1 = first
        return (5.0 - place) * 0.25
    return ((k + 1) * 0.5 - 1.0) * 0.25  # type: ignore[no-any-return]


@hot()
def playout_w(st: np.ndarray, seat: int, policy: int, reward: int, W: np.ndarray,
              rs: np.ndarray,
              cand: np.ndarray, z: np.ndarray, ctx: np.ndarray, feat: np.ndarray,
              tinfo: np.ndarray, stop_when_out: bool,
              evals: np.ndarray, moves_out: np.ndarray, players_out: np.ndarray,
              own_sure: bool, sure: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
              rule_w: np.ndarray) -> tuple[int, int]:
    """Play ``st`` on in place by ``policy`` (uniform, heuristic or learned with ``W``), as
    :func:`games.daihinmin.kernels.playout` does (the same evals r_t for ``seat``). With
    ``own_sure``, ``seat`` plays a sure finish whenever it has one
    (:func:`games.daihinmin.endgame.sure_first_kernel`, buffers ``sure``), as the client
    does. ``rule_w[p]`` (if given): the chance that another player p plays the rule
    player's move (the heuristic policy's: policies.heuristic_move) instead of the policy's."""
    ne = 0
    ply = 0
    tinfo[0] = -1
    while st[_TURN] >= 0:
        if stop_when_out and (st[_OUTMASK] >> seat) & 1:
            break
        p = st[_TURN]
        if p == seat and ne < evals.shape[0]:
            evals[ne] = intermediate(st, seat, reward)
            ne += 1
        m = -1
        if own_sure and p == seat:
            others, _ = view_of(st, p)
            m = sure_first_kernel(st[_H0 + p], others, st[_TABLE], st[_REV], st[_LOCK],
                                  sure[0], sure[1], sure[2], sure[3], SURE_BUDGET)
        if m < 0 and p != seat and rule_w.shape[0] > 0 and rule_w[p] > 0.0 \
                and rng_uniform(rs) < rule_w[p]:
            m = choose_move(st, POLICY_HEURISTIC, rs, cand, False, tinfo)  # the rule player
        if m < 0:
            if policy == POLICY_LEARNED:
                m = learned_pick(st, W, rs, cand, z, ctx, feat, tinfo)
            else:
                m = choose_move(st, policy, rs, cand, False, tinfo)
        if ply < moves_out.shape[0]:
            moves_out[ply] = m
            players_out[ply] = p
        ply += 1
        apply_move(st, m, rs)
    return ne, ply


@njit(cache=True)
def scratch(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                np.ndarray]:
    """The buffers of a playout loop or a likelihood: (random state seeded with ``seed``,
    candidates, logits, feature context, feature vector, table cache)."""
    rs = np.empty(1, np.uint64)
    rs[0] = np.uint64(seed)
    return (rs, np.empty(MAX_MOVES + 1, np.int64), np.empty(MAX_MOVES + 1, np.float64),
            np.empty(CTX_SIZE, np.int64), np.empty(N_FEATURES, np.float64),
            np.empty(5, np.int64))


@hot()
def final_return(st: np.ndarray, seat: int) -> float:
    for i in range(_NP):
        if st[_FINISH + i] == seat:
            return (4 - i) * 0.25
    return 0.0


@njit(cache=True)
def playout_worlds_kernel(st0: np.ndarray, moves: np.ndarray, worlds: np.ndarray, seat: int,
                          policy: int, reward: int, W: np.ndarray, seed: int,
                          returns: np.ndarray,
                          evals: np.ndarray, n_evals: np.ndarray, own_sure: bool,
                          rule_w: np.ndarray) -> int:
    """For each moves[i]: the hands of ``worlds[i]`` (5 hands) in the position ``st0``, play
    moves[i] for ``seat``, play out until ``seat`` is out (``own_sure``: taking its sure
    finishes); returns[i] = (points - 1) / 4, evals[i, :n_evals[i]] = r_t. Returns
    max(n_evals)."""
    rs, cand, z, ctx, feat, tinfo = scratch(seed)
    sure = sure_buffers(own_sure)
    st = np.empty_like(st0)
    none = np.empty(0, np.int64)
    tmax = 0
    for i in range(moves.shape[0]):
        st[:] = st0
        for p in range(_NP):
            st[_H0 + p] = worlds[i, p]
        apply_move(st, moves[i], rs)
        ne, _ = playout_w(st, seat, policy, reward, W, rs, cand, z, ctx, feat, tinfo, True,
                          evals[i], none, none, own_sure, sure, rule_w)
        n_evals[i] = ne
        if ne > tmax:
            tmax = ne
        r = final_return(st, seat)
        returns[i] = r
    return tmax


@njit(cache=True)
def playout_deals_kernel(st0: np.ndarray, worlds: np.ndarray, seat: int, policy: int,
                         reward: int, W: np.ndarray, seed: int, own_sure: bool,
                         returns: np.ndarray) -> None:
    """For each ``worlds[i]`` (5 hands): the fresh game ``st0`` (rules.new_state) with those
    hands, led by the holder of the diamond 3 (rules.first_leader), played out by ``policy``
    until ``seat`` is out; returns[i] = (points - 1) / 4. The exchange search's playouts."""
    rs, cand, z, ctx, feat, tinfo = scratch(seed)
    sure = sure_buffers(own_sure)
    st = np.empty_like(st0)
    none = np.empty(0, np.int64)
    ev = np.empty(MAX_EVALS, np.float64)
    for i in range(worlds.shape[0]):
        st[:] = st0
        for p in range(_NP):
            st[_H0 + p] = worlds[i, p]
            if worlds[i, p] & _DIAMOND3:
                st[_TURN] = p
        playout_w(st, seat, policy, reward, W, rs, cand, z, ctx, feat, tinfo, True, ev, none,
                  none, own_sure, sure, np.empty(0))
        returns[i] = final_return(st, seat)


@njit(cache=True)
def _state_playout_kernel(st: np.ndarray, seat: int, policy: int, reward: int,
                          W: np.ndarray, seed: int,
                          evals: np.ndarray, moves_out: np.ndarray,
                          players_out: np.ndarray, own_sure: bool,
                          rule_w: np.ndarray) -> tuple[int, int]:
    rs, cand, z, ctx, feat, tinfo = scratch(seed)
    return playout_w(st, seat, policy, reward, W, rs, cand, z, ctx, feat, tinfo, False,
                     evals, moves_out, players_out, own_sure, sure_buffers(own_sure), rule_w)


def no_weights() -> np.ndarray:
    return np.zeros((_NP, N_FEATURES), np.float64)


def state_playout_w(state: GameState, rng: np.random.Generator, seat: int, policy: int,
                    W: np.ndarray | None = None, reward: int = REWARD_PLAYERS,
                    own_sure: bool = False, rule_w: np.ndarray | None = None) -> Playout:
    """GameState.playout with any policy (learned: weights ``W``, 5 × N_FEATURES;
    ``own_sure``: ``seat`` takes its sure finishes; ``rule_w[p]``: the chance that another
    player p plays the rule player's move)."""
    st = np.asarray(state.st, dtype=np.int64)
    ev = np.empty(MAX_EVALS, np.float64)
    mo = np.empty(MAX_PLIES, np.int64)
    pl = np.empty(MAX_PLIES, np.int64)
    weights = no_weights() if W is None else np.ascontiguousarray(W, np.float64)
    ne, ply = _state_playout_kernel(st, seat, policy, reward, weights,
                                    int(rng.integers(1 << 62)), ev,
                                    mo, pl, own_sure,
                                    np.empty(0) if rule_w is None
                                    else np.ascontiguousarray(rule_w, np.float64))
    ply = min(ply, MAX_PLIES)
    rets = np.zeros(_NP, np.float64)
    for i in range(_NP):
        q = int(st[_FINISH + i])
        if q >= 0:
            rets[q] = (4 - i) * 0.25
    return Playout(rets, ev[:ne].copy(), mo[:ply].copy(), pl[:ply].copy())


__all__ = ["POLICY_LEARNED", "POLICY_UNIFORM", "POLICY_HEURISTIC", "learned_pick",
           "playout_w", "playout_worlds_kernel", "playout_deals_kernel", "state_playout_w",
           "py_policy_probs", "view_of", "policy_logits", "no_weights"]


@njit(cache=True)
def policy_probs(hand: int, others: int, table: int, rev: int, lock: int, opp_min: int,
                 moves: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """π over ``moves`` (kernel twin of :func:`py_policy_probs`)."""
    k = moves.shape[0]
    z = np.empty(k, np.float64)
    ctx = np.empty(CTX_SIZE, np.int64)
    feat = np.empty(N_FEATURES, np.float64)
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
        features_into(hand, others, table, rev, lock, opp_min, moves[i], ctx, out[i])
    return out
