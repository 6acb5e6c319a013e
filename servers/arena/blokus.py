"""``corvid arena blokus``: Blokus Duo games on the mock ICFPT host.

Players: ``corvid[:key=value,...]`` (``corvid blokus`` with ``--set key=value``; its
``seconds`` is the host's ``--timeout`` unless set), ``first-legal`` and ``biggest`` (the host's
built-in opponents: no process), ``cmd:PROGRAM ARGS`` (any ICFPT client over TCP;
``{host}``, ``{port}``, ``{name}`` replaced; restarted for a game when it has exited) and
``gtp:PROGRAM ARGS`` (a GTP Blokus engine speaking Pentobi's notation, driven by the host:
one process per task, restarted after a fault; ``{name}`` replaced).

A task binds one free loopback port per client player and plays its games as the contest
host does: one connection per game, the team code, then prompts with the time limit per
move; a late, malformed or illegal answer, a pass as a first move or a disconnect loses at
once. The pairing's first player is player 1 (start e10) in even games, and the player that
moves first alternates every two games. One Pentobi SGF per game (``blokus/``).
"""

from __future__ import annotations

import argparse
import shlex
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any, Literal

import msgspec
import numpy as np

from games.blokus_duo import geometry
from protocols.icfpt import Dialect
from servers.arena.backends import PlayerError
from servers.arena.plugin import GameSpec
from servers.arena.records import GameRecord, Piece
from servers.arena.schedule import Task
from servers.blokus.host import play_game
from servers.blokus.opponents import OPPONENTS
from servers.blokus.players import BuiltinPlayer, GtpPlayer, Player, RemotePlayer, Violation
from servers.blokus.sgf import GameRecord as BlokusRecord
from servers.blokus.sgf import write_sgf
from servers.gtp.process import EngineError


class Options(msgspec.Struct, frozen=True, kw_only=True):
    timeout: float = 1.0  # the host's seconds per move
    engine_timeout: float | None = None  # seconds per move of gtp: players (None: timeout)
    dialect: Literal["2014", "2013"] = "2014"
    connect_timeout: float = 60.0  # for a client to connect and send its team code
    log_level: str = "warning"  # of the corvid clients


