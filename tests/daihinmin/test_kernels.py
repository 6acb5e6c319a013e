"""numba kernels against the plain-Python reference on random positions."""

import numpy as np
import pytest

from games.daihinmin import Match, MatchConfig
from games.daihinmin import kernels as K
from games.daihinmin import policies as P
from games.daihinmin import rules as R
from games.daihinmin.cards import hand_str, move_str


def random_positions(seed: int, games: int, every: int = 1):  # type: ignore[no-untyped-def]
    """States along random games (reference rules), with exchanges."""
    m = Match(MatchConfig(seed=seed))
    rng = np.random.default_rng(seed)
    for _ in range(games):
        d = m.deal()
        for p in range(5):
            if d.to_give(p):
                d.give(p, 0)  # invalid on purpose: the strongest cards go
        s = d.state()
        i = 0
        while not s.is_terminal():
            if i % every == 0:
                yield s
            lm = s.legal_moves()
            s.play(lm[int(rng.integers(len(lm)))])
            i += 1
        m.finish(s)


def test_gen_moves_matches_reference_on_random_positions() -> None:
    n = 0
    for s in random_positions(1, 15):
        p = s.to_move
        hand = s.hand(p)
        ref = R.legal_moves(hand, s.table, s.st[R.REV], s.st[R.LOCK])
        ker = K.gen_moves_list(hand, s.table, s.st[R.REV], s.st[R.LOCK])
        assert ker == ref, (hand_str(hand), move_str(s.table), s.st[R.REV], s.st[R.LOCK])
        n += 1
    assert n > 1000


def test_gen_moves_matches_reference_on_random_tables() -> None:
    rng = np.random.default_rng(7)
    for _ in range(2000):
        deck = rng.permutation(53)
        hand = sum(1 << int(c) for c in deck[: int(rng.integers(1, 16))])
        other = sum(1 << int(c) for c in deck[20:36])
        melds = R.all_melds(other)
        table = melds[int(rng.integers(len(melds)))] if rng.random() < 0.8 else 0
        rev = int(rng.integers(2))
        lock = int(rng.integers(2)) if table else 0
        assert K.gen_moves_list(hand, table, rev, lock) == R.legal_moves(hand, table, rev, lock)


def test_apply_move_matches_reference() -> None:
    rng = np.random.default_rng(3)
    rs = np.array([5], dtype=np.uint64)
    for s in random_positions(2, 8):
        for m in s.legal_moves():
            if rng.random() > 0.3:
                continue
            ref = list(s.st)
            R.apply_move(ref, m)
            ker = np.asarray(s.st, dtype=np.int64)
            K.apply_move(ker, m, rs)
            assert ker.tolist() == ref, move_str(m)


@pytest.mark.parametrize("policy", [K.POLICY_UNIFORM, K.POLICY_HEURISTIC])
@pytest.mark.parametrize("stop", [False, True])
def test_playout_matches_reference(policy: int, stop: bool) -> None:
    buf = np.empty(K.MAX_MOVES, np.int64)
    for k, s in enumerate(random_positions(4, 6, every=7)):
        seat = s.to_move
        seed = 1000 + k
        st = np.asarray(s.st, dtype=np.int64)
        rs = np.array([seed], dtype=np.uint64)
        ev = np.empty(K.MAX_EVALS, np.float64)
        mo = np.empty(K.MAX_PLIES, np.int64)
        pl = np.empty(K.MAX_PLIES, np.int64)
        ne, ply = K.playout(st, seat, policy, rs, buf, stop, True, ev, mo, pl,
                            np.empty(5, np.int64))
        ref = list(s.st)
        evals, plies = P.playout(ref, seat, policy, [seed], stop)
        assert st.tolist() == ref
        assert ev[:ne].tolist() == evals
        assert list(zip(pl[:ply].tolist(), mo[:ply].tolist(), strict=True)) == plies


def test_uniform_playout_from_state_contract() -> None:
    s = next(iter(random_positions(5, 1)))
    p = s.playout(np.random.default_rng(0), 0)
    assert sorted(p.returns.tolist()) == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert len(p.moves) == len(p.players) > 20
    assert all(0 <= x <= 0.5 for x in p.evals)
    # reproducible from the generator's seed; the state itself is untouched
    before = list(s.st)
    q = s.playout(np.random.default_rng(0), 0)
    assert q.moves.tolist() == p.moves.tolist() and s.st == before


def test_random_playouts_kernel_runs() -> None:
    plies = K.random_playouts_kernel(50, 1, K.POLICY_UNIFORM)
    assert plies > 50 * 30
    assert K.random_playouts_kernel(50, 1, K.POLICY_UNIFORM) == plies
