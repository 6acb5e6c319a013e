"""The move generator of ``corvid gtp``: a decision core over the search-facing position of
knowledge.go (a games.go rules state with the playing settings of the config) —
by default UCT with RAVE and priors on the compiled tree (search.ctree), else search.uct,
flat Monte Carlo or α-β over UCB bounds — with the Go-specific decisions around it:
resigning, passing only when it is safe under Tromp–Taylor scoring (under territory rules,
with the dead stones taken off), and cleaning up dead stones; and the search of a position in
slices for live analysis and pondering (:class:`TreeAnalysis`)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Hashable
from typing import Any

import msgspec
import numpy as np
import structlog
import zmq

from clients.config import ConfigError
from clients.gtp.analysis import Candidate, prior_shares
from clients.gtp.config import GtpConfig
from clients.gtp.dynkomi import DynamicKomi
from clients.gtp.engine import Decision, MoveRequest
from games.go.coords import BLACK as GO_BLACK
from games.go.state import GoState
from knowledge.go.opening import CORNER_POINTS, LARGE_BOARD, empty_corner_points
from knowledge.go.patterns import board_images
from knowledge.go.position import GoPosition, PlayoutSettings
from knowledge.go.priors import LADDER_PRIORS, LearnedPriors, PriorWeights
from knowledge.go.style import STYLES
from knowledge.go.weights import GoWeights, load_weights
from knowledge.style import parse_style
from protocols.gtp.common import BLACK, parse_vertex
from search.abucb import ABUCBConfig
from search.budget import Budget
from search.ctree import CompiledUCT
from search.flat import FlatConfig
from search.parallel import CORES, CoreName, WorkerPool
from search.result import SearchResult
from search.uct import UCTConfig

log = structlog.get_logger()
_POOL_ERRORS = (RuntimeError, TimeoutError, OSError, zmq.ZMQError)
PV_LENGTH = 10  # moves of a principal variation in the analysis lines


def needs_weights(cfg: GtpConfig) -> bool:
    return cfg.playout_policy == 3 or cfg.learned_priors or cfg.td_visits > 0


def load_knowledge(cfg: GtpConfig, size: int = 9) -> GoWeights | None:
    """The weights the settings use on a board of ``size`` (None if they use none).
    ConfigError if the file is missing or not a weights file."""
    if not needs_weights(cfg):
        return None
    try:
        w = load_weights(cfg.weights, size)
    except (FileNotFoundError, ValueError) as e:
        raise ConfigError(f"weights: {e}") from None
    if cfg.td_visits > 0 and w.td_theta is None:
        raise ConfigError(f"td_visits: {w.path} has no TD(0) value (corvid learn go td)")
    return w


def learned_priors(cfg: GtpConfig) -> LearnedPriors | None:
    """The learned priors of the settings: the move ratings' (``learned_priors``), the
    TD(0) value's (``td_visits`` > 0) and capture reading's (``read_visits`` > 0), any of
    them; None for the heuristic priors alone."""
    if not cfg.learned_priors and cfg.td_visits <= 0 and cfg.read_visits <= 0:
        return None
    return LearnedPriors(cfg.prior_visits if cfg.learned_priors else 0.0, cfg.prior_low,
                         cfg.prior_high, cfg.prior_tau, cfg.td_visits, cfg.large_patterns,
                         cfg.read_visits)


def search_position(state: GoState, cfg: GtpConfig) -> GoPosition:
    """The position the search plays from ``state``: the playout settings, the priors, the
    learned knowledge and the playing style of the settings (the jigo's value as black's, from
    the colour to play)."""
    jigo = cfg.jigo_value if state.to_play == GO_BLACK else 1.0 - cfg.jigo_value
    settings = PlayoutSettings(policy=cfg.playout_policy, lgrf=cfg.lgrf_level,
                               score_weight=cfg.score_weight, jigo=jigo)
    weights = PriorWeights()
    if cfg.prior_scale != 1.0 or cfg.ladder_priors:
        weights = (LADDER_PRIORS if cfg.ladder_priors else weights).scaled(cfg.prior_scale)
    return GoPosition(state, settings, weights, learned_priors(cfg),
                      load_knowledge(cfg, state.size),
                      parse_style(cfg.style, STYLES))


def uct_config(cfg: GtpConfig, size: int = 9) -> UCTConfig:
    """The UCT settings of ``cfg`` on a board of ``size``."""
    return UCTConfig(rave=cfg.rave, rave_k=cfg.rave_k, rave_mse=cfg.rave_mse,
                     rave_child=cfg.rave_child, rave_weighted=cfg.rave_weighted,
                     rave_first_player=cfg.rave_first_player, c=cfg.c,
                     priors=cfg.priors, reuse=cfg.reuse, final=cfg.final,
                     grandfather=cfg.grandfather,
                     widening=cfg.widening, widening_initial=cfg.widening_initial,
                     widening_a=cfg.widening_a, widening_b=cfg.widening_b,
                     tree_mb=cfg.tree_mb, expand_visits=cfg.expand_visits_on(size))


def core_spec(cfg: GtpConfig, size: int = 9) -> tuple[CoreName, msgspec.Struct]:
    """The search core the settings ask for on a board of ``size``: its name in
    search.parallel.CORES and its config."""
    if cfg.core == "flat":
        return "flat", FlatConfig()
    if cfg.core == "abucb":
        return "abucb", ABUCBConfig(depth=cfg.abucb_depth, width=cfg.abucb_width)
    return ("ctree" if cfg.compiled else "uct"), uct_config(cfg, size)


def make_core(cfg: GtpConfig, size: int = 9) -> Any:
    name, conf = core_spec(cfg, size)
    return CORES[name][0](conf)


def dynkomi_params(cfg: GtpConfig) -> tuple[float, float, float, float, float]:
    """The dynamic komi's step, zones and cap in ``cfg`` (clients.gtp.dynkomi)."""
    return (cfg.dynamic_komi, cfg.dynamic_komi_high, cfg.dynamic_komi_low,
            cfg.dynamic_komi_max, cfg.dynamic_komi_red)


