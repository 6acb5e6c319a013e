"""The match driver: deals, the exchange (tributes and gifts back), seats and ranks across
the games of a match, with the server's defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import games.daihinmin.rules as R
from games.daihinmin.cards import ALL_CARDS, popcount, strongest
from games.daihinmin.state import Exchange, GameState

# the automatic tributes: (giver's rank, receiver's rank, cards); ranks 0 daifugo .. 4 daihinmin
TRIBUTES = ((4, 0, 2), (3, 1, 1))


@dataclass
class MatchConfig:
    games: int = 1000
    reset_every: int = 100  # ranks reset (no exchange) in games 0, 100, ... (0-based)
    reshuffle_every: int = 3  # seats reshuffled in games 0, 3, 6, ...
    seed: int = 0


@dataclass
class Deal:
    """A game's start: ``dealt`` hands (by player, before the exchange), ``hands`` after the
    automatic tribute (the daifugo and fugo still have to give theirs back)."""

    game: int
    order: list[int]
    ranks: list[int]
    reset: bool
    dealt: list[int]
    hands: list[int]
    exchanges: list[Exchange] = field(default_factory=list)

    def to_give(self, player: int) -> int:
        """How many cards ``player`` must give back (daifugo 2, fugo 1; 0 in a reset game)."""
        if self.reset:
            return 0
        return {0: 2, 1: 1}.get(self.ranks[player], 0)

    def player_of_rank(self, rank: int) -> int:
        return self.ranks.index(rank)

    def give(self, player: int, cards: int) -> bool:
        """Record the daifugo's / fugo's return. An invalid choice (wrong count, cards not
        held) is replaced by the sender's strongest cards. Returns whether it was valid."""
        n = self.to_give(player)
        if n == 0:
            raise ValueError(f"player {player} gives nothing")
        if any(e.src == player and not e.tribute for e in self.exchanges):
            raise ValueError(f"player {player} already gave")
        valid = popcount(cards) == n and not (cards & ~self.hands[player]) and cards & ALL_CARDS
        if not valid:
            cards = strongest(self.hands[player], n)
        dst = self.player_of_rank(4 if self.ranks[player] == 0 else 3)
        self.hands[player] &= ~cards
        self.hands[dst] |= cards
        self.exchanges.append(Exchange(player, dst, cards, False))
        return bool(valid)

    def done(self) -> bool:
        return all(
            any(e.src == p and not e.tribute for e in self.exchanges)
            for p in range(R.NP) if self.to_give(p)
        )

    def state(self, seed: int = 0) -> GameState:
        if not self.done():
            raise ValueError("exchange not finished")
        return GameState(self.hands, self.order, None, ranks=self.ranks,
                         exchanges=self.exchanges, dealt=self.dealt, seed=seed)


class Match:
    """Deals, exchanges, seats and ranks across the games of a match (server defaults).

    Usage::

        m = Match(MatchConfig(seed=1))
        deal = m.deal()                  # game m.game
        deal.give(daifugo, two_cards); deal.give(fugo, one_card)
        state = deal.state()
        ...play state to the end...
        m.finish(state)                  # ranks and points for the next game
    """

    def __init__(self, config: MatchConfig | None = None) -> None:
        self.config = config or MatchConfig()
        self.rng = np.random.default_rng(self.config.seed)
        self.game = 0
        self.order = list(range(R.NP))
        self.ranks = [2] * R.NP
        self.points = [0] * R.NP

    def is_reset(self, game: int | None = None) -> bool:
        g = self.game if game is None else game
        return g % self.config.reset_every == 0

    def deal(self) -> Deal:
        g = self.game
        if g % self.config.reshuffle_every == 0:
            self.order = [int(x) for x in self.rng.permutation(R.NP)]
        reset = self.is_reset(g)
        ranks = [2] * R.NP if reset else list(self.ranks)
        deck = [int(x) for x in self.rng.permutation(53)]
        if reset:
            start = int(self.rng.integers(R.NP))
        else:
            start = self.order.index(ranks.index(0))
        dealt = [0] * R.NP
        for i, c in enumerate(deck):
            p = self.order[(start + i) % R.NP]
            dealt[p] |= 1 << c
        hands = list(dealt)
        d = Deal(g, list(self.order), ranks, reset, dealt, hands)
        if not reset:
            for src_rank, dst_rank, n in TRIBUTES:
                src, dst = ranks.index(src_rank), ranks.index(dst_rank)
                cards = strongest(hands[src], n)
                hands[src] &= ~cards
                hands[dst] |= cards
                d.exchanges.append(Exchange(src, dst, cards, True))
        return d

    def finish(self, state: GameState) -> None:
        if not state.is_terminal():
            raise ValueError("game not over")
        fin = state.st[R.FINISH:R.FINISH + R.NP]
        for i, p in enumerate(fin):
            self.ranks[p] = i
            self.points[p] += R.POINTS[i]
        self.game += 1
