"""Playout policies: the kernel's move distribution against the reference's exact one."""

from __future__ import annotations

import numpy as np
import pytest

from games.blokus_duo import BlokusState
from games.blokus_duo.reference import RefBoard
from knowledge.blokus_duo import policy as P
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.reference import reference_policy
from knowledge.blokus_duo.settings import BlokusConfig


def sample(s: BlokusState, cfg: BlokusConfig, colour: int, n: int,
           seed: int) -> np.ndarray:  # type: ignore[type-arg]
    pol, w = P.playout_params(cfg)
    out = np.empty(n, dtype=np.int64)
    rng = np.array([seed], dtype=np.uint64)
    P.k_sample_picks(s.geo.kernel_args, *s.arrays(), colour, pol, w, rng, out,
                     np.zeros(s.geo.num_cells, dtype=np.uint8))
    return out


CONFIGS = {
    "uniform": BlokusConfig(playout="uniform"),
    "weighted": BlokusConfig(playout="weighted", size_weights=(0.1, 0.2, 0.3, 0.6, 1.0),
                             far_factor=0.25),
    # every term of k_weight: corner gain, taking the opponent's attach points, the opening
    "knowledge": BlokusConfig(playout="weighted", size_weights=(0.1, 0.2, 0.3, 0.6, 1.0),
                              far_factor=0.25, gain_factor=0.7, gain_cap=5, notake_factor=0.4,
                              open_playout=7, open_factor=0.3),
}


@pytest.mark.parametrize("policy", ["uniform", "weighted", "knowledge"])
@pytest.mark.parametrize(("seed", "plies"), [(1, 9), (4, 16), (7, 20)])
def test_policy_distribution(policy: str, seed: int, plies: int) -> None:
    cfg = CONFIGS[policy]
    s = BlokusState(first=seed % 2)
    p = BlokusPosition(s, cfg).playout(np.random.default_rng(seed), 0)
    for m in p.moves[:plies].tolist():
        s.play(m)
    colour = s.to_move_colour
    probs = reference_policy(RefBoard.from_state(s), colour, P.playout_params(cfg)[1].tolist(),
                             policy == "uniform")
    assert len(probs) >= 10, "pick a position where the mover has a choice"
    n = 30000
    got = sample(s, cfg, colour, n, seed)
    moves = sorted(probs)
    counts = {m: 0 for m in moves}
    for m in got.tolist():
        assert m in counts
        counts[m] += 1
    exp = np.array([probs[m] * n for m in moves])
    obs = np.array([counts[m] for m in moves])
    chi2 = float(((obs - exp) ** 2 / exp).sum())
    dof = len(moves) - 1
    assert chi2 < dof + 5 * np.sqrt(2 * dof), (chi2, dof)
    if policy != "uniform":  # big pieces really are preferred
        assert s.geo.ncells[got].mean() > s.geo.ncells[np.asarray(moves)].mean()


@pytest.mark.parametrize("policy", ["uniform", "weighted"])
def test_first_pick_from_dead_lists(policy: str) -> None:
    """The first pick from lists that are mostly dead entries (k_pick then compacts them
    after a run of dead draws) still follows the reference's distribution."""
    cfg = BlokusConfig(playout=policy, size_weights=(0.1, 0.2, 0.3, 0.6, 1.0), far_factor=0.25)
    s = BlokusState(first=1)
    p = BlokusPosition(BlokusState(first=1)).playout(np.random.default_rng(1), 0)
    for m in p.moves[:11].tolist():
        s.play(m)
    colour = s.to_move_colour
    probs = reference_policy(RefBoard.from_state(s), colour, P.playout_params(cfg)[1].tolist(),
                             policy == "uniform")
    listed = int(s.ncand[colour].sum())
    assert 10 <= len(probs) and listed >= 20 * len(probs), (len(probs), listed)
    n = 6000
    counts = {m: 0 for m in sorted(probs)}
    compacted = 0
    for i in range(n):
        t = s.clone()
        m = int(sample(t, cfg, colour, 1, 1000 + i)[0])
        counts[m] += 1
        compacted += int(t.ncand[colour].sum()) == len(probs)
    assert compacted > n // 4  # the compaction path really ran
    exp = np.array([probs[m] * n for m in counts])
    obs = np.array(list(counts.values()))
    chi2 = float(((obs - exp) ** 2 / exp).sum())
    dof = len(counts) - 1
    assert chi2 < dof + 5 * np.sqrt(2 * dof), (chi2, dof)
