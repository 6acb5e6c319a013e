"""Root parallelism over worker processes, reached over ZeroMQ.

Each worker runs its own core with its own random generator (and, for hidden information,
its own determinisations) on the same root; the coordinator merges the root statistics by
visit counts. Workers keep one searcher per session, so UCT's tree reuse still works inside
each worker (a task of a new session drops the searchers of the others: one game at a time).
Every search is numbered and replies echo the number, so a late answer to a search the
coordinator gave up on is never taken for the next one.

Wire: the coordinator binds a ROUTER socket; a worker connects a DEALER, says ``ready`` and
then answers :class:`Task` messages with :class:`Reply` messages (msgspec msgpack envelopes;
the root and the result travel pickled inside, so any picklable game works). Workers on
other machines can join by running ``python -m search.parallel tcp://HOST:PORT``.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import sys
import time
from typing import Any, Literal

import msgspec
import numpy as np
import zmq

from search.abucb import ABUCB, ABUCBConfig
from search.budget import Budget
from search.ctree import CompiledUCT
from search.flat import FlatConfig, FlatMC
from search.ismcts import ISMCTS, ISMCTSConfig
from search.result import SearchResult, final_index
from search.uct import UCT, UCTConfig

CoreName = Literal["flat", "ismcts", "uct", "ctree", "abucb"]
# a core name -> (its class, its config); "ctree" is UCT on the compiled tree (search.ctree)
CORES: dict[str, tuple[Any, type[msgspec.Struct]]] = {
    "flat": (FlatMC, FlatConfig),
    "ismcts": (ISMCTS, ISMCTSConfig),
    "uct": (UCT, UCTConfig),
    "ctree": (CompiledUCT, UCTConfig),
    "abucb": (ABUCB, ABUCBConfig),
}
# how a core picks its move, for merging the workers' root statistics
_FINAL = {"abucb": "mean"}


class Task(msgspec.Struct, frozen=True, tag="task"):
    session: str
    core: CoreName
    config: bytes  # msgpack of the core's config (CORES)
    root: bytes  # pickled State or InfoSet
    seat: int | None
    playouts: int | None
    seconds: float | None
    seed: int
    task: int = 0  # echoed in the reply, so a late answer to an old task is not taken
    visits: int | None = None  # a cap of the worker's root visits, its kept tree's included


class Ready(msgspec.Struct, frozen=True, tag="ready"):
    pid: int = 0  # the worker's process id (to notice a local worker's death)


class Stop(msgspec.Struct, frozen=True, tag="stop"):
    pass


class Reply(msgspec.Struct, frozen=True, tag="reply"):
    result: bytes = b""  # pickled SearchResult
    error: str = ""
    task: int = 0


Message = Task | Ready | Stop | Reply
_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Message)


def _make_core(core: str, config: bytes) -> Any:
    cls, cfg_type = CORES[core]
    return cls(msgspec.msgpack.decode(config, type=cfg_type))


def worker_main(endpoint: str, parent: int | None = None) -> None:
    """Serve tasks from the coordinator at ``endpoint`` until told to stop, or until the
    process ``parent`` (the coordinator that started this worker) is gone."""
    ctx: Any = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(endpoint)
    sock.send(_encoder.encode(Ready(pid=os.getpid())))
    searchers: dict[tuple[str, str, bytes], Any] = {}
    try:
        while True:
            if not sock.poll(1000):
                if parent is not None and os.getppid() != parent:
                    return  # the coordinator died without saying stop (killed)
                continue
            msg = _decoder.decode(sock.recv())
            if isinstance(msg, Stop):
                return
            if not isinstance(msg, Task):
                continue
            try:
                key = (msg.session, msg.core, msg.config)
                if key not in searchers:
                    # one session at a time: the trees of earlier ones (games) are dropped
                    for old in [k for k in searchers if k[0] != msg.session]:
                        del searchers[old]
                    searchers[key] = _make_core(msg.core, msg.config)
                root = pickle.loads(msg.root)
                budget = Budget(playouts=msg.playouts, seconds=msg.seconds,
                                visits=msg.visits)
                res = searchers[key].search(root, msg.seat, budget,
                                            np.random.default_rng(msg.seed))
                sock.send(_encoder.encode(Reply(result=pickle.dumps(res), task=msg.task)))
            except Exception as e:  # report to the coordinator, keep serving
                sock.send(_encoder.encode(Reply(error=f"{type(e).__name__}: {e}",
                                                task=msg.task)))
    finally:
        sock.close()


def merge_results(results: list[SearchResult], final: str = "visits") -> SearchResult:
    """Sum visits per root move; values are visit-weighted means (NaN where unvisited); the
    move as one search chooses it (:func:`search.result.final_index`)."""
    visits: dict[Any, float] = {}
    wsum: dict[Any, float] = {}
    order: list[Any] = []
    for r in results:
        for m, n, v in zip(r.moves, r.visits, r.values, strict=True):
            if m not in visits:
                visits[m] = 0.0
                wsum[m] = 0.0
                order.append(m)
            visits[m] += n
            if n > 0 and np.isfinite(v):
                wsum[m] += n * v
    vals = [wsum[m] / visits[m] if visits[m] > 0 else float("nan") for m in order]
    best = final_index(final, [visits[m] for m in order], vals)
    return SearchResult(
        move=order[best],
        value=vals[best],
        moves=order,
        visits=[int(visits[m]) for m in order],
        values=vals,
        playouts=sum(r.playouts for r in results),
        elapsed=max(r.elapsed for r in results),
        info={"workers": len(results)},
    )


def next_margin(margin: float, late: float, seconds: float) -> float:
    """The round-trip margin after a search that came back ``late`` seconds after its budget
    (negative: early): all of a delay is added at once, half of an earliness is given back,
    within [0, a quarter of the budget]."""
    step = late if late > 0 else 0.5 * late
    return min(max(0.0, margin + step), 0.25 * seconds)


class WorkerPool:
    """Coordinator of root-parallel search. Use as a context manager.

    ``workers`` local processes are started (0 = only remote workers that connect to
    ``endpoint``). ``search`` sends the same root to every ready worker with a different seed
    and merges what comes back by ``reply_timeout``; a local worker found dead is dropped
    (its share of a playout budget goes to the others from the next search on).

    A time budget covers the whole round trip: the workers search ``seconds − margin``, where
    the margin (sending the root, the replies, the merge) is learned from how late or early
    each search came back (:func:`next_margin`).
    """

    def __init__(self, workers: int = 2, endpoint: str = "tcp://127.0.0.1:*",
                 start_timeout: float = 60.0) -> None:
        self.ctx: Any = zmq.Context.instance()
        self.sock = self.ctx.socket(zmq.ROUTER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.bind(endpoint)
        self.endpoint = self.sock.getsockopt_string(zmq.LAST_ENDPOINT)
        spawn = mp.get_context("spawn")
        self.procs = [spawn.Process(target=worker_main, args=(self.endpoint, os.getpid()),
                                    daemon=True)
                      for _ in range(workers)]
        for p in self.procs:
            p.start()
        self.ready: list[bytes] = []
        self.pids: dict[bytes, int] = {}
        self.tasks = 0  # tasks sent so far (each search is one task number)
        self.margin = 0.01  # seconds of a time budget kept for the round trip (learned)
        deadline = time.monotonic() + start_timeout
        while len(self.ready) < workers:
            if not self.sock.poll(max(1, int(1000 * (deadline - time.monotonic())))):
                self.close()
                raise TimeoutError(f"only {len(self.ready)} of {workers} workers started")
            ident, data = self.sock.recv_multipart()
            msg = _decoder.decode(data)
            if isinstance(msg, Ready):
                self.ready.append(ident)
                self.pids[ident] = msg.pid

    def _dead(self, ident: bytes) -> bool:
        """Whether ``ident`` is one of our local worker processes and has exited."""
        pid = self.pids.get(ident)
        return any(p.pid == pid and not p.is_alive() for p in self.procs)

    def search(self, core: CoreName, config: msgspec.Struct, root: Any,
               seat: int | None, budget: Budget, rng: np.random.Generator,
               session: str = "default", reply_timeout: float | None = None) -> SearchResult:
        if not self.ready:
            raise RuntimeError("no workers")
        t0 = time.monotonic()
        seconds = None if budget.seconds is None else max(0.0, budget.seconds - self.margin)
        payload = pickle.dumps(root)
        cfg = _encoder.encode(config)
        per_worker = visits = None
        if budget.playouts is not None:
            per_worker = max(1, -(-budget.playouts // len(self.ready)))
        if budget.visits is not None:  # each worker's tree holds its share
            visits = max(1, -(-budget.visits // len(self.ready)))
        self.tasks += 1
        for ident in self.ready:
            task = Task(session, core, cfg, payload, seat, per_worker, seconds,
                        int(rng.integers(2**62)), self.tasks, visits)
            self.sock.send_multipart([ident, _encoder.encode(task)])
        if reply_timeout is None:  # a worker that died must not hang the client forever
            reply_timeout = budget.seconds + 30.0 if budget.seconds is not None else 600.0
        results: list[SearchResult] = []
        errors: list[str] = []
        pending = set(self.ready)
        deadline = time.monotonic() + reply_timeout
        while pending:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if not self.sock.poll(max(1, min(200, int(1000 * left)))):
                for ident in [i for i in pending if self._dead(i)]:
                    pending.discard(ident)
                    errors.append("a worker process died")
                continue
            ident, data = self.sock.recv_multipart()
            msg = _decoder.decode(data)
            if isinstance(msg, Reply) and msg.task == self.tasks:  # not a late old answer
                pending.discard(ident)
                if msg.error:
                    errors.append(msg.error)
                else:
                    results.append(pickle.loads(msg.result))
        # a worker that died is not asked again (a slow one is: its late answer is ignored)
        self.ready = [i for i in self.ready if not self._dead(i)]
        if not results:
            raise RuntimeError("no worker answered" + (f": {errors[0]}" if errors else ""))
        final = getattr(config, "final", _FINAL.get(core, "visits"))
        merged = merge_results(results, final)
        if budget.seconds is not None and budget.playouts is None:
            late = time.monotonic() - t0 - budget.seconds
            self.margin = next_margin(self.margin, late, budget.seconds)
        return merged

    def close(self) -> None:
        for ident in self.ready:
            try:
                self.sock.send_multipart([ident, _encoder.encode(Stop())], zmq.NOBLOCK)
            except zmq.ZMQError:
                pass
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
        self.sock.close()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m search.parallel tcp://COORDINATOR:PORT")
    worker_main(sys.argv[1])
