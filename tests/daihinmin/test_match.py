"""The match driver: deals, exchange, seats, ranks; and a simulated match written as a server
log and replayed through the oracle."""

from pathlib import Path

import numpy as np

from games.daihinmin import (
    LogFile,
    Match,
    MatchConfig,
    format_log,
    hand_from_str,
    parse_log,
    record_of,
    replay_log,
    strongest,
)
from games.daihinmin.cards import cards_of, popcount


def test_strongest_order() -> None:
    h = hand_from_str("S3H2D2SAJ3")
    assert strongest(h, 1) == hand_from_str("J3")
    assert strongest(h, 2) == hand_from_str("H2J3")
    assert strongest(h, 3) == hand_from_str("H2D2J3")
    assert strongest(hand_from_str("C2D2S2H2"), 2) == hand_from_str("S2H2")


def test_deal_sizes_seats_and_first_game_has_no_exchange() -> None:
    m = Match(MatchConfig(seed=5))
    d = m.deal()
    assert d.reset and d.exchanges == [] and all(d.to_give(p) == 0 for p in range(5))
    assert sorted(popcount(h) for h in d.dealt) == [10, 10, 11, 11, 11]
    allc = 0
    for h in d.dealt:
        assert allc & h == 0
        allc |= h
    assert allc == (1 << 53) - 1
    assert sorted(d.order) == [0, 1, 2, 3, 4]


def test_exchange_tribute_and_punished_invalid_give() -> None:
    m = Match(MatchConfig(seed=6))
    d = m.deal()
    s = d.state()
    while not s.is_terminal():
        s.play(s.legal_moves()[-1])
    m.finish(s)
    d = m.deal()  # game 1: exchange
    assert not d.reset
    daifugo, fugo = d.ranks.index(0), d.ranks.index(1)
    hinmin, daihinmin = d.ranks.index(3), d.ranks.index(4)
    assert [(e.src, e.dst, popcount(e.cards), e.tribute) for e in d.exchanges] == [
        (daihinmin, daifugo, 2, True), (hinmin, fugo, 1, True)]
    assert d.exchanges[0].cards == strongest(d.dealt[daihinmin], 2)
    # dealt one at a time in seat order from the daifugo's seat: the first three get 11
    start = d.order.index(daifugo)
    assert [popcount(d.dealt[d.order[(start + i) % 5]]) for i in range(5)] == [11, 11, 11, 10, 10]
    assert d.to_give(daifugo) == 2 and d.to_give(fugo) == 1
    weakest = cards_of(d.hands[daifugo])[:2]
    assert d.give(daifugo, (1 << weakest[0]) | (1 << weakest[1]))
    before = d.hands[fugo]
    assert not d.give(fugo, 1 << 60)  # garbage: the fugo's strongest card goes instead
    assert d.exchanges[-1].cards == strongest(before, 1)
    assert d.done()
    s = d.state()
    assert sorted(popcount(s.hand(p)) for p in range(5)) == [10, 10, 11, 11, 11]
    # the diamond 3 holder leads
    assert s.hand(s.to_move) >> 26 & 1


def test_reshuffle_every_three_games_and_reset_every_hundred() -> None:
    m = Match(MatchConfig(seed=7, reset_every=4))
    orders = []
    for g in range(7):
        d = m.deal()
        assert d.reset == (g % 4 == 0)
        orders.append(tuple(d.order))
        for p in range(5):
            if d.to_give(p):
                d.give(p, 0)
        s = d.state()
        while not s.is_terminal():
            s.play(s.legal_moves()[-1])
        m.finish(s)
    assert orders[0] == orders[1] == orders[2]
    assert orders[3] == orders[4] == orders[5]
    assert sum(m.points) == 7 * 15


def test_simulated_match_log_replays_clean(tmp_path: Path) -> None:
    m = Match(MatchConfig(seed=8))
    rng = np.random.default_rng(8)
    log = LogFile(header=["%-----%GAME_NUMBER% 6"], footer=[])
    for _ in range(6):
        d = m.deal()
        mibun = list(d.ranks)
        for p in range(5):
            k = d.to_give(p)
            if k:
                d.give(p, strongest(d.hands[p], k) if rng.random() < 0.5 else 0)
        s = d.state()
        while not s.is_terminal():
            lm = s.legal_moves()
            s.submit(lm[int(rng.integers(len(lm)))])
        m.finish(s)
        log.games.append(record_of(s, d.game, mibun, m.points, d.reset))
    text = format_log(log)
    assert format_log(parse_log(text)) == text
    path = tmp_path / "sim.log"
    path.write_text(text)
    r = replay_log(path)
    assert r.ok, r.first_divergence
    assert r.games == 6 and r.rejected == []
