"""Decisions: the search cores behind one interface, always with a legal fallback.

:class:`Decider` turns the tracker's state into a move (and exchange cards). The fallback is
the baseline's choice, computed first; the search result replaces it only if the search
returns in time with a legal move. Anything the search raises is caught here (the client
boundary), logged with the reason, and the fallback is played.

Exchange decisions: ``exchange = "search"`` evaluates the candidate gifts (pairs / singles
drawn from the weakest ``exchange_candidates`` cards) by Monte Carlo
(:mod:`knowledge.daihinmin.exchange`: successive halving with the tribute model's deals with
``deal = "inference"``, UCB1 with uniform deals with ``"uniform"``); ``"heuristic"`` gives
the weakest cards (the baseline rule).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import structlog
import zmq

import games.daihinmin.rules as R
from clients.config import ConfigError
from clients.uecda.baseline import baseline_exchange, baseline_move
from clients.uecda.config import ClientConfig, uses_weights
from clients.uecda.tracker import GameTracker
from games.daihinmin.cards import ALL_CARDS, PASS, hand_str, move_str, popcount
from games.daihinmin.kernels import gen_moves_list
from games.daihinmin.match import Match, MatchConfig
from games.daihinmin.state import GameState, InfoSet
from knowledge.daihinmin.endgame import sure_finish
from knowledge.daihinmin.exchange import search_gift
from knowledge.daihinmin.inference import HandSampler
from knowledge.daihinmin.learned import decision_rows, load_policy, policy_names
from knowledge.daihinmin.opponents import OpponentModels
from knowledge.daihinmin.position import Root, Settings
from knowledge.daihinmin.style import STYLES
from knowledge.style import parse_style
from search.budget import Budget, Clock
from search.flat import FlatConfig, FlatMC
from search.ismcts import ISMCTS, ISMCTSConfig
from search.parallel import WorkerPool
from search.result import SearchResult
from search.uct import UCT, UCTConfig

log = structlog.get_logger()

_POOL_ERRORS = (RuntimeError, TimeoutError, OSError, zmq.ZMQError)


def _load(key: str, path: str) -> np.ndarray:
    """The weights file of setting ``key`` ("" = the bundled one); a file that cannot be
    read or was made for other features is a ConfigError naming the setting."""
    try:
        return load_policy(path or None)
    except ValueError as e:
        raise ConfigError(f"{key}: {e}") from e


def _load_priors(key: str, value: str) -> tuple[list[str], np.ndarray]:
    """The names of the weights files of a setting naming one or several (A+B), and their θ,
    one per row; a ConfigError naming the setting if the list is malformed or a file cannot
    be read."""
    try:
        names = policy_names(value)
    except ValueError as e:
        raise ConfigError(f"{key}={e}") from e
    return names, np.vstack([_load(key, name) for name in names])


class Decider:
    def __init__(self, config: ClientConfig, rng: np.random.Generator,
                 clock: Clock = time.perf_counter) -> None:
        self.config = config
        self.rng = rng
        self.clock = clock  # the search budgets' time source (tests inject one)
        self.core: Any = None
        self.core_config: FlatConfig | ISMCTSConfig | UCTConfig | None = None
        self.searches = 0  # decisions taken by the search
        self.fallbacks = 0  # decisions where the search failed and the fallback was played
        self.pool: WorkerPool | None = None  # with workers > 1, started by warm_up()
        self.workers_failed = False
        self.models: OpponentModels | None = None  # the learned policy, per player
        self.model_names: list[str] = []  # the weights of each prior of the models
        self.sampler: HandSampler | None = None  # deal=inference: the chain of one game
        self._sampler_game = -1
        self._resyncs = 0  # the tracker's resyncs when the last game ended
        if config.core != "baseline" and uses_weights(config):
            self.model_names, priors = _load_priors("weights", config.weights)
            self.models = OpponentModels(priors, fixed=config.opponents == "select")
        # our own moves in the playouts, if not the models' (shipped) policy
        self.own_theta = _load("own_policy", config.own_policy) if config.own_policy else None
        if config.core != "baseline" and config.deal == "inference":
            self.sampler = HandSampler(eps=config.model_eps, thin=config.chain_thin,
                                       exchange_prior=config.exchange_prior)
        self.style = parse_style(config.style, STYLES)  # checked by the config already
        if config.core == "flat":
            self.core_config = FlatConfig(bandit=config.bandit, alpha=config.alpha,
                                          final=config.final, batch=config.batch,
                                          prune=config.prune, priors=self.style is not None)
            self.core = FlatMC(self.core_config)
        elif config.core == "ismcts":
            self.core_config = ISMCTSConfig(bandit=config.bandit, c=config.c,
                                            final=config.final, batch=config.batch,
                                            priors=config.tree_priors)
            self.core = ISMCTS(self.core_config)
        elif config.core == "uct":
            self.core_config = UCTConfig(c=config.c, reuse=False)
            self.core = UCT(self.core_config)

    def budget(self, spent: float = 0.0) -> Budget:
        """Playouts (0: none) and/or seconds per decision, never past ``max_seconds``;
        ``spent``: seconds of the decision already used (by the inference), taken off the
        search's time but never more than three quarters of it."""
        cfg = self.config
        seconds = cfg.seconds or cfg.max_seconds
        return Budget(playouts=cfg.playouts or None,
                      seconds=max(seconds - spent, seconds / 4), clock=self.clock)

    def _root(self, info: InfoSet, game: int) -> Root:
        """What the search starts from: the info set with the playing settings — the playout
        policy with the per-player weights, the reward, the sure finishes, the rule player's
        share of the opponents' moves, α for UCT (which backs up the playouts' returns as
        they are; the flat core discounts their evaluations itself), the style — and, with
        deal=inference, the worlds sampled from the evidence."""
        cfg = self.config
        W = self.models.weights() if self.models is not None else None
        rule_w = (self.models.rule_weights(info.seat)
                  if cfg.opponents != "fixed" and self.models is not None else None)
        settings = Settings(policy=cfg.policy, weights=self._playout_weights(info.seat),
                            reward=cfg.reward, own_sure=cfg.endgame_playouts,
                            rule_w=rule_w if cfg.rule_playouts else None,
                            alpha=cfg.alpha if cfg.core != "flat" else 1.0, style=self.style)
        worlds = None
        if self.sampler is not None and W is not None:  # the inference: the models as fitted
            if game != self._sampler_game:
                self.sampler.reset()
                self._sampler_game = game
            worlds = self.sampler.worlds(info, W, cfg.worlds, self.rng,
                                         rule_w if cfg.rule_model else None)
        return Root(info, settings, worlds)

    def _playout_weights(self, seat: int) -> np.ndarray | None:
        """The weights of the playouts: the models' rows (as fitted: the inference's) with
        the opponents' divided by ``opp_temperature`` and ours (``own_policy``'s, else the
        model's) by ``temperature``."""
        cfg = self.config
        W = self.models.weights() if self.models is not None else None
        if W is None or (cfg.temperature == 1.0 and cfg.opp_temperature == 1.0
                         and self.own_theta is None):
            return W
        played = W / cfg.opp_temperature
        played[seat] = (W[seat] if self.own_theta is None else self.own_theta) / cfg.temperature
        return played

    def warm_up(self) -> None:
        """Load the compiled kernels (and start the workers, with ``workers`` > 1)."""
        if self.core is None:
            return
        t0 = time.perf_counter()
        try:
            st = Match(MatchConfig(seed=0)).deal().state()
            root = self._root(st.info_set(st.to_move), -1)
            self.core.search(root, st.to_move, Budget(playouts=8), np.random.default_rng(0))
            # and what the opponent model's refit after each game compiles
            hand = int(st.hand(st.to_move))
            decision_rows(st, st.to_move, gen_moves_list(hand, 0, 0, 0)[-1])
            if self.sampler is not None:
                self.sampler.reset()
                self._warm_up_exchange()
        except Exception as e:  # the client boundary: warming up is optional
            log.warning("uecda_warm_up_failed", reason=f"{type(e).__name__}: {e}")
            return
        if self.config.workers > 1:
            self._start_workers(root, st.to_move)
        log.info("uecda_warm_up", elapsed_ms=round((time.perf_counter() - t0) * 1000, 1),
                 workers=0 if self.pool is None else len(self.pool.ready))

    def _warm_up_exchange(self) -> None:
        """Compile the exchange search's kernels, which the first exchange would otherwise
        compile inside its time budget; the client's own random stream is left as it was."""
        if self.config.exchange != "search":
            return
        m = Match(MatchConfig(seed=0))
        m.game, m.ranks = 1, [0, 1, 2, 3, 4]  # player 0 is the daifugo, player 4 daihinmin
        d = m.deal()
        rng, self.rng = self.rng, np.random.default_rng(0)
        try:
            self._search_gift(d.hands[0], 2, 0, d.ranks, [popcount(h) for h in d.dealt],
                              d.order, Budget(playouts=8))
        finally:
            self.rng = rng

    def _start_workers(self, root: Any, seat: int) -> None:
        assert self.core_config is not None
        try:
            self.pool = WorkerPool(workers=self.config.workers)
            self.pool.search(self.config.core, self.core_config, root, seat,  # type: ignore[arg-type]
                             Budget(playouts=16 * self.config.workers), self.rng,
                             session="warm-up")
        except _POOL_ERRORS as e:
            self._workers_failed(e)

    def _workers_failed(self, error: Exception) -> None:
        log.warning("uecda_workers_failed", error=f"{type(error).__name__}: {error}",
                    fallback="searching in this process")
        self.close()
        self.workers_failed = True

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def _search(self, root: Any, seat: int, game: int, spent: float = 0.0) -> SearchResult:
        budget = self.budget(spent)
        if self.pool is not None:
            slack = budget.seconds + 2.0 if budget.seconds is not None else None
            try:
                return self.pool.search(self.config.core, self.core_config,  # type: ignore[arg-type]
                                        root, seat, budget, self.rng, session=f"game-{game}",
                                        reply_timeout=slack)
            except _POOL_ERRORS as e:
                self._workers_failed(e)
        return self.core.search(root, seat, budget, self.rng)  # type: ignore[no-any-return]

    def decide(self, st: GameState, seat: int, game: int, t0: float) -> SearchResult:
        """One decision's search for ``seat`` from the state ``st`` (what it knows: its
        information set), the inference included; ``t0`` is when the decision began
        (``time.perf_counter``), so a time budget counts what came before."""
        root = self._root(st.info_set(seat), game)
        return self._search(root, seat, game, time.perf_counter() - t0)

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
        if self.config.endgame:
            line = self._sure_finish(st, tr.me, table)
            if line is not None and line[0] in legal:
                log.info("uecda_decision", core="endgame", move=move_str(line[0]) or "pass",
                         line=[move_str(m) or "pass" for m in line],
                         elapsed_ms=round((time.perf_counter() - t0) * 1000, 1), **event)
                return line[0]
        try:
            if st.to_move != tr.me:
                raise RuntimeError(f"shadow says player {st.to_move} moves, not us")
            res = self.decide(st, tr.me, tr.game, t0)
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

    @staticmethod
    def _sure_finish(st: GameState, me: int, table: int) -> list[int] | None:
        """A sure finish from here (knowledge.daihinmin.endgame), or None (also on any error:
        the search then decides)."""
        try:
            info = st.info_set(me)
            others = ALL_CARDS & ~info.hand & ~info.played
            return sure_finish(info.hand, others, table, info.rev, info.lock,
                               own_table=table != PASS and info.last == me)
        except Exception as e:  # the client boundary
            log.warning("uecda_endgame_failed", reason=f"{type(e).__name__}: {e}")
            return None

    def end_game(self, tr: GameTracker) -> None:
        """A game is over: with opponents=adapt or select, learn from the opponents' revealed
        hands."""
        st = tr.shadow
        if self.models is None or self.config.opponents == "fixed" or st is None:
            return
        if not st.is_terminal() or st.st[R.STALE] or tr.resyncs != self._resyncs:
            self._resyncs = tr.resyncs
            return  # a stalemate or a resync: the hands cannot be told for sure
        t0 = time.perf_counter()
        try:
            n = self.models.learn_game(list(st.history), list(st.order), list(st.finish),
                                       st.hand(tr.me), tr.me)
        except Exception as e:  # the client boundary: the models are an optional extra
            log.warning("uecda_model_update_failed", reason=f"{type(e).__name__}: {e}")
            return
        chosen = [self.models.candidates[k] for k in self.models.chosen]
        models = [self.model_names[c] + ("" if adapted else " as given") for c, adapted in chosen]
        log.info("uecda_models", game=tr.game, decisions=n, models=models,
                 elapsed_ms=round((time.perf_counter() - t0) * 1000, 1))

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
        budget = self.budget() if cfg.exchange_playouts == 0 else Budget(
            playouts=cfg.exchange_playouts, seconds=cfg.max_seconds, clock=self.clock)
        # the exchange is count-neutral: everyone ends with the count dealt (HAND0 row 6)
        return self._search_gift(hand, n, tr.me, list(start.ranks), list(start.card_counts),
                                 list(start.seats), budget)

    def _search_gift(self, hand: int, n: int, me: int, ranks: list[int], counts: list[int],
                     seats: list[int], budget: Budget) -> tuple[int, dict[str, Any]]:
        """The ``n`` cards the daifugo or fugo ``me`` gives from ``hand`` (after the tribute),
        searched among its weakest ``exchange_candidates``; ``counts``: the cards dealt."""
        cfg = self.config
        settings = Settings(policy=cfg.policy, weights=self._playout_weights(me),
                            own_sure=cfg.endgame_playouts)
        return search_gift(hand, n, me, ranks, counts, seats, budget, self.rng, settings,
                           weakest=cfg.exchange_candidates,
                           tribute_model=cfg.deal == "inference")
