"""Following a game from the wire: a *shadow* GameState consistent with what we saw.

The server tells us our hand, the cards on the table, who acted, the card counts, the
revolution and the lock. The tracker replays every action on a full GameState in which the
other players' hands are a guess (unseen cards dealt at random by the known counts, cards we
gave in the exchange placed with their receiver). When someone plays cards our guess did not
give him, the guess is repaired by swapping cards between opponents' hands. Only what we can
see matters to the search: it asks the rules engine for our information set
(``shadow.info_set(me)``), which forgets the guess.

After each action the tracker checks the next hand table against the shadow (whose turn,
empty table, revolution, lock, counts, our hand) and resynchronises the shadow if needed
(logged as ``uecda_shadow_resync``).
"""

from __future__ import annotations

import numpy as np
import structlog

from games.daihinmin import rules as R
from games.daihinmin.cards import ALL_CARDS, PASS, cards_of, move_cards, popcount
from games.daihinmin.state import Exchange, GameState
from protocols.uecda import GameStart, HandTable, StageTable
from protocols.uecda.cards import hand_from_cells, move_from_cells

log = structlog.get_logger()

NP = 5


class GameTracker:
    """One match's view from player ``me`` (set by the PlayerNumber event)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.me = -1
        self.game = 0
        self.start: GameStart | None = None
        self.shadow: GameState | None = None
        self.given = 0  # cards we gave in this game's exchange
        self.hand0 = 0
        self.resyncs = 0
        self.turns = 0

    # -- events ---------------------------------------------------------------------------
    def on_game_start(self, ev: GameStart) -> None:
        self.game += 1
        self.start = ev
        self.shadow = None
        self.given = 0
        self.hand0 = hand_from_cells(ev.hand)
        self.turns = 0

    def on_exchange(self, cards: int) -> None:
        self.given = cards

    def on_hand_table(self, ev: HandTable) -> None:
        if self.shadow is None:
            self.shadow = self._deal(ev)
        else:
            self._check(ev)
        self.turns += 1

    def on_stage(self, ev: StageTable) -> None:
        st = self.shadow
        if st is None or st.is_terminal():
            return
        actor = ev.actor
        played = ev.card_counts[actor] < popcount(st.hand(actor))
        move = PASS
        if played:
            try:
                move = move_from_cells(ev.cards)
            except ValueError:
                log.warning("uecda_unreadable_stage", game=self.game, actor=actor)
                return
            self._make_hold(actor, move_cards(move))
        if st.to_move != actor:
            self._force_turn(actor)
        if played and not st.accepts(move):
            log.warning("uecda_shadow_rejects", game=self.game, actor=actor, move=move)
            self._force_table_empty()
        st.play(move)

    # -- the state for the search ---------------------------------------------------------
    @property
    def hand(self) -> int:
        return self.shadow.hand(self.me) if self.shadow is not None else 0

    # -- internals ------------------------------------------------------------------------
    def _ranks(self) -> list[int]:
        assert self.start is not None
        if all(r == 0 for r in self.start.ranks):
            return [2] * NP  # rank reset game: the engine's convention
        return list(self.start.ranks)

    def _deal(self, ev: HandTable) -> GameState:
        """A full state from the first hand table of a game."""
        assert self.start is not None
        me = self.me
        mine = hand_from_cells(ev.hand)
        counts = list(ev.card_counts)
        hands = [0] * NP
        hands[me] = mine
        ranks = self._ranks()
        exchanges: list[Exchange] = []
        known: dict[int, int] = {}
        if not all(r == 2 for r in ranks):
            my_rank = ranks[me]
            if self.given and my_rank in (0, 1):  # we gave: the receiver holds those cards
                dst = ranks.index(4 if my_rank == 0 else 3)
                known[dst] = self.given
                exchanges.append(Exchange(me, dst, self.given, False))
            elif my_rank in (3, 4):  # the tribute was taken from us, something came back
                other = ranks.index(0 if my_rank == 4 else 1)
                taken = self.hand0 & ~mine
                back = mine & ~self.hand0
                if taken:
                    known[other] = taken
                    exchanges.append(Exchange(me, other, taken, True))
                if back:
                    exchanges.append(Exchange(other, me, back, False))
        unseen = ALL_CARDS & ~mine
        for p, cards in known.items():
            cards &= unseen
            take = cards_of(cards)[: counts[p]]
            for c in take:
                hands[p] |= 1 << c
                unseen &= ~(1 << c)
        pool = [int(c) for c in self.rng.permutation(cards_of(unseen))]
        for p in range(NP):
            if p == me:
                continue
            while popcount(hands[p]) < counts[p] and pool:
                hands[p] |= 1 << pool.pop()
        return GameState(hands, list(self.start.seats), ev.turn, ranks=ranks,
                         exchanges=exchanges)

    def _make_hold(self, actor: int, cards: int) -> None:
        """Repair the guess so that ``actor`` holds ``cards``."""
        st = self.shadow
        assert st is not None
        if actor == self.me:
            return
        missing = cards & ~st.hand(actor)
        for c in cards_of(missing):
            bit = 1 << c
            holder = next((q for q in range(NP) if q != self.me and st.hand(q) & bit), None)
            if holder is None:
                continue  # we hold it? then the server is confused; nothing to repair
            spare = cards_of(st.hand(actor) & ~cards)
            st.st[R.H0 + holder] &= ~bit
            st.st[R.H0 + actor] |= bit
            if spare:
                s = spare[int(self.rng.integers(len(spare)))]
                st.st[R.H0 + actor] &= ~(1 << s)
                st.st[R.H0 + holder] |= 1 << s

    def _force_turn(self, p: int) -> None:
        st = self.shadow
        assert st is not None
        st.st[R.TURN] = p

    def _force_table_empty(self) -> None:
        st = self.shadow
        assert st is not None
        st.st[R.TABLE] = PASS
        st.st[R.LOCK] = 0
        st.st[R.PASSED] = 0

    def _check(self, ev: HandTable) -> None:
        st = self.shadow
        assert st is not None
        mine = hand_from_cells(ev.hand)
        counts = [popcount(st.hand(p)) for p in range(NP)]
        problems = []
        if st.is_terminal():
            problems.append("shadow game over")
        if st.to_move != ev.turn:
            problems.append(f"turn {st.to_move} != {ev.turn}")
        if (st.table == PASS) != ev.lead:
            problems.append("lead")
        if st.revolution != ev.revolution:
            problems.append("revolution")
        if st.lock != ev.lock:
            problems.append("lock")
        if counts != list(ev.card_counts) or st.hand(self.me) != mine:
            problems.append("cards")
        if not problems:
            return
        self.resyncs += 1
        log.warning("uecda_shadow_resync", game=self.game, problems=problems)
        s = st.st
        if "cards" in problems:
            self._redeal(mine, list(ev.card_counts))
        s[R.TURN] = ev.turn
        if ev.lead:
            s[R.TABLE] = PASS
            s[R.PASSED] = 0
        s[R.REV] = int(ev.revolution)
        s[R.LOCK] = int(ev.lock)
        out = 0
        for p in range(NP):
            if not s[R.H0 + p]:
                out |= 1 << p
        s[R.OUTMASK] = out
        fin = [p for p in s[R.FINISH:R.FINISH + NP] if p >= 0 and out >> p & 1]
        fin += [p for p in range(NP) if out >> p & 1 and p not in fin]
        for i in range(NP):
            s[R.FINISH + i] = fin[i] if i < len(fin) else -1
        s[R.NOUT] = len(fin)

    def _redeal(self, mine: int, counts: list[int]) -> None:
        st = self.shadow
        assert st is not None
        played = ALL_CARDS
        for p in range(NP):
            played &= ~st.hand(p)
        unseen = ALL_CARDS & ~mine & ~played
        pool = [int(c) for c in self.rng.permutation(cards_of(unseen))]
        for p in range(NP):
            if p == self.me:
                st.st[R.H0 + p] = mine
                continue
            h = 0
            for _ in range(counts[p]):
                if pool:
                    h |= 1 << pool.pop()
            st.st[R.H0 + p] = h
