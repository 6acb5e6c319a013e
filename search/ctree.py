"""Compiled UCT: the search loop of :mod:`search.uct` as numba code over a tree of arrays.

For perfect-information games whose moves are small ints (``-1`` for a pass, then
``0 .. move_limit - 1``) and whose rules are numba kernels. One compiled call runs a batch of
iterations — selection, expansion, playout, backup, RAVE — and the budget is checked between
batches. Every feature of :class:`search.uct.UCT` that the clients use is here, with the same
formulas and the same order of random draws (tests grow both trees from one random stream and
compare them): RAVE with β = sqrt(k / (3 n + k)) or per child (``search.uct.rave_beta``),
its credit 1 or weighted along the episode (``search.uct.rave_weight``), to every player
who made the move or to its first (``rave_first_player``),
priors as pseudo-counts on the UCT and RAVE statistics, the grandfather prior, progressive
widening in prior order, per-seat values, tree reuse between moves, the final move by visits
(or mean). :class:`search.uct.UCT` stays the reference and the core for info sets and other
moves.

The tree
--------
A node pool and an edge pool, plain arrays. Node ``v``: its edges are
``first[v] .. first[v] + count[v] - 1`` (contiguous, in the game's legal order, or in prior
order with progressive widening), ``visits[v]`` real visits, ``seat[v]`` the seat to move,
``key[v]`` the position key. Edge ``e``: ``move[e]``, ``N[e]``/``W[e]`` visits and value sum
(priors included; values for the seat to move at the parent), ``N0[e]`` the pseudo-visits
among them, ``RN[e]``/``RW[e]`` the RAVE pair, ``child[e]`` the node below (-1 = none yet).
The pools are sized before the iterations start, from the budget and the rates the searches
measure (seconds and new edges per iteration; one new node per iteration): what is kept plus
what the budget will add, with headroom. A search without a measured rate yet sizes them after
its first batch, and every batch checks the projection again, so growth happens while the
pools hold little to copy. Past the projection the pools double between batches; at the memory
cap, or when a search with a deadline has too little time left to pay for a doubling, the
search goes on without expanding and counts the expansions it skipped (``pool_full``). Tree
reuse keeps the subtree of the new root and compacts it in place to the front of the pools
before they are sized, so the next search grows the pools over the kept subtree only.

Ending a search
---------------
A search ends on its budget, checked between batches of about 20 ms (a budget of playouts
alone runs in one batch). With ``early_stop`` (``UCTConfig``, final by visits) it also ends
when the root's most visited move leads the second by more than the iterations the budget
still allows (at the rate measured, for a time budget; checked after each eighth of a budget
of playouts alone): the move can no longer change, and the search that ends early has
chosen it as the whole search would have. Another thread ends it with
:meth:`CompiledUCT.request_stop`: the iteration kernel runs without the GIL and checks the
request before each iteration, so the search returns within about one iteration (pondering:
searching on the opponent's time until its move arrives).

The game interface (by shape; :class:`TreeGame`)
------------------------------------------------
A game offers ``state.tree_game()`` returning a :class:`TreeGame`: its kernel state (a tuple
of arrays, ``state``), a per-search context (a tuple of arrays and scratch space, ``ctx``),
sizes, and six numba kernels (``cache=True``), called through first-class function pointers
so this module is compiled once per game and cached, and a game kernel's change never leaves
a stale copy here:

``copy(ctx, src, dst)``
    ``dst`` := ``src`` (each iteration starts from a copy of the root).
``to_move(ctx, st) -> int64``
    the seat to move, ``-1`` when the game is over.
``key(ctx, st) -> int64``
    the position key (what ``State.key()`` returns).
``legal(ctx, st, moves, values, counts, priors) -> int64``
    the legal moves (``State.legal_moves()``, same order) into ``moves[:n]``; with
    ``priors`` their prior value and pseudo-count (``State.priors()``) into ``values[:n]``
    and ``counts[:n]``; returns ``n``.
``play(ctx, st, move)``
    the seat to move plays a legal move.
``playout(ctx, st, rng, moves, players, returns) -> int64``
    plays ``st`` (it may be changed) to the end with the playout policy; per-seat results in
    ``[0, 1]`` into ``returns``; the moves and the seats that played them into ``moves[:n]``
    and ``players[:n]`` (for RAVE); returns ``n``. Its random numbers come from ``rng``, a
    splitmix64 state (uint64 array of length 1, see :func:`rng_next`) shared with the tree.
    A finished game: only the returns, no random draw.
"""

from __future__ import annotations

import time
import warnings
from typing import Any, NamedTuple, Protocol

import numba
import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.core.types.function_type import WrapperAddressProtocol

from search.budget import Budget
from search.result import SearchResult, final_index
from search.uct import UCTConfig, mark_first_plies, rave_beta, rave_credit

# counters[...]: the pool's state and the search statistics
C_NODES, C_EDGES, C_ROOT, C_NEED_ROOM, C_FULL, C_MAXDEPTH, C_ITER, C_STOP = range(8)
N_COUNTERS = 8

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

_NODE_BYTES = 8 + 4 + 8 + 4 + 8  # first, count, visits, seat, key
_EDGE_BYTES = 8 + 5 * 8 + 8  # move, N W N0 RN RW, child
# the pools hold this many times the iterations and edges a budget is projected to add
_HEADROOM = 1.5


class TreeGame(Protocol):
    """What a game hands the compiled search, by shape (``games.contract.TreeGame``)."""

    @property
    def kernels(self) -> tuple[Any, ...]: ...  # copy, to_move, key, legal, play, playout
    @property
    def ctx(self) -> tuple[Any, ...]: ...
    @property
    def state(self) -> tuple[Any, ...]: ...
    @property
    def num_players(self) -> int: ...
    @property
    def max_moves(self) -> int: ...  # most legal moves a position can have
    @property
    def move_limit(self) -> int: ...  # moves are ints in [-1, move_limit)
    @property
    def max_playout_moves(self) -> int: ...  # most moves a playout records


