"""GameState (perfect information, the games.contract State) and the match driver.

"seat" in the games.contract sense is the UECda *player number* 0..4 here (stable through
a match); the table seats (``order``) only decide who plays after whom.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from games.contract import Playout
from games.daihinmin import rules as R
from games.daihinmin.cards import (
    ALL_CARDS,
    PASS,
    cards_of,
    hand_str,
    move_cards,
    move_str,
    popcount,
    strongest,
)

if TYPE_CHECKING:
    from games.daihinmin.infoset import InfoSet

RANK_NAMES = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")


# the automatic tributes: (giver's rank, receiver's rank, cards); ranks 0 daifugo .. 4 daihinmin
TRIBUTES = ((4, 0, 2), (3, 1, 1))


@dataclass
class Exchange:
    """One card movement of the exchange: ``cards`` (bit set) from player ``src`` to ``dst``;
    ``tribute`` is True for the automatic one (daihinmin->daifugo, hinmin->fugo)."""

    src: int
    dst: int
    cards: int
    tribute: bool


class GameState:
    """One game of Daihinmin with every hand known.

    ``to_move`` is the player number to move. ``legal_moves()`` never offers a pass on an
    empty table unless ``lead_pass=True`` (the server accepts it, see :meth:`accepts`).
    """

    num_players = R.NP

    def __init__(
        self,
        hands: list[int],
        order: list[int],
        first: int | None = None,
        *,
        ranks: list[int] | None = None,
        exchanges: list[Exchange] | None = None,
        dealt: list[int] | None = None,
        seed: int = 0,
        lead_pass: bool = False,
    ) -> None:
        if first is None:
            first = R.first_leader(hands)
        self.st: list[int] = R.new_state(list(hands), list(order), first)
        self.ranks = list(ranks) if ranks is not None else [2] * R.NP
        self.exchanges = list(exchanges or [])
        self.dealt = list(dealt) if dealt is not None else list(hands)
        self.history: list[tuple[int, int]] = []
        self.seed = seed
        self.lead_pass = lead_pass

    # ------------------------------------------------------------------ contract
    @property
    def to_move(self) -> int:
        return self.st[R.TURN]

    def hand(self, player: int) -> int:
        return self.st[R.H0 + player]

    @property
    def hands(self) -> list[int]:
        return self.st[R.H0:R.H0 + R.NP]

    @property
    def order(self) -> list[int]:
        return self.st[R.ORDER:R.ORDER + R.NP]

    @property
    def table(self) -> int:
        return self.st[R.TABLE]

    @property
    def revolution(self) -> bool:
        return bool(self.st[R.REV])

    @property
    def lock(self) -> bool:
        return bool(self.st[R.LOCK])

    @property
    def finish(self) -> list[int]:
        return self.st[R.FINISH:R.FINISH + self.st[R.NOUT]]

    def legal_moves(self) -> list[int]:
        if self.is_terminal():
            return []
        p = self.st[R.TURN]
        return R.legal_moves(self.st[R.H0 + p], self.st[R.TABLE], self.st[R.REV],
                             self.st[R.LOCK], self.lead_pass)

    def accepts(self, move: int) -> bool:
        """Whether the server would accept ``move`` (ack 9): a legal play, or a pass on an
        empty table."""
        if self.is_terminal():
            return False
        p = self.st[R.TURN]
        if move == PASS:
            return self.st[R.TABLE] == PASS
        if move_cards(move) & ~self.st[R.H0 + p]:
            return False
        return move in R.legal_moves(self.st[R.H0 + p], self.st[R.TABLE], self.st[R.REV],
                                     self.st[R.LOCK])

    def submit(self, move: int) -> bool:
        """Apply a submitted move the server's way: play it if accepted, else count it as a
        pass. Returns whether it was accepted (ack 9)."""
        ok = self.accepts(move)
        self.play(move if ok else PASS)
        return ok

    def play(self, move: int) -> None:
        p = self.st[R.TURN]
        self.history.append((p, move))
        rand = None
        if move == PASS and self.st[R.PASSCOUNT] + 1 >= R.STALEMATE_PASSES:
            g = np.random.default_rng([self.seed, len(self.history)])
            rand = [int(x) for x in g.integers(0, 1 << 30, size=R.NP)]
        R.apply_move(self.st, move, rand)

    def clone(self) -> GameState:
        c = GameState.__new__(GameState)
        c.st = list(self.st)
        c.ranks = list(self.ranks)
        c.exchanges = list(self.exchanges)
        c.dealt = list(self.dealt)
        c.history = list(self.history)
        c.seed = self.seed
        c.lead_pass = self.lead_pass
        return c

    def is_terminal(self) -> bool:
        return self.st[R.TURN] < 0

    def points(self) -> list[int]:
        return R.points_of(self.st)

    def returns(self) -> list[float]:
        return [(x - 1) / 4 if x else 0.0 for x in self.points()]

    def key(self) -> int:
        return hash(tuple(self.st)) & ((1 << 63) - 1)

    def diagram(self) -> str:
        st = self.st
        lines = []
        tbl = move_str(st[R.TABLE]) or "-"
        flags = []
        if st[R.REV]:
            flags.append("revolution")
        if st[R.LOCK]:
            flags.append("lock")
        lines.append(f"table: {tbl}  {' '.join(flags)}".rstrip())
        for s in range(R.NP):
            p = st[R.ORDER + s]
            mark = ">" if p == st[R.TURN] else " "
            passed = " passed" if st[R.PASSED] >> p & 1 else ""
            out = ""
            if st[R.OUTMASK] >> p & 1:
                out = f" out #{st[R.FINISH:R.FINISH + R.NP].index(p) + 1}"
            lines.append(f"{mark}seat {s} player {p} ({RANK_NAMES[self.ranks[p]]}): "
                         f"{hand_str(st[R.H0 + p]) or '-'}{passed}{out}")
        return "\n".join(lines)

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        from games.daihinmin.kernels import state_playout
        return state_playout(self, rng, seat)

    # ------------------------------------------------------------------ hidden information
    def info_set(self, seat: int) -> InfoSet:
        from games.daihinmin.infoset import InfoSet
        return InfoSet.from_state(self, seat)

    def __repr__(self) -> str:
        return f"GameState(turn={self.to_move}, table={move_str(self.table) or '-'})"


# ====================================================================== the match driver

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


__all__ = ["GameState", "Match", "MatchConfig", "Deal", "Exchange", "cards_of"]
