"""Where tasks run: ``inprocess`` (threads of this process, ``parallel`` tasks at once) or
``ray`` (each task a Ray task: a local Ray started here, or an existing cluster).

Either way a task is a generator of :class:`~servers.arena.records.Piece` (one per finished
game), so the caller sees every game as it ends — on Ray through streaming generator tasks.
A task that fails (an exception, a lost worker) is handed back to the caller's
``failed(task, error)``, which may return a retry of it; the games already received stay.

Ray is imported only when the backend is used. A local Ray listens on 127.0.0.1 only (see
:func:`start_ray`).
"""

from __future__ import annotations

import importlib
import os
import queue
import threading
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from servers.arena.records import Piece
from servers.arena.schedule import Task

OnPiece = Callable[[Task, Piece], None]
OnFailure = Callable[[Task, BaseException], "Task | None"]


class PlayerError(RuntimeError):
    """A player's program could not take part (it exited before the game, or cannot be
    started). ``fatal``: retrying cannot help (a usage or settings error): stop the run."""

    def __init__(self, message: str, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


def play_task(task: Task) -> Generator[Piece, None, None]:
    """Run one task through its game's plug-in (also the body of the Ray task)."""
    module = importlib.import_module(f"servers.arena.{task.game}")
    yield from module.GAME.play(task)


def cause(error: BaseException) -> BaseException:
    """The exception a task raised, unwrapped from Ray's wrapper."""
    inner = getattr(error, "cause", None)
    return inner if isinstance(inner, BaseException) else error


def describe(error: BaseException) -> str:
    e = cause(error)
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}".rstrip(": ")


def run_inprocess(tasks: list[Task], parallel: int, on_piece: OnPiece,
                  on_failure: OnFailure) -> None:
    """``parallel`` tasks at once in threads (the players are processes of their own; the
    servers' work is light)."""
    events: queue.Queue[tuple[str, Task, Any]] = queue.Queue()
    cancel = threading.Event()

    def work(task: Task) -> None:
        gen = play_task(task)
        try:
            for piece in gen:
                events.put(("piece", task, piece))
                if cancel.is_set():
                    break
        except BaseException as e:  # the task's failure goes to the caller  # noqa: BLE001
            events.put(("error", task, e))
            return
        finally:
            gen.close()
        events.put(("done", task, None))

    pool = ThreadPoolExecutor(max_workers=max(1, parallel), thread_name_prefix="arena")
    pending = 0
    try:
        for t in tasks:
            pool.submit(work, t)
            pending += 1
        while pending:
            kind, task, x = events.get()
            if kind == "piece":
                on_piece(task, x)
                continue
            pending -= 1
            if kind == "error":
                retry = on_failure(task, x)
                if retry is not None:
                    pool.submit(work, retry)
                    pending += 1
    finally:
        cancel.set()
        pool.shutdown(wait=True, cancel_futures=True)


def start_ray(address: str | None = None, cpus: int | None = None) -> tuple[Any, bool]:
    """Ray, initialised: the running instance if there is one, else a new local one with
    ``cpus`` CPUs (listening on 127.0.0.1 only), or a connection to the cluster at
    ``address`` (``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``). Returns (the ray module,
    whether this call started it). Usage statistics are switched off; the local Ray's
    workers run at this process's priority (Ray's default is nice +15)."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if address is None:
        # Ray otherwise binds and talks to this machine's network address even for a local
        # instance; this switch (read when ray is imported) keeps it on the loopback.
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        # and it runs its workers at nice +15: players with a clock per move would lose on
        # time on a busy machine; they run at the arena's own priority instead
        os.environ.setdefault("RAY_worker_niceness", "0")
    import ray

    if ray.is_initialized():
        return ray, False
    common: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "logging_level": "WARNING" if address else "ERROR"}
    if address is not None:
        ray.init(address=address, **common)
    else:
        ray.init(num_cpus=cpus or os.cpu_count() or 1, object_store_memory=128 << 20,
                 **common)
    return ray, True


def run_ray(tasks: list[Task], on_piece: OnPiece, on_failure: OnFailure,
            cpus: int | None = None, address: str | None = None) -> None:
    """Each task a Ray task needing ``task.cpus`` CPUs (its players take turns: one core,
    unless they search in several processes; at most the cluster's), its games streamed
    back as they end. Ray's own retries are off: ``on_failure`` decides."""
    ray, started = start_ray(address, cpus)
    remote = ray.remote(num_cpus=1, max_retries=0)(play_task)
    most = max(1, int(ray.cluster_resources().get("CPU", 1)))
    running: dict[Any, Task] = {}

    def submit(t: Task) -> None:
        running[remote.options(num_cpus=min(t.cpus, most)).remote(t)] = t

    try:
        for t in tasks:
            submit(t)
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            for gen in ready:
                task = running[gen]
                try:
                    piece = ray.get(next(gen))
                except StopIteration:
                    del running[gen]
                    continue
                except Exception as e:  # a failed task or a lost worker  # noqa: BLE001
                    del running[gen]
                    retry = on_failure(task, e)
                    if retry is not None:
                        submit(retry)
                    continue
                on_piece(task, piece)
    finally:
        for gen in running:
            try:
                ray.cancel(gen, force=True)
            except Exception:  # noqa: BLE001,S110  (already finished or gone)
                pass
        if started:
            ray.shutdown()
