"""The GTP referee: two engine processes, games validated by games.go, Tromp–Taylor scoring
(or an external scorer's ``final_score``), one SGF per game, and the match statistics."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import structlog

from protocols.gtp import (
    RemoteProtocolError,
    Vertex,
    format_score,
    format_vertex,
    parse_score,
    parse_vertex,
)
from protocols.gtp.common import GtpError
from servers.arena.stats import wilson
from servers.gtp.process import EngineCrashed, EngineError, EngineProcess, EngineTimeout
from servers.gtp.rules import RefereeBoard

log = structlog.get_logger()

BLACK, WHITE = 0, 1
COLOUR_LETTER = "bw"


@dataclass(frozen=True)
class MatchConfig:
    size: int = 9
    komi: float = 7.0
    timeout: float = 60.0  # seconds per move (and per setup command)
    main_time: float = 0.0  # 0: untimed; else each engine gets this much for the game ...
    untimed: frozenset[str] = frozenset()  # ... but the engines of these labels (no clock)
    max_moves: int = 0  # 0: 3 * size * size


@dataclass
class GameResult:
    black: str  # labels of the engines
    white: str
    winner: int | None  # BLACK, WHITE, or None for a draw / no result
    reason: str  # "score", "resign", "illegal", "timeout", "crash", "protocol", "max_moves"
    score: float | None  # black minus white (with komi), when scored
    moves: list[tuple[int, tuple[int, int] | None]] = field(default_factory=list)
    times: list[tuple[int, float]] = field(default_factory=list)  # (colour, s) per genmove
    detail: str = ""
    faulty: int | None = None  # the colour whose engine misbehaved (to be restarted)

    @property
    def result_text(self) -> str:
        """SGF RE value: ``B+3.5``, ``W+R``, ``B+T``, ``W+F``, ``0``."""
        if self.winner is None:
            return "0" if self.score == 0 else "?"
        w = "BW"[self.winner]
        if self.reason == "score" or self.reason == "max_moves":
            assert self.score is not None
            return format_score(self.score) if self.score != 0 else "0"
        return {"resign": f"{w}+R", "timeout": f"{w}+T"}.get(self.reason, f"{w}+F")


def setup_engine(engine: EngineProcess, cfg: MatchConfig) -> None:
    for cmd in (("boardsize", cfg.size), ("clear_board",), ("komi", f"{cfg.komi:g}")):
        r = engine.command(*cmd, timeout=cfg.timeout)
        if not r.ok:
            raise EngineError(f"{engine.label}: {' '.join(map(str, cmd))} failed: {r.text}")
    if clocked(engine, cfg):
        r = engine.command("time_settings", f"{cfg.main_time:g}", 0, 0, timeout=cfg.timeout)


def clocked(engine: EngineProcess, cfg: MatchConfig) -> bool:
    """Whether ``engine`` plays on the game clock (else within ``timeout`` a move only)."""
    return cfg.main_time > 0 and engine.label not in cfg.untimed


def play_game(black: EngineProcess, white: EngineProcess, cfg: MatchConfig,
              scorer: EngineProcess | None = None,
              opening: Sequence[tuple[int, Vertex]] = ()) -> GameResult:
    """Play one game from an empty board, or on from the position after ``opening`` (moves
    as (colour, vertex), told to both engines and kept as the game's first moves). Never
    raises for an engine's misbehaviour: it loses the game (the exception's message is the
    result's ``detail``). An illegal opening is a ValueError."""
    engines = (black, white)
    board = RefereeBoard(cfg.size, cfg.komi)
    result = GameResult(black.label, white.label, None, "", None)
    clocks = [cfg.main_time, cfg.main_time]
    max_moves = cfg.max_moves or 3 * cfg.size * cfg.size
    colour = BLACK
    for c, vertex in opening:
        if not board.play(c, vertex):
            raise ValueError(f"illegal opening move {COLOUR_LETTER[c]} {format_vertex(vertex)}")
        result.moves.append((c, vertex))
        colour = 1 - c

    def lose(loser: int, reason: str, detail: str) -> GameResult:
        result.winner = 1 - loser
        result.reason = reason
        result.detail = detail
        if reason in ("timeout", "crash", "protocol"):
            result.faulty = loser  # its answers may be out of step now
        log.info("referee_game_over", winner="BW"[1 - loser], reason=reason, detail=detail)
        return result

    for c in (BLACK, WHITE):
        try:
            setup_engine(engines[c], cfg)
            for mc, vertex in result.moves:
                r = engines[c].command("play", COLOUR_LETTER[mc], format_vertex(vertex),
                                       timeout=cfg.timeout)
                if not r.ok:
                    return lose(c, "protocol", f"{engines[c].label} refused the opening move "
                                f"{format_vertex(vertex)}: {r.text}")
        except EngineTimeout as e:
            return lose(c, "timeout", str(e))
        except (EngineError, RemoteProtocolError) as e:
            return lose(c, "crash", str(e))
    passes = 0
    while True:
        if len(result.moves) >= max_moves:
            result.reason = "max_moves"
            break
        mover, other = engines[colour], engines[1 - colour]
        letter = COLOUR_LETTER[colour]
        timed = clocked(mover, cfg)
        try:
            if timed:
                mover.command("time_left", letter, math.floor(max(clocks[colour], 0.0)), 0,
                              timeout=cfg.timeout)
            limit = cfg.timeout if not timed else min(cfg.timeout, clocks[colour] + 1)
            resp, took = mover.command_timed("genmove", letter, timeout=limit)
        except EngineTimeout as e:
            return lose(colour, "timeout", str(e))
        except EngineCrashed as e:
            return lose(colour, "crash", str(e))
        except RemoteProtocolError as e:
            return lose(colour, "protocol", f"{mover.label}: {e}")
        result.times.append((colour, took))
        if timed:
            clocks[colour] -= took
            if clocks[colour] < 0:
                return lose(colour, "timeout", f"{mover.label}: clock exceeded by "
                            f"{-clocks[colour]:.2f} s")
        if not resp.ok:
            return lose(colour, "protocol", f"{mover.label}: genmove failed: {resp.text}")
        text = resp.text.strip()
        if text.lower() == "resign":
            return lose(colour, "resign", f"{mover.label} resigned")
        try:
            vertex = parse_vertex(text, cfg.size)
        except GtpError as e:
            return lose(colour, "illegal", f"{mover.label}: bad move {text!r}: {e}")
        if not board.play(colour, vertex):
            return lose(colour, "illegal", f"{mover.label}: illegal move {text}")
        result.moves.append((colour, vertex))
        log.debug("referee_move", colour=letter, move=format_vertex(vertex))
        passes = passes + 1 if vertex is None else 0
        if passes >= 2:
            result.reason = "score"
            break
        try:
            r = other.command("play", letter, format_vertex(vertex), timeout=cfg.timeout)
        except EngineTimeout as e:
            return lose(1 - colour, "timeout", str(e))
        except EngineCrashed as e:
            return lose(1 - colour, "crash", str(e))
        except RemoteProtocolError as e:
            return lose(1 - colour, "protocol", f"{other.label}: {e}")
        if not r.ok:
            return lose(1 - colour, "protocol",
                        f"{other.label} refused the legal move {format_vertex(vertex)}: {r.text}")
        colour = 1 - colour
    result.score = score_game(board, result, cfg, scorer)
    if result.score > 0:
        result.winner = BLACK
    elif result.score < 0:
        result.winner = WHITE
    log.info("referee_game_over", result=result.result_text, moves=len(result.moves))
    return result


def score_game(board: RefereeBoard, result: GameResult, cfg: MatchConfig,
               scorer: EngineProcess | None) -> float:
    """Black minus white: the scorer engine's ``final_score`` if one is given and answers,
    else Tromp–Taylor on the final board."""
    if scorer is not None:
        try:
            setup_engine(scorer, cfg)
            for colour, vertex in result.moves:
                scorer.command("play", COLOUR_LETTER[colour], format_vertex(vertex),
                               timeout=cfg.timeout)
            r = scorer.command("final_score", timeout=max(cfg.timeout, 60.0))
            if r.ok:
                return parse_score(r.text)
            log.warning("referee_scorer_failed", answer=r.text)
        except (EngineError, RemoteProtocolError, ValueError) as e:
            log.warning("referee_scorer_failed", error=str(e))
            if not scorer.alive:
                scorer.restart()
    return board.tromp_taylor()


def sgf_bytes(result: GameResult, cfg: MatchConfig) -> bytes:
    """The game as SGF (FF[4], Chinese rules, the engines' labels as PB / PW)."""
    from sgfmill import sgf

    game = sgf.Sgf_game(size=cfg.size)
    root = game.get_root()
    root.set("KM", cfg.komi)
    root.set("RU", "Chinese")
    root.set("PB", result.black)
    root.set("PW", result.white)
    root.set("DT", time.strftime("%Y-%m-%d"))
    root.set("RE", result.result_text)
    if result.detail:
        root.set("GC", result.detail)
    root.set("AP", ("corvid", "0.1.0"))
    for colour, vertex in result.moves:
        node = game.extend_main_sequence()
        node.set_move("bw"[colour], None if vertex is None else (vertex[1], vertex[0]))
    data: bytes = game.serialise()
    return data


def write_sgf(result: GameResult, cfg: MatchConfig, path: Path) -> None:
    path.write_bytes(sgf_bytes(result, cfg))


@dataclass
class MatchStats:
    first: str
    second: str
    games: int = 0
    wins: int = 0  # of the first engine
    draws: int = 0
    losses: int = 0
    wins_as_black: int = 0
    games_as_black: int = 0
    reasons: dict[str, int] = field(default_factory=dict)

    def add(self, result: GameResult, first_colour: int) -> None:
        self.games += 1
        if first_colour == BLACK:
            self.games_as_black += 1
        self.reasons[result.reason] = self.reasons.get(result.reason, 0) + 1
        if result.winner is None:
            self.draws += 1
        elif result.winner == first_colour:
            self.wins += 1
            if first_colour == BLACK:
                self.wins_as_black += 1
        else:
            self.losses += 1

    @property
    def win_rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def summary(self) -> dict[str, object]:
        lo, hi = wilson(self.wins + 0.5 * self.draws, self.games)
        return {"games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "win_rate": round(self.win_rate, 4),
                "ci95": [round(lo, 4), round(hi, 4)]}


def run_match(first: EngineProcess, second: EngineProcess, games: int, cfg: MatchConfig,
              alternate: bool = True, scorer: EngineProcess | None = None,
              sgf_dir: Path | None = None,
              on_game: Callable[[int, GameResult, int], None] | None = None) -> MatchStats:
    """``first`` plays black in game 0 (and every even game when ``alternate``)."""
    stats = MatchStats(first.label, second.label)
    for g in range(games):
        first_colour = BLACK if (not alternate or g % 2 == 0) else WHITE
        for e in (first, second):
            if not e.alive:
                log.warning("referee_restart", engine=e.label)
                e.restart()
        black, white = (first, second) if first_colour == BLACK else (second, first)
        result = play_game(black, white, cfg, scorer)
        if result.faulty is not None:
            culprit = black if result.faulty == BLACK else white
            log.warning("referee_restart", engine=culprit.label, reason=result.reason)
            culprit.restart()
        stats.add(result, first_colour)
        if sgf_dir is not None:
            sgf_dir.mkdir(parents=True, exist_ok=True)
            write_sgf(result, cfg, sgf_dir / f"game-{g + 1:04d}.sgf")
        if on_game is not None:
            on_game(g, result, first_colour)
    return stats
