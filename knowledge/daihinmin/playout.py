"""The playout kernel (numba): one loop for every policy, and the batches that call it.

:func:`playout` plays a position on by the policy it is given as an integer code
(:mod:`knowledge.daihinmin.policies`; the learned one with its weights ``W``), records the
intermediate reward r_t of the searching seat at each of its turns, lets that seat take its
sure finishes (``own_sure``, :mod:`knowledge.daihinmin.endgame`) and the other players play
the rule player's move with the chances ``rule_w``. The batches: :func:`playout_batch_kernel`
(a move of the searching seat in each of many worlds, the flat search's hot path),
:func:`playout_deals_kernel` (fresh games, the exchange search's), :func:`state_playout` (one
full state, from Python) and :func:`random_playouts_kernel` (fresh random deals, for
benchmarks).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.contract import Playout
from games.daihinmin.cards import card_index
from games.daihinmin.kernels import (
    apply_move,
    hot,
    popcount,
    rng_below,
    rng_uniform,
    sample_hands,
)
from games.daihinmin.rules import (
    FINISH,
    H0,
    LAST,
    LOCK,
    NOUT,
    NP,
    ORDER,
    OUTMASK,
    REV,
    SEATOF,
    STATE_SIZE,
    TABLE,
    TURN,
)
from games.daihinmin.state import GameState
from knowledge.daihinmin.endgame import SURE_BUDGET, sure_buffers, sure_first_kernel
from knowledge.daihinmin.features import N_FEATURES
from knowledge.daihinmin.learned import learned_pick, no_weights, scratch, view_of
from knowledge.daihinmin.policies import (
    POLICY_HEURISTIC,
    POLICY_LEARNED,
    POLICY_UNIFORM,
    choose_move,
)

MAX_EVALS = 128
MAX_PLIES = 2048
REWARD_PLAYERS = 0  # r_t: the players still in finish in random order
REWARD_CARDS = 1  # r_t: the players still in finish in the order of their card counts
REWARDS = {"players": REWARD_PLAYERS, "cards": REWARD_CARDS}
_DIAMOND3 = 1 << card_index(2, 0)


@hot()
def intermediate(st: np.ndarray, seat: int, reward: int) -> float:
    """r_t at a turn of ``seat`` on the scale of the returns, (points - 1) / 4:
    REWARD_PLAYERS: the points expected if the k players still in finished in random order,
    ((k + 1) / 2 - 1) / 4 (α discounting, Konuma et al.); REWARD_CARDS: the points if they
    finished in the order of the cards they hold, fewest first (ties share the places)."""
    k = NP - st[NOUT]
    if reward == REWARD_CARDS:
        mine = popcount(st[H0 + seat])
        fewer = 0
        ties = 0
        for q in range(NP):
            h = st[H0 + q]
            if q != seat and h != 0:
                c = popcount(h)
                if c < mine:
                    fewer += 1
                elif c == mine:
                    ties += 1
        place: float = st[NOUT] + 1 + fewer + 0.5 * ties  # 1 = first
        return (5.0 - place) * 0.25
    return ((k + 1) * 0.5 - 1.0) * 0.25  # type: ignore[no-any-return]


@hot(inline=True)
def policy_move(st: np.ndarray, other: bool, policy: int, W: np.ndarray, rs: np.ndarray,
                cand: np.ndarray, z: np.ndarray, ctx: np.ndarray, feat: np.ndarray,
                tinfo: np.ndarray, sort_moves: bool, rule_w: np.ndarray) -> int:
    """The move of the player to move by ``policy``; for ``other`` than the searching seat,
    the rule player's move instead with the chance ``rule_w[p]`` (if given)."""
    p = st[TURN]
    if other and rule_w.shape[0] > 0 and rule_w[p] > 0.0 and rng_uniform(rs) < rule_w[p]:
        return choose_move(st, POLICY_HEURISTIC, rs, cand, False, tinfo)  # the rule player
    if policy == POLICY_LEARNED:
        return learned_pick(st, W, rs, cand, z, ctx, feat, tinfo)
    return choose_move(st, policy, rs, cand, sort_moves, tinfo)


