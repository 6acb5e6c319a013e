"""The exchange decision: its candidates, and a gift searched within the budget."""

import numpy as np

from games.daihinmin.cards import JOKER, hand_from_str, popcount
from games.daihinmin.match import Match, MatchConfig
from knowledge.daihinmin.exchange import gift_candidates, search_gift
from knowledge.daihinmin.position import Settings
from search.budget import Budget


def test_candidates_are_drawn_from_the_weakest_cards_never_the_joker() -> None:
    hand = hand_from_str("S3H4D5C6S9H2") | 1 << JOKER
    pairs = gift_candidates(hand, 2, 3)
    assert len(pairs) == 3 and all(popcount(g) == 2 for g in pairs)
    assert all(g & hand_from_str("S3H4D5") == g for g in pairs)
    assert gift_candidates(hand, 1, 0) == [hand_from_str("S3")]  # at least n cards
    assert not any(g >> JOKER & 1 for g in gift_candidates(hand, 2, 10))


def test_a_gift_is_searched_within_the_budget() -> None:
    m = Match(MatchConfig(seed=3))
    m.game, m.ranks = 1, [0, 1, 2, 3, 4]  # player 0 is the daifugo
    d = m.deal()
    counts = [popcount(h) for h in d.dealt]
    for tribute_model in (True, False):
        gift, info = search_gift(d.hands[0], 2, 0, d.ranks, counts, d.order,
                                 Budget(playouts=120), np.random.default_rng(1),
                                 Settings("heuristic"), weakest=4,
                                 tribute_model=tribute_model)
        assert gift in gift_candidates(d.hands[0], 2, 4)
        assert info["candidates"] == 6 and info["playouts"] <= 120
