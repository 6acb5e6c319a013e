"""The position through the decision cores: UCT with RAVE and priors, flat MC with the batch
kernel, and the contract properties."""

from __future__ import annotations

import numpy as np
import pytest

from games.blokus_duo import PASS, BlokusState, geometry
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.settings import BlokusConfig
from search.budget import Budget
from search.flat import FlatConfig, FlatMC
from search.uct import UCT, UCTConfig
from tests.blokus_rules.test_rules import SOLO_MONO_LAST


def midgame(seed: int, plies: int, seats: tuple[int, int] = (0, 1)) -> BlokusPosition:
    s = BlokusPosition(BlokusState(first=seed % 2, seat_colours=seats))
    p = s.playout(np.random.default_rng(seed), 0)
    for m in p.moves[:plies].tolist():
        s.play(m)
    return s


def test_contract_properties() -> None:
    s = midgame(1, 12)
    c = s.clone()
    p = c.playout(np.random.default_rng(0), c.to_move)
    assert c.key() == s.key() and c.state.history == s.state.history  # playout never mutates
    assert sorted(p.returns.tolist()) in ([0.0, 1.0], [0.5, 0.5])
    assert set(p.players.tolist()) <= {0, 1}
    t = s.clone()
    for m in p.moves.tolist():
        t.play(m)
    assert t.is_terminal() and t.legal_moves() == [] and sum(t.returns()) == 1.0
    assert t.returns() == p.returns.tolist()


@pytest.mark.parametrize("seats", [(0, 1), (1, 0)])
def test_uct_rave_priors(seats: tuple[int, int]) -> None:
    s = midgame(2, 10, seats)
    uct = UCT(UCTConfig(rave=True, rave_k=500, c=0.3, priors=True))
    r = uct.search(s, None, Budget(playouts=150), np.random.default_rng(0))
    assert r.move in s.legal_moves()
    assert r.playouts == 150 and sum(r.visits) > 0


def test_flat_batch() -> None:
    s = midgame(3, 8)
    flat = FlatMC(FlatConfig(batch=16))
    r = flat.search(s, s.to_move, Budget(playouts=128), np.random.default_rng(0))
    assert r.move in s.legal_moves()
    assert r.playouts == 128


@pytest.mark.parametrize("policy", ["uniform", "weighted"])
def test_batch_forced_win(policy: str) -> None:
    """Colour 0 has only the monomino left and places it: every playout is its win."""
    s = BlokusPosition(BlokusState(first=0, seat_colours=(1, 0)), BlokusConfig(playout=policy))
    for code in SOLO_MONO_LAST.split()[:-1]:
        s.state.play_code(code)
    moves = s.legal_moves()
    assert moves and PASS not in moves and all(s.state.geo.piece[m] == 0 for m in moves)
    b = s.playout_batch(moves, np.random.default_rng(0), seat=1)
    assert b.returns.tolist() == [1.0] * len(moves)
    b = s.playout_batch(moves, np.random.default_rng(0), seat=0)
    assert b.returns.tolist() == [0.0] * len(moves)


def test_priors_prefer_big_pieces_early() -> None:
    s = BlokusPosition(BlokusState())
    pr = s.priors()
    assert list(pr.moves) == s.legal_moves()
    sizes = s.state.geo.ncells[np.asarray(pr.moves)]
    assert pr.values[sizes == 5].min() > pr.values[sizes == 1].max()
    assert (pr.counts > 0).all()


def test_playout_reproducible() -> None:
    s = BlokusState()
    a = BlokusPosition(s).playout(np.random.default_rng(5), 0)
    b = BlokusPosition(s).playout(np.random.default_rng(5), 0)
    assert a.moves.tolist() == b.moves.tolist()
    assert s.history == [] and s.legal_count(0) == 414
    g = geometry()
    t = BlokusState()
    for m, p in zip(a.moves.tolist(), a.players.tolist(), strict=True):
        assert t.to_move == p
        if m != PASS:
            assert m in t.legal_moves()
        else:
            assert t.legal_placements() == []
        t.play(m)
    assert t.is_terminal()
    assert a.returns.tolist() == t.returns()
    assert g.num_placements == 13729
