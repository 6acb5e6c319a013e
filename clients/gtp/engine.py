"""The GTP engine's protocol state: board, history, komi, clocks, and every command of
specs/gtp.md, registered on a :class:`protocols.gtp.Dispatcher`.

Moves are chosen by a *move generator* callback (:class:`MoveGenerator`), which receives a
read-only :class:`MoveRequest` (a copy of the position, the colour, the seconds it may use,
whether it must clean up dead stones) and returns a :class:`Decision`. The engine never
prints; :meth:`GtpEngine.handle_line` gives the bytes to write.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec
import structlog

from clients.gtp.analysis import (
    SLICE_SECONDS,
    Analysis,
    AnalysisStream,
    Candidate,
    parse_analyze_args,
)
from clients.gtp.board import Board, IllegalMove
from clients.gtp.config import GtpConfig
from clients.gtp.timecontrol import TimeManager, TimePolicy, TimeSettings
from protocols.gtp import (
    Dispatcher,
    GtpError,
    GtpSyntaxError,
    Vertex,
    format_colour,
    format_score,
    format_vertex,
    parse_colour,
    parse_float,
    parse_int,
    parse_vertex,
)

log = structlog.get_logger()

VERSION = "0.1.0"
# kgs-rules: whether each rule set scores by territory (else by area)
RULES = {"chinese": False, "aga": False, "new_zealand": False, "tromp-taylor": False,
         "japanese": True}


@dataclass(frozen=True)
class MoveRequest:
    board: Board  # a copy: the generator may do what it likes with it
    colour: int
    seconds: float | None  # wall time allowed (None: untimed)
    cleanup: bool  # must not pass while dead opponent stones remain
    deterministic: bool  # reg_genmove: no tree reuse, rng from the seed and the position
    # kgs-genmove_cleanup: the game is over but for the dead stones, so capture them first,
    # even before a move the search prefers (with only ``cleanup``, they go when it would pass)
    capture_dead: bool = False
    # genmove_analyze: the generator's tree already holds this move's search (its analysis)
    searched: bool = False
    # ``seconds`` is a share of a game clock (a search that ends early gives time back) ...
    clock: bool = False
    # ... and the seconds its search may add when it ends unclear (TimeManager.extension)
    extension: float = 0.0


@dataclass(frozen=True)
class Decision:
    vertex: Vertex  # None: pass
    resign: bool = False
    stats: dict[str, Any] = field(default_factory=dict)  # per-move visits etc. (for gfx)


class MoveGenerator(Protocol):
    def __call__(self, request: MoveRequest) -> Decision: ...

    def reset(self) -> None: ...

    def configure(self, config: GtpConfig) -> None:
        """Play with ``config`` from now on; ConfigError (and no change) if it cannot (a
        weights file the settings need does not load)."""
        ...

    def analysis(self, request: MoveRequest, bounded: bool) -> Analysis:
        """The search of ``request``'s position in slices (live analysis); ``bounded``: the
        search for the move, done when ``request``'s budget is spent (then a request with
        ``searched`` gives the move)."""
        ...


def time_policy(cfg: GtpConfig) -> TimePolicy:
    return TimePolicy(
        reserve=cfg.time_reserve,
        reserve_fraction=cfg.time_reserve_fraction,
        overhead=cfg.time_overhead,
        moves_fraction=cfg.time_moves_fraction,
        min_moves_left=cfg.time_min_moves_left,
        byoyomi_use=cfg.time_byoyomi_use,
        max_seconds=cfg.time_max_seconds,
        extend=cfg.time_extend,
        shape=cfg.time_shape,
    )


class GtpEngine:
    """Protocol state + command handlers. ``generator`` chooses moves. ``ready`` blocks until
    the generator can search (its kernels compiled while the engine already answers): it is
    called before each move it is asked for and before it is reconfigured."""

    def __init__(self, config: GtpConfig, generator: MoveGenerator,
                 clock: Callable[[], float] = time.perf_counter,
                 ready: Callable[[], None] | None = None) -> None:
        self.config = config
        self.generator = generator
        self.clock = clock
        self.ready = ready
        self.board = Board(config.default_size, config.default_komi)
        self.time = TimeManager(time_policy(config))
        self.opponent_name = ""
        self.last_stats: dict[str, Any] = {}
        self.stream: AnalysisStream | None = None  # an answer being streamed (analysis)
        self.ponder: Analysis | None = None  # the search on the opponent's time (ponder)
        self.dispatcher = Dispatcher()
        self._register_all()

    # -- dispatching ------------------------------------------------------------------
    def handle_line(self, line: str | bytes) -> tuple[bytes, bool]:
        """The bytes to write for one command line and whether the session has ended. A
        command that streams its answer (analysis) gives only the answer's first line: the
        rest comes from :meth:`stream_step` until :meth:`stream_stop` (a new command) or
        the end of a move's search."""
        ended = self.stream_stop() if self.stream is not None else b""  # not stopped yet
        self.ponder = None
        response, end = self.dispatcher.handle_line(line)
        if self.stream is not None:  # "=id \n\n" less its closing blank line
            response = response[:-1]
        return ended + response, end

    def stream_step(self) -> bytes:
        """Search one slice of the streamed answer; the bytes to write (maybe none)."""
        stream = self.stream
        assert stream is not None
        try:
            out = stream.step()
        except Exception:  # the client boundary: a search bug ends the analysis, not us
            log.exception("gtp_analysis_failed")
            if stream.finish is None:
                out = stream.stop()  # the answer ends here
            else:  # the move all the same (the generator's, else the fallback move)
                out = f"play {stream.finish([])}\n\n".encode()
            stream.ended = True
        if stream.ended:
            self.stream = None
        return out

    def ponder_step(self) -> None:
        """Search one slice on the opponent's time (``ponder``; the next command ends it)."""
        assert self.ponder is not None
        try:
            self.ponder.step(SLICE_SECONDS)
        except Exception:  # the client boundary: a search bug ends pondering, not us
            log.exception("gtp_ponder_failed")
            self.ponder = None

    def _start_pondering(self, colour: int) -> None:
        """After ``colour``'s move: search the opponent's position on the player's tree,
        whose reply's search then starts from the subtree of the opponent's move."""
        if not self.config.ponder or self.config.workers > 1:  # workers: their own trees
            return
        request = MoveRequest(self.board.copy(), 1 - colour, None, cleanup=False,
                              deterministic=False)
        try:
            self.ponder = self.generator.analysis(request, bounded=False)
        except Exception:  # the client boundary: the move stands, unpondered
            log.exception("gtp_ponder_failed")

    def stream_stop(self) -> bytes:
        """End the streamed analysis (a new command came): the bytes that close it."""
        assert self.stream is not None
        out = self.stream.stop()
        self.stream = None
        return out

    def register(self, name: str, handler: Callable[[list[str]], str | None]) -> None:
        self.dispatcher.register(name, handler)

    def _register_all(self) -> None:
        table: dict[str, Callable[[list[str]], str | None]] = {
            "name": lambda a: self.config.name,
            "version": lambda a: VERSION,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "reg_genmove": self.cmd_reg_genmove,
            "kgs-genmove_cleanup": self.cmd_genmove_cleanup,
            "undo": self.cmd_undo,
            "time_settings": self.cmd_time_settings,
            "time_left": self.cmd_time_left,
            "kgs-time_settings": self.cmd_kgs_time_settings,
            "kgs-game_over": lambda a: "",
            "kgs-rules": self.cmd_kgs_rules,
            "final_score": self.cmd_final_score,
            "final_status_list": self.cmd_final_status_list,
            "fixed_handicap": self.cmd_fixed_handicap,
            "place_free_handicap": self.cmd_place_free_handicap,
            "set_free_handicap": self.cmd_set_free_handicap,
            "loadsgf": self.cmd_loadsgf,
            "printsgf": self.cmd_printsgf,
            "showboard": lambda a: "\n" + self.board.diagram(),
            "cgos-opponent_name": self.cmd_opponent_name,
            "cgos-gameover": lambda a: "",
            "gogui-analyze_commands": self.cmd_analyze_commands,
            "lz-analyze": lambda a: self.cmd_analyze(a, kata=False),
            "kata-analyze": lambda a: self.cmd_analyze(a, kata=True),
            "genmove_analyze": lambda a: self.cmd_genmove_analyze(a, kata=False),
            "lz-genmove_analyze": lambda a: self.cmd_genmove_analyze(a, kata=False),
            "kata-genmove_analyze": lambda a: self.cmd_genmove_analyze(a, kata=True),
            "corvid-visits": self.cmd_visits,
            "corvid-winrate": self.cmd_winrate,
            "corvid-pv": self.cmd_pv,
            "corvid-param": self.cmd_param,
            "corvid-ready": self.cmd_ready,
        }
        for name, handler in table.items():
            self.register(name, handler)

    # -- helpers ----------------------------------------------------------------------
    @staticmethod
    def _nargs(args: list[str], *counts: int) -> None:
        if len(args) not in counts:
            raise GtpSyntaxError()

    def _new_game(self) -> None:
        self.board = Board(self.board.size, self.board.komi, territory=self.board.territory)
        self.generator.reset()
        self.last_stats = {}
        self.time.set(self.time.settings)

    # -- setup commands ---------------------------------------------------------------
    def cmd_boardsize(self, args: list[str]) -> str:
        self._nargs(args, 1)
        size = parse_int(args[0], "size")
        if not self.config.min_size <= size <= self.config.max_size:
            raise GtpError("unacceptable size")
        self.board = Board(size, self.board.komi, territory=self.board.territory)
        self._new_game()
        return ""

    def cmd_clear_board(self, args: list[str]) -> str:
        self._new_game()
        return ""

    def cmd_komi(self, args: list[str]) -> str:
        self._nargs(args, 1)
        komi = parse_float(args[0], "komi")
        self.board.set_komi(komi)
        self.generator.reset()
        return ""

    def cmd_kgs_rules(self, args: list[str]) -> str:
        """The rules of the game from now on (kept by ``clear_board`` and ``boardsize``):
        area scoring, or territory scoring (Japanese), which the search plays by area with
        the komi corrected (:meth:`Board.komi_correction`)."""
        self._nargs(args, 1)
        rules = args[0].lower()
        if rules not in RULES:
            raise GtpError(f"unsupported rules: {rules} (corvid plays {', '.join(RULES)})")
        if self.board.territory != RULES[rules]:
            self.board.territory = RULES[rules]
            self.generator.reset()  # the tree's values were counted under the other rules
        return ""

    def cmd_opponent_name(self, args: list[str]) -> str:
        self.opponent_name = " ".join(args)
        log.info("gtp_opponent", name=self.opponent_name)
        return ""

    # -- moves ------------------------------------------------------------------------
    def cmd_play(self, args: list[str]) -> str:
        self._nargs(args, 2)
        colour = parse_colour(args[0])
        vertex = parse_vertex(args[1], self.board.size)
        try:
            self.board.play(colour, vertex)
        except IllegalMove:
            raise GtpError("illegal move") from None
        return ""

    def cmd_undo(self, args: list[str]) -> str:
        if not self.board.undo():
            raise GtpError("cannot undo")
        self.generator.reset()
        return ""

    def _request(self, colour: int, t0: float, cleanup: bool, deterministic: bool,
                 searched: bool = False) -> MoveRequest:
        """The request for ``colour``'s move, its time counted from ``t0``."""
        played = sum(1 for c, _ in self.board.moves if c == colour)
        points = self.board.size ** 2
        seconds = self.time.allot(colour, points, played)
        clock = seconds is not None
        extension = (0.0 if seconds is None
                     else self.time.extension(colour, points, played, seconds))
        if self.ready is not None:  # a wait for the kernels is on this move's clock
            self.ready()
            if seconds is None and self.config.seconds > 0:
                seconds = self.config.seconds  # so is it on the setting's time per move
            if seconds is not None:
                seconds = max(seconds - (self.clock() - t0), 0.0)
        # capturing dead stones in one's own territory costs a point each under territory
        # rules: there only kgs-genmove_cleanup asks for it
        always_cleanup = self.config.cleanup and not self.board.territory
        return MoveRequest(self.board.copy(), colour, seconds, cleanup or always_cleanup,
                           deterministic, capture_dead=cleanup, searched=searched, clock=clock,
                           extension=extension)

    def _generate(self, args: list[str], cleanup: bool, deterministic: bool,
                  play: bool) -> str:
        t0 = self.clock()
        self._nargs(args, 1)
        colour = parse_colour(args[0])
        return self._decide(self._request(colour, t0, cleanup, deterministic), t0, play)

    def _decide(self, request: MoveRequest, t0: float, play: bool) -> str:
        """The generator's move for ``request`` (played if ``play``), as GTP answers it."""
        colour, seconds = request.colour, request.seconds
        try:
            decision = self.generator(request)
        except Exception:  # the client boundary: never forfeit a game by a search bug
            log.exception("gtp_generator_failed", colour=format_colour(colour))
            decision = Decision(self.board.fallback_vertex(colour))
        self.last_stats = dict(decision.stats, colour=colour, key=self.board.position_key(colour))
        if decision.resign:
            answer = "resign"
        else:
            answer = format_vertex(decision.vertex)
            if play:
                try:
                    self.board.play(colour, decision.vertex)
                except IllegalMove:  # a generator bug: never send an illegal move
                    log.error("gtp_generator_illegal", vertex=answer)
                    self.board.play(colour, None)
                    answer = "pass"
        elapsed = self.clock() - t0
        if play:
            self.time.spent(colour, elapsed)
            if answer != "resign":
                self._start_pondering(colour)
        log.info("gtp_genmove", colour=format_colour(colour), move=answer,
                 allowed=None if seconds is None else round(seconds, 3),
                 elapsed=round(elapsed, 3))
        return answer

    def cmd_genmove(self, args: list[str]) -> str:
        return self._generate(args, cleanup=False, deterministic=False, play=True)

    def cmd_genmove_cleanup(self, args: list[str]) -> str:
        return self._generate(args, cleanup=True, deterministic=False, play=True)

    def cmd_reg_genmove(self, args: list[str]) -> str:
        return self._generate(args, cleanup=False, deterministic=True, play=False)

    # -- time -------------------------------------------------------------------------
    def cmd_time_settings(self, args: list[str]) -> str:
        self._nargs(args, 3)
        main, byo = parse_float(args[0]), parse_float(args[1])
        stones = parse_int(args[2])
        if main < 0 or byo < 0 or stones < 0:
            raise GtpSyntaxError()
        self.time.time_settings(main, byo, stones)
        return ""

    def cmd_kgs_time_settings(self, args: list[str]) -> str:
        if not args:
            raise GtpSyntaxError()
        kind = args[0].lower()
        if kind == "none":
            self._nargs(args, 1)
            self.time.set(TimeSettings())
        elif kind == "absolute":
            self._nargs(args, 2)
            self.time.set(TimeSettings("absolute", parse_float(args[1])))
        elif kind == "byoyomi":
            self._nargs(args, 4)
            self.time.set(TimeSettings("byoyomi", parse_float(args[1]),
                                       parse_float(args[2]), periods=parse_int(args[3])))
        elif kind == "canadian":
            self._nargs(args, 4)
            self.time.set(TimeSettings("canadian", parse_float(args[1]),
                                       parse_float(args[2]), stones=parse_int(args[3])))
        else:
            raise GtpSyntaxError()
        return ""

    def cmd_time_left(self, args: list[str]) -> str:
        self._nargs(args, 3)
        colour = parse_colour(args[0])
        self.time.time_left(colour, parse_float(args[1]), parse_int(args[2]))
        return ""

    # -- scoring ----------------------------------------------------------------------
    def cmd_final_score(self, args: list[str]) -> str:
        return format_score(self.board.final_score())

    def cmd_final_status_list(self, args: list[str]) -> str:
        self._nargs(args, 1)
        status = args[0].lower()
        if status not in ("alive", "dead", "seki"):
            raise GtpSyntaxError()
        points = sorted(self.board.final_status()[status], key=_vkey)
        return " ".join(format_vertex(v) for v in points)

    # -- handicap ---------------------------------------------------------------------
    def _place_handicap(self, points: list[Vertex]) -> str:
        if not self.board.is_empty():
            raise GtpError("board not empty")
        try:
            self.board.setup_black(points)
        except IllegalMove:
            raise GtpError("bad vertex list") from None
        self.generator.reset()
        return " ".join(format_vertex(v) for v in points)

    def cmd_fixed_handicap(self, args: list[str]) -> str:
        self._nargs(args, 1)
        n = parse_int(args[0], "number of stones")
        return self._place_handicap(self.board.fixed_handicap(n))

    def cmd_place_free_handicap(self, args: list[str]) -> str:
        self._nargs(args, 1)
        n = parse_int(args[0], "number of stones")
        size = self.board.size
        if n < 2 or n >= size * size:
            raise GtpError("invalid number of stones")
        fixed = min(n, self.board.max_fixed_handicap())
        points = self.board.fixed_handicap(fixed) if fixed >= 2 else []
        extra = [(c, r) for r in range(size) for c in range(size)]
        extra.sort(key=lambda v: (abs(v[0] - size // 2) + abs(v[1] - size // 2), v))
        for v in extra:  # beyond the fixed points: nearest the centre first
            if len(points) >= n:
                break
            if v not in points:
                points.append(v)
        return self._place_handicap(points)

    def cmd_set_free_handicap(self, args: list[str]) -> str:
        if len(args) < 2:
            raise GtpSyntaxError()
        points = [parse_vertex(a, self.board.size) for a in args]
        if None in points or len(set(points)) != len(points):
            raise GtpError("bad vertex list")
        self._place_handicap(points)
        return ""

    # -- records ----------------------------------------------------------------------
    def cmd_loadsgf(self, args: list[str]) -> str:
        self._nargs(args, 1, 2)
        upto = parse_int(args[1], "move number") if len(args) == 2 else None
        try:
            data = Path(args[0]).read_bytes()
        except OSError:
            raise GtpError("cannot load file") from None
        try:
            board = Board.from_sgf(data, upto, self.config.max_size)
        except (ValueError, IllegalMove) as e:
            raise GtpError(f"cannot load file: {e}") from None
        if not self.config.min_size <= board.size <= self.config.max_size:
            raise GtpError("unacceptable size")
        board.territory = self.board.territory
        self.board = board
        self.generator.reset()
        return ""

    def cmd_printsgf(self, args: list[str]) -> str:
        sgf = self.board.to_sgf().decode()  # no names: GTP never says which colour we are
        if args:
            try:
                Path(args[0]).write_text(sgf)
            except OSError:
                raise GtpError("cannot write file") from None
            return ""
        return sgf

    # -- analysis / parameters --------------------------------------------------------
    def cmd_analyze_commands(self, args: list[str]) -> str:
        return "\n".join([
            "gfx/Visits/corvid-visits %m",
            "gfx/Win rate/corvid-winrate %m",
            "var/Principal variation/corvid-pv %c",
            "plist/Dead stones/final_status_list dead",
            "param/Parameters/corvid-param",
        ])

    def cmd_pv(self, args: list[str]) -> str:
        """``corvid-pv [C]``: the line the search expects from here, ``C`` to play (default:
        the side to move), after a search of the move's budget (GoGui's ``var``: ``B D4 W
        E5 ...``)."""
        self._nargs(args, 0, 1)
        colour = parse_colour(args[0]) if args else self.board.to_move
        request = self._request(colour, self.clock(), cleanup=False, deterministic=False)
        candidates: list[Candidate] = []
        analysis = self._analysis(request, bounded=True)
        try:
            while not analysis.done:
                candidates = analysis.step(SLICE_SECONDS) or candidates
        except Exception:  # the client boundary: a search bug fails this command only
            log.exception("gtp_analysis_failed")
            raise GtpError("analysis failed") from None
        if not candidates:
            return ""
        return " ".join(f"{'BW'[(colour + i) % 2]} {format_vertex(v)}"
                        for i, v in enumerate(candidates[0].pv))

    def _analysis_colour(self, args: list[str]) -> tuple[int, list[str]]:
        """An optional leading colour (default: the side to move) and the other args."""
        if args and args[0].lower() in ("b", "w", "black", "white"):
            return parse_colour(args[0]), args[1:]
        return self.board.to_move, args

    def _analysis(self, request: MoveRequest, bounded: bool) -> Analysis:
        """The generator's analysis of ``request``; ``? analysis failed`` if it fails."""
        try:
            return self.generator.analysis(request, bounded)
        except Exception:  # the client boundary: a search bug fails this command only
            log.exception("gtp_analysis_failed")
            raise GtpError("analysis failed") from None

    def cmd_analyze(self, args: list[str], kata: bool) -> str:
        """``lz-analyze`` / ``kata-analyze [C] [interval] [key value ...]``: the search
        of the position with ``C`` to play, a line of candidates every interval
        (centiseconds), until the next command."""
        colour, rest = self._analysis_colour(args)
        parsed = parse_analyze_args(rest)
        if self.ready is not None:
            self.ready()
        request = MoveRequest(self.board.copy(), colour, None, cleanup=False,
                              deterministic=False)
        self.stream = AnalysisStream(self._analysis(request, bounded=False), kata, parsed,
                                     self.clock)
        return ""

    def cmd_genmove_analyze(self, args: list[str], kata: bool) -> str:
        """``genmove_analyze C [interval] [key value ...]``: ``genmove C`` whose search
        streams the analysis lines, then ``play MOVE``."""
        t0 = self.clock()
        if not args:
            raise GtpSyntaxError()
        colour, rest = self._analysis_colour(args)
        if len(rest) == len(args):
            raise GtpSyntaxError()  # the colour is not optional here
        parsed = parse_analyze_args(rest)
        request = self._request(colour, t0, cleanup=False, deterministic=False)

        def finish(candidates: list[Candidate]) -> str:
            searched = dataclasses.replace(request, board=self.board.copy(), searched=True)
            return self._decide(searched, t0, play=True)

        self.stream = AnalysisStream(self._analysis(request, bounded=True), kata, parsed,
                                     self.clock, finish)
        return ""

    def _stats_for(self, args: list[str]) -> tuple[dict[str, Any], int]:
        self._nargs(args, 0, 1)
        if args:
            colour = parse_colour(args[0])
        else:
            colour = self.board.to_move
        key = self.board.position_key(colour)
        if self.last_stats.get("key") != key or not self.last_stats.get("moves"):
            self._generate([format_colour(colour)], cleanup=False, deterministic=False,
                           play=False)
        return self.last_stats, colour

    @staticmethod
    def _per_move(stats: dict[str, Any]) -> list[tuple[Vertex, int, float]]:
        """(vertex, visits, value) of the searched moves; none when the search failed and the
        fallback move was played."""
        moves, visits = stats.get("moves", []), stats.get("visits", [])
        values = stats.get("values", [float("nan")] * len(moves))
        return list(zip(moves, visits, values, strict=True))

    def cmd_ready(self, args: list[str]) -> str:
        """``corvid-ready``: answers once the engine can search (its kernels loaded or
        compiled by the warm-up), so that a referee can wait for a cold start before the
        clock of the first move runs."""
        self._nargs(args, 0)
        if self.ready is not None:
            self.ready()
        return ""

    def cmd_visits(self, args: list[str]) -> str:
        stats, _ = self._stats_for(args)
        labels = [f"{format_vertex(v)} {n}" for v, n, _ in self._per_move(stats)
                  if v is not None and n > 0]
        return "LABEL " + " ".join(labels) + f"\nTEXT playouts {stats.get('playouts', 0)}"

    def cmd_winrate(self, args: list[str]) -> str:
        stats, _ = self._stats_for(args)
        labels = [f"{format_vertex(v)} {round(100 * q)}" for v, n, q in self._per_move(stats)
                  if v is not None and n > 0 and q == q]
        value = stats.get("value", 0.5)
        return "LABEL " + " ".join(labels) + f"\nTEXT win rate {100 * value:.1f}%"

    def cmd_param(self, args: list[str]) -> str:
        if not args:
            data = msgspec.to_builtins(self.config)
            lines = []
            for k, v in data.items():
                kind = "[bool] " if isinstance(v, bool) else "[string] "
                lines.append(f"{kind}{k} {int(v) if isinstance(v, bool) else v}")
            return "\n".join(lines)
        if len(args) < 2:
            raise GtpSyntaxError()
        key, text = args[0], " ".join(args[1:])
        self.configure(key, text)
        return ""

    def configure(self, key: str, text: str) -> None:
        """Set one config field at runtime (``corvid-param key value``)."""
        from clients.config import ConfigError, parse_value, with_setting
        from clients.gtp.config import CORE_KEYS

        fields = {f.name: f.type for f in msgspec.structs.fields(GtpConfig)}
        if key not in fields:
            raise GtpError(f"unknown parameter {key}")
        if key == "preset":
            raise GtpError("invalid parameter: a preset is chosen at start (--set preset=NAME)")
        if fields[key] is bool and text in ("0", "1"):
            text = "true" if text == "1" else "false"
        try:
            new = with_setting(self.config, key, parse_value(text), cores=CORE_KEYS)
            if self.ready is not None:  # not while the warm-up still uses the generator
                self.ready()
            self.generator.configure(new)  # refuses settings it cannot play with
        except ConfigError as e:
            raise GtpError(f"invalid parameter: {e}") from None
        self.config = new
        self.time.policy = time_policy(new)
        log.info("gtp_param", key=key, value=text)


def _vkey(v: Vertex) -> tuple[int, int]:
    assert v is not None
    return (v[1], v[0])