def unclear(result: SearchResult, share: float = 0.5) -> bool:
    """Whether a root move visited at least ``share`` times as often as the most visited one
    has the better mean value: more search would likely change the move (Huang, Coulom and
    Lin 2010, "Time management for Monte-Carlo tree search applied to the game of Go")."""
    if not result.visits:
        return False
    top = max(range(len(result.visits)), key=result.visits.__getitem__)
    floor = share * result.visits[top]
    return any(n >= floor and v > result.values[top]
               for i, (n, v) in enumerate(zip(result.visits, result.values, strict=True))
               if i != top)


class SearchPlayer:
    """A :class:`clients.gtp.engine.MoveGenerator` keeping one core (and UCT's tree) across
    moves."""

    def __init__(self, config: GtpConfig) -> None:
        self.config = config
        self.size = 9  # the board the core was made for (its settings may depend on it)
        self.core = make_core(config)
        self.rng = np.random.default_rng(config.seed or None)
        self.pool: WorkerPool | None = None  # with workers > 1, started by start()
        self.game = 0  # the workers' session: a new game starts new trees
        self.workers_failed = False  # then search here, until `workers` is set again
        self.dynkomi = DynamicKomi(*dynkomi_params(config))

    def start(self) -> None:
        """Start the worker processes (workers > 1) and load their kernels, so the first
        move's time is spent searching."""
        if self.config.workers <= 1 or self.pool is not None or self.workers_failed:
            return
        try:
            self.pool = WorkerPool(workers=self.config.workers)
            name, conf = core_spec(self.config, 9)
            warm = GoPosition(GoState(9, 7.0))
            for _ in range(2):  # the second search re-roots each worker's tree
                res = self.pool.search(name, conf, warm, warm.to_move,
                                       Budget(playouts=16 * self.config.workers), self.rng,
                                       session="warm-up")
                warm.play(res.move)
        except _POOL_ERRORS as e:
            self._workers_failed(e)

    def warm_up(self) -> None:
        """Load (or compile) the core's kernels with two tiny searches of a throwaway core,
        a move apart so that the second re-roots the tree (from a cold compile cache that
        path alone took 4 s of the second move), so each move's time is spent searching."""
        s = GoPosition(GoState(5, 0.5))
        core = make_core(self.config)
        for _ in range(2):
            s.play(core.search(s, s.to_move, Budget(playouts=8), self.rng).move)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def configure(self, config: GtpConfig) -> None:
        load_knowledge(config)  # a weights file the settings need must load (ConfigError)
        old = self.config
        self.config = config
        if core_spec(old, self.size) != core_spec(config, self.size):
            self.core = make_core(config, self.size)
            self.game += 1  # the workers' trees were grown with the old settings
        elif old.style != config.style:
            self.reset()  # the tree's nodes hold the old style's priors
        self.dynkomi = DynamicKomi(*dynkomi_params(config), sides=self.dynkomi.sides)
        if old.seed != config.seed:
            self.rng = np.random.default_rng(config.seed or None)
        if old.workers != config.workers:
            self.close()
            self.workers_failed = False
            self.start()  # now, not inside the next move's time

    def core_for(self, size: int) -> Any:
        """The core searching a board of ``size`` (a new one, with a new tree, if the
        settings in force there differ from those of the last board)."""
        if size != self.size:
            if core_spec(self.config, size) != core_spec(self.config, self.size):
                self.core = make_core(self.config, size)
                self.game += 1
            self.size = size
        return self.core

    def reset(self) -> None:
        if hasattr(self.core, "reset"):
            self.core.reset()
        self.game += 1
        self.dynkomi.reset()

    def analysis(self, request: MoveRequest, bounded: bool) -> TreeAnalysis:
        """The search of ``request``'s position in slices on this player's tree (live
        analysis; tree reuse then keeps it for the move). ``bounded``: it is the search for
        a move (genmove_analyze), done when the move's budget is spent; else it never is."""
        return TreeAnalysis(self, request, self._budget(request.seconds) if bounded else None)

    def _budget(self, seconds: float | None) -> Budget:
        cfg = self.config
        secs = seconds if seconds is not None else (cfg.seconds or None)  # the clock's first
        playouts = cfg.playouts if cfg.playouts > 0 else None
        visits = cfg.visits if cfg.visits > 0 else None
        if playouts is None and secs is None and visits is None:
            playouts = 1000
        return Budget(playouts=playouts, seconds=secs, visits=visits,
                      check_every=4 if secs else 1)

    def __call__(self, request: MoveRequest) -> Decision:
        cfg = self.config
        board, colour = request.board, request.colour
        margin = board.pass_margin(colour)  # our lead should the game end now
        if (cfg.pass_when_won and board.last_was_pass() and margin > 0
                and not (request.cleanup and board.dead_opponent_stones(colour))):
            log.info("gtp_pass_won", margin=margin)
            return Decision(None)
        position = search_position(board.search_state(colour), cfg)
        legal = list(position.legal_moves())
        if len(legal) <= 1:
            return Decision(None)
        if request.deterministic:
            core = make_core(cfg, board.size)
            rng = np.random.default_rng([cfg.seed, board.position_key(colour) & (2**63 - 1)])
        else:
            core, rng = self.core_for(board.size), self.rng
        if request.searched:  # genmove_analyze: the tree holds the move's search
            budget = Budget(playouts=cfg.min_playouts)
        elif request.seconds is not None and request.seconds <= 0:
            budget = Budget(playouts=1)  # the clock is all but gone: answer at once
        else:
            budget = self._budget(request.seconds)
        komi, extra = position.komi, cfg.komi_margin
        adapt = (cfg.dynamic_komi > 0 and not request.deterministic and not request.searched
                 and budget.playouts != 1)  # not on the one playout of a clock all but gone
        lead = self.dynkomi.for_move(colour, len(board.moves)) if adapt else 0.0
        # the search asks the dynamic komi's lead and komi_margin more of us (seat 0 gives it)
        position.komi += lead + extra if position.to_move == 0 else -(lead + extra)
        if extra and budget.seconds is not None:  # half the time each, should both searches run
            budget = dataclasses.replace(budget, seconds=budget.seconds / 2)
        here = request.deterministic or request.searched  # not in the workers
        early = cfg.time_early_stop and request.clock and not request.searched
        result = self._search(position, core, rng, budget, here, early)
        if extra and result.value < cfg.margin_below:
            # that lead is out of reach: search again for the game itself, on a fresh tree
            log.info("gtp_margin_out_of_reach", value=result.value, komi_margin=extra)
            position.komi, extra, lead = komi, 0.0, 0.0
            if hasattr(core, "reset"):
                core.reset()
            self.game += 1  # and fresh trees in the workers: theirs hold the other komi
            result = self._search(position, core, rng, budget, here)
        if (request.extension > 0 and not request.deterministic and not request.searched
                and cfg.core == "uct" and cfg.reuse and not result.info.get("settled")
                and unclear(result)):
            # more time for the same tree (tree reuse: the search goes on where it stopped)
            log.info("gtp_time_extend", seconds=round(request.extension, 3),
                     playouts=result.playouts)
            result = self._search(position, core, rng, self._budget(request.extension), here)
        if adapt:
            self.dynkomi.update(colour, result.value, len(board.moves))
        stats: dict[str, Any] = {
            "moves": [board.vertex_of(m) for m in result.moves],
            "visits": result.visits,
            "values": result.values,
            "value": result.value,
            "playouts": result.playouts,
            "komi_margin": extra,
            "dynamic_komi": lead,
            "reused_visits": result.info.get("reused_visits", 0),
        }
        log.info("gtp_search", **result.summary(), **({"dynamic_komi": lead} if adapt else {}))
        points = board.size * board.size
        root_visits = sum(result.visits)
        if (cfg.resign_threshold > 0 and result.value < cfg.resign_threshold
                and self.dynkomi.may_resign(lead)
                and root_visits >= cfg.resign_min_playouts
                and len(board.moves) >= cfg.resign_after * points):
            return Decision(None, resign=True, stats=stats)
        vertex = board.vertex_of(result.move)
        if (cfg.opening_9x9 and board.size == 9 and request.colour == BLACK
                and board.is_empty()):
            vertex = self._opening(vertex, stats)
        if (cfg.opening_corners and board.size >= LARGE_BOARD
                and len(board.moves) < cfg.opening_corners):
            vertex = self._corner(board, vertex, stats)
        in_time_trouble = request.seconds is not None and request.seconds < 0.25
        # dead stones go first only in the cleanup phase, or instead of a pass: in play they
        # are dead because the search's move keeps them so (its move may be the one that does)
        if (request.cleanup and (request.capture_dead or vertex is None)
                and result.value > cfg.cleanup_confidence and not in_time_trouble):
            vertex = self._capture_first(request, stats, vertex, result.value)
        if vertex is None:
            vertex = self._instead_of_pass(request, result.moves, result.visits, margin)
        return Decision(vertex, stats=stats)

    def _search(self, state: Any, core: Any, rng: np.random.Generator, budget: Budget,
                here: bool, early_stop: bool = False) -> SearchResult:
        """The search of ``state``: in the workers if there are any and not ``here``;
        ``early_stop``: it may end once its move cannot change (the compiled tree, here)."""
        cfg = self.config
        result = None
        if (cfg.workers > 1 and not self.workers_failed and not here
                and budget.playouts != 1):
            result = self._search_workers(state, budget, rng)
            if result is None and budget.seconds is not None:
                budget = Budget(playouts=cfg.min_playouts)  # the move's time is spent
        if result is None:
            if isinstance(core, CompiledUCT):
                result = core.search(state, state.to_move, budget, rng, early_stop=early_stop)
            else:
                result = core.search(state, state.to_move, budget, rng)
        if result.playouts < min(cfg.min_playouts, budget.playouts or cfg.min_playouts):
            # the time share was too small for a search: a few playouts beat none
            result = core.search(state, state.to_move, Budget(playouts=cfg.min_playouts), rng)
        return result

    def _search_workers(self, state: Any, budget: Budget,
                        rng: np.random.Generator) -> SearchResult | None:
        """Root-parallel search in the worker processes; None if they fail: they are then
        stopped and this process searches alone until ``workers`` is set again."""
        self.start()
        if self.pool is None:
            return None
        slack = None if budget.seconds is None else budget.seconds + 2.0
        name, conf = core_spec(self.config, self.size)
        try:
            return self.pool.search(name, conf, state, state.to_move, budget, rng,
                                    session=f"game-{self.game}", reply_timeout=slack)
        except _POOL_ERRORS as e:
            self._workers_failed(e)
            return None

    def _workers_failed(self, error: Exception) -> None:
        log.warning("gtp_workers_failed", error=f"{type(error).__name__}: {error}")
        self.close()
        self.workers_failed = True

    def _opening(self, vertex: Any, stats: dict[str, Any]) -> Any:
        """Black's first move on an empty 9x9 board: of the class of ``opening_9x9`` (its
        images under the board's 8 symmetries), the move the search visited most (the
        search's own if it is one; the lowest of the class if the search tried none)."""
        point = parse_vertex(self.config.opening_9x9, 9)
        assert point is not None  # GtpConfig refuses a pass
        images = board_images(*point, 9)
        if vertex in images:
            return vertex
        tried = [(n, v) for v, n in zip(stats["moves"], stats["visits"], strict=True)
                 if v in images]
        chosen = max(tried)[1] if tried else min(images)
        log.info("gtp_opening", searched=vertex, played=chosen)
        return chosen

    @staticmethod
    def _corner(board: Any, vertex: Any, stats: dict[str, Any]) -> Any:
        """While a corner is empty (knowledge.go.opening): the search's move if it is one of
        the empty corners' points, else the one of them it visited most, else the 4-4 point
        of the first empty corner."""
        points = empty_corner_points(board.state.grid())
        if not points or vertex in points:
            return vertex
        tried = [(n, v) for v, n in zip(stats["moves"], stats["visits"], strict=True)
                 if v in points and n > 0]
        chosen = max(tried)[1] if tried else points[len(CORNER_POINTS) - 1]
        log.info("gtp_opening_corner", searched=vertex, played=chosen)
        return chosen

    def _capture_first(self, request: MoveRequest, stats: dict[str, Any], vertex: Any,
                       value: float) -> Any:
        """Cleanup while clearly winning (kgs-genmove_cleanup, or the search would pass):
        prefer a liberty of a dead opponent group (if searched, as good as the search's
        choice within ``cleanup_tolerance``), so the dead stones go first."""
        board, colour = request.board, request.colour
        dead = board.dead_opponent_stones(colour)
        if not dead:
            return vertex
        libs = board.liberties_of(dead)
        best, best_key = vertex, (-1, -1.0)
        for v, n, q in zip(stats["moves"], stats["visits"], stats["values"], strict=True):
            if v not in libs:
                continue
            # a searched liberty must be about as good as the choice; an unsearched one is
            # taken only because the game is clearly won (value > cleanup_confidence)
            if n > 0 and q < value - self.config.cleanup_tolerance:
                continue
            if (n, q) > best_key:
                best, best_key = v, (n, q)
        return best

    def _instead_of_pass(self, request: MoveRequest, moves: list[Any], visits: list[int],
                         margin: float) -> Any:
        """The search wants to pass. Pass if that cannot lose should the game end now
        (``margin``: Board.pass_margin); else (or in cleanup mode while dead opponent
        stones remain) play the most visited move that does not fill our own eye, if any."""
        board, colour = request.board, request.colour
        dead = board.dead_opponent_stones(colour) if request.cleanup else []
        if margin > 0 and not dead:
            return None
        order = sorted(range(len(moves)), key=lambda i: -visits[i])
        for i in order:
            v = board.vertex_of(moves[i])
            if v is not None and not board.fills_own_eye(colour, v):
                log.info("gtp_no_pass", instead=v, margin=margin, dead=len(dead))
                return v
        return None


