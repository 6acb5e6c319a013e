"""Learning playout policies and values (Gelly and Silver 2007; Silver and Tesauro 2009),
generic over the contract.

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
* :func:`mm_fit` — move-pattern ratings by minorization-maximization (Coulom 2007,
  Coulom 2007): each candidate move is a team of features, P(j) = γ_j / Σ_k γ_k with
  γ_j = Π_{i∈j} γ_i, fitted to the moves chosen; :func:`mm_log_likelihood`,
  :func:`mm_prediction_rate` (:func:`prediction_rate` for any ranking), and
  :func:`select_contests` (a subset of a data set of contests).
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


Sampler = Callable[[Any, Vec, int, int, np.random.Generator],
                   tuple[Vec, npt.NDArray[np.float64], npt.NDArray[np.float64]]]
"""``sampler(state, θ, n, seat, rng) -> (z, grads, steps)``: n playouts of the policy π_θ
from ``state``: outcome for ``seat``, Σ_t ∇log π(s_t, a_t) (one row per playout) and the
number of policy decisions T of each."""


def softmax_sampler(features: Features) -> Sampler:
    """The :class:`SoftmaxPolicy` over all legal moves, played in Python (the reference)."""

    def sample(state: Any, theta: Vec, n: int, seat: int, rng: np.random.Generator
               ) -> tuple[Vec, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        pol = SoftmaxPolicy(features, theta)
        runs = [_softmax_playout(state, pol, seat, rng) for _ in range(n)]
        z = np.array([r[0] for r in runs])
        grads = np.array([r[1] for r in runs]).reshape(n, len(theta))
        return z, grads, np.array([float(r[2]) for r in runs])

    return sample


def simulation_balancing(positions: Sequence[tuple[Any, float]], features: Features | None,
                         theta: Vec, *, rng: np.random.Generator, iterations: int = 1,
                         m_playouts: int = 16, n_playouts: int = 16, step: float = 1.0,
                         seat: int | None = None, sampler: Sampler | None = None,
                         batch: int = 1,
                         on_position: Callable[[int, float, float], None] | None = None
                         ) -> Vec:
    """Simulation balancing (Silver and Tesauro 2009).

    ``positions`` are (state, V*) pairs with V* the target value of the state for ``seat``
    (default: the player to move). Each iteration visits every position: V̂ from
    ``m_playouts`` playouts of the policy, the gradient of the expected outcome
    g = Σ_j z_j/(N T_j) Σ_t ∇log π from ``n_playouts`` more, then θ ← θ + step (V* − V̂) g
    (applied every ``batch`` positions). The policy is the softmax over ``features``, or
    ``sampler``'s (a game's compiled playouts). ``on_position(i, V*, V̂)`` after each.
    Returns the new θ.
    """
    smp = sampler if sampler is not None else softmax_sampler(_need(features))
    th = theta.astype(np.float64).copy()
    delta = np.zeros_like(th)
    pending = 0
    i = 0
    for _ in range(iterations):
        for state, target in positions:
            who = state.to_move if seat is None else seat
            v_hat = float(np.mean(smp(state, th, m_playouts, who, rng)[0]))
            z, grads, steps = smp(state, th, n_playouts, who, rng)
            g = (z / np.maximum(steps, 1.0)) @ grads / n_playouts
            delta += step * (target - v_hat) * g
            pending += 1
            if pending == batch:
                th += delta
                delta[:] = 0.0
                pending = 0
            if on_position is not None:
                on_position(i, target, v_hat)
            i += 1
    return th + delta


def _need(features: Features | None) -> Features:
    if features is None:
        raise ValueError("simulation_balancing needs features or a sampler")
    return features


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


def softmax_chosen_log_probs(theta: Vec, X: npt.NDArray[np.float64],
                             offsets: npt.NDArray[np.int64],
                             chosen: npt.NDArray[np.int64]) -> Vec:
    """log π_θ(chosen_g | candidates of g) of each decision g for the softmax π ∝ exp(φᵀθ)
    over groups: the rows ``offsets[g]:offsets[g+1]`` of ``X`` are the candidates of decision
    g and ``chosen[g]`` the index (within the group) of the one taken."""
    z = X @ theta
    starts = offsets[:-1]
    zmax = np.maximum.reduceat(z, starts)
    sizes = np.diff(offsets)
    ez = np.exp(z - np.repeat(zmax, sizes))
    lse = np.log(np.add.reduceat(ez, starts)) + zmax
    return z[starts + chosen] - lse  # type: ignore[no-any-return]


def softmax_log_likelihood(theta: Vec, X: npt.NDArray[np.float64], offsets: npt.NDArray[np.int64],
                           chosen: npt.NDArray[np.int64]) -> float:
    """Σ_g log π_θ(chosen_g): the sum of :func:`softmax_chosen_log_probs`."""
    return float(np.sum(softmax_chosen_log_probs(theta, X, offsets, chosen)))


def fit_softmax(X: npt.NDArray[np.float64], offsets: npt.NDArray[np.int64],
                chosen: npt.NDArray[np.int64], *, l2: float = 1.0, prior: Vec | None = None,
                iterations: int = 50, tol: float = 1e-8, start: Vec | None = None) -> Vec:
    """Maximum a posteriori fit of a softmax choice model (imitation of the decisions taken,
    Gelly and Silver 2007: the starting point of simulation balancing).

    Decision g chose row ``offsets[g] + chosen[g]`` among rows ``offsets[g]:offsets[g+1]``
    of ``X``. Maximises Σ_g log π_θ(chosen_g) − (l2/2) ||θ − prior||² by Newton's method
    (the log-likelihood is concave), with the Gaussian prior centred on ``prior`` (zeros
    by default): with a small sample the fit stays near the prior. ``start``: where Newton's
    method starts (default: the prior's centre); a previous fit on most of the same data
    converges in a step or two. Returns θ."""
    n_feat = X.shape[1]
    mu = np.zeros(n_feat) if prior is None else np.asarray(prior, np.float64)
    th = mu.copy() if start is None else np.asarray(start, np.float64).copy()
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


# -- move-pattern ratings by minorization-maximization (Coulom 2007) ---------------------------
# A data set of contests: ``teams`` (K, G) int, row k the features of candidate k, one column
# per feature group (each feature id appears in one column only; -1: none in that group);
# the candidates of contest i are rows starts[i]:starts[i + 1]; ``chosen[i]`` is the row of
# the winner (the move played).


def _team_strengths(teams: npt.NDArray[np.integer[Any]], gamma: Vec) -> Vec:
    g1 = np.append(gamma, 1.0)  # index -1: no feature, strength 1
    team: Vec = np.prod(g1[teams], axis=1)
    return team


def _contest_sums(team: Vec, starts: npt.NDArray[np.integer[Any]]) -> Vec:
    sums: Vec = np.add.reduceat(team, starts[:-1]) if len(team) else np.zeros(0)
    return sums


def mm_log_likelihood(teams: npt.NDArray[np.integer[Any]], starts: npt.NDArray[np.integer[Any]],
                      chosen: npt.NDArray[np.integer[Any]], gamma: Vec) -> float:
    """Mean log P(chosen) per contest."""
    team = _team_strengths(teams, gamma)
    return float(np.mean(np.log(team[chosen] / _contest_sums(team, starts))))


def prediction_rate(score: Vec, starts: npt.NDArray[np.integer[Any]],
                    chosen: npt.NDArray[np.integer[Any]]) -> float:
    """Share of contests whose winner has the highest ``score`` (one non-negative number per
    candidate; a tie of t candidates at the top counts 1/t): the prediction rate of any
    ranking of the candidates."""
    best = np.maximum.reduceat(score, starts[:-1])
    lens = np.diff(starts)
    pos = np.repeat(np.arange(len(lens)), lens)
    ties = np.bincount(pos, weights=(score >= best[pos] * (1 - 1e-12)), minlength=len(lens))
    hit = score[chosen] >= best * (1 - 1e-12)
    return float(np.mean(np.where(hit, 1.0 / ties, 0.0)))


def mm_prediction_rate(teams: npt.NDArray[np.integer[Any]],
                       starts: npt.NDArray[np.integer[Any]],
                       chosen: npt.NDArray[np.integer[Any]], gamma: Vec) -> float:
    """Share of contests whose winner has the highest strength (a tie of t candidates at
    the top counts 1/t)."""
    return prediction_rate(_team_strengths(teams, gamma), starts, chosen)


def select_contests(starts: npt.NDArray[np.integer[Any]], keep: npt.NDArray[np.bool_]
                    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                               npt.NDArray[np.int64]]:
    """The contests (or any groups of rows ``starts[i]:starts[i + 1]``) where ``keep`` (a
    bool per contest) holds: their indices, the rows of their candidates, and their starts
    over those rows."""
    idx = np.flatnonzero(keep)
    lens = starts[idx + 1] - starts[idx]
    rows = (np.concatenate([np.arange(starts[i], starts[i + 1]) for i in idx])
            if len(idx) else np.zeros(0, dtype=np.int64))
    return idx, rows.astype(np.int64), np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)


def mm_fit(teams: npt.NDArray[np.integer[Any]], starts: npt.NDArray[np.integer[Any]],
           chosen: npt.NDArray[np.integer[Any]], n_features: int, *, iterations: int = 20,
           prior: float = 1.0, gamma: Vec | None = None,
           on_iteration: Callable[[int, Vec], None] | None = None) -> Vec:
    """Feature strengths γ by minorization-maximization, one group (column) at a time:
    γ_i ← (W_i + prior) / (Σ_p C_ip / E_p + 2 prior / (γ_i + 1)), where W_i counts the
    winners with feature i, E_p is the sum of the strengths of contest p's candidates and
    C_ip the strength of i's team-mates summed over p's candidates with i; ``prior`` virtual
    wins and losses against a strength of 1 keep rare features near 1. Features that never
    occur keep their strength. ``on_iteration(i, γ)`` after each sweep over the groups."""
    g = np.ones(n_features) if gamma is None else gamma.astype(np.float64).copy()
    lens = np.diff(starts)
    pos = np.repeat(np.arange(len(lens)), lens)
    winners = teams[chosen]
    for it in range(iterations):
        team = _team_strengths(teams, g)
        for col in range(teams.shape[1]):
            ids = teams[:, col]
            has = ids >= 0
            if not has.any():
                continue
            e = _contest_sums(team, starts)
            fid = ids[has]
            mates = team[has] / g[fid] / e[pos[has]]
            denom = np.bincount(fid, weights=mates, minlength=n_features)
            w = winners[:, col]
            wins = np.bincount(w[w >= 0], minlength=n_features).astype(np.float64)
            seen = np.unique(fid)
            old = g[seen].copy()
            g[seen] = (wins[seen] + prior) / (denom[seen] + 2.0 * prior / (old + 1.0))
            ratio = np.ones(n_features + 1)
            ratio[seen] = g[seen] / old
            team[has] *= ratio[fid]
        if on_iteration is not None:
            on_iteration(it, g)
    return g
