"""Information-set MCTS over the searching player's own moves (Cowling, Powley and Whitehouse
2012, "Information Set Monte Carlo Tree Search", the single-observer variant), the other
players moved by the playout policy.

Each iteration samples one determinisation of the root's information set and walks down a
tree whose edges are the searching player's own moves only: at each of its turns it picks,
among the moves legal in this determinisation, the child with the best bandit index; the
other players' moves between its turns are drawn from the playout policy and are not part of
the tree (a node stands for every way the others may have played since). On the first visit
of a node the playout takes over. A child's index counts the visits of its parent in which
the child's move was legal (its *availability*, Cowling et al.) in place of the parent's
visits: UCB1-TUNED, or UCB1 with constant ``c``; or, below the root with ``priors``, PUCT over
the probabilities of our moves by the playout policy (a node's first visits follow the
policy's favourites rather than every move in turn). The value backed up is the playout's return
α-discounted over the searching player's turns after the root (search.alpha), as the flat
core values its arms; the final move is the root's most visited child (or best mean).

Where the flat core (search.flat) plays every later move of its own by the playout policy,
this core searches them: the line of its own moves that wins against the others' likely
replies, not the average of the policy's lines.

The tree
--------
:class:`OwnTree` is a pool of nodes, plain arrays: node ``v`` (0 = the root) was reached by
the own move ``move[v]``; its children form a list from ``first[v]`` through ``nxt``; ``N``,
``S``, ``S2`` are its visits, value sum and squared value sum, ``A`` its availability.
``size[0]`` nodes are in use. The game's kernel grows the tree (one node per iteration at
most: a move is added when it is first tried) and never past the pool's capacity; the core
doubles the pool between batches when a batch could fill it.

The game interface
------------------
The root offers ``own_tree_batch(tree, iterations, rng, seat, tuned, c, priors)``: run that
many iterations on ``tree`` in one compiled call (the game samples the determinisations,
plays the others' moves and the playouts, and uses :func:`descend` — or, with ``priors``,
:func:`descend_prior` below the root — and :func:`backup`).
"""

from __future__ import annotations

import math
from typing import Any, Literal

import msgspec
import numpy as np
from numba import njit

from search.bandit import arm_index
from search.budget import Budget
from search.result import SearchResult

# the node pool's arrays as the kernels take them: move, first, nxt, N, S, S2, A, size
TreeArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                   np.ndarray, np.ndarray]


class ISMCTSConfig(msgspec.Struct, frozen=True):
    bandit: Literal["ucb1-tuned", "ucb1"] = "ucb1-tuned"
    c: float = 0.7  # UCB1's exploration constant (UCB1-TUNED has none), and PUCT's
    final: Literal["visits", "mean"] = "visits"
    batch: int = 64  # iterations per compiled call (the budget is checked between calls)
    # below the root: PUCT over the game's prior probabilities of our moves (its playout
    # policy's) in place of the bandit
    priors: bool = False


class OwnTree:
    """The node pool (module docstring), ``capacity`` nodes."""

    def __init__(self, capacity: int = 1 << 12) -> None:
        self.move = np.zeros(capacity, np.int64)
        self.first = np.full(capacity, -1, np.int64)
        self.nxt = np.full(capacity, -1, np.int64)
        self.N = np.zeros(capacity, np.float64)
        self.S = np.zeros(capacity, np.float64)
        self.S2 = np.zeros(capacity, np.float64)
        self.A = np.zeros(capacity, np.float64)
        self.size = np.ones(1, np.int64)  # the root

    @property
    def capacity(self) -> int:
        return len(self.move)

    def reserve(self, nodes: int) -> None:
        """Room for ``nodes`` more nodes (the pool doubles as often as it must)."""
        need = int(self.size[0]) + nodes
        if need <= self.capacity:
            return
        cap = self.capacity
        while cap < need:
            cap *= 2
        for name, fill in (("move", 0), ("first", -1), ("nxt", -1), ("N", 0), ("S", 0),
                           ("S2", 0), ("A", 0)):
            old = getattr(self, name)
            new = np.full(cap, fill, old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)

    def arrays(self) -> TreeArrays:
        """What a game's kernel takes: (move, first, nxt, N, S, S2, A, size)."""
        return self.move, self.first, self.nxt, self.N, self.S, self.S2, self.A, self.size

    def children(self, v: int = 0) -> list[int]:
        out = []
        c = int(self.first[v])
        while c >= 0:
            out.append(c)
            c = int(self.nxt[c])
        return out


@njit(cache=True)
def find_child(move: np.ndarray, first: np.ndarray, nxt: np.ndarray, v: int, m: int) -> int:
    """The child of ``v`` reached by ``m``, or -1."""
    c = first[v]
    while c >= 0:
        if move[c] == m:
            return c  # type: ignore[no-any-return]
        c = nxt[c]
    return -1


@njit(cache=True)
def add_child(tree: TreeArrays, v: int, m: int) -> int:
    """A new child of ``v`` reached by ``m`` (first in its list), or -1 if the pool is
    full."""
    move, first, nxt, N, S, S2, A, size = tree
    c = size[0]
    if c >= move.shape[0]:
        return -1
    size[0] = c + 1
    move[c] = m
    first[c] = -1
    nxt[c] = first[v]
    first[v] = c
    N[c] = S[c] = S2[c] = A[c] = 0.0
    return c  # type: ignore[no-any-return]


