"""One game's state: :class:`GameState` (every hand known) and :class:`InfoSet` (what one
player knows of it, and the worlds consistent with that), with the exchange records.

"seat" in the games.contract sense is the UECda *player number* 0..4 here (stable through
a match); the table seats (``order``) only decide who plays after whom. The match around the
games (deals, tributes, ranks) is :mod:`games.daihinmin.match`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

import games.daihinmin.rules as R
from games.daihinmin.cards import (
    ALL_CARDS,
    PASS,
    cards_of,
    hand_str,
    move_cards,
    move_str,
    popcount,
    strength_key,
)

RANK_NAMES = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")


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

    def array(self) -> np.ndarray:
        """The position as the kernels take it: a fresh int64 array (rules.py's layout)."""
        return np.asarray(self.st, dtype=np.int64)

    # ------------------------------------------------------------------ hidden information
    def info_set(self, seat: int) -> InfoSet:
        return InfoSet.from_state(self, seat)

    def __repr__(self) -> str:
        return f"GameState(turn={self.to_move}, table={move_str(self.table) or '-'})"


@dataclass(frozen=True)
class InfoSet:
    """Everything player ``seat`` knows. Build it with ``GameState.info_set(seat)`` or directly
    from a client's observations (all fields public; ``exchanges`` holds only the entries the
    player saw: ``(src, dst, cards, tribute)`` with ``seat`` as src or dst; a daifugo that
    does not know which cards were its tribute simply leaves that entry out).

    Inference used by :meth:`sample_world`: cards ``seat`` gave are in the receiver's hand
    unless played or given back; a tribute received from player p were p's strongest cards,
    so p's other original cards are all weaker (p's unseen cards are dealt below that bound).
    """

    seat: int
    hand: int
    counts: tuple[int, ...]  # cards held by each player
    played: int  # every card played so far (bit set)
    table: int
    rev: int
    lock: int
    passed: int  # bit set of players who passed in this trick
    last: int  # player who played last (-1 none)
    turn: int
    finish: tuple[int, ...]  # players out, in order
    passcount: int
    order: tuple[int, ...]  # player in seat 0..4
    ranks: tuple[int, ...] = (2, 2, 2, 2, 2)
    exchanges: tuple[tuple[int, int, int, bool], ...] = ()
    history: tuple[tuple[int, int], ...] = ()

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_state(cls, state: GameState, seat: int) -> InfoSet:
        st = state.st
        played = 0
        for _, m in state.history:
            played |= move_cards(m)
        ex = tuple((e.src, e.dst, e.cards, bool(e.tribute)) for e in state.exchanges
                   if e.src == seat or e.dst == seat)
        return cls(
            seat=seat,
            hand=st[R.H0 + seat],
            counts=tuple(popcount(st[R.H0 + p]) for p in range(R.NP)),
            played=played,
            table=st[R.TABLE],
            rev=st[R.REV],
            lock=st[R.LOCK],
            passed=st[R.PASSED],
            last=st[R.LAST],
            turn=st[R.TURN],
            finish=tuple(st[R.FINISH:R.FINISH + st[R.NOUT]]),
            passcount=st[R.PASSCOUNT],
            order=tuple(st[R.ORDER:R.ORDER + R.NP]),
            ranks=tuple(state.ranks),
            exchanges=ex,
            history=tuple(state.history),
        )

    @classmethod
    def start(
        cls,
        seat: int,
        hand: int,
        counts: tuple[int, ...] | list[int],
        order: tuple[int, ...] | list[int],
        first: int,
        ranks: tuple[int, ...] | list[int] = (2, 2, 2, 2, 2),
        exchanges: tuple[tuple[int, int, int, bool], ...] = (),
    ) -> InfoSet:
        """The info set at the start of a game (after the exchange), from what a client sees:
        its hand, the card counts, the seats, the first mover, the ranks and the exchange
        entries it took part in. Follow the game with :meth:`observe`."""
        return cls(seat=seat, hand=hand, counts=tuple(counts), played=0, table=0, rev=0,
                   lock=0, passed=0, last=-1, turn=first, finish=(), passcount=0,
                   order=tuple(order), ranks=tuple(ranks), exchanges=tuple(exchanges),
                   history=())

    def observe(self, player: int, move: int) -> InfoSet:
        """The info set after ``player`` made ``move`` (an accepted play, or PASS for a pass
        or a rejected submission). Public state follows the rules engine; only card counts
        of the others are needed, so a placeholder world is used."""
        if player != self.turn:
            raise ValueError(f"player {player} acted but player {self.turn} was to move")
        cards = move_cards(move)
        if player == self.seat and cards & ~self.hand:
            raise ValueError("own play with cards not in hand")
        if player != self.seat and cards & ~self.unseen() & ~self.known()[player]:
            raise ValueError("play with cards that cannot be in that hand")
        pool = cards_of(ALL_CARDS & ~self.hand & ~self.played & ~cards)
        hands = [0] * R.NP
        hands[self.seat] = self.hand
        k = 0
        for p in range(R.NP):
            if p == self.seat:
                continue
            h = cards if p == player else 0
            for _ in range(self.counts[p] - popcount(h)):
                h |= 1 << pool[k]
                k += 1
            hands[p] = h
        st = self.state_list(hands)
        R.apply_move(st, move)
        return replace(
            self,
            hand=st[R.H0 + self.seat],
            counts=tuple(popcount(st[R.H0 + p]) for p in range(R.NP)),
            played=self.played | cards,
            table=st[R.TABLE], rev=st[R.REV], lock=st[R.LOCK], passed=st[R.PASSED],
            last=st[R.LAST], turn=st[R.TURN],
            finish=tuple(st[R.FINISH:R.FINISH + st[R.NOUT]]),
            passcount=st[R.PASSCOUNT],
            history=self.history + ((player, move),),
        )

    # ------------------------------------------------------------------ what is known
    def known(self) -> list[int]:
        """Cards known to be in each other player's hand (given by ``seat``, still unplayed
        and not given back)."""
        kn = [0] * R.NP
        for src, dst, cards, _ in self.exchanges:
            if src == self.seat and dst != self.seat:
                kn[dst] |= cards & ~self.played & ~self.hand
        return kn

    def ceilings(self) -> list[int]:
        """Per player, an exclusive upper bound on the strength key of his unseen cards
        (-1 = none): the weakest tribute card he gave ``seat``."""
        ce = [-1] * R.NP
        for src, dst, cards, tribute in self.exchanges:
            if tribute and dst == self.seat and src != self.seat and cards:
                ce[src] = min(strength_key(c) for c in cards_of(cards))
        return ce

    def unseen(self) -> int:
        kn = 0
        for x in self.known():
            kn |= x
        return ALL_CARDS & ~self.hand & ~self.played & ~kn

    def needs(self) -> list[int]:
        kn = self.known()
        return [-1 if p == self.seat else self.counts[p] - popcount(kn[p]) for p in range(R.NP)]

    def state_list(self, hands: list[int]) -> list[int]:
        """The position (rules.py's layout) with the players holding ``hands``."""
        st = R.new_state(hands, list(self.order), self.turn)
        st[R.TABLE] = self.table
        st[R.REV] = self.rev
        st[R.LOCK] = self.lock
        st[R.PASSED] = self.passed
        st[R.LAST] = self.last
        st[R.TURN] = self.turn
        st[R.PASSCOUNT] = self.passcount
        for i, p in enumerate(self.finish):
            st[R.FINISH + i] = p
            st[R.OUTMASK] |= 1 << p
        st[R.NOUT] = len(self.finish)
        if self.turn < 0 and len(self.finish) < R.NP:
            st[R.STALE] = 1
        return st

    # ------------------------------------------------------------------ contract
    def deal_hands(self, rng: np.random.Generator) -> list[int]:
        """Hands of a random world consistent with this info set (plain Python)."""
        kn = self.known()
        need = self.needs()
        ce = self.ceilings()
        pool = cards_of(self.unseen())
        order = [pool[i] for i in rng.permutation(len(pool))]
        used = [False] * len(order)
        hands = [0] * R.NP
        hands[self.seat] = self.hand
        done = set()
        for p in range(R.NP):
            if need[p] > 0 and ce[p] >= 0:
                elig = [i for i, c in enumerate(order) if strength_key(c) < ce[p]]
                if len(elig) >= need[p]:
                    h = kn[p]
                    for i in elig[:need[p]]:
                        h |= 1 << order[i]
                        used[i] = True
                    hands[p] = h
                    done.add(p)
        left = [i for i in range(len(order)) if not used[i]]
        if done:  # the cards left in a fresh order: every consistent deal equally likely
            left = [left[j] for j in rng.permutation(len(left))]
        rest = iter(left)
        for p in range(R.NP):
            if p == self.seat or p in done:
                continue
            h = kn[p]
            for _ in range(need[p]):
                h |= 1 << order[next(rest)]
            hands[p] = h
        return hands

    def world(self, hands: list[int], seed: int) -> GameState:
        """The full state in which the players hold ``hands`` (5 hands by player, consistent
        with this info set); ``seed`` draws its stalemate ranking."""
        g = GameState.__new__(GameState)
        g.st = self.state_list(hands)
        g.ranks = list(self.ranks)
        g.exchanges = [Exchange(s, d, c, t) for s, d, c, t in self.exchanges]
        g.dealt = list(hands)
        g.history = list(self.history)
        g.seed = seed
        g.lead_pass = False
        return g

    def sample_world(self, rng: np.random.Generator) -> GameState:
        """A world dealt uniformly among those consistent with this info set."""
        hands = self.deal_hands(rng)
        return self.world(hands, int(rng.integers(1 << 30)))

    def legal_moves(self) -> list[int]:
        if self.turn != self.seat:
            raise ValueError(f"not player {self.seat}'s turn (player {self.turn} moves)")
        return R.legal_moves(self.hand, self.table, self.rev, self.lock)

    # ------------------------------------------------------------------ kernels
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """What the dealing kernel (``kernels.sample_hands``) takes, computed once: the
        position with only this player's hand (int64, rules.py's layout), the unseen cards
        (pool), how many of them each player needs (-1: this player), the cards known to be
        in each hand and each player's strength ceiling (:meth:`ceilings`)."""
        cached = self.__dict__.get("_cache")
        if cached is None:
            hands = [0] * R.NP
            hands[self.seat] = self.hand
            st0 = np.asarray(self.state_list(hands), dtype=np.int64)
            pool = np.asarray(cards_of(self.unseen()), dtype=np.int64)
            need = np.asarray(self.needs(), dtype=np.int64)
            known = np.asarray(self.known(), dtype=np.int64)
            ceil = np.asarray(self.ceilings(), dtype=np.int64)
            cached = (st0, pool, need, known, ceil)
            object.__setattr__(self, "_cache", cached)
        return cached


__all__ = ["GameState", "InfoSet", "Exchange", "RANK_NAMES"]
