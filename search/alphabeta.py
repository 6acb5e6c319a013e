"""Iterative-deepening α-β (negamax) with an evaluation passed in (Osaki and Kotani's player).

The searcher sees a game only through the contract (``legal_moves``, ``play``, ``clone`` or
``undo``, ``is_terminal``, ``returns``, ``to_move``, ``key``) and an evaluation
``evaluate(state) -> float``: the value in [0, 1] of a non-terminal ``state`` for the seat to
move (for example ``σ(k w·x)`` of a learned linear evaluation). Terminal positions are valued
by ``returns()``. Values are negamaxed as ``1 - v`` when the seat to move changes (two-player
zero-sum games whose returns sum to 1).

* Iterative deepening from depth 1 until the budget runs out (seconds, or ``playouts`` read
  as a node count for deterministic runs), or ``max_depth``;
  an unfinished iteration counts only when it has already found a move better than the
  previous iteration's best (which it searched first).
* Move ordering: the previous iteration's best move at every position seen (by ``key()``)
  first, then, when ``order`` is set, the rest by the static evaluation of the child. When
  the evaluation offers ``child_values(state, moves)`` (the value of every child for the
  mover, computed without building the children), ordering uses it.
* ``width`` > 0 keeps only the best ``width`` moves by static evaluation below the root (a
  forward-pruned, selective α-β: Blokus has hundreds of moves a position).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import msgspec
import numpy as np

from search.budget import Budget
from search.result import SearchResult

Evaluate = Callable[[Any], float]


class AlphaBetaConfig(msgspec.Struct, frozen=True):
    max_depth: int = 32
    width: int = 0  # 0: every move; else the best `width` moves by static eval below the root
    root_width: int = 0  # 0: every root move; else the best `root_width` beyond depth 1
    order: bool = True  # order moves by the static evaluation of the child
    check_every: int = 16  # consult the clock every this many nodes


class _Timeout(Exception):
    pass


class AlphaBeta:
    """Iterative-deepening negamax α-β. Stateless between decisions."""

    def __init__(self, evaluate: Evaluate, config: AlphaBetaConfig | None = None) -> None:
        self.evaluate = evaluate
        self.config = config or AlphaBetaConfig()
        self.nodes = 0
        self._exact = False
        self._armed = False
        self._next_check = 0

    # -- helpers -----------------------------------------------------------------------
    def _child(self, state: Any, move: Any) -> Any:
        c = state.clone()
        c.play(move)
        return c

    def _tick(self, n: int = 1) -> None:
        """Count ``n`` nodes; consult the budget every ``check_every`` nodes (every node for
        a node budget) and abandon the iteration when it is spent."""
        self.nodes += n
        if not self._armed:
            return
        if self._exact or self.nodes >= self._next_check:
            self._next_check = self.nodes + self.config.check_every
            if self._meter.done(self.nodes):
                raise _Timeout

    def _leaf_value(self, state: Any) -> float:
        """The value of ``state`` for its seat to move (terminal: its return)."""
        if state.is_terminal():
            r = state.returns()
            # a terminal state has no mover; value it for the seat that would be to move
            return float(r[self._mover_of(state)])
        return float(self.evaluate(state))

    @staticmethod
    def _mover_of(state: Any) -> int:
        try:
            return int(state.to_move)
        except Exception:  # noqa: BLE001 - some games leave to_move undefined at the end
            return 0

    def _value_for(self, parent_mover: int, child: Any, v_child: float) -> float:
        """Convert a child's value (for its mover) to the parent's mover."""
        if child.is_terminal():
            return float(child.returns()[parent_mover])
        return v_child if self._mover_of(child) == parent_mover else 1.0 - v_child

    def _static(self, state: Any, moves: list[Any]) -> tuple[list[float], dict[Any, Any]]:
        """Static values of every child for the mover of ``state`` (and the children built
        on the way, when the evaluation cannot value them without building them)."""
        batch = getattr(self.evaluate, "child_values", None)
        if batch is not None:
            vals = batch(state, moves)
            self._tick(len(moves))
            return [float(v) for v in vals], {}
        mover = self._mover_of(state)
        built: dict[Any, Any] = {}
        out = []
        for m in moves:
            c = self._child(state, m)
            self._tick()
            built[m] = c
            out.append(self._value_for(mover, c, self._leaf_value(c)))
        return out, built

    def _ordered(self, state: Any, moves: list[Any], width: int
                 ) -> tuple[list[tuple[Any, float]], dict[Any, Any]]:
        """(move, static value for the mover of ``state``) in search order, and any children
        already built."""
        cfg = self.config
        if cfg.order or width:
            vals, built = self._static(state, moves)
            kids = sorted(zip(moves, vals, strict=True), key=lambda t: -t[1])
            if width and len(kids) > width:
                kids = kids[:width]
        else:
            kids, built = [(m, math.nan) for m in moves], {}
        hint = self._best.get(state.key())
        if hint is not None:
            for i, (m, _) in enumerate(kids):
                if m == hint:
                    kids.insert(0, kids.pop(i))
                    break
        return kids, built

    # -- negamax -----------------------------------------------------------------------
    def _negamax(self, state: Any, depth: int, alpha: float, beta: float) -> float:
        """Value of non-terminal ``state`` for its mover, searched ``depth`` plies."""
        self._tick()
        if depth == 0:
            return float(self.evaluate(state))
        mover = self._mover_of(state)
        moves = list(state.legal_moves())
        kids, built = self._ordered(state, moves, self.config.width)
        best = -math.inf
        best_move = None
        for m, v_static in kids:
            if depth == 1 and not math.isnan(v_static):
                v = v_static
            else:
                c = built.get(m)
                if c is None:
                    c = self._child(state, m)
                if c.is_terminal():
                    v = float(c.returns()[mover])
                elif depth == 1:
                    v = self._value_for(mover, c, float(self.evaluate(c)))
                elif self._mover_of(c) == mover:
                    v = self._negamax(c, depth - 1, alpha, beta)
                else:
                    v = 1.0 - self._negamax(c, depth - 1, 1.0 - beta, 1.0 - alpha)
            if v > best:
                best, best_move = v, m
            if v > alpha:
                alpha = v
            if alpha >= beta:
                break
        if best_move is not None:
            self._best[state.key()] = best_move
        return best

    # -- the search --------------------------------------------------------------------
    def search(
        self, root: Any, seat: int | None, budget: Budget, rng: np.random.Generator
    ) -> SearchResult:
        cfg = self.config
        meter = budget.start()
        self._meter = meter
        self._exact = budget.playouts is not None  # a node budget is checked at every node
        self.nodes = 0
        self._armed = True
        self._next_check = 0
        self._best: dict[int, Any] = {}
        mover = self._mover_of(root)
        moves = list(root.legal_moves())
        if not moves:
            raise ValueError("alpha-beta search from a position with no legal moves")
        values = [math.nan] * len(moves)
        pos = {m: i for i, m in enumerate(moves)}
        if len(moves) == 1:
            return SearchResult(moves[0], math.nan, moves, [0], values, 0, meter.elapsed(),
                                {"depth": 0, "nodes": 0})
        # depth 1: every root move, statically valued and ordered (never interrupted, so a
        # legal best move always exists; the budget's caller leaves room for it)
        self._armed = False
        vals, built = self._static(root, moves)
        self._armed = True
        for i, v in enumerate(vals):
            values[i] = v
        ranked = sorted(zip(moves, vals, strict=True), key=lambda t: -t[1])
        best_move, best_value = ranked[0]
        completed = 1
        if cfg.root_width and len(ranked) > cfg.root_width:
            ranked = ranked[: cfg.root_width]
        kids = [(m, built[m] if m in built else self._child(root, m), v) for m, v in ranked
                ] if cfg.max_depth >= 2 else []
        depth = 2
        while depth <= cfg.max_depth:
            if meter.done(self.nodes):
                break
            it_best, it_value = None, -math.inf
            alpha = -math.inf
            it_values: dict[Any, float] = {}
            try:
                for m, c, _ in kids:
                    if c.is_terminal():
                        v = float(c.returns()[mover])
                    elif self._mover_of(c) == mover:
                        v = self._negamax(c, depth - 1, alpha, math.inf)
                    else:
                        v = 1.0 - self._negamax(c, depth - 1, -math.inf, 1.0 - alpha)
                    it_values[m] = v
                    if v > it_value:
                        it_best, it_value = m, v
                    alpha = max(alpha, v)
                finished = True
            except _Timeout:
                finished = False
            if finished:
                best_move, best_value = it_best, it_value
                for m, v in it_values.items():
                    values[pos[m]] = v
                completed = depth
                kids.sort(key=lambda t: -it_values.get(t[0], -math.inf))
                if all(c.is_terminal() for _, c, _ in kids):
                    break
                depth += 1
            else:
                # the first move searched was the previous best: a move found better than it
                # in the unfinished iteration is better at this depth too
                if it_best is not None and it_best != best_move and kids and \
                        kids[0][0] in it_values and it_value > it_values[kids[0][0]]:
                    best_move, best_value = it_best, it_value
                break
        return SearchResult(
            move=best_move,
            value=float(best_value),
            moves=moves,
            visits=[0] * len(moves),
            values=[float(v) for v in values],
            playouts=self.nodes,
            elapsed=meter.elapsed(),
            info={"depth": completed, "nodes": self.nodes},
        )
