"""The Blokus Duo priors and reward for the search: the prior kernel against the plain-Python
reference, the opening pruning, the score-margin reward, the settings' checks."""

from __future__ import annotations

import numpy as np
import pytest

from games.blokus_duo import PASS, BlokusState
from games.blokus_duo.reference import RefBoard
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.reference import reference_priors
from knowledge.blokus_duo.settings import BlokusConfig

KNOWLEDGE = BlokusConfig(priors="knowledge", prior_size=0.04, prior_gain=0.03, prior_gain_cap=5,
                         prior_take=0.05, prior_waste=0.025, prior_front=0.03,
                         prior_front_radius=5, open_pieces=3, prior_count=20.0)


def positions(seed: int, config: BlokusConfig, count: int) -> list[BlokusPosition]:
    """Positions along random games (both move orders), the first ones early."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = BlokusPosition(BlokusState(first=len(out) % 2), config)
        stop = int(rng.integers(0, 40))
        while not s.is_terminal() and len(s.state.history) < stop:
            moves = s.legal_moves()
            s.play(moves[int(rng.integers(len(moves)))])
        if not s.is_terminal():
            out.append(s)
    return out


@pytest.mark.parametrize("config", [BlokusConfig(), KNOWLEDGE,
                                    BlokusConfig(open_pieces=2, open_min_size=4)],
                         ids=["size", "knowledge", "size-pruned"])
def test_priors_match_the_reference(config: BlokusConfig) -> None:
    checked = 0
    for s in positions(3, config, 10):
        pr = s.priors()
        if pr.moves == [PASS]:
            continue
        ref = reference_priors(RefBoard.from_state(s.state), s.state.to_move_colour, config)
        assert sorted(ref) == list(pr.moves)
        for m, v, c in zip(pr.moves, pr.values, pr.counts, strict=True):
            assert (v, c) == pytest.approx(ref[m], abs=1e-12), s.state.code(m)
        checked += 1
    assert checked >= 8


def test_knowledge_priors_tell_moves_apart() -> None:
    s = positions(5, KNOWLEDGE, 1)[0]
    while s.state.placed(s.state.to_move_colour) < 4:  # past the opening pruning
        s.play(s.legal_moves()[0])
    pr = s.priors()
    assert len(set(np.round(pr.values, 6))) > 5
    assert 0.05 <= pr.values.min() and pr.values.max() <= 0.95
    assert (pr.counts == 20.0).all()


def test_opening_pruning() -> None:
    s = BlokusPosition(BlokusState(), KNOWLEDGE)
    pr = s.priors()
    sizes = s.state.geo.ncells[np.asarray(pr.moves)]
    assert (pr.counts[sizes < 5] == 1e4).all() and (pr.values[sizes < 5] == 0).all()
    assert (pr.counts[sizes == 5] == 20.0).all()
    # a colour that has placed open_pieces pieces is not pruned any more
    for _ in range(6):
        s.play(max(s.legal_moves(), key=lambda m: s.state.geo.ncells[m]))
    assert s.state.placed(s.state.to_move_colour) == 3
    assert (s.priors().counts == 20.0).all()


def test_score_margin_reward() -> None:
    cfg = BlokusConfig(score_weight=0.2, score_scale=20.0)
    s = BlokusPosition(BlokusState(), cfg)
    rng = np.random.default_rng(2)
    while not s.is_terminal():
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves)))])
    d = s.state.score(0) - s.state.score(1)
    win = 1.0 if d > 0 else 0.0 if d < 0 else 0.5
    want = 0.8 * win + 0.2 * (0.5 + 0.5 * max(-1.0, min(1.0, d / 20.0)))
    assert s.returns() == pytest.approx([want, 1.0 - want])
    assert s.state.returns() == [win, 1.0 - win]  # the rules: win, draw or loss
    # a playout's returns are the same reward, at the playout's end
    for seed in range(4):
        p = BlokusPosition(BlokusState(), cfg).playout(np.random.default_rng(seed), 0)
        end = BlokusPosition(BlokusState(), cfg)
        for m in p.moves.tolist():
            end.play(m)
        assert end.is_terminal() and list(p.returns) == pytest.approx(end.returns())


def test_bad_configs_are_refused() -> None:
    with pytest.raises(ValueError, match="> 0"):
        BlokusConfig(size_weights=(0.0, 0.1, 0.2, 0.5, 1.0))
    with pytest.raises(ValueError, match="at most 1"):
        BlokusConfig(gain_factor=1.5)
    with pytest.raises(ValueError, match="score_weight"):
        BlokusConfig(score_weight=2.0)
