"""The Daihinmin kernel of the information-set MCTS over our own moves (``search.ismcts``;
the tree and the interface are in its docstring).

:func:`own_tree_kernel` runs a batch of iterations: each takes a world (a row of the
inference's worlds, else hands dealt from the info set), walks the tree over the searching
seat's moves (:func:`search.ismcts.descend`), moves the other players by the playout policy
(as :func:`knowledge.daihinmin.playout.playout` does, the rule player's share included),
stops at a node met for the first time (or where the seat has a sure finish, which the
playout then plays), plays out, and backs up the α-discounted return. :func:`py_own_tree`
is its plain-Python reference: the same loop over the same compiled pieces and the same
random stream, so the two grow the same tree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.daihinmin.kernels import (
    MAX_MOVES,
    apply_move,
    rng_below,
    rng_uniform,
    sample_hands,
)
from games.daihinmin.rules import H0, LOCK, NP, OUTMASK, REV, TABLE, TURN
from knowledge.daihinmin.endgame import SURE_BUDGET, sure_buffers, sure_first_kernel
from knowledge.daihinmin.learned import candidates, scratch, softmax_into, view_of
from knowledge.daihinmin.playout import (
    MAX_EVALS,
    final_return,
    intermediate,
    playout,
    policy_move,
)
from knowledge.daihinmin.policies import POLICY_LEARNED
from search.bandit import discounted
from search.ismcts import TreeArrays, backup, descend, descend_prior

MAX_DEPTH = 64  # own turns in one game: a hand holds at most 11 cards and passes are few


@njit(cache=True)
def _own_priors(st: np.ndarray, moves: np.ndarray, k: int, policy: int, W: np.ndarray,
                z: np.ndarray, ctx: np.ndarray, feat: np.ndarray, out: np.ndarray) -> None:
    """The playout policy's probabilities of the player to move's ``moves[:k]`` into
    ``out`` (uniform but for the learned policy)."""
    if policy != POLICY_LEARNED:
        for i in range(k):
            out[i] = 1.0 / k
        return
    total = softmax_into(st, W[st[TURN]], moves, k, z, ctx, feat)
    for i in range(k):
        out[i] = z[i] / total


@njit(cache=True)
def own_tree_kernel(tree: TreeArrays, st0: np.ndarray, seat: int, worlds: np.ndarray,
                    deal: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                    iterations: int, policy: int, reward: int, W: np.ndarray, seed: int,
                    alpha: float, own_sure: bool, rule_w: np.ndarray, tuned: bool,
                    c: float, priors: bool) -> None:
    """``iterations`` iterations of the information-set MCTS from the position ``st0``
    (``seat`` to move) on ``tree`` (search.ismcts.OwnTree.arrays()); the worlds: a random
    row of ``worlds`` each, or, when it has no rows, hands dealt by ``sample_hands`` from
    ``deal`` (pool, need, known, ceil). ``priors``: below the root, PUCT over the playout
    policy's probabilities of our moves (search.ismcts.descend_prior)."""
    rs, cand, z, ctx, feat, tinfo = scratch(seed)
    sure = sure_buffers(own_sure)
    mine = np.empty(MAX_MOVES + 1, np.int64)
    prior = np.empty(MAX_MOVES + 1, np.float64)
    tmp = np.empty(64, np.int64)
    evals = np.empty(MAX_EVALS, np.float64)
    none = np.empty(0, np.int64)
    path = np.empty(MAX_DEPTH + 1, np.int64)
    st = np.empty_like(st0)
    pool, need, known, ceil = deal
    for _ in range(iterations):
        st[:] = st0
        if worlds.shape[0] == 0:
            sample_hands(st, pool, need, known, ceil, rs, tmp, True)
        else:
            row = rng_below(rs, worlds.shape[0])
            for p in range(NP):
                st[H0 + p] = worlds[row, p]
        tinfo[0] = -1
        v = 0
        path[0] = 0
        depth = 1
        ne = 0
        while st[TURN] >= 0 and not (st[OUTMASK] >> seat) & 1:
            p = st[TURN]
            if p != seat:
                apply_move(st, policy_move(st, True, policy, W, rs, cand, z, ctx, feat, tinfo,
                                           False, rule_w), rs)
                continue
            if v != 0:
                if tree[3][v] <= 0.0 or depth > MAX_DEPTH:
                    break  # a new node: the playout takes over
                if own_sure:
                    others, _ = view_of(st, p)
                    if sure_first_kernel(st[H0 + p], others, st[TABLE], st[REV], st[LOCK],
                                         sure[0], sure[1], sure[2], sure[3], SURE_BUDGET) >= 0:
                        break  # a sure finish: the playout plays it
                if ne < MAX_EVALS:
                    evals[ne] = intermediate(st, seat, reward)
                    ne += 1
            k = candidates(st, mine, tinfo)[1]
            if priors and v != 0:
                _own_priors(st, mine, k, policy, W, z, ctx, feat, prior)
                ch = descend_prior(tree, v, mine, k, prior, c)
            else:
                ch = descend(tree, v, mine, k, tuned, c, rng_uniform(rs))
            if ch < 0:
                break  # the pool is full: the playout takes over
            apply_move(st, tree[0][ch], rs)
            v = ch
            path[depth] = v
            depth += 1
        n_po, _ = playout(st, seat, policy, reward, W, rs, cand, z, ctx, feat, tinfo, True,
                          False, evals[ne:], none, none, own_sure, sure, rule_w)
        backup(tree, path, depth, discounted(evals, ne + n_po, final_return(st, seat), alpha))


