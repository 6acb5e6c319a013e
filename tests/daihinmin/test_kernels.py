"""numba kernels against the plain-Python reference on random positions."""

import numpy as np

import games.daihinmin.kernels as K
import games.daihinmin.rules as R
from games.daihinmin import Match, MatchConfig
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
