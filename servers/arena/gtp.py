"""``corvid arena gtp``: Go games between GTP engines, refereed by ``servers.gtp``.

Players: ``corvid[:key=value,...]`` (``corvid gtp`` with ``--set key=value``),
``gnugo[:level=N]`` (GNU Go 3.8 in GTP mode with Chinese rules, capturing dead stones before
it passes and positional superko; level 10 by default) and ``cmd:PROGRAM ARGS`` (any GTP
engine on stdin/stdout; ``{name}`` is replaced by the player's label).

A task starts both engines once for its games (restarting one that crashed or timed out),
waits for each to answer its first command, and a corvid engine ``corvid-ready`` (a cold
start may compile kernels: the wait is ``--startup-timeout``, not a move's), then plays its
games: every move validated (positional superko, suicide illegal), a game ends on two
passes, a resignation, an illegal move, a timeout or a crash (the culprit loses), finished
games scored by Tromp–Taylor (or by ``--scorer``'s ``final_score``). The pairing's first
player is black in even games. One SGF per game (``sgf/`` in the run directory).
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import msgspec

from protocols.gtp import RemoteProtocolError, format_vertex
from servers.arena.backends import PlayerError
from servers.arena.players import Player, SpecError
from servers.arena.plugin import GameSpec
from servers.arena.records import GameRecord, Piece
from servers.arena.schedule import Task
from servers.gtp.match import BLACK, WHITE, GameResult, MatchConfig, play_game, sgf_bytes
from servers.gtp.process import EngineError, EngineProcess


class Options(msgspec.Struct, frozen=True, kw_only=True):
    size: int = 9
    komi: float = 7.0
    timeout: float = 60.0  # seconds for one move
    startup_timeout: float = 300.0  # for an engine's first answer
    main_time: float = 0.0  # sudden death per engine and game (0: untimed) ...
    untimed: tuple[str, ...] = ()  # ... but for the players of these labels (no clock)
    max_moves: int = 0  # 0: 3 x size^2
    scorer: str | None = None  # a GTP engine whose final_score scores finished games
    log_level: str = "warning"  # of the corvid engines


def _gnugo(params: dict[str, str]) -> str:
    level = params.pop("level", "10")
    if params:
        raise ValueError(f"gnugo takes level=N only, not {', '.join(params)}")
    if not level.isdigit() or not 0 <= int(level) <= 10:
        raise ValueError(f"gnugo level {level!r} is not 0..10")
    exe = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games:/usr/local/games")
    return (f"cmd:{exe or 'gnugo'} --mode gtp --level {level} --chinese-rules "
            "--capture-all-dead --positional-superko")


ALIASES = {"gnugo": _gnugo}

FAULT = {"timeout": "timeout", "crash": "violation", "protocol": "violation",
         "illegal": "violation"}


def start_up(engine: EngineProcess, player: Player, timeout: float) -> None:
    """The engine's first answer, to ``name``, and a corvid engine's to ``corvid-ready``:
    its kernels loaded (from a cold cache, compiled) before any move's time runs.
    EngineError (its message after the engine's label saying why) if a command gets no
    answer within ``timeout``, a malformed one or an error."""
    for command in ("name", "corvid-ready") if player.kind == "corvid" else ("name",):
        try:
            r = engine.command(command, timeout=timeout)
        except RemoteProtocolError as e:
            raise EngineError(f"{engine.label}: {e}") from e
        if not r.ok:
            raise EngineError(f"{engine.label}: answers {command} with an error: {r.text}")


class _Engines:
    """The task's engine processes, one per slot, with their stderr in files."""

    def __init__(self, task: Task, opts: Options, tmp: Path) -> None:
        self.engines: list[EngineProcess] = []
        self.logs: list[Path] = []
        self._files: list[IO[bytes]] = []
        cwd = task.cwd if Path(task.cwd).is_dir() else None
        for slot, pl in enumerate(task.players):
            log = tmp / f"engine{slot}.log"
            f = open(log, "wb")  # noqa: SIM115
            self._files.append(f)
            self.logs.append(log)
            argv = pl.argv(["gtp"], name=pl.label, seed=task.seed + slot,
                           log_level=opts.log_level)
            try:
                self.engines.append(EngineProcess(shlex.join(argv), pl.label, f, cwd))
            except EngineError as e:
                raise PlayerError(f"player {pl.label!r}: {e}", fatal=True) from e
        self.scorer = EngineProcess(opts.scorer, "scorer", cwd=cwd) if opts.scorer else None

    def first_answers(self, task: Task, timeout: float) -> None:
        """Each engine answers ``name``, and a corvid engine ``corvid-ready`` (after compiling
        or loading what it needs)."""
        for slot, e in enumerate(self.engines):
            try:
                start_up(e, task.players[slot], timeout)
                continue
            except EngineError as err:
                why = str(err).removeprefix(f"{e.label}: ")
            code = None
            if e.proc is not None:
                try:
                    code = e.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
            tail = self.logs[slot].read_text(errors="replace").strip()[-400:]
            raise PlayerError(f"player {task.players[slot].label!r} did not start: {why}"
                              + (f" (exit code {code})" if code is not None else "")
                              + (f": {tail}" if tail else ""), fatal=code == 2)

    def close(self) -> None:
        for e in [*self.engines, *([self.scorer] if self.scorer else [])]:
            e.close()
        for f in self._files:
            f.close()


def play(task: Task) -> Iterator[Piece]:
    opts = msgspec.convert(task.options, Options)
    cfg = MatchConfig(size=opts.size, komi=opts.komi, timeout=opts.timeout,
                      main_time=opts.main_time, untimed=frozenset(opts.untimed),
                      max_moves=opts.max_moves)
    labels = [p.label for p in task.players]
    with tempfile.TemporaryDirectory(prefix="corvid-arena-") as tmp:
        engines = _Engines(task, opts, Path(tmp))
        try:
            engines.first_answers(task, opts.startup_timeout)
            for i in task.indices:
                t0 = time.monotonic()
                first = 0 if i % 2 == 0 else 1  # the slot playing black
                slots = (first, 1 - first)  # (black, white)
                for e in engines.engines:
                    if not e.alive:
                        e.restart()
                black, white = (engines.engines[s] for s in slots)
                result = play_game(black, white, cfg, engines.scorer)
                if result.faulty is not None:
                    engines.engines[slots[result.faulty]].restart()
                rel = f"sgf/p{task.pairing:03d}-g{i + 1:04d}.sgf"
                sgf = sgf_bytes(result, cfg).decode()
                rec = _record(task, i, [labels[s] for s in slots],
                              [task.players[s].spec for s in slots], result, rel, sgf,
                              time.monotonic() - t0)
                yield Piece(rec, {rel: sgf})
        finally:
            engines.close()


def _record(task: Task, i: int, labels: list[str], specs: list[str], r: GameResult, rel: str,
            sgf: str, seconds: float) -> GameRecord:
    if r.winner is None:
        result, ranks = [0.5, 0.5], [0, 0]
    else:
        result = [1.0 if r.winner == c else 0.0 for c in (BLACK, WHITE)]
        ranks = [0 if r.winner == c else 1 for c in (BLACK, WHITE)]
    faults = ["", ""]
    if r.winner is not None and r.reason in FAULT:
        faults[1 - r.winner] = FAULT[r.reason]
    times: list[list[float]] = [[], []]
    for colour, t in r.times:
        times[colour].append(round(t, 4))
    return GameRecord(pairing=task.pairing, index=i, players=labels, specs=specs,
                      result=result, ranks=ranks, reason=r.reason, detail=r.detail,
                      faults=faults, score=r.score, moves=[format_vertex(v) for _, v in r.moves],
                      answer_times=times,
                      record=rel, seed=task.seed, seconds=round(seconds, 3),
                      options=task.options, text=sgf)


def check_players(options: Mapping[str, Any], labels: list[str]) -> None:
    """The untimed players are players of the run, and there is a clock to be free of."""
    untimed = list(options.get("untimed", ()))
    if untimed and not options.get("main_time"):
        raise SpecError("untimed players need a clock (main_time) for the others")
    unknown = [u for u in untimed if u not in labels]
    if unknown:
        raise SpecError(f"untimed: no player labelled {', '.join(unknown)} (the players: "
                         f"{', '.join(labels)})")


GAME = GameSpec("gtp", 2, Options, play, chunk_cap=10, aliases=ALIASES,
                check_players=check_players)

EXAMPLES = """\
examples:
  corvid arena gtp --games 20 --player corvid:playouts=3000 --player gnugo:level=10 --json
  corvid arena gtp --size 5 --komi 0.5 --games 10 --player corvid --player \\
      corvid:playouts=500 --player gnugo:level=0 --plot ratings.png
  corvid arena gtp --sweep playouts=300,1000,3000 --games 50 --player corvid \\
      --player gnugo:level=0 --backend ray --plot playouts.png
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from servers.arena.cli import add_game_parser

    p = add_game_parser(subparsers, GAME, "Go: games between GTP engines, refereed",
                        __doc__ or "", EXAMPLES)
    d = Options()
    p.add_argument("--size", type=int, default=None, help=f"board size (default {d.size})")
    p.add_argument("--komi", type=float, default=None, help=f"komi (default {d.komi:g})")
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help=f"seconds an engine may take for one move (default {d.timeout:g})")
    p.add_argument("--startup-timeout", type=float, default=None, metavar="S",
                   help=f"seconds for an engine's first answer (default "
                   f"{d.startup_timeout:g}: a cold start may compile kernels)")
    p.add_argument("--main-time", type=float, default=None, metavar="S",
                   help="sudden-death clock per engine and game, sent as time_settings S 0 0 "
                   "and time_left before each genmove (default: untimed)")
    p.add_argument("--untimed", action="append", default=None, metavar="LABEL",
                   help="with --main-time, the player of this label plays without a clock, "
                   "within --timeout a move (a player whose fixed playouts set its time); "
                   "repeatable")
    p.add_argument("--max-moves", type=int, default=None, metavar="N",
                   help="end and score after this many moves (default 3 x size^2)")
    p.add_argument("--scorer", metavar="CMD",
                   help="GTP engine whose final_score scores finished games (default: "
                   "Tromp-Taylor), e.g. \"gnugo --mode gtp --chinese-rules\"")
    p.add_argument("--engine-log-level", default=None,
                   choices=["debug", "info", "warning", "error"],
                   help="log level of the corvid engines (default warning)")
    p.set_defaults(options_of=_options)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    given = {"size": args.size, "komi": args.komi, "timeout": args.timeout,
             "startup_timeout": args.startup_timeout, "main_time": args.main_time,
             "max_moves": args.max_moves, "scorer": args.scorer, "untimed": args.untimed,
             "log_level": args.engine_log_level}
    return {k: v for k, v in given.items() if v is not None}
