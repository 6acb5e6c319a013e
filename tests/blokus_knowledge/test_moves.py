"""The learned move features of Blokus Duo: the kernel against the plain-Python reference on
random positions, the weights file, and the learned priors against their reference."""

from __future__ import annotations

import numpy as np
import pytest

from games.blokus_duo import PASS, BlokusState
from games.blokus_duo.reference import RefBoard
from knowledge.blokus_duo import moves as MV
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.reference import reference_move_features, reference_priors
from knowledge.blokus_duo.settings import BlokusConfig


def random_states(seed: int, count: int) -> list[BlokusState]:
    """Positions along random games, both move orders, from the first move to the end."""
    rng = np.random.default_rng(seed)
    out: list[BlokusState] = []
    while len(out) < count:
        s = BlokusState(first=len(out) % 2)
        stop = int(rng.integers(0, 44))
        while not s.is_terminal() and len(s.history) < stop:
            moves = s.legal_moves()
            s.play(moves[int(rng.integers(len(moves)))])
        if s.legal_placements():
            out.append(s)
    return out


def test_features_match_the_reference() -> None:
    seen = np.zeros(MV.NUM_FEATURES, dtype=bool)
    for s in random_states(11, 24):
        legal = s.legal_placements()
        ref = reference_move_features(RefBoard.from_state(s), s.to_move_colour)
        got = MV.move_features(s, legal)
        assert sorted(ref) == sorted(legal)
        for row, m in zip(got, legal, strict=True):
            assert tuple(int(f) for f in row) == ref[m], s.code(m)
        seen[got[got >= 0]] = True
    # every group takes more than one value over these positions
    for g in range(MV.NUM_GROUPS):
        lo, n = MV.GROUP_BASE[g], MV.GROUP_SIZES[g]
        assert seen[lo:lo + n].sum() >= 2, MV.GROUP_NAMES[g]


def test_feature_ids_stay_in_their_group() -> None:
    for s in random_states(12, 8):
        f = MV.move_features(s)
        for g in range(MV.NUM_GROUPS):
            col = f[:, g]
            lo, n = MV.GROUP_BASE[g], MV.GROUP_SIZES[g]
            assert ((col == -1) | ((col >= lo) & (col < lo + n))).all()
    assert len(MV.feature_names()) == MV.NUM_FEATURES


def weights_file(tmp_path, gamma: np.ndarray) -> str:  # type: ignore[no-untyped-def]
    path = tmp_path / "w.npz"
    MV.MoveWeights(gamma, {"command": "test"}).save(path)
    return str(path)


def test_learned_priors_match_the_reference(tmp_path) -> None:  # type: ignore[no-untyped-def]
    gamma = np.random.default_rng(5).lognormal(0.0, 1.0, MV.NUM_FEATURES)
    cfg = BlokusConfig(priors="learned", move_weights=weights_file(tmp_path, gamma),
                       prior_low=0.2, prior_high=0.8, prior_tau=0.5, prior_count=12.0,
                       open_pieces=2)
    checked = 0
    for s in random_states(13, 10):
        pr = BlokusPosition(s, cfg).priors()
        if pr.moves == [PASS]:
            continue
        ref = reference_priors(RefBoard.from_state(s), s.to_move_colour, cfg)
        assert sorted(ref) == list(pr.moves)
        for m, v, c in zip(pr.moves, pr.values, pr.counts, strict=True):
            assert (v, c) == pytest.approx(ref[m], rel=1e-9, abs=1e-12), s.code(m)
        unpruned = pr.counts == 12.0
        assert pr.values[unpruned].max() == pytest.approx(0.8)
        assert pr.values[unpruned].min() >= 0.2
        checked += 1
    assert checked >= 8


def test_the_strongest_features_rank_first(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # the monomino made very strong: every monomino placement gets the top value
    gamma = np.ones(MV.NUM_FEATURES)
    gamma[MV.GROUP_BASE[MV.G_PIECE]:MV.GROUP_BASE[MV.G_PIECE] + 4] = 100.0
    cfg = BlokusConfig(priors="learned", move_weights=weights_file(tmp_path, gamma))
    s = random_states(14, 1)[0]
    pos = BlokusPosition(s, cfg)
    pr = pos.priors()
    mono = s.geo.piece[np.asarray(pr.moves)] == 0
    assert mono.any() and (~mono).any()
    assert pr.values[mono] == pytest.approx(0.9)
    assert (pr.values[~mono] < 0.9).all()


def test_bad_weights_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="not a move-weights file"):
        BlokusConfig(priors="learned", move_weights=str(tmp_path / "missing.npz"))
    short = weights_file(tmp_path, np.ones(5))
    with pytest.raises(ValueError, match="strengths"):
        BlokusConfig(priors="learned", move_weights=short)
    with pytest.raises(ValueError, match="prior_low"):
        BlokusConfig(priors="learned", prior_low=0.9, prior_high=0.5)
    # a file is only read when the learned priors are used
    assert BlokusConfig(priors="knowledge", move_weights=short).move_weights == short


def test_the_bundled_weights_load() -> None:
    w = MV.load_move_weights("")
    assert w.gamma.shape == (MV.NUM_FEATURES,)
    assert w.manifest["command"].startswith("corvid learn blokus priors")
    assert w.manifest["test"]["prediction_rate"] > w.manifest["test"]["uniform_prediction_rate"]