@njit(cache=True, inline="always")
def rng_next(r: np.ndarray) -> Any:
    """splitmix64: advance the state ``r[0]`` and return 64 random bits."""
    r[0] += _GOLDEN
    z = r[0]
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def rng_unit(r: np.ndarray) -> float:
    """A uniform number in [0, 1) (53 bits) from the stream ``r``."""
    return float(rng_next(r) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


class SplitMix:
    """The tree's random stream in Python, with the two calls of ``numpy.random.Generator``
    that :class:`search.uct.UCT` and the games' ``playout`` make (``random``, ``integers``):
    handed to the Python UCT, it draws exactly what the compiled search draws from the same
    seed, so tests can compare the two trees to the bit."""

    _MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = seed & self._MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self._MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self._MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self._MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)

    def integers(self, low: int, high: int | None = None) -> int:
        if high is None:
            low, high = 0, low
        return low + self.next() % (high - low)


# -- the compiled tree ---------------------------------------------------------------------

@njit(cache=True)
def _stub(key: Any, ctx: Any, st: Any, seat: int, T: Any, counters: np.ndarray) -> int:
    """A new node for the position ``st`` (seat ``seat`` to move), without edges yet (they
    are made when the node is first searched from); its index, or -1 when the pool is full
    (counted)."""
    nd_first, nd_count, nd_n, nd_seat, nd_key = T[0], T[1], T[2], T[3], T[4]
    v = counters[C_NODES]
    if v >= nd_first.shape[0]:
        counters[C_FULL] += 1
        return -1
    nd_first[v] = 0
    nd_count[v] = -1
    nd_n[v] = 0.0
    nd_seat[v] = seat
    nd_key[v] = key(ctx, st)
    counters[C_NODES] = v + 1
    return int(v)


@njit(cache=True)
def _expand(legal: Any, ctx: Any, st: Any, v: int, T: Any, Wk: Any, cfg_f: np.ndarray,
            cfg_i: np.ndarray, counters: np.ndarray) -> bool:
    """Give the node ``v`` (position ``st``) one edge per legal move, priors as pseudo-counts;
    False when the edge pool has no room (counted)."""
    (nd_first, nd_count, nd_n, nd_seat, nd_key,
     e_move, e_N, e_W, e_N0, e_RN, e_RW, e_child) = T
    lm, lv, lc, order = Wk[6], Wk[7], Wk[8], Wk[9]
    use_priors = cfg_i[1] != 0
    n = legal(ctx, st, lm, lv, lc, use_priors)
    base = counters[C_EDGES]
    if base + n > e_move.shape[0]:
        counters[C_FULL] += 1
        return False
    if not use_priors:
        for j in range(n):
            lv[j] = cfg_f[2]
            lc[j] = cfg_f[3]
    rave = cfg_i[0] != 0
    if cfg_i[2] != 0 and n > 1:  # widening: edges in prior order (value, then count)
        o1 = np.argsort(-lc[:n], kind="mergesort")
        vals = np.empty(n)
        for j in range(n):
            vals[j] = -lv[o1[j]]
        o2 = np.argsort(vals, kind="mergesort")
        for j in range(n):
            order[j] = o1[o2[j]]
    else:
        for j in range(n):
            order[j] = j
    for j in range(n):
        k = order[j]
        e = base + j
        c = lc[k]
        e_move[e] = lm[k]
        e_N[e] = c
        e_W[e] = lv[k] * c
        e_N0[e] = c
        rc = c if rave else 0.0
        e_RN[e] = rc
        e_RW[e] = lv[k] * rc
        e_child[e] = -1
    nd_first[v] = base
    nd_count[v] = n
    counters[C_EDGES] = base + n
    return True


@njit(cache=True)
def _expand_node(legal: Any, ctx: Any, st: Any, v: int, T: Any, Wk: Any, cfg_f: np.ndarray,
                 cfg_i: np.ndarray, counters: np.ndarray, g: int, gf_cap: float, rave: bool,
                 pos: np.ndarray) -> bool:
    """:func:`_expand`, then the grandfather prior from node ``g`` (-1: none) when
    ``gf_cap`` > 0; False when the edge pool has no room."""
    if not _expand(legal, ctx, st, v, T, Wk, cfg_f, cfg_i, counters):
        return False
    if gf_cap > 0 and g >= 0:
        _grandfather(T, v, g, gf_cap, rave, pos)
    return True


@njit(cache=True)
def _grandfather(T: Any, v: int, g: int, cap: float, rave: bool, pos: np.ndarray) -> None:
    """Node ``v`` takes from its grandfather ``g`` (same seat to move): each move tried there
    gets min(real visits, cap) more pseudo-visits at its mean there (RAVE pair too)."""
    (nd_first, nd_count, nd_n, nd_seat, nd_key,
     e_move, e_N, e_W, e_N0, e_RN, e_RW, e_child) = T
    if nd_seat[g] != nd_seat[v]:
        return
    gf, gc = nd_first[g], nd_count[g]
    for j in range(gf, gf + gc):
        pos[e_move[j] + 1] = j
    for i in range(nd_first[v], nd_first[v] + nd_count[v]):
        j = pos[e_move[i] + 1]
        if j < 0:
            continue
        seen = e_N[j] - e_N0[j]
        if seen <= 0:
            continue
        n = min(seen, cap)
        val = e_W[j] / e_N[j]
        e_N[i] += n
        e_N0[i] += n
        e_W[i] += val * n
        if rave:
            e_RN[i] += n
            e_RW[i] += val * n
    for j in range(gf, gf + gc):
        pos[e_move[j] + 1] = -1


