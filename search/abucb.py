"""α-β over UCB bounds (docs/references.md): a fixed-depth tree whose leaves are estimated by
playouts, grown where a minimax over optimistic and pessimistic bounds points.

1. Build the game tree to ``depth`` plies, keeping at most ``width`` moves per node (the
   game's prior order when it offers priors, else all moves in a random order).
2. Run ``min_playouts`` playouts at every leaf (in rounds over the leaves, one playout each,
   so a budget that ends early leaves them evenly sampled).
3. Repeat until the budget is spent: give every leaf the interval
   [mean − w, mean + w] (w the UCB1-TUNED width, or the UCB1 one), back the intervals up by
   minimax (the root seat maximises, the other seat minimises; upper bounds and lower bounds
   separately) and descend from the root along the bound that the player to move hopes for —
   the upper bound at the root seat's nodes, the lower bound at the opponent's — to one leaf;
   run ``batch`` playouts there. This is the leaf that α-β over the bounds would expand
   first: the descent follows the principal variation of the optimistic tree.
4. Choose the root move by plain minimax over the leaf means.

Values are from the root seat's point of view (two-player games). Terminal positions inside
the tree are exact. A leaf's playouts run in one compiled call when the game offers
``playout_batch`` (from the leaf's parent, the leaf's move first); a leaf never sampled
(the budget ended first) counts as [0, 1] with mean 0.5.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import msgspec
import numpy as np

from search.budget import Budget
from search.result import SearchResult


class ABUCBConfig(msgspec.Struct, frozen=True):
    depth: int = 2
    width: int = 0  # 0 = every move
    min_playouts: int = 4
    bounds: Literal["ucb1-tuned", "ucb1"] = "ucb1-tuned"
    c: float = 1.4142135623730951
    batch: int = 8  # playouts per descent


class _Node:
    __slots__ = ("state", "maximise", "children", "moves", "n", "s", "s2", "exact", "parent",
                 "move")

    def __init__(self, state: Any, maximise: bool, parent: _Node | None = None,
                 move: Any = None) -> None:
        self.state = state
        self.maximise = maximise
        self.parent = parent
        self.move = move
        self.children: list[_Node] = []
        self.moves: list[Any] = []
        self.n = 0.0
        self.s = 0.0
        self.s2 = 0.0
        self.exact: float | None = None


class ABUCB:
    def __init__(self, config: ABUCBConfig | None = None) -> None:
        self.config = config or ABUCBConfig()

    def _build(self, state: Any, seat: int, depth: int, rng: np.random.Generator,
               parent: _Node | None = None, move: Any = None) -> _Node:
        node = _Node(state, state.is_terminal() or state.to_move == seat, parent, move)
        if state.is_terminal():
            node.exact = float(state.returns()[seat])
            return node
        if depth == 0:
            return node
        moves = list(state.legal_moves())
        if hasattr(state, "priors"):
            pr = state.priors()
            score = {m: v for m, v in zip(pr.moves, pr.values, strict=True)}
            moves.sort(key=lambda m: -score.get(m, 0.0))
        else:
            moves = [moves[i] for i in rng.permutation(len(moves))]
        if self.config.width > 0:
            moves = moves[: self.config.width]
        for m in moves:
            child = state.clone()
            child.play(m)
            node.moves.append(m)
            node.children.append(self._build(child, seat, depth - 1, rng, node, m))
        return node

    def _leaves(self, node: _Node) -> list[_Node]:
        if not node.children:
            return [node] if node.exact is None else []
        return [leaf for c in node.children for leaf in self._leaves(c)]

    def _playout(self, leaf: _Node, seat: int, rng: np.random.Generator, k: int = 1) -> None:
        parent = leaf.parent
        if parent is not None and hasattr(parent.state, "playout_batch"):
            vs = np.asarray(parent.state.playout_batch([leaf.move] * k, rng, seat).returns,
                            dtype=np.float64)
        else:
            vs = np.array([leaf.state.playout(rng, seat).returns[seat] for _ in range(k)],
                          dtype=np.float64)
        leaf.n += float(k)
        leaf.s += float(vs.sum())
        leaf.s2 += float((vs * vs).sum())

    def _width(self, leaf: _Node, logt: float) -> float:
        n = leaf.n
        if n == 0:
            return 0.5
        mean = leaf.s / n
        if self.config.bounds == "ucb1":
            return self.config.c * math.sqrt(logt / n)
        var = leaf.s2 / n - mean * mean + math.sqrt(2.0 * logt / n)
        return math.sqrt(logt / n * min(0.25, var))

    def _bounds(self, node: _Node, logt: float) -> tuple[float, float, float]:
        """(lower, mean, upper) backed up by minimax from the leaves."""
        if node.exact is not None:
            return node.exact, node.exact, node.exact
        if not node.children:
            mean = node.s / node.n if node.n > 0 else 0.5
            w = self._width(node, logt)
            return mean - w, mean, mean + w
        trip = [self._bounds(c, logt) for c in node.children]
        pick = max if node.maximise else min
        return (pick(t[0] for t in trip), pick(t[1] for t in trip), pick(t[2] for t in trip))

    def _descend(self, node: _Node, logt: float) -> _Node | None:
        while node.children:
            best: _Node | None = None
            best_b = -math.inf
            for c in node.children:
                if c.exact is not None and not c.children:
                    continue  # nothing to sample there
                lo, _, hi = self._bounds(c, logt)
                b = hi if node.maximise else -lo
                if b > best_b:
                    best, best_b = c, b
            if best is None:
                return None
            node = best
        return node

    def search(self, root: Any, seat: int | None, budget: Budget,
               rng: np.random.Generator) -> SearchResult:
        meter = budget.start()
        seat = root.to_move if seat is None else seat
        tree = self._build(root.clone(), seat, max(1, self.config.depth), rng)
        leaves = self._leaves(tree)
        playouts = 0
        for _ in range(self.config.min_playouts):
            for leaf in leaves:
                if meter.done(playouts):
                    break
                self._playout(leaf, seat, rng)
                playouts += 1
        while leaves and not meter.done(playouts):
            target = self._descend(tree, math.log(max(playouts, 1)))
            if target is None:
                break
            k = max(1, self.config.batch)
            if budget.playouts is not None:
                k = min(k, budget.playouts - playouts)
            self._playout(target, seat, rng, k)
            playouts += k
        logt = math.log(max(playouts, 1))
        means = [self._bounds(c, logt)[1] for c in tree.children]
        visits = [int(sum(lf.n for lf in self._leaves(c))) for c in tree.children]
        b = int(np.argmax(means))
        return SearchResult(
            move=tree.moves[b],
            value=float(means[b]),
            moves=list(tree.moves),
            visits=visits,
            values=[float(m) for m in means],
            playouts=playouts,
            elapsed=meter.elapsed(),
            info={"leaves": len(leaves), "depth": self.config.depth},
        )