@njit(cache=True)
def descend(tree: TreeArrays, v: int, moves: np.ndarray, k: int, tuned: bool, c: float,
            u: float) -> int:
    """The child of ``v`` to follow among the moves ``moves[:k]`` legal now, each of its
    children among them counted available: a move not yet tried first (the first in
    ``moves`` order from a random start ``u`` in [0, 1), added to the tree), else the child
    of the best index (also when the pool is full); -1 if no child can be followed (every
    move new, and the pool full)."""
    move, first, nxt, N, S, S2, A, size = tree
    best = -1
    best_score = -np.inf
    new = -1  # the index in ``moves`` of the first move not yet tried
    start = int(u * k)
    for j in range(k):
        i = (start + j) % k
        ch = find_child(move, first, nxt, v, moves[i])
        if ch < 0:
            if new < 0:
                new = i
            continue
        A[ch] += 1.0
        score = arm_index(N[ch], S[ch], S2[ch], math.log(A[ch]), tuned, c)
        if score > best_score:
            best, best_score = ch, score
    if new >= 0:
        ch = add_child(tree, v, moves[new])
        if ch >= 0:
            A[ch] = 1.0
            return ch
    return best


@njit(cache=True)
def descend_prior(tree: TreeArrays, v: int, moves: np.ndarray, k: int, prior: np.ndarray,
                  c: float) -> int:
    """The child of ``v`` to follow among the moves ``moves[:k]`` legal now, with their
    prior probabilities ``prior[:k]``, by PUCT (Silver et al. 2017): the best Q + c P
    sqrt(N_v) / (1 + n), Q the child's mean, or the parent's for a move not yet tried (added
    to the tree when chosen); each child among them counted available. -1 if the move
    chosen is new and the pool full."""
    move, first, nxt, N, S, S2, A, size = tree
    fpu = S[v] / N[v] if N[v] > 0.0 else 0.5
    root_n = math.sqrt(max(N[v], 1.0))
    best = -1
    best_score = -np.inf
    for i in range(k):
        ch = find_child(move, first, nxt, v, moves[i])
        if ch >= 0:
            A[ch] += 1.0
        n = N[ch] if ch >= 0 else 0.0
        q = S[ch] / n if n > 0.0 else fpu
        score = q + c * prior[i] * root_n / (1.0 + n)
        if score > best_score:
            best, best_score = i, score
    ch = find_child(move, first, nxt, v, moves[best])
    if ch < 0:
        ch = add_child(tree, v, moves[best])
        if ch >= 0:
            A[ch] = 1.0
    return ch


@njit(cache=True)
def backup(tree: TreeArrays, path: np.ndarray, depth: int, value: float) -> None:
    """Credit ``value`` to the nodes ``path[:depth]``."""
    N, S, S2 = tree[3], tree[4], tree[5]
    for d in range(depth):
        v = path[d]
        N[v] += 1.0
        S[v] += value
        S2[v] += value * value


class ISMCTS:
    """The core (module docstring). Stateless between decisions: each search grows a tree
    of its own."""

    def __init__(self, config: ISMCTSConfig | None = None) -> None:
        self.config = config or ISMCTSConfig()

    def search(self, root: Any, seat: int, budget: Budget,
               rng: np.random.Generator) -> SearchResult:
        cfg = self.config
        meter = budget.start()
        moves = list(root.legal_moves())
        if not moves:
            raise ValueError("ISMCTS from a position with no legal moves")
        if len(moves) == 1:
            return SearchResult(moves[0], float("nan"), moves, [0], [float("nan")], 0,
                                meter.elapsed(), {"arms": 1})
        tree = OwnTree(1 + min(budget.playouts or 1 << 14, 1 << 14))
        tuned = cfg.bandit == "ucb1-tuned"
        total = 0
        while not meter.done(total):
            size = cfg.batch
            if budget.playouts is not None:
                size = min(size, budget.playouts - total)
            tree.reserve(size)
            root.own_tree_batch(tree, size, rng, seat, tuned, cfg.c, cfg.priors)
            total += size
        stats = {int(tree.move[v]): v for v in tree.children(0)}
        unknown = set(stats) - set(moves)
        if unknown:
            raise RuntimeError(f"the tree holds moves not legal at the root: {sorted(unknown)}")
        visits = [int(tree.N[stats[m]]) if m in stats else 0 for m in moves]
        means = [float(tree.S[stats[m]] / tree.N[stats[m]]) if m in stats and tree.N[stats[m]]
                 else float("nan") for m in moves]
        key = visits if cfg.final == "visits" else [x if x == x else -np.inf for x in means]
        best = int(np.argmax(key))
        depth = self._depth(tree)
        return SearchResult(moves[best], means[best], moves, visits, means, total,
                            meter.elapsed(),
                            {"arms": len(moves), "nodes": int(tree.size[0]), "depth": depth})

    @staticmethod
    def _depth(tree: OwnTree) -> int:
        """The depth of the most visited line (own moves)."""
        d, v = 0, 0
        while True:
            ch = tree.children(v)
            if not ch:
                return d
            v = max(ch, key=lambda c: tree.N[c])
            if tree.N[v] < 1:
                return d
            d += 1