@njit(cache=True)
def _select(T: Any, v: int, cfg_f: np.ndarray, cfg_i: np.ndarray, thresholds: np.ndarray,
            u: float) -> int:
    """The edge of node ``v`` that UCT(+RAVE) picks (search.uct._select_child's rule)."""
    (nd_first, nd_count, nd_n, nd_seat, nd_key,
     e_move, e_N, e_W, e_N0, e_RN, e_RW, e_child) = T
    f = nd_first[v]
    m = nd_count[v]
    n = nd_n[v]
    rave = cfg_i[0] != 0
    if cfg_i[2] != 0:  # progressive widening: the first edges (prior order) are unlocked
        unlocked = cfg_i[3] + np.searchsorted(thresholds[:m], n, side="right")
        m = min(m, max(1, unlocked))
    n_unseen = 0
    for e in range(f, f + m):
        if e_N[e] <= 0 and (not rave or e_RN[e] <= 0):
            n_unseen += 1
    if n_unseen > 0:
        pick = min(int(u * n_unseen), n_unseen - 1)
        for e in range(f, f + m):
            if e_N[e] <= 0 and (not rave or e_RN[e] <= 0):
                if pick == 0:
                    return e
                pick -= 1
    c = cfg_f[0]
    k = cfg_f[1]
    mse = cfg_i[8] != 0
    child = cfg_i[12] != 0
    logn = np.log(max(n, 1.0))
    best = -1
    best_score = -np.inf
    for e in range(f, f + m):
        q = e_W[e] / e_N[e] if e_N[e] > 0 else 0.0
        if rave and e_RN[e] > 0:
            qr = e_RW[e] / e_RN[e]
            if e_N[e] > 0:
                nb = e_N[e] - e_N0[e] if child else n
                beta = rave_beta(nb, e_N[e], e_RN[e], k, mse)
                q = beta * qr + (1.0 - beta) * q
            else:
                q = qr
        if c > 0:
            q += c * np.sqrt(logn / max(e_N[e], 1.0))
        if q > best_score:
            best_score = q
            best = e
    return best


@njit(cache=True)
def k_root(copy: Any, to_move: Any, key: Any, legal: Any, ctx: Any, root: Any, st: Any,
           T: Any, Wk: Any, cfg_f: np.ndarray, cfg_i: np.ndarray, counters: np.ndarray,
           fresh: bool) -> int:
    """Make the root searchable: with ``fresh``, empty the pools and make it node 0; give it
    its edges if it has none yet. Returns its index, or -1 if it does not fit."""
    copy(ctx, root, st)
    if fresh:
        counters[C_NODES] = 0
        counters[C_EDGES] = 0
        counters[C_ROOT] = _stub(key, ctx, st, to_move(ctx, st), T, counters)
    v = counters[C_ROOT]
    if v < 0:
        return -1
    if T[1][v] < 0 and not _expand(legal, ctx, st, v, T, Wk, cfg_f, cfg_i, counters):
        return -1
    return int(v)


