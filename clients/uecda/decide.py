"""Decisions: the search cores behind one interface, always with a legal fallback.

:class:`Decider` turns the tracker's state into a move (and exchange cards). The fallback is
the baseline's choice, computed first; the search result replaces it only if the search
returns in time with a legal move. Anything the search raises is caught here (the client
boundary), logged with the reason, and the fallback is played.

Exchange decisions: ``exchange = "search"`` evaluates the candidate gifts (pairs / singles
drawn from the weakest ``exchange_candidates`` cards) by flat Monte Carlo over sampled deals
of the unseen cards, playing each resulting game out with the engine's playout policy;
``"heuristic"`` gives the weakest cards (the baseline rule).
"""

from __future__ import annotations

import time
from itertools import combinations
from typing import Any

import numpy as np
import structlog

from clients.uecda.baseline import baseline_exchange, baseline_move
from clients.uecda.config import ClientConfig
from clients.uecda.tracker import GameTracker
from games.daihinmin import rules as R
from games.daihinmin.cards import (
    ALL_CARDS,
    JOKER,
    PASS,
    cards_of,
    hand_from_cards,
    hand_str,
    move_str,
    popcount,
    strength_key,
)
from games.daihinmin.infoset import POLICIES
from games.daihinmin.kernels import state_playout
from games.daihinmin.state import Exchange, GameState
from search import flat as flat_mod
from search import uct as uct_mod
from search.budget import Budget
from search.result import SearchResult

log = structlog.get_logger()

NP = 5


