"""An evaluation function learned from selective simulations (Osaki and Kotani, Blokus Duo).

A linear evaluation v = w·x of a feature vector x (from the seat to move's view), normalised
V = σ(k v) = 1 / (1 + exp(-k v)), is trained so that V approximates the win rate r of
simulations *selected by the evaluation itself*:

* training positions P_t come from ε-greedy self-play (ε falls linearly from ``eps_start`` to
  ``eps_end`` over the updates; the greedy move maximises the evaluation of the child);
* for each P_t, ``m`` simulations run to the end; at every simulated step ``n`` legal moves are
  drawn at random (all if fewer) and the one the current evaluation likes best is played
  ("best-of-n"); r_t = wins / m for the seat to move at P_t (a draw counts 1/2);
* one batch gradient step per update on OF = Σ_t (r_t - V_t)²:
  w_j ← w_j + α k Σ_t (r_t - V_t) σ(v_t)(1 - σ(v_t)) x_tj.

Generic: the learner sees a game only through the contract (``legal_moves``, ``play``,
``clone``, ``is_terminal``, ``returns``, ``to_move``) and a ``features(state) -> ndarray``
callable. A game may pass a compiled ``simulate`` callable for the hot loop.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

Features = Callable[[Any], np.ndarray]
# simulate(state, w, k, n, m, rng) -> win rate in [0, 1] of m best-of-n simulations for the
# seat to move at `state`
Simulate = Callable[[Any, np.ndarray, float, int, int, np.random.Generator], float]
# win rates of many positions at once (w, k, and a seed per position): a parallel backend
WinRates = Callable[[list[Any], np.ndarray, float, list[int]], list[float]]


class SelectiveConfig(msgspec.Struct, frozen=True):
    n: int = 8  # best-of-n (1 = random simulations)
    m: int = 100  # simulations per training position
    k: float = 0.02  # σ(k v)
    alpha: float = 0.5  # learning rate
    updates: int = 10000  # batch gradient steps (one self-play game each)
    positions: int = 0  # training positions drawn from each self-play game (0 = all)
    eps_start: float = 0.5  # ε of the ε-greedy self-play at the first update ...
    eps_end: float = 0.05  # ... falling linearly to this at the last
    selfplay_n: int = 0  # greedy self-play picks among this many random moves (0 = all)


def sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


class LinearEval:
    """V(state) = σ(k w·features(state)) for the seat to move; terminal states by returns."""

    def __init__(self, weights: np.ndarray, k: float, features: Features) -> None:
        self.w = np.asarray(weights, dtype=np.float64)
        self.k = float(k)
        self.features = features

    def raw(self, state: Any) -> float:
        return float(self.w @ np.asarray(self.features(state), dtype=np.float64))

    def __call__(self, state: Any) -> float:
        return sigmoid(self.k * self.raw(state))

    def child_value(self, mover: int, child: Any) -> float:
        """The value of ``child`` (after a move of ``mover``) for ``mover``."""
        if child.is_terminal():
            return float(child.returns()[mover])
        v = self(child)
        return v if child.to_move == mover else 1.0 - v

    def child_values(self, state: Any, moves: list[Any]) -> np.ndarray:
        """The value for the mover of ``state`` of each child ``state + move``. Games may
        override this with a compiled version that does not build the children."""
        mover = state.to_move
        out = np.empty(len(moves))
        for i, mv in enumerate(moves):
            c = state.clone()
            c.play(mv)
            out[i] = self.child_value(mover, c)
        return out

    def best_of(self, state: Any, moves: list[Any]) -> tuple[Any, Any]:
        """The move among ``moves`` whose child the evaluation likes best, and the child."""
        vals = self.child_values(state, moves)
        best = moves[int(np.argmax(vals))]
        child = state.clone()
        child.play(best)
        return best, child


def _pick(moves: list[Any], n: int, rng: np.random.Generator) -> list[Any]:
    if n <= 0 or len(moves) <= n:
        return moves
    idx = rng.choice(len(moves), size=n, replace=False)
    return [moves[int(i)] for i in idx]


def simulate_python(state: Any, ev: LinearEval, n: int, m: int, rng: np.random.Generator
                    ) -> float:
    """m best-of-n simulations from ``state``: the win rate of its seat to move."""
    seat = state.to_move
    total = 0.0
    for _ in range(m):
        s = state.clone()
        while not s.is_terminal():
            moves = list(s.legal_moves())
            cand = _pick(moves, n, rng)
            if len(cand) == 1:
                s.play(cand[0])
            else:
                _, child = ev.best_of(s, cand)
                s = child
        total += float(s.returns()[seat])
    return total / m


class LearnResult(msgspec.Struct, frozen=True):
    weights: list[float]
    k: float
    history: list[dict[str, float]]


class SelectiveLearner:
    """Best-of-n selective-simulation learner of a linear evaluation."""

    def __init__(self, features: Features, config: SelectiveConfig | None = None,
                 simulate: Simulate | None = None,
                 make_eval: Callable[[np.ndarray, float], LinearEval] | None = None,
                 win_rates: WinRates | None = None) -> None:
        """``make_eval(w, k)`` may build a game's faster :class:`LinearEval` subclass (one
        with a compiled ``child_values``); by default ``LinearEval(w, k, features)``.
        ``win_rates(positions, w, k, seeds)``: the simulations of an update's positions at
        once (worker processes); each position gets a seed drawn from the run's generator and
        its simulations their own generator from it, so the result does not depend on how
        the positions are shared out (but differs from the in-process stream)."""
        self.features = features
        self.config = config or SelectiveConfig()
        self.simulate = simulate
        self.win_rates = win_rates
        self.make_eval = make_eval or (lambda w, k: LinearEval(w, k, self.features))

    def epsilon(self, t: int) -> float:
        cfg = self.config
        if cfg.updates <= 1:
            return cfg.eps_end
        return cfg.eps_start + (cfg.eps_end - cfg.eps_start) * t / (cfg.updates - 1)

    def self_play(self, initial: Any, ev: LinearEval, eps: float, rng: np.random.Generator
                  ) -> list[Any]:
        """The non-terminal positions of one ε-greedy self-play game."""
        s = initial.clone()
        positions = []
        while not s.is_terminal():
            positions.append(s.clone())
            moves = list(s.legal_moves())
            if len(moves) == 1:
                s.play(moves[0])
            elif rng.random() < eps:
                s.play(moves[int(rng.integers(len(moves)))])
            else:
                _, s = ev.best_of(s, _pick(moves, self.config.selfplay_n, rng))
        return positions

    def win_rate(self, state: Any, ev: LinearEval, rng: np.random.Generator) -> float:
        cfg = self.config
        if self.simulate is not None:
            return float(self.simulate(state, ev.w, ev.k, cfg.n, cfg.m, rng))
        return simulate_python(state, ev, cfg.n, cfg.m, rng)

    def update(self, w: np.ndarray, positions: list[Any], rng: np.random.Generator
               ) -> tuple[np.ndarray, dict[str, float]]:
        """One batch gradient step from the given training positions."""
        cfg = self.config
        ev = self.make_eval(w, cfg.k)
        grad = np.zeros_like(w)
        err2 = 0.0
        rs = []
        batch = None
        if self.win_rates is not None:
            seeds = [int(rng.integers(2**63)) for _ in positions]
            batch = self.win_rates(positions, w, cfg.k, seeds)
        for i, p in enumerate(positions):
            x = np.asarray(self.features(p), dtype=np.float64)
            vt = sigmoid(cfg.k * float(w @ x))
            r = self.win_rate(p, ev, rng) if batch is None else float(batch[i])
            grad += (r - vt) * vt * (1.0 - vt) * x
            err2 += (r - vt) ** 2
            rs.append(r)
        w = w + cfg.alpha * cfg.k * grad
        n = max(len(positions), 1)
        return w, {"positions": float(len(positions)), "mse": err2 / n,
                   "mean_r": float(np.mean(rs)) if rs else float("nan")}

    def learn(self, initial: Any, rng: np.random.Generator, w0: np.ndarray | None = None,
              progress: Callable[[int, dict[str, float]], None] | None = None,
              should_stop: Callable[[], bool] | None = None, start: int = 0,
              history: list[dict[str, float]] | None = None,
              on_update: Callable[[int, np.ndarray, list[dict[str, float]]], None] | None = None
              ) -> LearnResult:
        """Run updates ``start`` .. ``config.updates - 1`` from ``initial`` (a fresh game
        state); ``w0`` and ``history`` are the weights and statistics so far (a resumed run).
        ``on_update(t, w, history)`` is called after each update (for checkpoints)."""
        cfg = self.config
        dim = len(np.asarray(self.features(initial)))
        w = np.zeros(dim) if w0 is None else np.asarray(w0, dtype=np.float64).copy()
        history = list(history or [])
        for t in range(start, cfg.updates):
            if should_stop is not None and should_stop():
                break
            eps = self.epsilon(t)
            ev = self.make_eval(w, cfg.k)
            positions = self.self_play(initial, ev, eps, rng)
            if cfg.positions and len(positions) > cfg.positions:
                idx = np.sort(rng.choice(len(positions), size=cfg.positions, replace=False))
                positions = [positions[int(i)] for i in idx]
            w, stats = self.update(w, positions, rng)
            stats = {"update": float(t), "eps": eps, **stats}
            history.append(stats)
            if progress is not None:
                progress(t, stats)
            if on_update is not None:
                on_update(t, w, history)
        return LearnResult([float(x) for x in w], cfg.k, history)


# --- weights files ----------------------------------------------------------------------
def save_weights(path: str | Path, weights: np.ndarray | list[float], k: float,
                 meta: dict[str, Any] | None = None) -> None:
    """A ``.npz`` with ``w`` (float64), ``k`` and ``meta`` (JSON text)."""
    import json

    np.savez(Path(path), w=np.asarray(weights, dtype=np.float64), k=np.float64(k),
             meta=np.array(json.dumps(meta or {})))


def load_weights(path: str | Path) -> tuple[np.ndarray, float, dict[str, Any]]:
    import json

    with np.load(Path(path), allow_pickle=False) as z:
        w = np.asarray(z["w"], dtype=np.float64)
        k = float(z["k"])
        meta = json.loads(str(z["meta"])) if "meta" in z.files else {}
    return w, k, meta