@hot()
def playout(st: np.ndarray, seat: int, policy: int, reward: int, W: np.ndarray,
            rs: np.ndarray, cand: np.ndarray, z: np.ndarray, ctx: np.ndarray,
            feat: np.ndarray, tinfo: np.ndarray, stop_when_out: bool, sort_moves: bool,
            evals: np.ndarray, moves_out: np.ndarray, players_out: np.ndarray,
            own_sure: bool, sure: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
            rule_w: np.ndarray) -> tuple[int, int]:
    """Play ``st`` on in place by ``policy`` (uniform, heuristic, or learned with the weight
    rows ``W``; the buffers as :func:`knowledge.daihinmin.learned.scratch` makes them). At
    every turn of ``seat`` record r_t of kind ``reward`` in ``evals``; record the moves and
    their players in ``moves_out``/``players_out`` as far as they hold. Stops at the end, or
    when ``seat`` is out if ``stop_when_out``. ``sort_moves``: the uniform and heuristic
    policies sort their candidates first (as the reference does). With ``own_sure``,
    ``seat`` plays a sure finish whenever it has one (buffers ``sure``: ``sure_buffers``), as
    the client does; ``rule_w[p]`` (if given): the chance that another player p plays the
    rule player's move (the heuristic policy's) instead of the policy's. Returns (number of
    evals, number of plies)."""
    ne = 0
    ply = 0
    tinfo[0] = -1
    while st[TURN] >= 0:
        if stop_when_out and (st[OUTMASK] >> seat) & 1:
            break
        p = st[TURN]
        if p == seat and ne < evals.shape[0]:
            evals[ne] = intermediate(st, seat, reward)
            ne += 1
        m = -1
        if own_sure and p == seat:
            others, _ = view_of(st, p)
            m = sure_first_kernel(st[H0 + p], others, st[TABLE], st[REV], st[LOCK],
                                  sure[0], sure[1], sure[2], sure[3], SURE_BUDGET)
        if m < 0:
            m = policy_move(st, p != seat, policy, W, rs, cand, z, ctx, feat, tinfo,
                            sort_moves, rule_w)
        if ply < moves_out.shape[0]:
            moves_out[ply] = m
            players_out[ply] = p
        ply += 1
        apply_move(st, m, rs)
    return ne, ply


@hot()
def final_return(st: np.ndarray, seat: int) -> float:
    """(points - 1) / 4 of ``seat`` by its place in the finishing order (0.0 if not out)."""
    for i in range(NP):
        if st[FINISH + i] == seat:
            return (4 - i) * 0.25
    return 0.0


@njit(cache=True)
def playout_batch_kernel(st0: np.ndarray, moves: np.ndarray, seat: int, worlds: np.ndarray,
                         deal: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                         policy: int, reward: int, W: np.ndarray, seed: int,
                         returns: np.ndarray, evals: np.ndarray, n_evals: np.ndarray,
                         own_sure: bool, rule_w: np.ndarray) -> int:
    """For each moves[i]: the hands of ``worlds[i]`` (5 hands) in the position ``st0`` — or,
    when ``worlds`` has no rows, hands dealt here by ``sample_hands`` from ``deal`` (pool,
    need, known, ceil; the v1 player's dealing) — play moves[i] for ``seat`` and play out
    until ``seat`` is out (:func:`playout`); returns[i] = (points - 1) / 4,
    evals[i, :n_evals[i]] = r_t. Returns max(n_evals)."""
    rs, cand, z, ctx, feat, tinfo = scratch(seed)
    sure = sure_buffers(own_sure)
    tmp = np.empty(64, np.int64)
    st = np.empty_like(st0)
    none = np.empty(0, np.int64)
    pool, need, known, ceil = deal
    tmax = 0
    for i in range(moves.shape[0]):
        st[:] = st0
        if worlds.shape[0] == 0:
            sample_hands(st, pool, need, known, ceil, rs, tmp)
        else:
            for p in range(NP):
                st[H0 + p] = worlds[i, p]
        apply_move(st, moves[i], rs)
        ne, _ = playout(st, seat, policy, reward, W, rs, cand, z, ctx, feat, tinfo, True,
                        False, evals[i], none, none, own_sure, sure, rule_w)
        n_evals[i] = ne
        if ne > tmax:
            tmax = ne
        returns[i] = final_return(st, seat)
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
        for p in range(NP):
            st[H0 + p] = worlds[i, p]
            if worlds[i, p] & _DIAMOND3:
                st[TURN] = p
        playout(st, seat, policy, reward, W, rs, cand, z, ctx, feat, tinfo, True, False, ev,
                none, none, own_sure, sure, np.empty(0))
        returns[i] = final_return(st, seat)