class Decider:
    def __init__(self, config: ClientConfig, rng: np.random.Generator) -> None:
        self.config = config
        self.rng = rng
        self.core: Any = None
        self.searches = 0  # decisions taken by the search
        self.fallbacks = 0  # decisions where the search failed and the fallback was played
        if config.core == "flat":
            self.core = flat_mod.FlatMC(flat_mod.FlatConfig(
                bandit=config.bandit, alpha=config.alpha, final=config.final,
                batch=config.batch))
        elif config.core == "uct":
            self.core = uct_mod.UCT(uct_mod.UCTConfig(c=config.uct_c, reuse=False))

    def budget(self) -> Budget:
        cfg = self.config
        seconds = cfg.max_seconds if cfg.seconds is None else min(cfg.seconds, cfg.max_seconds)
        return Budget(playouts=cfg.playouts, seconds=seconds,
                      check_every=1 if cfg.playouts is None else 16)

    def _root(self, info: Any) -> Any:
        """The flat core batches playouts through the info set (its policy set); UCT plays
        each sampled world out itself, so its worlds get the same policy."""
        if self.config.core == "uct":
            return _PolicyRoot(info, POLICIES[self.config.policy])
        return info

    def warm_up(self) -> None:
        if self.core is None:
            return
        t0 = time.perf_counter()
        try:
            from games.daihinmin.state import Match, MatchConfig

            st = Match(MatchConfig(seed=0)).deal().state()
            root = self._root(st.info_set(st.to_move).with_policy(self.config.policy))
            self.core.search(root, st.to_move, Budget(playouts=8), np.random.default_rng(0))
        except Exception as e:  # the client boundary: warming up is optional
            log.warning("uecda_warm_up_failed", reason=f"{type(e).__name__}: {e}")
            return
        log.info("uecda_warm_up", elapsed_ms=round((time.perf_counter() - t0) * 1000, 1))

    # -- moves ----------------------------------------------------------------------------
    def move(self, tr: GameTracker, lead: bool) -> int:
        st = tr.shadow
        assert st is not None
        hand = st.hand(tr.me)
        table = PASS if lead else st.table
        fallback = baseline_move(hand, table, st.revolution, st.lock)
        legal = R.legal_moves(hand, table, int(st.revolution), int(st.lock))
        event: dict[str, Any] = {"game": tr.game, "turn": tr.turns, "legal": len(legal)}
        if self.core is None or len(legal) <= 1:
            choice = fallback if self.core is None or not legal else legal[0]
            log.info("uecda_decision", core="baseline" if self.core is None else "forced",
                     move=move_str(choice) or "pass", **event)
            return choice
        t0 = time.perf_counter()
        try:
            if st.to_move != tr.me:
                raise RuntimeError(f"shadow says player {st.to_move} moves, not us")
            root = self._root(st.info_set(tr.me).with_policy(self.config.policy))
            res: SearchResult = self.core.search(root, tr.me, self.budget(), self.rng)
            if res.move not in legal:
                raise RuntimeError(f"search chose an illegal move {res.move}")
        except Exception as e:  # the client boundary: never lose a move to a bug
            self.fallbacks += 1
            log.warning("uecda_fallback", reason=f"{type(e).__name__}: {e}",
                        move=move_str(fallback) or "pass",
                        elapsed_ms=round((time.perf_counter() - t0) * 1000, 1), **event)
            return fallback
        self.searches += 1
        summary = res.summary()
        summary["move"] = move_str(int(res.move)) or "pass"
        summary["top"] = [[move_str(int(m)) or "pass", n, v] for m, n, v in summary["top"]]
        log.info("uecda_decision", core=self.config.core, **{**event, **summary})
        return int(res.move)

    # -- exchange -------------------------------------------------------------------------
    def exchange(self, tr: GameTracker, n: int) -> int:
        hand = tr.hand0
        fallback = baseline_exchange(hand, n)
        if self.core is None or self.config.exchange == "heuristic":
            return fallback
        t0 = time.perf_counter()
        try:
            cards, stats = self._exchange_search(tr, hand, n)
        except Exception as e:  # the client boundary
            self.fallbacks += 1
            log.warning("uecda_exchange_fallback", reason=f"{type(e).__name__}: {e}",
                        elapsed_ms=round((time.perf_counter() - t0) * 1000, 1))
            return fallback
        log.info("uecda_exchange", game=tr.game, give=hand_str(cards), **stats)
        return cards

    def _exchange_search(self, tr: GameTracker, hand: int, n: int) -> tuple[int, dict[str, Any]]:
        cfg = self.config
        start = tr.start
        assert start is not None
        ranks = list(start.ranks)
        me = tr.me
        dst = ranks.index(4 if ranks[me] == 0 else 3)
        weak = sorted((c for c in cards_of(hand) if c != JOKER), key=strength_key)
        cand_cards = weak[: max(cfg.exchange_candidates, n)]
        cands = [hand_from_cards(list(c)) for c in combinations(cand_cards, n)]
        if len(cands) == 1:
            return cands[0], {"candidates": 1}
        k = len(cands)
        nn = np.zeros(k)
        s = np.zeros(k)
        budget = self.budget()
        meter = budget.start()
        total = 0
        # the exchange is count-neutral: everyone ends with the count dealt (HAND0 row 6)
        counts = list(start.card_counts)
        while not meter.done(total):
            a = int(np.argmin(nn)) if total < k else int(np.argmax(
                s / nn + np.sqrt(2 * np.log(total) / nn)))
            gift = cands[a]
            mine = hand & ~gift
            unseen = ALL_CARDS & ~hand
            pool = [int(c) for c in self.rng.permutation(cards_of(unseen))]
            hands = [0] * NP
            hands[me] = mine
            hands[dst] = gift
            for q in range(NP):
                if q == me:
                    continue
                while popcount(hands[q]) < counts[q] and pool:
                    hands[q] |= 1 << pool.pop()
            world = GameState(hands, list(start.seats), None, ranks=ranks,
                              exchanges=[Exchange(me, dst, gift, False)])
            po = state_playout(world, self.rng, me, POLICIES[self.config.policy])
            v = float(po.returns[me])
            nn[a] += 1
            s[a] += v
            total += 1
        means = np.where(nn > 0, s / np.maximum(nn, 1), -1.0)
        best = int(np.argmax(means))
        return cands[best], {"candidates": k, "playouts": total, "value": round(float(
            means[best]), 4), "elapsed_ms": round(meter.elapsed() * 1000, 1)}


class _PolicyWorld:
    """A sampled world whose ``playout`` uses the configured kernel policy."""

    def __init__(self, world: GameState, policy: int) -> None:
        self._w = world
        self._policy = policy

    def __getattr__(self, name: str) -> Any:
        return getattr(self._w, name)

    def playout(self, rng: np.random.Generator, seat: int) -> Any:
        return state_playout(self._w, rng, seat, self._policy)


class _PolicyRoot:
    """An info set whose sampled worlds play out with ``policy`` (for UCT)."""

    def __init__(self, info: Any, policy: int) -> None:
        self.info = info
        self.policy = policy
        self.seat = info.seat

    def legal_moves(self) -> list[int]:
        return list(self.info.legal_moves())

    def sample_world(self, rng: np.random.Generator) -> _PolicyWorld:
        return _PolicyWorld(self.info.sample_world(rng), self.policy)
