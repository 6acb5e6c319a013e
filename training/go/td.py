"""``corvid learn go td``: a TD(0) value over local shapes by self-play (RLGO: Silver, Sutton
and Müller 2007).

Q(s, a) = σ(φ(s∘a)ᵀθ), φ the local-shape counts of :mod:`knowledge.go.shapes` of the position
after the move, seen by its player, learned by :func:`search.learn.td0_selfplay` in ε-greedy
self-play on the empty board (area scoring, the komi given), in chunks of games so that
progress is reported and the θ so far kept (resumable from --out). The θ goes into a copy of
a weights file (``td_theta``), where the priors can use it (``td_visits``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

import numpy as np

from games.go import PASS, GoState
from games.go import board as K
from knowledge.go.shapes import k_shape_counts, n_shape_features, shape_tables
from knowledge.go.weights import GoWeights, forget_weights, load_weights, save_weights
from search.learn import td0_selfplay


def afterstate_features(state: GoState, move: int) -> np.ndarray:
    """φ of the position after the player to move plays ``move``, seen by that player."""
    two, three = shape_tables()
    c = state.to_play
    b = state.board_array().copy()
    if move != PASS:
        K.k_play(b, move, c)
    out = np.empty(n_shape_features())
    k_shape_counts(b, c, two, three, out)
    return out


def td_weights(weights_path: str, out: Path, *, games: int, size: int = 9, komi: float = 7.0,
               step: float = 0.1, epsilon: float = 0.1, seed: int = 1, chunk: int = 100,
               command: str = "", log: Callable[[str], None] = print) -> GoWeights:
    base = load_weights(weights_path)
    n = n_shape_features()
    theta = np.zeros(n)
    played = 0
    if out.exists():  # resume
        prev = load_weights(str(out))
        info = prev.manifest.get("td0", {})
        if prev.td_theta is not None and info.get("seed") == seed:
            theta = np.array(prev.td_theta)
            played = int(info.get("games", 0))
            log(f"resuming after {played} games")
    while played < games:
        k = min(chunk, games - played)
        rng = np.random.default_rng([seed, played])  # the same games however it is resumed
        theta = td0_selfplay(lambda: GoState(size, komi), afterstate_features, n, games=k,
                             rng=rng, step=step, epsilon=epsilon, theta=theta)
        played += k
        manifest = dict(base.manifest)
        manifest["td0"] = {"base_weights": str(weights_path), "games": played, "size": size,
                           "komi": komi, "step": step, "epsilon": epsilon, "seed": seed,
                           "command": command, "date": datetime.date.today().isoformat(),
                           "features": n}
        save_weights(out, GoWeights(base.prior, base.playout, manifest, str(out), theta))
        forget_weights()
        log(f"{played} games; |θ| {np.abs(theta).mean():.4f}")
    return load_weights(str(out))
