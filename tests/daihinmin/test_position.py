"""The search-facing objects: a root's batched playouts and flat MC over it, its worlds'
playouts with α, and the settings' checks."""

import numpy as np
import pytest

from games.contract import PlayoutBatch
from games.daihinmin.match import Match, MatchConfig
from knowledge.daihinmin.position import Root, Settings, World
from search.alpha import discounted_value
from search.budget import Budget
from search.flat import FlatConfig, FlatMC
from tests.daihinmin.test_infoset import games_with_exchange


def test_playout_batch_shapes_and_determinism() -> None:
    s, _ = next(iter(games_with_exchange(14, 1)))
    info = s.info_set(s.to_move)
    moves = info.legal_moves()
    batch = [moves[i % len(moves)] for i in range(16)]
    pb = Root(info).playout_batch(batch, np.random.default_rng(5), info.seat)
    assert isinstance(pb, PlayoutBatch)
    assert pb.returns.shape == (16,) and pb.n_evals.shape == (16,)
    assert pb.evals.shape[0] == 16 and pb.evals.shape[1] == pb.n_evals.max()
    assert set(pb.returns.tolist()) <= {0.0, 0.25, 0.5, 0.75, 1.0}
    # first eval is taken at the seat's next turn: 5 players in (0.5) unless someone is out
    for i in range(16):
        row = pb.evals[i, : pb.n_evals[i]]
        assert np.all(np.diff(row) <= 0) and np.all(row <= 0.5) and np.all(row >= 0.125)
    pb2 = Root(info).playout_batch(batch, np.random.default_rng(5), info.seat)
    assert pb2.returns.tolist() == pb.returns.tolist()
    h = Root(info, Settings("heuristic")).playout_batch(batch, np.random.default_rng(5),
                                                     info.seat)
    assert h.returns.shape == (16,)


def test_flat_mc_over_info_set() -> None:
    s, rng = next(iter(games_with_exchange(15, 1)))
    info = s.info_set(s.to_move)
    r = FlatMC(FlatConfig(alpha=0.9, batch=16)).search(Root(info), info.seat,
                                                       Budget(playouts=320),
                                                       np.random.default_rng(1))
    assert r.move in info.legal_moves()
    assert r.playouts == 320


def test_uct_worlds_use_alpha() -> None:
    """UCT backs up the playout's returns: a world puts the searching seat's α-discounted
    value there, whichever seat the playout is asked about."""
    st = Match(MatchConfig(seed=5)).deal().state()
    me = st.to_move
    info = st.info_set(me)
    for alpha in (1.0, 0.5):
        root = Root(info, Settings("heuristic", alpha=alpha))
        w = root.sample_world(np.random.default_rng(2))
        assert isinstance(w, World) and w.seat == me
        po = w.playout(np.random.default_rng(3), (me + 1) % 5)
        plain = Root(info, Settings("heuristic")).sample_world(
            np.random.default_rng(2)).playout(np.random.default_rng(3), me)
        want = discounted_value(plain.evals, float(plain.returns[me]), alpha)
        assert po.returns[me] == pytest.approx(want)
        assert np.array_equal(np.delete(po.returns, me), np.delete(plain.returns, me))
    assert len(plain.evals) > 1 and want != plain.returns[me]


def test_a_world_clone_keeps_the_settings() -> None:
    st = Match(MatchConfig(seed=6)).deal().state()
    w = Root(st.info_set(st.to_move), Settings("heuristic", alpha=0.5)).sample_world(
        np.random.default_rng(1))
    c = w.clone()
    assert isinstance(c, World) and c.settings is w.settings and c.seat == w.seat
    c.play(c.legal_moves()[0])
    assert c.key() != w.key()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"policy": "greedy"}, "unknown playout policy"),
    ({"policy": "learned"}, "needs its weights"),
    ({"weights": np.zeros((4, 3))}, "one row per player"),
    ({"reward": "money"}, "unknown intermediate reward"),
    ({"rule_w": np.zeros(3)}, "one weight per player"),
    ({"alpha": 0.0}, "alpha"),
])
def test_settings_are_checked(kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=message):
        Settings(**kwargs)


def test_worlds_of_a_root_are_checked() -> None:
    st = Match(MatchConfig(seed=6)).deal().state()
    with pytest.raises(ValueError, match="n x 5"):
        Root(st.info_set(st.to_move), worlds=np.zeros((0, 5), np.int64))
