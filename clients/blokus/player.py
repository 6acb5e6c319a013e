"""The Blokus Duo player: follows the game from the host's prompts and picks moves.

Sans-I/O like the codec: :meth:`BlokusPlayer.on_prompt` takes a prompt event (and when it
arrived) and returns the move code to send. It always has a legal move ready: the fallback
(the biggest piece that fits, first in scan order) is computed before the search starts;
when the search raises, returns an illegal move or is still running at the deadline, the
fallback is played and the log says why. ``0000`` only when no placement exists.

With ``ponder``, :meth:`BlokusPlayer.ponder` (called once the answer is sent) searches the
position after our move on the compiled tree in a background thread while the opponent
thinks; the next prompt stops it at once (the tree's stop request, checked before every
iteration) and the decision's search reuses the subtree under the opponent's actual reply.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import structlog
import zmq

from clients.blokus.config import PARALLEL_CORES, PlayerConfig
from games.blokus_duo import PASS, BlokusState
from knowledge.blokus_duo.book import DEFAULT_BOOK, Book
from knowledge.blokus_duo.endgame import Solution, endgame_ready, solve
from knowledge.blokus_duo.evaluation import DEFAULT_WEIGHTS, BlokusEval, blokus_features
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.bundled import bundled_path
from protocols.icfpt import FirstMovePrompt, SecondMovePrompt, TurnPrompt
from search.alphabeta import AlphaBeta, AlphaBetaConfig
from search.budget import Budget
from search.ctree import CompiledUCT
from search.parallel import CORES, CoreName, WorkerPool
from search.result import SearchResult
from search.selective import load_weights

log = structlog.get_logger()
_POOL_ERRORS = (RuntimeError, TimeoutError, OSError, zmq.ZMQError)


def load_eval(path: str) -> tuple[BlokusEval, str]:
    """The learned evaluation from ``path`` ("" = the bundled weights; zero weights if none)."""
    p = Path(path) if path else DEFAULT_WEIGHTS
    if p.exists():
        w, k, _meta = load_weights(p)
        return BlokusEval(w, k), str(p)
    if path:
        raise FileNotFoundError(f"weights file {path} not found")
    dim = len(blokus_features(BlokusPosition(BlokusState())))
    return BlokusEval(np.zeros(dim), 0.02), "zero"


def load_book(path: str) -> tuple[Book | None, str]:
    """The opening book from ``path`` ("" = the bundled one, none if there is none; "none" =
    no book; a name without a path separator or ``.json``: the bundled ``book-NAME.json``)."""
    if path == "none":
        return None, "none"
    p = bundled_path(path, DEFAULT_BOOK.parent, "book", "json", "book") if path else DEFAULT_BOOK
    if p.exists():
        return Book.load(p), str(p)
    if path:
        raise FileNotFoundError(f"book file {path} not found")
    return None, "none"


def fallback_move(state: BlokusState) -> int:
    """The biggest piece that fits (first in scan order among those), or PASS."""
    moves = state.legal_placements()
    if not moves:
        return PASS
    sizes = state.geo.ncells[np.asarray(moves)]
    return moves[int(np.argmax(sizes))]


def core_spec(cfg: PlayerConfig) -> tuple[CoreName, msgspec.Struct]:
    """A playout core's name in search.parallel.CORES and its config (not alphabeta, greedy)."""
    if cfg.core == "flat":
        return "flat", cfg.flat
    if cfg.core == "abucb":
        return "abucb", cfg.abucb
    return ("ctree" if cfg.compiled else "uct"), cfg.uct


