"""Learning playout policies and values (algorithms.md §6 and §8), generic over the contract.

A game provides ``features(state, move) -> np.ndarray`` (a vector φ(s, a); binary features as
0/1) through the callable passed in; nothing here knows a game.

* :func:`td0_selfplay` — Q(s,a) = σ(φ(s,a)ᵀθ) learned by TD(0) in ε-greedy self-play:
  δ = r + Q(s',a') − Q(s,a) (the next term from the mover's point of view), Δθ = α/|φ| δ φ.
* :class:`SoftmaxPolicy` / :func:`q_policy` — turning Q or θ into a stochastic playout policy
  (softmax with temperature τ, ε-greedy, or greedy on Q + Gaussian noise).
* :func:`simulation_balancing` — trains a softmax playout policy so that the *mean playout
  result* matches a target V*(s), not so that each move is strong:
  g = Σ_j z_j/(N T) Σ_t ∇log π(s_t,a_t), ∇log π = φ(s,a) − Σ_b π(s,b) φ(s,b),
  θ ← θ + α (V*(s) − V̂(s)) g.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

Vec = npt.NDArray[np.float64]
Features = Callable[[Any, Any], Vec]


def sigmoid(x: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-x))


def _phi_matrix(features: Features, state: Any, moves: Sequence[Any]) -> npt.NDArray[np.float64]:
    return np.array([features(state, m) for m in moves], dtype=np.float64)


class SoftmaxPolicy:
    """π_θ(s,a) = exp(φ(s,a)ᵀθ / τ) / Σ_b exp(φ(s,b)ᵀθ / τ)."""

    def __init__(self, features: Features, theta: Vec, temperature: float = 1.0) -> None:
        self.features = features
        self.theta = theta
        self.temperature = temperature

    def probabilities(self, state: Any, moves: Sequence[Any]) -> tuple[Vec, Vec]:
        phi = _phi_matrix(self.features, state, moves)
        z = phi @ self.theta / self.temperature
        z -= z.max()
        p = np.exp(z)
        return p / p.sum(), phi

    def choose(self, state: Any, rng: np.random.Generator) -> Any:
        moves = list(state.legal_moves())
        p, _ = self.probabilities(state, moves)
        return moves[int(rng.choice(len(moves), p=p))]


def q_policy(features: Features, theta: Vec, rng: np.random.Generator, *, kind: str = "softmax",
             epsilon: float = 0.1, sigma: float = 0.1,
             temperature: float = 0.1) -> Callable[[Any], Any]:
    """A playout policy from Q = σ(φᵀθ): "epsilon" (ε-greedy), "noise" (greedy on Q plus
    N(0, σ²)) or "softmax" (temperature τ over Q)."""

    def choose(state: Any) -> Any:
        moves = list(state.legal_moves())
        q = sigmoid(_phi_matrix(features, state, moves) @ theta)
        if kind == "epsilon":
            i = int(rng.integers(len(moves))) if rng.random() < epsilon else int(np.argmax(q))
        elif kind == "noise":
            i = int(np.argmax(q + rng.normal(0.0, sigma, len(q))))
        elif kind == "softmax":
            z = (q - q.max()) / temperature
            p = np.exp(z)
            i = int(rng.choice(len(moves), p=p / p.sum()))
        else:
            raise ValueError(f"unknown policy kind {kind!r}")
        return moves[i]

    return choose


def td0_selfplay(new_game: Callable[[], Any], features: Features, n_features: int, *,
                 games: int, rng: np.random.Generator, step: float = 0.1,
                 epsilon: float = 0.1, theta: Vec | None = None) -> Vec:
    """Learn θ of Q(s,a) = σ(φ(s,a)ᵀθ) (value for the player to move at s) by TD(0) in
    ε-greedy self-play. Returns θ."""
    th = np.zeros(n_features) if theta is None else theta.astype(np.float64).copy()
    for _ in range(games):
        s = new_game()
        prev: tuple[Vec, int] | None = None  # (φ of the last move, its mover)
        while not s.is_terminal():
            moves = list(s.legal_moves())
            phi = _phi_matrix(features, s, moves)
            q = sigmoid(phi @ th)
            i = int(rng.integers(len(moves))) if rng.random() < epsilon else int(np.argmax(q))
            if prev is not None:  # δ = Q(s',a') seen from the previous mover − Q(s,a)
                pphi, pmover = prev
                target = q[i] if s.to_move == pmover else 1.0 - q[i]
                _td_update(th, pphi, target, step)
            prev = (phi[i], s.to_move)
            s.play(moves[i])
        if prev is not None:
            pphi, pmover = prev
            _td_update(th, pphi, float(s.returns()[pmover]), step)
    return th


def _td_update(theta: Vec, phi: Vec, target: float, step: float) -> None:
    q = float(sigmoid(phi @ theta))
    norm = max(float(np.abs(phi).sum()), 1.0)
    theta += step / norm * (target - q) * phi


def simulation_balancing(positions: Sequence[tuple[Any, float]], features: Features,
                         theta: Vec, *, rng: np.random.Generator, iterations: int = 1,
                         m_playouts: int = 16, n_playouts: int = 16, step: float = 1.0,
                         seat: int | None = None) -> Vec:
    """Simulation balancing (Silver & Tesauro; algorithms.md §8).

    ``positions`` are (state, V*) pairs with V* the target value of the state for ``seat``
    (default: the player to move). Each iteration visits every position: V̂ from
    ``m_playouts`` playouts of the softmax policy, the gradient of the expected outcome from
    ``n_playouts`` more, then θ ← θ + step (V* − V̂) g. Returns the new θ.
    """
    th = theta.astype(np.float64).copy()
    for _ in range(iterations):
        for state, target in positions:
            who = state.to_move if seat is None else seat
            pol = SoftmaxPolicy(features, th)
            v_hat = np.mean([_softmax_playout(state, pol, who, rng)[0]
                             for _ in range(m_playouts)])
            g = np.zeros_like(th)
            for _ in range(n_playouts):
                z, grad, steps = _softmax_playout(state, pol, who, rng)
                g += z * grad / max(steps, 1)
            g /= n_playouts
            th += step * (target - v_hat) * g
    return th


def _softmax_playout(state: Any, policy: SoftmaxPolicy, seat: int,
                     rng: np.random.Generator) -> tuple[float, Vec, int]:
    """One playout by the policy: (outcome for ``seat``, Σ_t ∇log π(s_t,a_t), T)."""
    s = state.clone()
    grad = np.zeros_like(policy.theta)
    steps = 0
    while not s.is_terminal():
        moves = list(s.legal_moves())
        p, phi = policy.probabilities(s, moves)
        i = int(rng.choice(len(moves), p=p))
        grad += phi[i] - p @ phi
        s.play(moves[i])
        steps += 1
    return float(s.returns()[seat]), grad, steps


def softmax_log_likelihood(theta: Vec, X: npt.NDArray[np.float64], offsets: npt.NDArray[np.int64],
                           chosen: npt.NDArray[np.int64]) -> float:
    """Σ_g log π_θ(chosen_g | candidates of g) for the softmax π ∝ exp(φᵀθ) over groups:
    the rows ``offsets[g]:offsets[g+1]`` of ``X`` are the candidates of decision g and
    ``chosen[g]`` the index (within the group) of the one taken."""
    z = X @ theta
    starts = offsets[:-1]
    zmax = np.maximum.reduceat(z, starts)
    sizes = np.diff(offsets)
    ez = np.exp(z - np.repeat(zmax, sizes))
    lse = np.log(np.add.reduceat(ez, starts)) + zmax
    return float(np.sum(z[starts + chosen] - lse))


def fit_softmax(X: npt.NDArray[np.float64], offsets: npt.NDArray[np.int64],
                chosen: npt.NDArray[np.int64], *, l2: float = 1.0, prior: Vec | None = None,
                iterations: int = 50, tol: float = 1e-8) -> Vec:
    """Maximum a posteriori fit of a softmax choice model (imitation of the decisions taken,
    algorithms.md §6/§8: the starting point of simulation balancing).

    Decision g chose row ``offsets[g] + chosen[g]`` among rows ``offsets[g]:offsets[g+1]``
    of ``X``. Maximises Σ_g log π_θ(chosen_g) − (l2/2) ||θ − prior||² by Newton's method
    (the log-likelihood is concave), with the Gaussian prior centred on ``prior`` (zeros
    by default): with a small sample the fit stays near the prior. Returns θ."""
    n_feat = X.shape[1]
    mu = np.zeros(n_feat) if prior is None else np.asarray(prior, np.float64)
    th = mu.copy()
    starts = offsets[:-1]
    sizes = np.diff(offsets)
    group = np.repeat(np.arange(len(starts)), sizes)
    picked = X[starts + chosen]

    def objective(t: Vec) -> float:
        return softmax_log_likelihood(t, X, offsets, chosen) - 0.5 * l2 * float(
            np.sum((t - mu) ** 2))

    f = objective(th)
    for _ in range(iterations):
        z = X @ th
        zmax = np.maximum.reduceat(z, starts)
        ez = np.exp(z - zmax[group])
        p = ez / np.add.reduceat(ez, starts)[group]
        mean = np.add.reduceat(X * p[:, None], starts)  # E_π[φ] per decision
        grad = picked.sum(axis=0) - mean.sum(axis=0) - l2 * (th - mu)
        hess = (X * p[:, None]).T @ X - mean.T @ mean + l2 * np.eye(n_feat)
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-6:
            cand = th + t * step
            fc = objective(cand)
            if fc >= f - 1e-12:
                break
            t *= 0.5
        th, f_old, f = cand, f, fc
        if abs(f - f_old) < tol * max(1.0, abs(f)):
            break
    return th
