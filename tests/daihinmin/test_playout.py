"""The playout kernel against its plain-Python reference, and the playouts of a world."""

import numpy as np
import pytest

from knowledge.daihinmin.endgame import sure_buffers
from knowledge.daihinmin.learned import no_weights, scratch
from knowledge.daihinmin.playout import (
    MAX_EVALS,
    MAX_PLIES,
    REWARD_PLAYERS,
    playout,
    random_playouts_kernel,
)
from knowledge.daihinmin.policies import POLICY_HEURISTIC, POLICY_UNIFORM, py_playout
from knowledge.daihinmin.position import World
from tests.daihinmin.test_kernels import random_positions


@pytest.mark.parametrize("policy", [POLICY_UNIFORM, POLICY_HEURISTIC])
@pytest.mark.parametrize("stop", [False, True])
def test_playout_matches_reference(policy: int, stop: bool) -> None:
    for k, s in enumerate(random_positions(4, 6, every=7)):
        seat = s.to_move
        seed = 1000 + k
        st = s.array()
        rs, cand, z, ctx, feat, tinfo = scratch(seed)
        ev = np.empty(MAX_EVALS, np.float64)
        mo = np.empty(MAX_PLIES, np.int64)
        pl = np.empty(MAX_PLIES, np.int64)
        ne, ply = playout(st, seat, policy, REWARD_PLAYERS, no_weights(), rs, cand, z, ctx,
                          feat, tinfo, stop, True, ev, mo, pl, False, sure_buffers(False),
                          np.empty(0))
        ref = list(s.st)
        evals, plies = py_playout(ref, seat, policy, [seed], stop)
        assert st.tolist() == ref
        assert ev[:ne].tolist() == evals
        assert list(zip(pl[:ply].tolist(), mo[:ply].tolist(), strict=True)) == plies


def test_uniform_playout_of_a_world() -> None:
    s = next(iter(random_positions(5, 1)))
    w = World(s)
    p = w.playout(np.random.default_rng(0), 0)
    assert sorted(p.returns.tolist()) == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert len(p.moves) == len(p.players) > 20
    assert all(0 <= x <= 0.5 for x in p.evals)
    # reproducible from the generator's seed; the state itself is untouched
    before = list(s.st)
    q = w.playout(np.random.default_rng(0), 0)
    assert q.moves.tolist() == p.moves.tolist() and s.st == before


def test_random_playouts_kernel_runs() -> None:
    plies = random_playouts_kernel(50, 1, POLICY_UNIFORM)
    assert plies > 50 * 30
    assert random_playouts_kernel(50, 1, POLICY_UNIFORM) == plies