class TreeAnalysis:
    """:class:`clients.gtp.analysis.Analysis` on a :class:`SearchPlayer`'s core: the
    position searched in slices (in this process), the tree kept between them."""

    def __init__(self, player: SearchPlayer, request: MoveRequest,
                 budget: Budget | None) -> None:
        cfg = player.config
        self.player = player
        self.board = request.board
        self.position = search_position(request.board.search_state(request.colour), cfg)
        self.budget = budget  # the move's (genmove_analyze), None: analysis without end
        self.start = budget.clock() if budget is not None else 0.0
        self.playouts = 0
        priors = self.position.priors() if len(self.position.legal_moves()) > 1 else None
        self.priors: dict[Hashable, float] = {} if priors is None else dict(zip(
            priors.moves,
            prior_shares([float(v * n) for v, n in zip(priors.values, priors.counts,
                                                        strict=True)]),
            strict=True))

    @property
    def done(self) -> bool:
        b = self.budget
        if b is None:
            return False
        if not self.priors:  # nothing to search
            return True
        return ((b.playouts is not None and self.playouts >= b.playouts)
                or (b.seconds is not None and b.clock() - self.start >= b.seconds))

    def step(self, seconds: float) -> list[Candidate]:
        if not self.priors:  # nothing to search: the slice's time passes idle
            time.sleep(seconds)
            return []
        cfg = self.player.config
        by_playouts = cfg.analyze_playouts > 0  # slices of playouts, else of time
        playouts = cfg.analyze_playouts if by_playouts else None
        if self.budget is not None and self.budget.playouts is not None:
            left = max(self.budget.playouts - self.playouts, 1)
            playouts = left if playouts is None else min(playouts, left)
        if self.budget is not None and self.budget.seconds is not None:
            seconds = min(seconds, max(self.start + self.budget.seconds - self.budget.clock(),
                                       0.0))
        budget = Budget(playouts=playouts, seconds=None if by_playouts else seconds,
                        check_every=1 if by_playouts else 4)
        core = self.player.core_for(self.board.size)
        result = core.search(self.position, self.position.to_move, budget, self.player.rng)
        self.playouts += result.playouts
        line = getattr(core, "principal_variation", None)
        out = []
        for i in sorted(range(len(result.moves)), key=lambda i: -result.visits[i]):
            if result.visits[i] <= 0:
                continue
            move = int(result.moves[i])
            pv = line(move, PV_LENGTH) if line is not None else [move]
            out.append(Candidate(self.board.vertex_of(move), result.visits[i],
                                 result.values[i], self.priors.get(move, 0.0),
                                 [self.board.vertex_of(m) for m in pv]))
        return out
