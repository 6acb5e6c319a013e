"""Hidden information: the determinisation property, exchange inference, dealing kernels."""

import numpy as np
import pytest

import games.daihinmin.kernels as K
import games.daihinmin.rules as R
from games.contract import InfoSet as InfoSetProtocol
from games.daihinmin import GameState, InfoSet, Match, MatchConfig
from games.daihinmin.cards import cards_of, popcount, strength_key


def games_with_exchange(seed: int, n: int):  # type: ignore[no-untyped-def]
    m = Match(MatchConfig(seed=seed))
    rng = np.random.default_rng(seed)
    for _ in range(n):
        d = m.deal()
        for p in range(5):
            k = d.to_give(p)
            if k:
                cs = cards_of(d.hands[p])
                pick = rng.choice(len(cs), size=k, replace=False)
                assert d.give(p, sum(1 << cs[int(i)] for i in pick))
        s = d.state()
        yield s, rng
        while not s.is_terminal():
            lm = s.legal_moves()
            s.play(lm[int(rng.integers(len(lm)))])
        m.finish(s)


def walk(s: GameState, rng: np.random.Generator, every: int):  # type: ignore[no-untyped-def]
    s = s.clone()
    i = 0
    while not s.is_terminal():
        if i % every == 0:
            yield s
        lm = s.legal_moves()
        s.play(lm[int(rng.integers(len(lm)))])
        i += 1


def test_sample_world_property_many_seeds() -> None:
    checked = 0
    for s0, rng in games_with_exchange(11, 5):
        for s in walk(s0, rng, 3):
            for seat in range(5):
                info = s.info_set(seat)
                assert isinstance(info, InfoSetProtocol)
                for _ in range(2):
                    w = info.sample_world(rng)
                    assert w.info_set(seat) == info
                    checked += 1
    assert checked > 500


def test_kernel_sampling_is_consistent() -> None:
    tmp = np.empty(64, np.int64)
    n = 0
    for s0, rng in games_with_exchange(12, 4):
        for s in walk(s0, rng, 5):
            for seat in range(5):
                info = s.info_set(seat)
                st0, pool, need, known, ceil = info.arrays()
                rs = np.array([int(rng.integers(1 << 62))], dtype=np.uint64)
                st = st0.copy()
                K.sample_hands(st, pool, need, known, ceil, rs, tmp)
                hands = [int(st[R.H0 + p]) for p in range(5)]
                w = info.sample_world(rng)
                w.st[R.H0:R.H0 + 5] = hands
                assert w.info_set(seat) == info
                allc = 0
                for h in hands:
                    assert allc & h == 0
                    allc |= h
                n += 1
    assert n > 100


def test_exchange_knowledge_is_used() -> None:
    for s, rng in games_with_exchange(13, 4):
        if s.ranks.count(2) == 5:
            continue  # reset game: no exchange
        daifugo = s.ranks.index(0)
        daihinmin = s.ranks.index(4)
        info = s.info_set(daifugo)
        gave = next(e.cards for e in s.exchanges if e.src == daifugo and not e.tribute)
        tribute = next(e.cards for e in s.exchanges if e.src == daihinmin and e.tribute)
        bound = min(strength_key(c) for c in cards_of(tribute))
        for _ in range(20):
            w = info.sample_world(rng)
            assert w.hand(daihinmin) & gave == gave  # the cards he was given
            others = w.hand(daihinmin) & ~gave
            assert all(strength_key(c) < bound for c in cards_of(others))
        # the daihinmin knows where his tribute went
        info4 = s.info_set(daihinmin)
        for _ in range(5):
            w = info4.sample_world(rng)
            back = next(e.cards for e in s.exchanges if e.src == daifugo and not e.tribute)
            assert w.hand(daifugo) & tribute == tribute & ~back
        return
    pytest.fail("no game with an exchange")


def test_counts_and_played_cards() -> None:
    s, rng = next(iter(games_with_exchange(16, 1)))
    for t in walk(s, rng, 4):
        info = t.info_set(0)
        assert sum(info.counts) + popcount(info.played) == 53
        assert popcount(info.unseen()) == sum(x for x in info.needs() if x > 0)


def test_observe_follows_real_logs_for_every_player() -> None:
    """A client's view built from observations only equals the engine's info set."""

    from games.daihinmin import parse_log
    from games.daihinmin.cards import PASS
    from tests.paths import DATA

    path = DATA / "uecda" / "server-log-5games-same-match.log"
    for g in parse_log(path.read_text()).games:
        hands = list(g.dealt)
        for e in g.changes or []:
            hands[e.src] &= ~e.cards
            hands[e.dst] |= e.cards
        exch = [(e.src, e.dst, e.cards, i < 2) for i, e in enumerate(g.changes or [])]
        from games.daihinmin.state import Exchange
        s = GameState(hands, g.seat, ranks=g.mibun,
                      exchanges=[Exchange(*x) for x in exch], lead_pass=True)
        views = [InfoSet.start(p, hands[p], [popcount(h) for h in hands], g.seat,
                               s.to_move, g.mibun,
                               tuple(x for x in exch if p in (x[0], x[1])))
                 for p in range(5)]
        for player, m in g.plays:
            if m != PASS and not s.accepts(m):
                m = PASS
            s.play(m)
            views = [v.observe(player, m) for v in views]
            if not s.is_terminal():
                for p in range(5):
                    assert views[p] == s.info_set(p)


def test_sample_world_property_hypothesis() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=40, deadline=None, derandomize=True, database=None)
    @given(st.integers(0, 2**31), st.integers(0, 60), st.integers(0, 4), st.integers(1, 3))
    def prop(seed: int, plies: int, seat: int, games: int) -> None:
        m = Match(MatchConfig(seed=seed))
        rng = np.random.default_rng(seed)
        s = None
        for _ in range(games):  # later games have exchanges
            if s is not None:
                while not s.is_terminal():
                    lm = s.legal_moves()
                    s.play(lm[int(rng.integers(len(lm)))])
                m.finish(s)
            d = m.deal()
            for p in range(5):
                if d.to_give(p):
                    d.give(p, 0)
            s = d.state()
        assert s is not None
        for _ in range(plies):
            if s.is_terminal():
                break
            lm = s.legal_moves()
            s.play(lm[int(rng.integers(len(lm)))])
        info = s.info_set(seat)
        w = info.sample_world(rng)
        assert w.info_set(seat) == info
        assert sum(popcount(w.hand(p)) for p in range(5)) == sum(info.counts)

    prop()


def test_fair_dealing_under_a_tribute_bound() -> None:
    """A card the bounded player cannot hold goes to the others in proportion to their
    free places (the v1 player's sample_hands favoured the first of them; fair=True does not)."""
    from tests.daihinmin.test_inference import _game_states

    info = _game_states(7, 20).info_set(1)
    assert info.ceilings()[3] >= 0
    need = info.needs()
    unseen = cards_of(info.unseen())
    barred = [c for c in unseen if strength_key(c) >= info.ceilings()[3]]
    assert barred
    c = barred[0]
    free = sum(need[p] for p in (0, 2, 4))
    want = np.array([need[p] / free if p in (0, 2, 4) else 0.0 for p in range(5)])
    rng = np.random.default_rng(1)
    py = np.array([info.deal_hands(rng) for _ in range(4000)])
    st0, pool, need_a, known, ceil = info.arrays()
    ker = K.deal_worlds(st0, pool, need_a, known, ceil, 5, 4000)
    for worlds in (py, ker):
        got = np.array([np.mean((worlds[:, p] >> c) & 1) for p in range(5)])
        assert np.abs(got - want).max() < 0.03