class Core:
    """One decision core behind a uniform ``search(state, budget, rng)``: the book's move, or
    a search of the position played with the config's game settings; with ``workers`` > 1
    the playout cores search root-parallel in worker processes (started by :meth:`start`),
    and here alone (logging why) if the workers fail."""

    def __init__(self, cfg: PlayerConfig) -> None:
        self.cfg = cfg
        self.game_config = cfg.game  # the playing settings every position is searched with
        self.name = cfg.core
        self.weights = ""
        self.searcher: Any
        self.pool: WorkerPool | None = None
        self.workers_failed = False
        self.game = 0  # the workers' session: a new game starts new trees
        self.book, self.book_file = load_book(cfg.book)
        if cfg.core in PARALLEL_CORES:
            name, conf = core_spec(cfg)
            self.searcher = CORES[name][0](conf)
        else:
            ev, self.weights = load_eval(cfg.weights)
            ab_cfg = cfg.alphabeta if cfg.core == "alphabeta" else AlphaBetaConfig(max_depth=1)
            self.searcher = AlphaBeta(ev, ab_cfg)

    def start(self) -> None:
        """Start the worker processes (workers > 1) and load their kernels."""
        if self.cfg.workers <= 1 or self.pool is not None or self.workers_failed:
            return
        try:
            self.pool = WorkerPool(workers=self.cfg.workers)
            name, conf = core_spec(self.cfg)
            warm = BlokusPosition(BlokusState(), self.game_config)
            rng = np.random.default_rng(0)
            for _ in range(2):  # the second search re-roots each worker's tree
                res = self.pool.search(name, conf, warm, warm.to_move,
                                       Budget(playouts=8 * self.cfg.workers), rng,
                                       session="warm-up")
                warm.play(int(res.move))  # type: ignore[call-overload,unused-ignore]
        except _POOL_ERRORS as e:
            self._workers_failed(e)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def _workers_failed(self, error: Exception) -> None:
        log.warning("blokus_workers_failed", error=f"{type(error).__name__}: {error}")
        self.close()
        self.workers_failed = True

    def reset(self) -> None:
        if hasattr(self.searcher, "reset"):
            self.searcher.reset()
        self.game += 1

    def search(self, state: BlokusState, budget: Budget, rng: np.random.Generator
               ) -> SearchResult:
        """The move for the mover of ``state`` (searched on ``state`` itself: pass a copy):
        the endgame solver's when it proves one (``endgame_nodes``), else the book's or the
        core's, in the time the solver and the book lookup left."""
        start = budget.clock()
        tried: dict[str, Any] = {}
        if self.cfg.endgame_nodes and endgame_ready(state, self.cfg.endgame_moves):
            t0 = time.perf_counter()
            sol = solve(state, self.cfg.endgame_nodes)
            elapsed = time.perf_counter() - t0
            tried = {"solved": int(sol.solved), "endgame_nodes": sol.nodes,
                     "endgame_ms": round(elapsed * 1000, 1)}
            if sol.solved:
                return solved_result(sol, elapsed, tried)
        result = self._search(state, budget, rng, start)
        return msgspec.structs.replace(result, info=result.info | tried) if tried else result

    def _search(self, state: BlokusState, budget: Budget, rng: np.random.Generator,
                start: float) -> SearchResult:
        """The book's move or the core's search, in the budget's time left since ``start``
        (the solver's and the book's time is the move's too)."""
        if self.book is not None:
            move = self.book.lookup(state)
            if move is not None:
                return SearchResult(move=move, value=float("nan"), moves=[move], visits=[0],
                                    values=[float("nan")], playouts=0, elapsed=0.0,
                                    info={"book": True})
        if budget.seconds is not None:
            left = budget.seconds - (budget.clock() - start)
            budget = dataclasses.replace(budget, seconds=max(left, 0.0))
        position = BlokusPosition(state, self.game_config)
        if self.cfg.workers > 1 and not self.workers_failed:
            self.start()
            if self.pool is not None:
                name, conf = core_spec(self.cfg)
                slack = None if budget.seconds is None else budget.seconds + 0.5
                try:
                    return self.pool.search(name, conf, position, state.to_move, budget, rng,
                                            session=f"game-{self.game}", reply_timeout=slack)
                except _POOL_ERRORS as e:
                    self._workers_failed(e)
                    if budget.seconds is not None:
                        budget = Budget(playouts=8)  # the time went waiting: a few here
        result: SearchResult = self.searcher.search(position, state.to_move, budget, rng)
        return result

    def ponder(self, state: BlokusState, budget: Budget, rng: np.random.Generator
               ) -> SearchResult:
        """Search ``state`` (a copy; the opponent to move) on this process's tree, the book
        aside, for the whole budget (no early stop: no move is chosen): the tree the next
        decision's search reuses."""
        position = BlokusPosition(state, self.game_config)
        result: SearchResult = self.searcher.search(position, state.to_move, budget, rng,
                                                    early_stop=False)
        return result

    def request_stop(self) -> None:
        """Ask the compiled tree's search under way in another thread to return now."""
        if isinstance(self.searcher, CompiledUCT):
            self.searcher.request_stop()

    def clear_stop(self) -> None:
        """Withdraw :meth:`request_stop` (no search may be under way)."""
        if isinstance(self.searcher, CompiledUCT):
            self.searcher.clear_stop()