@njit(cache=True, nogil=True)
def k_iterate(copy: Any, to_move: Any, key: Any, legal: Any, play: Any, playout: Any,
              ctx: Any, root: Any, st: Any, T: Any, Wk: Any, cfg_f: np.ndarray,
              cfg_i: np.ndarray, thresholds: np.ndarray, counters: np.ndarray,
              rng: np.ndarray, n_iter: int) -> int:
    """Up to ``n_iter`` iterations from the root ``counters[C_ROOT]``; returns how many ran.
    Stops early (``counters[C_NEED_ROOM]`` = 1) when the pools may lack room for one more
    node or edge block and ``cfg_i[5]`` says they can still grow, and before the next
    iteration once ``counters[C_STOP]`` is set (by another thread: the kernel runs without
    the GIL).

    A new node gets its edges (legal moves, priors, grandfather prior) when an iteration
    first searches from it, not when it is made (``cfg_i[7]`` = 0): most leaves are never
    searched from, and no random draw or statistic differs from making them at once as
    search.uct.UCT does (``cfg_i[7]`` = 1), but for the grandfather prior, which then sees the
    grandfather's statistics of that moment. With ``expand_visits`` E > 1 (``cfg_i[10]``) a
    node gets its edges only once the edge into it has E real visits: until then the
    iterations reaching it play out from it (a leaf's moves and priors cost more than a
    playout on a large board). Eager, it gets them on the visit before, as search.uct.UCT
    makes the node then (a game whose legal-move call changes its playouts' draws, as
    Blokus Duo's compacts the move lists, plays the same playouts)."""
    (nd_first, nd_count, nd_n, nd_seat, nd_key,
     e_move, e_N, e_W, e_N0, e_RN, e_RW, e_child) = T
    path_node, path_edge, pmoves, pplayers, ret, played = Wk[0], Wk[1], Wk[2], Wk[3], Wk[4], Wk[5]
    pos = Wk[10]
    rave = cfg_i[0] != 0
    max_depth = cfg_i[4]
    can_grow = cfg_i[5] != 0
    max_moves = cfg_i[6]
    eager = cfg_i[7] != 0
    weighted = cfg_i[9] != 0
    expand_visits = cfg_i[10]
    first_player = cfg_i[11] != 0
    gf_cap = cfg_f[4]
    root_node = counters[C_ROOT]
    done = 0
    while done < n_iter:
        if counters[C_STOP] != 0:
            break
        if can_grow and (counters[C_NODES] + 1 > nd_first.shape[0]
                         or counters[C_EDGES] + max_moves > e_move.shape[0]):
            counters[C_NEED_ROOM] = 1
            break
        copy(ctx, root, st)
        v = root_node
        depth = 0
        while depth < max_depth:
            if nd_count[v] < 0:  # first search from this node: its edges now ...
                g = path_node[depth - 2] if depth >= 2 else -1
                if depth > 0:
                    into = e_N[path_edge[depth - 1]] - e_N0[path_edge[depth - 1]]
                    if into < expand_visits - 0.5:
                        # ... once the edge into it has expand_visits real visits (eager: its
                        # edges made on the visit before, when search.uct.UCT makes the node)
                        if eager and expand_visits > 1 and into > expand_visits - 1.5:
                            _expand_node(legal, ctx, st, v, T, Wk, cfg_f, cfg_i, counters, g,
                                         gf_cap, rave, pos)
                        break
                if not _expand_node(legal, ctx, st, v, T, Wk, cfg_f, cfg_i, counters, g,
                                    gf_cap, rave, pos):
                    break
            e = _select(T, v, cfg_f, cfg_i, thresholds, rng_unit(rng))
            path_node[depth] = v
            path_edge[depth] = e
            depth += 1
            play(ctx, st, e_move[e])
            child = e_child[e]
            if child < 0:
                seat = to_move(ctx, st)
                if seat >= 0:
                    w = _stub(key, ctx, st, seat, T, counters)
                    e_child[e] = w
                    if eager and expand_visits <= 1 and w >= 0:
                        _expand_node(legal, ctx, st, w, T, Wk, cfg_f, cfg_i, counters,
                                     path_node[depth - 2] if depth >= 2 else -1, gf_cap,
                                     rave, pos)
                break
            v = child
        n = playout(ctx, st, rng, pmoves, pplayers, ret)
        for d in range(depth):
            v = path_node[d]
            e = path_edge[d]
            nd_n[v] += 1.0
            e_N[e] += 1.0
            e_W[e] += ret[nd_seat[v]]
        if rave:  # AMAF, as search.uct's table path: played[seat, move + 1] = first ply + 1
            mark_first_plies(played, pplayers[:n], pmoves[:n], depth, first_player)
            for d in range(depth - 1, -1, -1):
                v = path_node[d]
                f, m = nd_first[v], nd_count[v]
                s = nd_seat[v]
                rave_credit(played, s, e_move[f:f + m], path_edge[d] - f, d, depth + n,
                            weighted, first_player, e_RN[f:f + m], e_RW[f:f + m], ret[s])
            for j in range(n):
                played[pplayers[j], pmoves[j] + 1] = 0
            for d in range(depth):
                played[nd_seat[path_node[d]], e_move[path_edge[d]] + 1] = 0
        if depth > counters[C_MAXDEPTH]:
            counters[C_MAXDEPTH] = depth
        done += 1
    counters[C_ITER] += done
    return done


@njit(cache=True, nogil=True)
def k_find(T: Any, root: int, key: int, seat: int, max_depth: int, queue: np.ndarray) -> int:
    """The first node within ``max_depth`` plies of ``root`` (breadth first) whose key and seat
    to move match, or -1 (search.uct.UCT._find_reusable)."""
    (nd_first, nd_count, nd_n, nd_seat, nd_key,
     e_move, e_N, e_W, e_N0, e_RN, e_RW, e_child) = T
    if root < 0:
        return -1
    queue[0] = root
    head, tail = 0, 1
    level_end = 1
    depth = 0
    while head < tail:
        v = queue[head]
        head += 1
        if nd_key[v] == key and nd_seat[v] == seat:
            return int(v)
        if depth < max_depth:
            for e in range(nd_first[v], nd_first[v] + nd_count[v]):
                c = e_child[e]
                if c >= 0 and tail < queue.shape[0]:
                    queue[tail] = c
                    tail += 1
        if head == level_end:
            depth += 1
            level_end = tail
    return -1


@njit(cache=True, nogil=True)
def k_reroot(T: Any, counters: np.ndarray, new_root: int, keep: np.ndarray,
             new_id: np.ndarray) -> None:
    """Keep only the subtree of ``new_root``, moved in place to the front of the pools; the
    new root becomes node 0. Nodes keep their order and so do edge blocks (in the order of
    their offsets, which is not the nodes' order: a node gets its edges later), so every
    node and every block moves down or stays: a safe in-place copy."""
    (nd_first, nd_count, nd_n, nd_seat, nd_key,
     e_move, e_N, e_W, e_N0, e_RN, e_RW, e_child) = T
    nn = counters[C_NODES]
    for v in range(nn):
        keep[v] = 0
    stack = new_id  # as a stack first, then as the map old -> new
    stack[0] = new_root
    top = 1
    keep[new_root] = 1
    while top > 0:
        top -= 1
        v = stack[top]
        for e in range(nd_first[v], nd_first[v] + nd_count[v]):
            c = e_child[e]
            if c >= 0 and keep[c] == 0:
                keep[c] = 1
                stack[top] = c
                top += 1
    k = 0
    n_expanded = 0
    for v in range(nn):
        if keep[v]:
            new_id[v] = k
            k += 1
            if nd_count[v] > 0:
                n_expanded += 1
        else:
            new_id[v] = -1
    expanded = np.empty(n_expanded, dtype=np.int64)
    offsets = np.empty(n_expanded, dtype=np.int64)
    j = 0
    for v in range(nn):
        if keep[v] and nd_count[v] > 0:
            expanded[j] = v
            offsets[j] = nd_first[v]
            j += 1
    edges = 0
    for j in np.argsort(offsets):
        v = expanded[j]
        f = nd_first[v]
        cnt = nd_count[v]
        for i in range(cnt):
            a = f + i
            b = edges + i
            e_move[b] = e_move[a]
            e_N[b] = e_N[a]
            e_W[b] = e_W[a]
            e_N0[b] = e_N0[a]
            e_RN[b] = e_RN[a]
            e_RW[b] = e_RW[a]
            c = e_child[a]
            e_child[b] = new_id[c] if c >= 0 else -1
        nd_first[v] = edges  # the node moves next, with its new offset
        edges += cnt
    for v in range(nn):
        w = new_id[v]
        if w < 0:
            continue
        nd_first[w] = nd_first[v]
        nd_count[w] = nd_count[v]
        nd_n[w] = nd_n[v]
        nd_seat[w] = nd_seat[v]
        nd_key[w] = nd_key[v]
    counters[C_NODES] = k
    counters[C_EDGES] = edges
    counters[C_ROOT] = 0


