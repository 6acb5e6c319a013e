"""The arena's Python API: :func:`run` plays a run and returns its records.

    from servers.arena import run

    res = run("gtp", ["corvid:playouts=300", "gnugo:level=0"], games=20, seed=1,
              options={"size": 9}, out="runs/go-300", backend="ray")
    for rec in res.records:          # GameRecord: players, result, moves, text (the SGF) ...
        ...
    print(res.table())               # ratings, win rates with intervals

The learning pipelines generate their games this way (they sit above ``servers`` and may
import it); ``corvid arena GAME`` is a thin layer over the same call.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from servers.arena.backends import PlayerError, cause, describe, run_inprocess, run_ray
from servers.arena.players import Player, SpecError, parse_sweep, unique_labels
from servers.arena.plugin import GameSpec, get_game
from servers.arena.progress import Progress
from servers.arena.records import GameRecord, Piece, RunConfig, RunDir, RunDirError, latest
from servers.arena.schedule import (
    Pairing,
    Task,
    chunks,
    derive_seed,
    pairings,
    sweep_participants,
)
from servers.arena.standings import Standings, Tally, format_table, standings

BACKENDS = ("inprocess", "ray")


class ArenaError(ValueError):
    """A run that cannot be made as asked (the message says why)."""


@dataclass
class RunResult:
    config: RunConfig
    participants: list[Player]
    records: list[GameRecord]  # the last word on every game played, by pairing and game
    directory: Path | None = None
    seconds: float = 0.0
    sweep_values: list[str | None] = field(default_factory=list)

    @property
    def ok(self) -> list[GameRecord]:
        return [r for r in self.records if r.status == "ok"]

    def standings(self) -> Standings:
        return standings(self.records, [p.label for p in self.participants],
                         [p.spec for p in self.participants], get_game(self.config.game).seats,
                         self.sweep_values)

    def table(self) -> str:
        return format_table(self.standings())


@dataclass
class Plan:
    """A run's settings, participants, pairings, the games already played (on a resume) and
    the tasks still to play; ``rundir``: where the records go (None: memory only)."""

    config: RunConfig
    game: GameSpec
    participants: list[Player]
    pairings: list[Pairing]
    sweep_values: list[str | None]
    previous: dict[tuple[int, int], GameRecord]
    tasks: list[Task]
    rundir: RunDir | None = None

    @property
    def total(self) -> int:
        return len(self.pairings) * self.config.games

    @property
    def done(self) -> int:
        return sum(1 for r in self.previous.values() if r.status == "ok")


def default_chunk(game: GameSpec, games: int, workers: int) -> int:
    """Enough tasks to keep every worker busy, at most the game's cap per task."""
    return max(1, min(game.chunk_cap, -(-games // max(1, workers))))


def make_config(game: str, players: Sequence[str], *, games: int = 10,
                schedule: str = "roundrobin", sweep: str | None = None, seed: int | None = None,
                chunk: int | None = None, options: Mapping[str, Any] | None = None,
                workers: int = 1) -> RunConfig:
    """A new run's settings, checked."""
    spec = _game(game)
    if games < 1:
        raise ArenaError("games per pairing must be at least 1")
    if chunk is not None and chunk < 1:
        raise ArenaError("chunk must be at least 1")
    try:
        opts = spec.make_options(options)
    except ValueError as e:
        raise ArenaError(str(e)) from None
    cfg = RunConfig(game=game, players=list(players), games=games, schedule=schedule,
                    sweep=sweep, seed=random.randrange(1 << 31) if seed is None else seed,
                    chunk=chunk or default_chunk(spec, games, workers), options=opts)
    plan(cfg)  # every spec and the schedule are checked now, not when a task starts
    return cfg


def _game(name: str) -> GameSpec:
    try:
        return get_game(name)
    except ValueError as e:
        raise ArenaError(str(e)) from None


def plan(config: RunConfig, records: Sequence[GameRecord] = (), cwd: str | None = None
         ) -> Plan:
    game = _game(config.game)
    try:
        given = [game.parse(s) for s in config.players]
        sweep_values: list[str | None] = []
        if config.sweep:
            key, values = parse_sweep(config.sweep)
            people = sweep_participants(given, key, values)
            sweep_values = [*values, *[None] * (len(people) - len(values))]
        else:
            people = given
        participants = unique_labels(people)
        if game.check_players is not None:
            game.check_players(config.options, [p.label for p in participants])
        tables = pairings(len(participants), game.seats, config.schedule,
                          len(sweep_values) - sweep_values.count(None))
    except SpecError as e:
        raise ArenaError(str(e)) from None
    previous = latest(list(records))
    done = {k for k, r in previous.items() if r.status == "ok"}
    per_pairing = []
    for p in tables:
        todo = [i for i in range(config.games) if (p.index, i) not in done]
        per_pairing.append([(p, c) for c in chunks(todo, config.chunk)])
    tasks: list[Task] = []
    # interleave the pairings, so the standings fill in evenly as the run goes
    for k in range(max((len(x) for x in per_pairing), default=0)):
        for part in per_pairing:
            if k < len(part):
                p, idx = part[k]
                tasks.append(Task(len(tasks), config.game, p.index,
                                  tuple(participants[i] for i in p.seats), idx,
                                  derive_seed(config.seed, p.index, idx[0]), config.options,
                                  cwd or os.getcwd()))
    return Plan(config, game, participants, tables, sweep_values, previous, tasks)


def workers_of(backend: str, parallel: int | None) -> int:
    """Tasks that run at once: ``parallel``, else 1 in process and every core on Ray."""
    if backend not in BACKENDS:
        raise ArenaError(f"unknown backend {backend!r}: {' or '.join(BACKENDS)}")
    if parallel is not None and parallel < 1:
        raise ArenaError("parallel must be at least 1")
    return parallel or (1 if backend == "inprocess" else os.cpu_count() or 1)


def prepare(game: str | None = None, players: Sequence[str] = (), *,
            games: int | None = None, schedule: str | None = None, sweep: str | None = None,
            seed: int | None = None, chunk: int | None = None,
            options: Mapping[str, Any] | None = None, out: str | Path | None = None,
            resume: str | Path | None = None, workers: int = 1) -> Plan:
    """The plan of a new run (its directory created when ``out`` is given) or of the rest
    of the run in ``resume``. See :func:`run` for the arguments."""
    try:
        if resume is not None:
            rundir = RunDir(resume)
            config = rundir.load_config()
            _check_resume(config, game, players, games, schedule, sweep, seed, chunk, options)
            p = plan(config, rundir.load_games())
            p.rundir = rundir
            return p
        if game is None:
            raise ArenaError("name the game (uecda, gtp or blokus)")
        config = make_config(game, players,
                             games=_game(game).default_games if games is None else games,
                             schedule=schedule or "roundrobin", sweep=sweep, seed=seed,
                             chunk=chunk, options=options, workers=workers)
        p = plan(config)
        if out is not None:
            p.rundir = RunDir(out)
            p.rundir.create(config)
        return p
    except RunDirError as e:
        raise ArenaError(str(e)) from None


def run(game: str | None = None, players: Sequence[str] = (), *, games: int | None = None,
        schedule: str | None = None, sweep: str | None = None, seed: int | None = None,
        chunk: int | None = None, options: Mapping[str, Any] | None = None,
        out: str | Path | None = None, resume: str | Path | None = None,
        backend: str = "inprocess", parallel: int | None = None,
        ray_address: str | None = None,
        on_game: Callable[[GameRecord], None] | None = None,
        progress: bool | Progress = False) -> RunResult:
    """Play a run and return its records.

    ``game``: ``uecda``, ``gtp`` or ``blokus``; ``players``: ``--player`` specs
    (:mod:`servers.arena.players`); ``games``: per pairing (default: the game's, 10 or 100
    for UECda); ``schedule``: ``roundrobin`` or ``gauntlet``; ``sweep``: ``key=v1,v2,...``
    (the first player varied, against the others); ``seed``: the run's seed (default: drawn,
    and kept in the records); ``chunk``: games per task; ``options``: the game's settings
    (its ``Options``). ``out``: a new run directory for the records (None: in memory only);
    ``resume``: an existing run directory to complete (its settings are used; any given here
    must agree). ``backend``: ``inprocess`` (``parallel`` tasks at once, default 1) or
    ``ray`` (a local Ray with ``parallel`` CPUs, default all, or the cluster at
    ``ray_address``; an already initialised Ray is used as it is). ``on_game(record)`` after
    every game; ``progress``: show progress on stderr (or pass a :class:`Progress`).

    A task that fails is retried once for its unplayed games; after that they are recorded
    as failed and the run goes on. Raises :class:`ArenaError` for a run that cannot be made
    (bad players, options, directory) and when a player cannot start at all.
    """
    workers = workers_of(backend, parallel)
    p = prepare(game, players, games=games, schedule=schedule, sweep=sweep, seed=seed,
                chunk=chunk, options=options, out=out, resume=resume, workers=workers)
    return execute(p, backend=backend, parallel=parallel, ray_address=ray_address,
                   on_game=on_game, progress=progress)


def execute(p: Plan, *, backend: str = "inprocess", parallel: int | None = None,
            ray_address: str | None = None,
            on_game: Callable[[GameRecord], None] | None = None,
            progress: bool | Progress = False) -> RunResult:
    """Play the tasks of a plan (see :func:`run`)."""
    t0 = time.monotonic()
    workers = workers_of(backend, parallel)
    config, rundir = p.config, p.rundir
    records = dict(p.previous)
    tally = Tally(r for r in records.values() if r.status == "ok")
    bar = progress if isinstance(progress, Progress) else \
        Progress(p.total, f"arena {config.game}", done=p.done) if progress else None

    def add(rec: GameRecord) -> None:
        records[rec.key] = rec
        tally.add(rec)
        if on_game is not None:
            on_game(rec)
        if bar is not None:
            bar.update(tally.games + tally.failed, tally.brief())

    def on_piece(task: Task, piece: Piece) -> None:
        if piece.game is not None:
            piece.game.task, piece.game.attempt = task.id, task.attempt
        if rundir is not None:
            rundir.add(piece)
        if piece.game is not None:
            add(piece.game)

    def on_failure(task: Task, error: BaseException) -> Task | None:
        left = tuple(i for i in task.indices
                     if (task.pairing, i) not in records or
                     records[(task.pairing, i)].status != "ok")
        err = cause(error)
        if isinstance(err, PlayerError) and err.fatal:
            raise ArenaError(str(err)) from None
        retry = task.attempt == 1 and bool(left)
        if bar is not None:
            bar.write(f"arena: task {task.id} (pairing {task.pairing}) failed: "
                      f"{describe(error)}" + ("; retrying its games once" if retry else ""))
        if retry:
            return replace(task, indices=left, attempt=2,
                           seed=derive_seed(config.seed, task.pairing, left[0], 2))
        for i in left:
            rec = GameRecord(pairing=task.pairing, index=i, status="failed",
                             players=[x.label for x in task.players],
                             specs=[x.spec for x in task.players], task=task.id,
                             attempt=task.attempt, error=describe(error),
                             options=config.options)
            on_piece(task, Piece(rec))
        return None

    try:
        if backend == "ray":
            run_ray(p.tasks, on_piece, on_failure, cpus=parallel, address=ray_address)
        else:
            run_inprocess(p.tasks, workers, on_piece, on_failure)
    finally:
        if bar is not None and not isinstance(progress, Progress):
            bar.close()
        if rundir is not None:
            rundir.close()
    ordered = [records[k] for k in sorted(records)]
    return RunResult(config, p.participants, ordered, rundir.path if rundir else None,
                     time.monotonic() - t0, p.sweep_values)


def _check_resume(config: RunConfig, game: str | None, players: Sequence[str],
                  games: int | None, schedule: str | None, sweep: str | None,
                  seed: int | None, chunk: int | None, options: Mapping[str, Any] | None
                  ) -> None:
    """Settings given with a resume must be the run's own."""
    given: dict[str, Any] = {"game": game, "players": list(players) or None, "games": games,
                             "schedule": schedule, "sweep": sweep, "seed": seed,
                             "chunk": chunk}
    diffs = [f"{k} {v!r} (the run has {getattr(config, k)!r})" for k, v in given.items()
             if v is not None and v != getattr(config, k)]
    diffs += [f"{k} {v!r} (the run has {config.options.get(k)!r})"
              for k, v in (options or {}).items() if config.options.get(k) != v]
    if diffs:
        raise ArenaError("a resumed run keeps its settings; these differ: " + "; ".join(diffs))