def py_own_tree(tree: TreeArrays, st0: np.ndarray, seat: int, worlds: np.ndarray,
                deal: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], iterations: int,
                policy: int, reward: int, W: np.ndarray, seed: int, alpha: float,
                own_sure: bool, rule_w: np.ndarray, tuned: bool, c: float,
                priors: bool) -> None:
    """The reference of :func:`own_tree_kernel`: its loop in Python, over the compiled
    pieces it calls, with the same random stream; the tree selection in plain Python."""
    import math

    from search.bandit import arm_index

    move, first, nxt, N, S, S2, A, size = tree
    rs, cand, z, ctx, feat, tinfo = scratch(seed)
    sure = sure_buffers(own_sure)
    mine = np.empty(MAX_MOVES + 1, np.int64)
    tmp = np.empty(64, np.int64)
    none = np.empty(0, np.int64)
    pool, need, known, ceil = deal

    def child(v: int, m: int) -> int:
        ch = int(first[v])
        while ch >= 0 and move[ch] != m:
            ch = int(nxt[ch])
        return ch

    def add(v: int, m: int) -> int:
        """A new child of ``v`` by ``m``, first in its list, tried once; -1 if the pool is
        full."""
        ch = int(size[0])
        if ch >= len(move):
            return -1
        size[0] += 1
        move[ch], first[ch], nxt[ch] = m, -1, first[v]
        first[v] = ch
        N[ch] = S[ch] = S2[ch] = 0
        A[ch] = 1
        return ch

    for _ in range(iterations):
        st = st0.copy()
        if len(worlds) == 0:
            sample_hands(st, pool, need, known, ceil, rs, tmp, True)
        else:
            st[H0:H0 + NP] = worlds[rng_below(rs, len(worlds))]
        tinfo[0] = -1
        v, path, evals = 0, [0], []
        while st[TURN] >= 0 and not (st[OUTMASK] >> seat) & 1:
            p = int(st[TURN])
            if p != seat:
                apply_move(st, policy_move(st, True, policy, W, rs, cand, z, ctx, feat, tinfo,
                                           False, rule_w), rs)
                continue
            if v != 0:
                if N[v] <= 0 or len(path) > MAX_DEPTH:
                    break
                if own_sure:
                    others, _ = view_of(st, p)
                    if sure_first_kernel(st[H0 + p], others, st[TABLE], st[REV], st[LOCK],
                                         *sure, SURE_BUDGET) >= 0:
                        break
                evals.append(intermediate(st, seat, reward))
            legal = [int(m) for m in mine[:candidates(st, mine, tinfo)[1]]]
            if priors and v != 0:
                prior = np.empty(len(legal))
                _own_priors(st, mine, len(legal), policy, W, z, ctx, feat, prior)
                fpu = S[v] / N[v] if N[v] > 0 else 0.5
                scores = []
                for m, pr in zip(legal, prior, strict=True):
                    ch = child(v, m)
                    if ch >= 0:
                        A[ch] += 1
                    n = N[ch] if ch >= 0 else 0.0
                    q = S[ch] / n if n > 0 else fpu
                    scores.append(q + c * pr * math.sqrt(max(N[v], 1.0)) / (1.0 + n))
                m = legal[int(np.argmax(scores))]
                best = child(v, m)
                if best < 0:
                    best = add(v, m)
            else:
                start = int(rng_uniform(rs) * len(legal))
                best, best_score, new = -1, -math.inf, None
                for j in range(len(legal)):
                    m = legal[(start + j) % len(legal)]
                    ch = child(v, m)
                    if ch < 0:
                        new = m if new is None else new
                        continue
                    A[ch] += 1
                    score = arm_index(N[ch], S[ch], S2[ch], math.log(A[ch]), tuned, c)
                    if score > best_score:
                        best, best_score = ch, score
                if new is not None:
                    ch = add(v, new)
                    best = ch if ch >= 0 else best
            if best < 0:
                break
            apply_move(st, move[best], rs)
            v = best
            path.append(v)
        ev = np.zeros(MAX_EVALS, np.float64)
        ev[:len(evals)] = evals
        n_po, _ = playout(st, seat, policy, reward, W, rs, cand, z, ctx, feat, tinfo, True,
                          False, ev[len(evals):], none, none, own_sure, sure, rule_w)
        value = discounted(ev, len(evals) + n_po, final_return(st, seat), alpha)
        for u_ in path:
            N[u_] += 1
            S[u_] += value
            S2[u_] += value * value