# -- the Python side -----------------------------------------------------------------------

class _Kernel(WrapperAddressProtocol):
    """A game kernel as a first-class numba function of a fixed signature (its compiled
    address is looked up once; numba then types it as ``FunctionType(sig)`` at no cost)."""

    def __init__(self, dispatcher: Any, sig: Any) -> None:
        from numba.experimental.function_type import _get_wrapper_address

        self._sig = sig
        self._addr = _get_wrapper_address(dispatcher, sig)  # type: ignore[no-untyped-call]

    def __wrapper_address__(self) -> int:
        return int(self._addr)

    def signature(self) -> Any:
        return self._sig


class _Compiled(NamedTuple):
    kernels: tuple[_Kernel, ...]
    root: Any
    iterate: Any


_COMPILED: dict[tuple[Any, ...], _Compiled] = {}
_I64 = types.int64
_F64_1 = types.Array(types.float64, 1, "C")
_I64_1 = types.Array(types.int64, 1, "C")
_U64_1 = types.Array(types.uint64, 1, "C")


def _typeof(value: Any) -> Any:
    return numba.typeof(value)  # type: ignore[no-untyped-call]


def _entry(dispatcher: Any, args: tuple[Any, ...]) -> Any:
    """The compiled entry point of ``dispatcher`` for ``args`` (compiled or loaded from the
    cache once; calling it skips numba's type dispatch, which first-class functions make
    slow)."""
    sig = tuple(_typeof(a) for a in args)
    if sig not in dispatcher.overloads:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
            dispatcher.compile(sig)
    return dispatcher.overloads[sig].entry_point