@njit(cache=True)
def _state_playout_kernel(st: np.ndarray, seat: int, policy: int, reward: int,
                          W: np.ndarray, seed: int, evals: np.ndarray, moves_out: np.ndarray,
                          players_out: np.ndarray, own_sure: bool,
                          rule_w: np.ndarray) -> tuple[int, int]:
    rs, cand, z, ctx, feat, tinfo = scratch(seed)
    return playout(st, seat, policy, reward, W, rs, cand, z, ctx, feat, tinfo, False, False,
                   evals, moves_out, players_out, own_sure, sure_buffers(own_sure), rule_w)


def state_playout(state: GameState, rng: np.random.Generator, seat: int,
                  policy: int = POLICY_UNIFORM, W: np.ndarray | None = None,
                  reward: int = REWARD_PLAYERS, own_sure: bool = False,
                  rule_w: np.ndarray | None = None) -> Playout:
    """A copy of ``state`` played to the end by ``policy`` (learned: weights ``W``,
    5 × N_FEATURES), with the r_t of ``seat`` (``own_sure``: ``seat`` takes its sure
    finishes; ``rule_w[p]``: the chance that another player p plays the rule player's
    move)."""
    st = state.array()
    ev = np.empty(MAX_EVALS, np.float64)
    mo = np.empty(MAX_PLIES, np.int64)
    pl = np.empty(MAX_PLIES, np.int64)
    weights = no_weights() if W is None else np.ascontiguousarray(W, np.float64)
    ne, ply = _state_playout_kernel(st, seat, policy, reward, weights,
                                    int(rng.integers(1 << 62)), ev, mo, pl, own_sure,
                                    np.empty(0) if rule_w is None
                                    else np.ascontiguousarray(rule_w, np.float64))
    ply = min(ply, MAX_PLIES)
    rets = np.zeros(NP, np.float64)
    for i in range(NP):
        q = int(st[FINISH + i])
        if q >= 0:
            rets[q] = (4 - i) * 0.25
    return Playout(rets, ev[:ne].copy(), mo[:ply].copy(), pl[:ply].copy())


@njit(cache=True)
def random_playouts_kernel(n: int, seed: int, policy: int) -> int:
    """Benchmark: n playouts from fresh random deals (random seats); returns total plies."""
    rs, cand, z, ctx, feat, tinfo = scratch(seed)
    W = np.zeros((NP, N_FEATURES), np.float64)
    sure = sure_buffers(False)
    ev = np.empty(MAX_EVALS, np.float64)
    none = np.empty(0, np.int64)
    st = np.zeros(STATE_SIZE, np.int64)
    deck = np.arange(53)
    total = 0
    for _ in range(n):
        st[:] = 0
        for i in range(52, 0, -1):
            j = rng_below(rs, i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        for i in range(53):
            st[H0 + i % NP] |= 1 << deck[i]
        first = 0
        for p in range(NP):
            st[ORDER + p] = p
            st[SEATOF + p] = p
            st[FINISH + p] = -1
            if (st[H0 + p] >> 26) & 1:
                first = p
        st[LAST] = -1
        st[TURN] = first
        _, ply = playout(st, 0, policy, REWARD_PLAYERS, W, rs, cand, z, ctx, feat, tinfo,
                         False, False, ev, none, none, False, sure, np.empty(0))
        total += ply
    return total