class BlokusPlayer:
    """Tracks one game from the prompts and answers them."""

    def __init__(self, cfg: PlayerConfig, core: Core | None = None) -> None:
        self.cfg = cfg
        self.core = core or Core(cfg)
        self.rng = np.random.default_rng(cfg.seed or None)
        self.state: BlokusState | None = None
        self.colour: int | None = None
        self.my_first: int | None = None  # our first placement (2013 replays)
        self._busy: threading.Thread | None = None  # a search that outlived its decision
        # the search on the opponent's time (ponder) and what it reports when it ends
        self._ponder: tuple[threading.Thread, dict[str, Any]] | None = None
        self.decisions = 0

    # -- following the game ----------------------------------------------------------------
    def new_game(self) -> None:
        self.stop_pondering()
        if self._busy is not None:  # the tree is reset below: no search may still run on it
            self._busy.join(self.cfg.seconds)
        self.state = None
        self.colour = None
        self.my_first = None
        self.core.reset()

    def _new_state(self, first: int) -> BlokusState:
        return BlokusState(first=first)

    def observe(self, event: FirstMovePrompt | SecondMovePrompt | TurnPrompt) -> None:
        """Bring the state up to date with a prompt (our move is to be chosen next)."""
        if isinstance(event, FirstMovePrompt):
            self.new_game()
            self.colour = event.player - 1
            self.state = self._new_state(self.colour)
            return
        if isinstance(event, SecondMovePrompt):
            self.new_game()
            self.colour = event.player - 1
            self.state = self._new_state(1 - self.colour)
            self.state.play_code(event.opponent_move)
            return
        assert self.state is not None and self.colour is not None, "a turn prompt first"
        moves = event.opponent_moves
        if len(moves) == 2 and self.my_first is not None and len(self.state.history) == 1:
            # 2013: we moved "first" simultaneously, the opponent moved first in turn order:
            # replay as opponent, us, opponent (first moves never interact)
            opp = 1 - self.colour
            s = self._new_state(opp)
            s.play_code(moves[0])
            s.play(self.my_first)
            s.play_code(moves[1])
            self.state = s
            return
        for code in moves:
            if self.state.to_move_colour != 1 - self.colour:
                log.warning("out_of_turn_opponent_move", code=code,
                            to_move=self.state.to_move_colour)
            self.state.play_code(code)

    # -- choosing ----------------------------------------------------------------------------
    def decide(self, t_prompt: float | None = None) -> tuple[str, dict[str, Any]]:
        """The code to send now for the current state, and the decision's log fields."""
        st = self.state
        assert st is not None and self.colour is not None
        t0 = time.perf_counter() if t_prompt is None else t_prompt
        fb = fallback_move(st)
        info: dict[str, Any] = {"core": self.core.name, "ply": len(st.history)}
        if fb == PASS:
            info["reason"] = "no_legal_move"
            return "0000", info
        legal = st.legal_placements()
        if len(legal) == 1:
            info["reason"] = "single_move"
            return st.code(legal[0]), info
        seconds = self.cfg.seconds - self.cfg.margin - (time.perf_counter() - t0)
        if self._busy is not None and self._busy.is_alive() and seconds > 0.01:
            self._busy.join(seconds)
            if self._busy.is_alive():
                info["fallback"] = "previous_search_still_running"
                return st.code(fb), info
            # the wait took part of this move's time
            seconds = self.cfg.seconds - self.cfg.margin - (time.perf_counter() - t0)
        if seconds <= 0.01:
            info["fallback"] = "no_time_left"
            return st.code(fb), info
        if self.cfg.ponder:  # no search runs now: the stop asked of the ponder is done
            self.core.clear_stop()
        box: dict[str, Any] = {}
        root = st.clone()
        budget = Budget(playouts=self.cfg.playouts or None, seconds=max(seconds - 0.02, 0.0))
        rng = self.rng

        def work() -> None:
            try:
                box["result"] = self.core.search(root, budget, rng)
            except Exception as e:  # noqa: BLE001 - the client boundary: fall back, log why
                box["error"] = f"{type(e).__name__}: {e}"

        th = threading.Thread(target=work, name="blokus-search", daemon=True)
        th.start()
        th.join(max(self.cfg.seconds - self.cfg.margin * 0.5 - (time.perf_counter() - t0), 0.0))
        move = fb
        if th.is_alive():
            self._busy = th
            info["fallback"] = "search_late"
        elif "error" in box:
            info["fallback"] = "search_failed"
            info["error"] = box["error"]
        else:
            res: SearchResult = box["result"]
            if res.move in legal or (res.move == PASS and not legal):
                move = int(res.move)  # type: ignore[call-overload,unused-ignore]
                info.update(_summary(res, st))
            else:
                info["fallback"] = "illegal_search_move"
                info["search_move"] = repr(res.move)
        info["elapsed_ms"] = round((time.perf_counter() - t0) * 1000, 1)
        return st.code(move), info

    def on_prompt(self, event: FirstMovePrompt | SecondMovePrompt | TurnPrompt,
                  t_prompt: float | None = None) -> str:
        """Update the state from a prompt and return the code to send (one log event)."""
        t0 = time.perf_counter() if t_prompt is None else t_prompt
        pondered = self.stop_pondering()
        try:
            self.observe(event)
        except Exception as e:  # noqa: BLE001 - keep answering even if we lost track
            log.error("state_update_failed", error=f"{type(e).__name__}: {e}",
                      prompt=repr(event))
            if self.state is None:
                return "0000"
        code, info = self.decide(t0)
        assert self.state is not None
        if isinstance(event, FirstMovePrompt) and code != "0000":
            self.my_first = self.state.geo.parse_code(code)
        try:
            self.state.play_code(code)
        except ValueError as e:
            log.error("own_move_rejected", code=code, error=str(e))
        self.decisions += 1
        info["move"] = code  # what we send (the search's own choice is in "search_move")
        if pondered is not None:  # the search on the opponent's time before this prompt
            info["ponder_playouts"] = pondered.get("playouts")
            if "end" in pondered:  # how long after the prompt it returned (<0: before)
                info["ponder_wait_ms"] = round((pondered["end"] - t0) * 1000, 1)
            if "error" in pondered:
                info["ponder_error"] = pondered["error"]
        log.info("decision", colour=self.colour, **info)
        return code

    # -- the opponent's time -----------------------------------------------------------------
    def ponder(self) -> threading.Thread | None:
        """With ``ponder``: search the position after our move (the opponent to move) in a
        background thread, on the tree the next decision reuses, until the next prompt (or
        for ``seconds``, the opponent's limit). Call it once the answer is sent. The thread,
        or None when there is nothing to do: the setting off, no game or the game over, or
        a search still running on the tree."""
        st = self.state
        if not self.cfg.ponder or st is None or st.is_terminal():
            return None
        if self._busy is not None:  # a search asked to stop ends within an iteration
            self._busy.join(0.05)
            if self._busy.is_alive():
                return None
            self._busy = None
        self.core.clear_stop()
        root = st.clone()
        budget = Budget(playouts=self.cfg.playouts or None, seconds=self.cfg.seconds)
        rng = self.rng
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                box["playouts"] = self.core.ponder(root, budget, rng).playouts
            except Exception as e:  # noqa: BLE001 - the client boundary: the next move searches anew
                box["error"] = f"{type(e).__name__}: {e}"
            box["end"] = time.perf_counter()

        th = threading.Thread(target=work, name="blokus-ponder", daemon=True)
        th.start()
        self._ponder = (th, box)
        return th

    def stop_pondering(self) -> dict[str, Any] | None:
        """Ask the search on the opponent's time to return (it does within one iteration);
        the next decision waits for it as for any search still running. What it reports
        (``playouts`` or ``error``, and ``end``, its clock reading when it returned; filled
        once it has returned), None without one."""
        if self._ponder is None:
            return None
        th, box = self._ponder
        self._ponder = None
        self.core.request_stop()
        if th.is_alive():
            self._busy = th
        return box


def solved_result(sol: Solution, elapsed: float, info: dict[str, Any]) -> SearchResult:
    """The endgame solver's proof as a search result: its move, the value 1, 0.5 or 0 of the
    win, draw or loss it proves, and in ``info`` the score difference (exact, or the least
    the win is by) and whether it is exact."""
    value = 1.0 if sol.value > 0 else 0.5 if sol.value == 0 else 0.0
    return SearchResult(move=sol.move, value=value, moves=[sol.move], visits=[sol.nodes],
                        values=[value], playouts=0, elapsed=elapsed,
                        info=info | {"endgame_value": sol.value,
                                     "endgame_exact": int(sol.exact)})


def _summary(res: SearchResult, st: BlokusState) -> dict[str, Any]:
    s = res.summary(top=3)
    s["search_move"] = st.code(s.pop("move"))
    s["top"] = [[st.code(m), v, None if math.isnan(val) else val] for m, v, val in s["top"]]
    if math.isnan(s["value"]):
        s["value"] = None
    return s