def _compiled(game: TreeGame, T: tuple[Any, ...], Wk: tuple[Any, ...], cfg_f: np.ndarray,
              cfg_i: np.ndarray, counters: np.ndarray, rng: np.ndarray) -> _Compiled:
    ctx_t = _typeof(game.ctx)
    st_t = _typeof(game.state)
    cache_key = (ctx_t, st_t, tuple(id(k) for k in game.kernels))
    found = _COMPILED.get(cache_key)
    if found is not None:
        return found
    copy, to_move, key, legal, play, playout = game.kernels
    sigs = (
        types.none(ctx_t, st_t, st_t),
        _I64(ctx_t, st_t),
        _I64(ctx_t, st_t),
        _I64(ctx_t, st_t, _I64_1, _F64_1, _F64_1, types.boolean),
        types.none(ctx_t, st_t, _I64),
        _I64(ctx_t, st_t, _U64_1, _I64_1, _I64_1, _F64_1),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
        ks = tuple(_Kernel(d, s) for d, s in zip(game.kernels, sigs, strict=True))
    kc, kt, kk, kl, kp, ko = ks
    st = game.state
    root = _entry(k_root, (kc, kt, kk, kl, game.ctx, st, st, T, Wk, cfg_f, cfg_i, counters,
                           True))
    iterate = _entry(k_iterate, (kc, kt, kk, kl, kp, ko, game.ctx, st, st, T, Wk, cfg_f,
                                 cfg_i, cfg_f, counters, rng, 0))
    found = _COMPILED[cache_key] = _Compiled(ks, root, iterate)
    return found


class CompiledUCT:
    """UCT over the compiled tree, for states that offer ``tree_game()``. Same settings and
    results as :class:`search.uct.UCT` (``UCTConfig``; ``tree_mb`` caps the pools). Keep one
    instance per game to reuse its tree between moves."""

    def __init__(self, config: UCTConfig | None = None, *, eager: bool = False) -> None:
        """``eager``: give a node its edges when it is made, as search.uct.UCT does (the
        agreement tests), instead of when it is first searched from (less time and memory
        for the same search, but for when the grandfather prior is taken)."""
        self.config = config or UCTConfig()
        self.eager = eager
        self._T: tuple[np.ndarray, ...] | None = None
        self._layout: tuple[Any, ...] | None = None  # (game kind, move_limit, players)
        self.counters = np.zeros(N_COUNTERS, dtype=np.int64)
        self.counters[C_ROOT] = -1
        # seconds per MB of the pools' content that growing took (allocation, copy), the
        # largest seen; a first guess, measured on a loaded machine
        self.grow_seconds_per_mb = 0.003
        self.grows_deferred = 0  # in the last search: growths put off for lack of time
        # measured by the last search, to size the pools of the next one before it starts:
        # seconds per iteration (on its budget's clock), new edges per iteration
        self.seconds_per_iter: float | None = None
        self.edges_per_iter: float | None = None

    def reset(self) -> None:
        self.counters[C_ROOT] = -1

    # -- pools ---------------------------------------------------------------------------
    def _cap_bytes(self) -> float:
        return self.config.tree_mb * 1e6

    def _alloc(self, nodes: int, edges: int, old: tuple[np.ndarray, ...] | None
               ) -> tuple[np.ndarray, ...]:
        dtypes = (np.int64, np.int32, np.float64, np.int32, np.int64,
                  np.int64, np.float64, np.float64, np.float64, np.float64, np.float64,
                  np.int64)
        sizes = (nodes,) * 5 + (edges,) * 7
        out = []
        for i, (dt, n) in enumerate(zip(dtypes, sizes, strict=True)):
            a = np.empty(n, dtype=dt)
            if old is not None:
                used = int(self.counters[C_NODES] if i < 5 else self.counters[C_EDGES])
                a[:used] = old[i][:used]
            out.append(a)
        return tuple(out)

    def _grown(self, max_moves: int) -> tuple[int, int]:
        """The pool sizes after doubling the pool that lacks room."""
        assert self._T is not None
        nodes, edges = len(self._T[0]), len(self._T[5])
        if self.counters[C_NODES] + 1 > nodes:
            nodes *= 2
        if self.counters[C_EDGES] + max_moves > edges:
            edges = max(edges * 2, edges + max_moves)
        return nodes, edges

    def _projected(self, iterations: float, max_moves: int) -> tuple[int, int]:
        """The pool sizes that hold the tree and ``iterations`` more iterations at the
        measured edges per iteration, with headroom (0 edges when none is measured yet)."""
        epi = self.edges_per_iter or 0.0
        grow = _HEADROOM * max(iterations, 0.0)
        return (int(self.counters[C_NODES] + grow) + 1,
                int(self.counters[C_EDGES] + grow * epi) + max_moves)

    def _within_cap(self, nodes: int, edges: int) -> tuple[int, int]:
        """At least the present pool sizes and at most ``nodes`` and ``edges``; scaled down
        together to fit ``tree_mb`` (a pool already large enough keeps its size)."""
        assert self._T is not None
        have_n, have_e = len(self._T[0]), len(self._T[5])
        nodes, edges = max(nodes, have_n), max(edges, have_e)
        cap = self._cap_bytes()
        grow_n, grow_e = nodes > have_n, edges > have_e
        if tree_bytes(nodes, edges) <= cap or not (grow_n or grow_e):
            return nodes, edges
        kept = tree_bytes(0 if grow_n else nodes, 0 if grow_e else edges)
        scale = max(0.0, cap - kept) / tree_bytes(nodes if grow_n else 0, edges if grow_e else 0)
        n = max(have_n, int(nodes * scale)) if grow_n else nodes
        e = max(have_e, int(edges * scale)) if grow_e else edges
        if tree_bytes(n, e) > cap:  # one pool kept its size: the other takes what is left
            if n == have_n:
                e = max(have_e, int((cap - tree_bytes(n, 0)) / _EDGE_BYTES))
            else:
                n = max(have_n, int((cap - tree_bytes(0, e)) / _NODE_BYTES))
        return n, e

    def _resize(self, nodes: int, edges: int) -> bool:
        """Grow the pools to ``nodes`` and ``edges``, as far as ``tree_mb`` allows; False when
        they cannot grow."""
        assert self._T is not None
        nodes, edges = self._within_cap(nodes, edges)
        if nodes == len(self._T[0]) and edges == len(self._T[5]):
            return False
        copied = self._copied_mb()
        t = time.perf_counter()
        self._T = self._alloc(nodes, edges, self._T)
        self.grow_seconds_per_mb = max(self.grow_seconds_per_mb,
                                       (time.perf_counter() - t) / copied)
        return True

    def _copied_mb(self) -> float:
        """The MB a growth copies (what the pools hold; at least 1, allocation's own cost)."""
        return max(1.0, tree_bytes(int(self.counters[C_NODES]),
                                   int(self.counters[C_EDGES])) / 1e6)

    def _short(self, nodes: int, edges: int) -> bool:
        """Whether the pools are smaller than ``nodes`` and ``edges`` and can still grow."""
        assert self._T is not None
        return self._within_cap(nodes, edges) != (len(self._T[0]), len(self._T[5]))

    def _time_to_grow(self, left: float) -> bool:
        """Whether growing now would still end well before the deadline: growing copies what
        the pools hold (new pages are touched later, as the search fills them), a few hundred
        ms for a large tree on a loaded machine, and a search that grows in its last moments
        overruns its budget by that much."""
        return left > 2.0 * self._copied_mb() * self.grow_seconds_per_mb

    @staticmethod
    def _iterations(budget: Budget, done: int, seconds_left: float | None,
                    per_iter: float) -> float:
        """How many more iterations the budget allows: the playouts left, or what the time
        left holds at ``per_iter`` seconds an iteration (none known: 0), whichever is less."""
        n = float("inf") if budget.playouts is None else float(budget.playouts - done)
        if seconds_left is not None:
            n = min(n, seconds_left / per_iter if per_iter > 0 else 0.0)
        return n

    def pool_bytes(self) -> int:
        """Bytes held by the node and edge pools."""
        return 0 if self._T is None else sum(a.nbytes for a in self._T)

    # -- the search ----------------------------------------------------------------------
    def search(self, root: Any, seat: int | None, budget: Budget, rng: Any, *,
               early_stop: bool | None = None) -> SearchResult:
        """Search from ``root`` (a State with ``tree_game()``) for the seat to move.
        ``early_stop``: the config's ``early_stop`` for this search (None: as configured;
        a search that chooses no move, such as pondering, runs its whole budget)."""
        if not hasattr(root, "tree_game"):
            raise TypeError(f"{type(root).__name__} offers no compiled kernels (tree_game); "
                            "use search.uct.UCT")
        if root.is_terminal():
            raise ValueError("CompiledUCT.search: the game is over at the root")
        cfg = self.config
        t0 = budget.clock()
        game: TreeGame = root.tree_game()
        layout = (type(root), game.move_limit, game.num_players, game.max_moves)
        if self._layout != layout or self._T is None:
            self._layout = layout
            self.counters[:C_STOP] = 0  # a stop request stands
            self.counters[C_ROOT] = -1
            nodes = 1024
            edges = max(64 * 1024, 4 * game.max_moves)
            scale = min(1.0, self._cap_bytes() / tree_bytes(nodes, edges))
            self._T = self._alloc(max(1, int(nodes * scale)), int(edges * scale), None)
        players = game.num_players
        Wk = (
            np.zeros(cfg.max_depth + 1, dtype=np.int64),  # path nodes
            np.zeros(cfg.max_depth + 1, dtype=np.int64),  # path edges
            np.zeros(game.max_playout_moves + 1, dtype=np.int64),  # playout moves
            np.zeros(game.max_playout_moves + 1, dtype=np.int64),  # their seats
            np.zeros(players),  # returns
            np.zeros((players, game.move_limit + 1), dtype=np.int64),  # RAVE: first plies
            np.zeros(game.max_moves + 1, dtype=np.int64),  # legal moves
            np.zeros(game.max_moves + 1),  # prior values
            np.zeros(game.max_moves + 1),  # prior counts
            np.zeros(game.max_moves + 1, dtype=np.int64),  # expansion order
            np.full(game.move_limit + 1, -1, dtype=np.int64),  # move -> edge (grandfather)
        )
        cfg_f = np.array([cfg.c, cfg.rave_k, cfg.prior_value, cfg.prior_count,
                          cfg.grandfather, cfg.widening_a, cfg.widening_b])
        cfg_i = np.array([cfg.rave, cfg.priors, cfg.widening, cfg.widening_initial,
                          cfg.max_depth, 1, game.max_moves, self.eager, cfg.rave_mse,
                          cfg.rave_weighted, cfg.expand_visits, cfg.rave_first_player,
                          cfg.rave_child],
                         dtype=np.int64)
        with np.errstate(over="ignore"):  # far thresholds are inf: never unlocked
            steps = cfg.widening_a * cfg.widening_b ** np.arange(max(game.max_moves, 1))
            thresholds = np.cumsum(steps)
        # the tree's random stream: a SplitMix is used as it is (and advanced), so a Python
        # UCT and this search can share one stream; any other generator gives a seed
        shared = isinstance(rng, SplitMix)
        stream = np.array([rng.state if shared else int(rng.integers(2**63))],
                          dtype=np.uint64)
        comp = _compiled(game, self._T, Wk, cfg_f, cfg_i, self.counters, stream)
        kc, kt, kk, kl, kp, ko = comp.kernels
        st = tuple(np.empty_like(a) for a in game.state)
        self.counters[C_NEED_ROOM] = 0
        self.counters[C_FULL] = 0
        self.counters[C_MAXDEPTH] = 0
        self.counters[C_ITER] = 0
        self.grows_deferred = 0
        settled = False
        settle = (cfg.early_stop if early_stop is None else early_stop) and cfg.final == "visits"
        # the root: a node of the last tree with this position, or a new one
        reused = 0.0
        seat_to_move = root.to_move
        found = -1
        if cfg.reuse and self.counters[C_ROOT] >= 0:
            root_key = game.kernels[2](game.ctx, game.state)  # the key kernel, as the nodes
            queue = np.empty(int(self.counters[C_NODES]) + 1, dtype=np.int64)
            found = k_find(self._T, int(self.counters[C_ROOT]), root_key, seat_to_move, 4,
                           queue)
        if found >= 0:
            n_nodes = int(self.counters[C_NODES])
            k_reroot(self._T, self.counters, found, np.empty(n_nodes, dtype=np.uint8),
                     np.empty(n_nodes, dtype=np.int64))
            reused = float(self._T[2][0])
        fresh = found < 0
        budget = budget.after_reuse(reused)  # a cap of visits counts the kept ones
        while comp.root(kc, kt, kk, kl, game.ctx, game.state, st, self._T, Wk, cfg_f, cfg_i,
                        self.counters, fresh) < 0:
            if not self._resize(*self._grown(game.max_moves)):
                raise MemoryError(f"tree_mb={cfg.tree_mb} cannot hold the root's moves")
        # iterations, in batches between which the budget is checked
        max_moves = game.max_moves
        playouts = 0
        edges0 = int(self.counters[C_EDGES])
        deadline = None if budget.seconds is None else t0 + budget.seconds
        per_iter = self.seconds_per_iter or 0.0  # seconds per iteration, measured
        # the pools for the budget, before the loop (not when asked to stop already)
        if self.edges_per_iter is not None and not self.counters[C_STOP]:
            seconds = None if deadline is None else deadline - budget.clock()
            self._resize(*self._projected(self._iterations(budget, 0, seconds, per_iter),
                                          max_moves))
        t_loop = None  # when the first batch started
        batch = 8
        eighth = max(8, (budget.playouts or 0) // 8)  # early stop's checks without a deadline
        while True:
            left = budget.playouts - playouts if budget.playouts is not None else 1 << 40
            if left <= 0 or self.counters[C_STOP]:
                break
            t1 = budget.clock()
            t_loop = t1 if t_loop is None else t_loop
            if deadline is None:
                batch = min(left, eighth) if settle else left
            else:
                if t1 >= deadline:
                    break
                if playouts > 0:  # about 20 ms a batch, at most half the time left
                    target = min(0.02, 0.5 * (deadline - t1))
                    batch = min(4 * batch, max(1, int(target / per_iter)))
                batch = min(left, batch)
            done = comp.iterate(kc, kt, kk, kl, kp, ko, game.ctx, game.state, st, self._T, Wk,
                                cfg_f, cfg_i, thresholds, self.counters, stream, batch)
            playouts += done
            now = budget.clock()
            if done > 0:
                per_iter = max((now - t1) / done, 1e-9)
            if done > 0 and self.counters[C_FULL] == 0:  # a full pool adds no edges
                self.edges_per_iter = (int(self.counters[C_EDGES]) - edges0) / playouts
            if self.counters[C_STOP]:  # asked to stop: return now, no growing
                break
            if settle:
                remaining = self._iterations(budget, playouts,
                                             None if deadline is None else deadline - now,
                                             per_iter)
                if remaining >= 1 and self._settled(remaining):
                    settled = True
                    break
            if deadline is not None and cfg_i[5]:  # the projection at this rate, early
                need = self._projected(self._iterations(budget, playouts, deadline - now,
                                                        per_iter), max_moves)
                if self._short(*need) and self._time_to_grow(deadline - now):
                    self._resize(*need)
            if self.counters[C_NEED_ROOM]:  # past the projection: double
                self.counters[C_NEED_ROOM] = 0
                if deadline is not None and not self._time_to_grow(deadline - budget.clock()):
                    cfg_i[5] = 0  # no time to grow: expansions wait for the next search
                    self.grows_deferred += 1
                elif not self._resize(*self._grown(max_moves)):
                    cfg_i[5] = 0  # at the cap: go on without growing (expansions are skipped)
        t_end = budget.clock()
        if playouts > 0 and t_loop is not None:
            self.seconds_per_iter = (t_end - t_loop) / playouts
        if shared:
            rng.state = int(stream[0])
        return self._result(playouts, t_end - t0, reused, settled)

    def _settled(self, remaining: float) -> bool:
        """Whether the root's most visited move leads every other by more than ``remaining``
        visits: no search of that many more iterations can change the move chosen."""
        assert self._T is not None
        r = int(self.counters[C_ROOT])
        f, n = int(self._T[0][r]), int(self._T[1][r])
        if n < 2:
            return True
        visits = self._T[6][f:f + n] - self._T[8][f:f + n]
        second, best = np.partition(visits, n - 2)[n - 2:]
        return bool(best - second > remaining)

    def request_stop(self) -> None:
        """Ask the search under way (in another thread) to return after the iteration in
        progress, with the tree as it stands. The request holds, and every search returns
        at once, until :meth:`clear_stop`."""
        self.counters[C_STOP] = 1

    def clear_stop(self) -> None:
        """Withdraw :meth:`request_stop` (call it when no search is under way)."""
        self.counters[C_STOP] = 0

    def root_edges(self) -> dict[str, np.ndarray]:
        """The root's edge statistics after a search (copies): move, N, W, N0, RN, RW."""
        if self._T is None or self.counters[C_ROOT] < 0:
            raise ValueError("no tree yet")
        r = int(self.counters[C_ROOT])
        f, n = int(self._T[0][r]), int(self._T[1][r])
        names = ("move", "N", "W", "N0", "RN", "RW")
        return {k: self._T[5 + i][f:f + max(n, 0)].copy() for i, k in enumerate(names)}

    def principal_variation(self, move: int, length: int) -> list[int]:
        """The line the tree expects after the root's ``move`` (after a search): ``move``,
        then at each node below the most visited move, ``length`` moves at most."""
        if self._T is None or self.counters[C_ROOT] < 0:
            raise ValueError("no tree yet")
        (nd_first, nd_count, _, _, _, e_move, e_N, _, e_N0, _, _, e_child) = self._T
        line: list[int] = []
        v = int(self.counters[C_ROOT])
        while v >= 0 and len(line) < length:
            f, n = int(nd_first[v]), int(nd_count[v])
            if n <= 0:
                break
            visits = e_N[f:f + n] - e_N0[f:f + n]
            picked = np.flatnonzero(e_move[f:f + n] == move) if not line else [
                int(np.argmax(visits))]
            if len(picked) == 0 or (line and visits[picked[0]] <= 0):
                break
            e = f + int(picked[0])
            line.append(int(e_move[e]))
            v = int(e_child[e])
        return line

    def _result(self, playouts: int, elapsed: float, reused: float, settled: bool
                ) -> SearchResult:
        assert self._T is not None
        (nd_first, nd_count, nd_n, _, _, e_move, e_N, e_W, e_N0, _, _, _) = self._T
        r = int(self.counters[C_ROOT])
        f, n = int(nd_first[r]), int(nd_count[r])
        moves = e_move[f:f + n]
        N = e_N[f:f + n]
        visits = N - e_N0[f:f + n]
        means = np.where(N > 0, e_W[f:f + n] / np.maximum(N, 1e-300), np.nan)
        b = final_index(self.config.final, visits, means)
        info = {
            "reused_visits": int(reused),
            "max_depth": int(self.counters[C_MAXDEPTH]),
            "nodes": int(self.counters[C_NODES]),
            "pool_full": int(self.counters[C_FULL]),
            "grows_deferred": self.grows_deferred,
            "tree_mb": round(self.pool_bytes() / 1e6, 1),
            "settled": settled,
        }
        return SearchResult(
            move=int(moves[b]),
            value=float(means[b]),
            moves=[int(m) for m in moves],
            visits=[int(round(x)) for x in visits],
            values=[float(x) for x in means],
            playouts=playouts,
            elapsed=elapsed,
            info=info,
        )


def tree_bytes(nodes: int, edges: int) -> int:
    """Bytes of pools holding ``nodes`` nodes and ``edges`` edges."""
    return nodes * _NODE_BYTES + edges * _EDGE_BYTES


__all__ = ["CompiledUCT", "SplitMix", "TreeGame", "rng_next", "rng_unit", "tree_bytes"]