class _Client:
    """A client player: its listening socket and its process (restarted when needed)."""

    def __init__(self, slot: int, task: Task, opts: Options, log: Path) -> None:
        self.slot = slot
        self.player = task.players[slot]
        self.task = task
        self.opts = opts
        self.log = log
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port: int = self.sock.getsockname()[1]
        self.proc: subprocess.Popen[bytes] | None = None

    def ensure_running(self, games_left: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            return
        if self.proc is not None and self.proc.returncode == 2:
            raise PlayerError(f"player {self.player.label!r} exited with code 2: "
                              f"{self._tail()}", fatal=True)
        o = self.opts
        argv = self.player.argv(
            ["blokus", "--host", "127.0.0.1", "--port", str(self.port), "--games",
             str(games_left), "--dialect", o.dialect, "--team-code", f"{self.slot + 1:02d}"],
            "127.0.0.1", self.port, self.player.label, self.task.seed + self.slot,
            o.log_level, extra=[f"seconds={o.timeout:g}"])
        cwd = self.task.cwd if Path(self.task.cwd).is_dir() else None
        with open(self.log, "ab") as err:
            try:
                self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=err,
                                             stderr=err, cwd=cwd)
            except OSError as e:
                raise PlayerError(f"player {self.player.label!r}: cannot start {argv[0]!r}: "
                                  f"{e}", fatal=True) from e

    def _tail(self) -> str:
        return self.log.read_text(errors="replace").strip()[-400:].replace("\n", " | ")

    def accept(self) -> RemotePlayer:
        """The client's connection for the next game."""
        deadline = time.monotonic() + self.opts.connect_timeout
        while True:
            self.sock.settimeout(0.5)
            try:
                conn, _ = self.sock.accept()
                break
            except TimeoutError:
                pass
            assert self.proc is not None
            if self.proc.poll() is not None:
                code = self.proc.returncode
                raise PlayerError(f"player {self.player.label!r} exited with code {code} "
                                  f"instead of connecting: {self._tail()}", fatal=code == 2)
            if time.monotonic() > deadline:
                raise PlayerError(f"player {self.player.label!r} did not connect in "
                                  f"{self.opts.connect_timeout:g} s")
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return RemotePlayer(conn, Dialect(self.opts.dialect), self.player.label)

    def close(self) -> None:
        self.sock.close()
        if self.proc is not None:
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def play(task: Task) -> Iterator[Piece]:
    opts = msgspec.convert(task.options, Options)
    geo = geometry(14)
    with tempfile.TemporaryDirectory(prefix="corvid-arena-") as tmp, ExitStack() as stack:
        clients: dict[int, _Client] = {}
        engines: dict[int, GtpPlayer] = {}
        try:
            for slot, pl in enumerate(task.players):
                if pl.kind == "gtp":
                    log = Path(tmp) / f"player{slot}.log"
                    err = stack.enter_context(open(log, "ab"))  # for the engine's restarts
                    engines[slot] = _engine(slot, task, opts, err, log)
                    stack.callback(engines[slot].close)
                elif pl.kind != "server":
                    clients[slot] = _Client(slot, task, opts, Path(tmp) / f"player{slot}.log")
            for k, i in enumerate(task.indices):
                t0 = time.monotonic()
                slots = (0, 1) if i % 2 == 0 else (1, 0)  # slot of player 1, of player 2
                first = (i // 2) % 2  # the colour moving first
                for c in clients.values():
                    c.ensure_running(len(task.indices) - k)
                rec = _game(task, opts, clients, engines, slots, first,
                            np.random.default_rng([task.seed, i]))
                rec.names = (task.players[slots[0]].label, task.players[slots[1]].label)
                rel = f"blokus/p{task.pairing:03d}-g{i + 1:04d}.blksgf"
                sgf = write_sgf(rec)
                yield Piece(_record(task, i, slots, rec, [geo.code(m) for _, m in rec.moves],
                                    rel, sgf, time.monotonic() - t0), {rel: sgf})
        finally:
            for c in clients.values():
                c.close()


def _engine(slot: int, task: Task, opts: Options, err: IO[bytes], log: Path) -> GtpPlayer:
    """The GTP engine of a ``gtp:`` player, started and told the game (its stderr to
    ``err``, the file ``log``)."""
    pl = task.players[slot]
    cwd = task.cwd if Path(task.cwd).is_dir() else None
    try:
        return GtpPlayer(shlex.join(pl.argv([], name=pl.label)), pl.label,
                         opts.connect_timeout, err, cwd, opts.engine_timeout)
    except EngineError as e:
        err.flush()
        tail = log.read_text(errors="replace").strip()[-400:].replace("\n", " | ")
        raise PlayerError(f"player {pl.label!r} did not start: {e}"
                          + (f": {tail}" if tail else ""), fatal=True) from e


def _game(task: Task, opts: Options, clients: dict[int, _Client],
          engines: dict[int, GtpPlayer], slots: tuple[int, int], first: int,
          rng: np.random.Generator) -> BlokusRecord:
    players: list[Player] = []
    for slot in slots:
        pl = task.players[slot]
        if slot in clients:
            players.append(clients[slot].accept())
        elif slot in engines:
            players.append(engines[slot])
        else:
            players.append(BuiltinPlayer(pl.label, OPPONENTS[pl.command], rng))
    pair = (players[0], players[1])
    for colour, p in enumerate(pair):
        try:
            p.handshake(max(opts.connect_timeout, opts.timeout))
        except Violation as v:
            for q in pair:
                q.finish()
            return BlokusRecord(first=first, reason=v.kind,
                                detail=f"before the game: {v.detail}",
                                violator=colour, winner=1 - colour, dialect=opts.dialect)
    return play_game(pair, first, Dialect(opts.dialect), opts.timeout)


def _record(task: Task, i: int, slots: tuple[int, int], rec: BlokusRecord, moves: list[str],
            rel: str, sgf: str, seconds: float) -> GameRecord:
    if rec.winner is None:
        result, ranks = [0.5, 0.5], [0, 0]
    else:
        result = [1.0 if rec.winner == c else 0.0 for c in (0, 1)]
        ranks = [0 if rec.winner == c else 1 for c in (0, 1)]
    faults = ["", ""]  # a resignation is no fault
    if rec.violator is not None:
        faults[rec.violator] = "timeout" if rec.reason == "timeout" else "violation"
    times: list[list[float]] = [[], []]
    for (colour, _), t in zip(rec.moves, rec.times, strict=True):
        times[colour].append(round(t, 4))
    return GameRecord(pairing=task.pairing, index=i,
                      players=[task.players[s].label for s in slots],
                      specs=[task.players[s].spec for s in slots], result=result, ranks=ranks,
                      reason=rec.reason, detail=rec.detail, faults=faults, first=rec.first,
                      score=None if rec.scores is None else rec.scores[0] - rec.scores[1],
                      moves=moves, answer_times=times, record=rel, seed=task.seed,
                      seconds=round(seconds, 3), options=task.options, text=sgf)


GAME = GameSpec("blokus", 2, Options, play, chunk_cap=10, servers=tuple(sorted(OPPONENTS)),
                gtp=True)

EXAMPLES = """\
examples:
  corvid arena blokus --games 20 --player corvid --player biggest --json
  corvid arena blokus --games 10 --player ab=corvid:core=alphabeta \\
      --player uct=corvid:core=uct --player biggest --plot ratings.png
  corvid arena blokus --sweep margin=0.1,0.25,0.4 --games 40 --player corvid \\
      --player corvid:core=uct --backend ray
  corvid arena blokus --games 40 --player corvid --player \\
      pentobi=gtp:"pentobi-gtp --game duo --nobook --noresign --level 6"
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from servers.arena.cli import add_game_parser

    p = add_game_parser(subparsers, GAME, "Blokus Duo: games on the mock ICFPT host",
                        __doc__ or "", EXAMPLES)
    d = Options()
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help=f"the host's seconds per move (default {d.timeout:g}; corvid "
                   "players get it as their seconds setting)")
    p.add_argument("--engine-timeout", type=float, default=None, metavar="S",
                   help="seconds per move of gtp: players (default: --timeout), for an "
                   "engine level that needs more")
    p.add_argument("--dialect", choices=["2014", "2013"], default=None,
                   help=f"host protocol (default {d.dialect})")
    p.add_argument("--connect-timeout", type=float, default=None, metavar="S",
                   help=f"seconds for a client to connect and send its team code (default "
                   f"{d.connect_timeout:g})")
    p.add_argument("--client-log-level", default=None,
                   choices=["debug", "info", "warning", "error"],
                   help="log level of the corvid clients (default warning)")
    p.set_defaults(options_of=_options)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    given = {"timeout": args.timeout, "engine_timeout": args.engine_timeout,
             "dialect": args.dialect,
             "connect_timeout": args.connect_timeout, "log_level": args.client_log_level}
    return {k: v for k, v in given.items() if v is not None}
