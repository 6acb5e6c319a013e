"""Stage 4: simulation balancing of the softmax policy (Silver and Tesauro 2009), with the
generic learner ``search.learn.simulation_balancing``.

Training positions are full positions (every hand known) taken from game logs of strong
players; the target V*(s) of the player to move is the return it really got from there
(an unbiased, noisy estimate of the value of s under the strong players' play). Balancing
moves θ so that the *mean result of the policy's own playouts* from s matches V*(s), instead
of making each move look like the strong player's.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from games.daihinmin.cards import PASS
from games.daihinmin.replay import GameRecord, parse_log
from games.daihinmin.state import GameState
from knowledge.daihinmin.learned import features_matrix, view
from search.learn import simulation_balancing
from training.daihinmin.dataset import plays


def features(state: GameState, move: int) -> np.ndarray:
    """φ(s, a) for the learner (one move at a time, through the kernel)."""
    v = view(state, state.to_move)
    return features_matrix(*v, np.array([move], dtype=np.int64))[0]  # type: ignore[no-any-return]


class PolicyState(GameState):
    """A GameState whose ``legal_moves`` are the policy's candidates: never a pass on an
    empty table (the server accepts it; the policy does not play it)."""

    def legal_moves(self) -> list[int]:
        ms = super().legal_moves()
        if self.table == PASS and len(ms) > 1:
            return [m for m in ms if m != PASS]
        return ms

    def clone(self) -> PolicyState:
        c = PolicyState.__new__(PolicyState)
        c.__dict__.update(super().clone().__dict__)
        return c


def positions(records: Iterable[GameRecord], every: int,
              rng: np.random.Generator) -> list[tuple[PolicyState, float]]:
    """(position, the return its player to move got) every ``every`` plays, at a random
    offset per game; positions where the mover has a single candidate are skipped."""
    out: list[tuple[PolicyState, float]] = []
    for g in records:
        finish = g.result
        returns = {p: (4 - i) * 0.25 for i, p in enumerate(finish)}
        offset = int(rng.integers(every))
        for i, (st, p, _) in enumerate(plays(g)):
            if i % every != offset or len(st.legal_moves()) < 2:
                continue
            ps = PolicyState.__new__(PolicyState)
            ps.__dict__.update(st.clone().__dict__)
            ps.lead_pass = False
            out.append((ps, returns.get(p, 0.0)))
    return out


def balance(logs: list[Path], theta: np.ndarray, *, every: int, iterations: int,
            m_playouts: int, n_playouts: int, step: float, seed: int,
            games: int = 0) -> tuple[np.ndarray, dict[str, Any]]:
    rng = np.random.default_rng(seed)
    records: list[GameRecord] = []
    for path in logs:
        records += parse_log(path.read_text()).games
    if games:
        records = records[:games]
    pos = positions(records, every, rng)
    new = simulation_balancing(pos, features, theta, rng=rng, iterations=iterations,
                               m_playouts=m_playouts, n_playouts=n_playouts, step=step)
    return new, {"positions": len(pos), "games": len(records), "iterations": iterations,
                 "m_playouts": m_playouts, "n_playouts": n_playouts, "step": step,
                 "every": every}
