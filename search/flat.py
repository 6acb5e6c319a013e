"""Determinised flat Monte Carlo with a bandit at the root (Konuma, Honda, Hoki and Nishino;
Auer, Cesa-Bianchi and Fischer 2002).

Arms are the root's legal moves. Each playout picks an arm by UCB1-TUNED (or UCB1), takes
one world (a sampled determinisation when the root is an info set, else a clone), plays the
arm, plays the rest out with the game's playout policy and credits the arm with the
α-discounted value of the playout. The final choice is the best mean (or most visits).

With ``priors`` set and a root that offers them (games.contract.HasPriors) each arm starts
with its prior as pseudo-pulls (search.bandit.prior_arms): they count in the arm's mean and
its confidence bound, not in its reported visits nor in the playouts.

When the root offers ``playout_batch`` (games.contract.HasPlayoutBatch) the core selects a
small batch of arms at a time — each selection counted provisionally at the arm's current
mean, so a batch spreads as sequential selection would — and the game runs the whole batch in
one compiled call.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
import numpy as np

from search.bandit import credit_discounted, prior_arms, select_arms
from search.budget import Budget
from search.result import SearchResult


class FlatConfig(msgspec.Struct, frozen=True):
    bandit: Literal["ucb1-tuned", "ucb1"] = "ucb1-tuned"
    c: float = 1.4142135623730951  # UCB1 exploration constant
    alpha: float = 1.0  # 1.0 = plain Monte Carlo
    final: Literal["mean", "visits"] = "mean"
    batch: int = 16  # playouts per kernel call when the game offers playout_batch
    # move ordering: with a root that offers move_priors(moves), search only the most
    # probable moves whose prior mass reaches ``prune`` (at least ``min_arms`` of them)
    prune: float = 1.0
    min_arms: int = 4
    # start each arm with the root's priors (value, pseudo-pulls) when it offers them
    priors: bool = False


class FlatMC:
    """Flat Monte Carlo over the root's moves. Stateless between decisions."""

    def __init__(self, config: FlatConfig | None = None) -> None:
        self.config = config or FlatConfig()

    def search(
        self, root: Any, seat: int, budget: Budget, rng: np.random.Generator
    ) -> SearchResult:
        cfg = self.config
        meter = budget.start()
        moves = list(root.legal_moves())
        if not moves:
            raise ValueError("flat search from a position with no legal moves")
        legal = len(moves)
        if cfg.prune < 1.0 and len(moves) > cfg.min_arms and hasattr(root, "move_priors"):
            moves = self._ordered(moves, np.asarray(root.move_priors(moves), np.float64))
        k = len(moves)
        if k == 1:  # nothing to decide
            return SearchResult(moves[0], float("nan"), moves, [0], [float("nan")], 0,
                                meter.elapsed(), {"arms": 1})
        n, s, s2 = self._arms(root if cfg.priors else None, moves)
        n0 = n.copy()
        batched = hasattr(root, "playout_batch")
        tuned = cfg.bandit == "ucb1-tuned"
        total = 0
        while not meter.done(total):
            size = cfg.batch if batched else 1
            if budget.playouts is not None:
                size = min(size, budget.playouts - total)
            arms = select_arms(n, s, s2, total, size, tuned, cfg.c, rng.random(size))
            if batched:
                pb = root.playout_batch([moves[a] for a in arms], rng, seat)
                credit_discounted(n, s, s2, arms, np.ascontiguousarray(pb.returns, np.float64),
                                  np.ascontiguousarray(pb.evals, np.float64),
                                  np.ascontiguousarray(pb.n_evals, np.int64), cfg.alpha)
            else:
                final, evals = self._one_playout(root, moves[arms[0]], seat, rng)
                credit_discounted(n, s, s2, arms, np.array([final]), evals[None, :],
                                  np.array([len(evals)], dtype=np.int64), cfg.alpha)
            total += size
        with np.errstate(divide="ignore", invalid="ignore"):
            means = np.where(n > 0, s / n, -np.inf)
        visits = n - n0
        best = int(np.argmax(visits if cfg.final == "visits" else means))
        return SearchResult(
            move=moves[best],
            value=float(means[best]),
            moves=moves,
            visits=[int(x) for x in visits],
            values=[float(x) if np.isfinite(x) else float("nan") for x in means],
            playouts=total,
            elapsed=meter.elapsed(),
            info={"arms": k, "alpha": cfg.alpha,
                  **({"pruned": legal - k} if legal > k else {})},
        )

    @staticmethod
    def _arms(root: Any, moves: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The arms' starting statistics ``(n, s, s2)``: the root's priors of ``moves`` as
        pseudo-pulls when it offers them (None: no root to ask), else none."""
        values, counts = np.full(len(moves), 0.5), np.zeros(len(moves))
        if hasattr(root, "priors"):
            pr = root.priors()
            pos = {m: i for i, m in enumerate(pr.moves)}
            for j, m in enumerate(moves):
                i = pos.get(m)
                if i is not None:
                    values[j], counts[j] = pr.values[i], pr.counts[i]
        return prior_arms(values, counts)

    def _ordered(self, moves: list[Any], priors: np.ndarray) -> list[Any]:
        """The most probable moves whose prior mass reaches ``prune`` (at least
        ``min_arms``), in their original order."""
        order = np.argsort(-priors, kind="stable")
        mass = np.cumsum(priors[order]) / max(float(priors.sum()), 1e-300)
        keep = max(self.config.min_arms, int(np.searchsorted(mass, self.config.prune)) + 1)
        return [moves[i] for i in sorted(order[:keep].tolist())]

    def _one_playout(self, root: Any, move: Any, seat: int,
                     rng: np.random.Generator) -> tuple[float, np.ndarray]:
        """One world, ``move``, then the playout: (R for ``seat``, its evals r_0..r_{N-2})."""
        world = root.sample_world(rng) if hasattr(root, "sample_world") else root.clone()
        world.play(move)
        if world.is_terminal():
            return float(world.returns()[seat]), np.zeros(0)
        p = world.playout(rng, seat)
        return float(p.returns[seat]), np.ascontiguousarray(p.evals, dtype=np.float64)
