"""Playout policies: the kernel's move distribution against the reference's exact one."""

from __future__ import annotations

import numpy as np
import pytest

from games.blokus_duo import BlokusState
from games.blokus_duo.reference import RefBoard
from knowledge.blokus_duo import playout_features as PF
from knowledge.blokus_duo import policy as P
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.reference import reference_playout_team, reference_policy
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


@pytest.fixture(scope="module")
def learned_weights(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A playout-weights file of strengths spanning two orders of magnitude."""
    gamma = np.exp(np.random.default_rng(5).normal(0.0, 1.2, PF.PF_FEATURES))
    path = tmp_path_factory.mktemp("weights") / "playouts.npz"
    PF.PlayoutWeights(gamma, {"made": "for a test"}).save(path)
    return str(path)


def random_position(seed: int, plies: int) -> BlokusState:
    s = BlokusState(first=seed % 2)
    p = BlokusPosition(s).playout(np.random.default_rng(seed), 0)
    for m in p.moves[:plies].tolist():
        s.play(m)
    return s


@pytest.mark.parametrize(("seed", "plies"), [(1, 0), (2, 1), (3, 7), (4, 14), (5, 22),
                                             (6, 30)])
def test_playout_features_match_the_reference(seed: int, plies: int) -> None:
    s = random_position(seed, plies)
    legal = s.legal_placements()
    got = PF.playout_team(s, legal)
    ref = RefBoard.from_state(s)
    for i, m in enumerate(legal):
        assert got[i].tolist() == reference_playout_team(ref, s.to_move_colour, m), m


def test_playout_weights_file_is_checked(tmp_path: pytest.TempPathFactory) -> None:
    bad = tmp_path / "bad.npz"  # type: ignore[operator]
    PF.PlayoutWeights(np.ones(PF.PF_FEATURES - 1), {}).save(bad)
    with pytest.raises(ValueError, match="strengths"):
        BlokusConfig(playout="learned", playout_weights=str(bad))
    with pytest.raises(ValueError, match="not a playout-weights file"):
        BlokusConfig(playout="learned", playout_weights=str(bad) + ".missing")


@pytest.mark.parametrize(("seed", "plies"), [(1, 9), (7, 20)])
def test_learned_policy_distribution(learned_weights: str, seed: int, plies: int) -> None:
    """The learned policy's exact draw (``playout_candidates=0``: among all legal
    placements) follows the reference's probabilities."""
    cfg = BlokusConfig(playout="learned", playout_weights=learned_weights,
                       playout_candidates=0)
    s = random_position(seed, plies)
    colour = s.to_move_colour
    w = P.playout_params(cfg)[1].tolist()
    probs = reference_policy(RefBoard.from_state(s), colour, w, False, learned=True)
    assert len(probs) >= 10
    n = 30000
    got = sample(s, cfg, colour, n, seed)
    moves = sorted(probs)
    counts = dict.fromkeys(moves, 0)
    for m in got.tolist():
        counts[m] += 1
    exp = np.array([probs[m] * n for m in moves])
    obs = np.array([counts[m] for m in moves])
    keep = exp >= 5  # the chi-square's cells: pool the rare placements into one
    chi2 = float(((obs[keep] - exp[keep]) ** 2 / exp[keep]).sum())
    rest_e, rest_o = exp[~keep].sum(), obs[~keep].sum()
    if rest_e > 0:
        chi2 += (rest_o - rest_e) ** 2 / rest_e
    dof = int(keep.sum()) - (0 if rest_e > 0 else 1)
    assert chi2 < dof + 5 * np.sqrt(2 * dof), (chi2, dof)


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


def test_learned_policy_among_two_candidates(learned_weights: str) -> None:
    """With ``playout_candidates=2`` a pick keeps one of two uniform legal draws in
    proportion to their weights: placement m with probability (2/n²) Σ_j w_m / (w_m + w_j)
    over the n legal placements j."""
    cfg = BlokusConfig(playout="learned", playout_weights=learned_weights,
                       playout_candidates=2)
    s = random_position(4, 12)
    colour = s.to_move_colour
    exact = reference_policy(RefBoard.from_state(s), colour, P.playout_params(cfg)[1].tolist(),
                             False, learned=True)  # proportional to the weights
    moves = sorted(exact)
    w = np.array([exact[m] for m in moves])
    n = len(moves)
    probs = 2.0 / n**2 * (w[:, None] / (w[:, None] + w[None, :])).sum(axis=1)
    assert probs.sum() == pytest.approx(1.0)
    draws = 30000
    got = sample(s, cfg, colour, draws, 9)
    counts = dict.fromkeys(moves, 0)
    for m in got.tolist():
        counts[m] += 1
    exp = probs * draws
    obs = np.array([counts[m] for m in moves])
    chi2 = float(((obs - exp) ** 2 / exp).sum())
    assert chi2 < (n - 1) + 5 * np.sqrt(2 * (n - 1)), (chi2, n)
