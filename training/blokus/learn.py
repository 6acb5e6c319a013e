"""``corvid blokus learn``: the best-of-n selective-simulation learner (Osaki and Kotani) on
Blokus Duo, with the simulations compiled (``knowledge.blokus_duo.evaluation.selective_simulate``)
and resumable.

Every ``--checkpoint-every`` updates (and when the run stops: its updates or ``--minutes`` are
done, Ctrl-C, SIGTERM) the weights so far go to ``--out`` and the learner's state (weights,
statistics, the random generator, the update reached, the settings) to ``OUT.ckpt.npz``;
``--resume`` continues from there with the same settings, drawing the same random numbers as
an uninterrupted run. An interrupted update is run again, so nothing finished is lost.

``--average-from U`` also keeps the mean of the weights after every update from U on (Polyak
averaging: the learner's constant step makes the weights wander from update to update, and
their strength with them) and writes it beside ``--out`` (``w.npz`` -> ``w.avg.npz``); it
does not change the run, so it may be turned on when a run is resumed (the mean then starts
there; a mean a checkpoint keeps goes on).

``--workers N`` shares each update's simulations out as N Ray tasks (the arena's backend:
``servers.arena.backends.start_ray``, a local Ray of N CPUs or the cluster at
``--ray-address``). Each position's simulations then draw from a seed of their own, so the
weights do not depend on N (nor on the cluster), but differ from an in-process run's.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any, NamedTuple

import numpy as np
import structlog

from games.blokus_duo import BlokusState
from knowledge.blokus_duo.evaluation import BlokusEval, blokus_features, selective_simulate
from knowledge.blokus_duo.features import feature_index
from knowledge.blokus_duo.position import BlokusPosition
from search.selective import SelectiveConfig, SelectiveLearner, load_weights, save_weights

log = structlog.get_logger()

# the settings that define a run: a resumed run must have the same
RUN_KEYS = ("n", "m", "k", "alpha", "updates", "positions", "eps_start", "eps_end",
            "selfplay_n", "init", "prior_score", "seed", "python")


def add_arguments(lp: argparse.ArgumentParser) -> None:
    lp.add_argument("--out", required=True, metavar="FILE", help="the weights .npz (also "
                    "written at every checkpoint); the checkpoint is FILE.ckpt.npz")
    lp.add_argument("--n", type=int, default=8,
                    help="best-of-n in the simulations (default %(default)s; paper: 8)")
    lp.add_argument("--m", type=int, default=8, help="simulations per training position "
                    "(default %(default)s; paper: 100)")
    lp.add_argument("--updates", type=int, default=50, help="gradient steps, one self-play "
                    "game each (default %(default)s; paper: 10000)")
    lp.add_argument("--positions", type=int, default=8,
                    help="training positions drawn per self-play game (0: all; default "
                    "%(default)s)")
    lp.add_argument("--k", type=float, default=0.02,
                    help="the sigmoid's scale: V = sigma(k w.x) (default %(default)s)")
    lp.add_argument("--alpha", type=float, default=0.5,
                    help="step size of the batch update (default %(default)s)")
    lp.add_argument("--eps-start", type=float, default=0.5,
                    help="epsilon of the epsilon-greedy self-play at the first update "
                    "(default %(default)s)")
    lp.add_argument("--eps-end", type=float, default=0.05,
                    help="... at the last, falling linearly (default %(default)s)")
    lp.add_argument("--selfplay-n", type=int, default=16,
                    help="greedy self-play moves chosen among this many random moves (0: all; "
                    "default %(default)s)")
    lp.add_argument("--minutes", type=float, default=0.0,
                    help="stop after this long (default 0: no limit); --resume goes on")
    lp.add_argument("--init", metavar="FILE", help="start from these weights")
    lp.add_argument("--prior-score", type=float, default=0.0, metavar="S",
                    help="without --init, start from +S on the own placed-squares total and "
                    "-S on the opponent's (default 0: zero weights)")
    lp.add_argument("--seed", type=int, default=0, help="random seed (default %(default)s)")
    lp.add_argument("--checkpoint-every", type=int, default=10, metavar="U",
                    help="write the checkpoint every U updates (default %(default)s)")
    lp.add_argument("--resume", action="store_true", help="continue the run of OUT.ckpt.npz")
    lp.add_argument("--python", action="store_true", help="plain-Python simulations (the "
                    "reference; slow)")
    lp.add_argument("--average-from", type=int, default=0, metavar="U",
                    help="also write the mean of the weights after updates U.. beside --out "
                    "(w.npz -> w.avg.npz; default 0: no mean; it does not change the run)")
    lp.add_argument("--workers", type=int, default=0, metavar="N",
                    help="simulate each update's positions as N Ray tasks (default 0: in "
                    "this process; any N >= 1 gives the same weights)")
    lp.add_argument("--ray-address", metavar="ADDR",
                    help="with --workers: the Ray cluster to use (auto, HOST:PORT) instead "
                    "of a local Ray of N CPUs")


def checkpoint_path(out: str | Path) -> Path:
    return Path(str(out) + ".ckpt.npz")


def average_path(out: str | Path) -> Path:
    """Where ``--average-from`` writes the mean weights: ``w.npz`` -> ``w.avg.npz``."""
    p = Path(out)
    return p.with_name(p.stem + ".avg.npz")


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    settings = {k: getattr(args, k) for k in RUN_KEYS}
    if args.workers > 0:  # per-position seeds, whatever N (an in-process run has no such key)
        settings["seeded"] = True
    return settings


def simulate_seeded(positions: list[BlokusPosition], w: np.ndarray, k: float, n: int, m: int,
                    seeds: list[int]) -> list[float]:
    """The compiled simulations of each position, each from its own seed (a Ray task)."""
    return [selective_simulate(p, w, k, n, m, np.random.default_rng(s))
            for p, s in zip(positions, seeds, strict=True)]


class RayWinRates:
    """``SelectiveLearner``'s ``win_rates``: an update's positions in ``workers`` Ray tasks."""

    def __init__(self, workers: int, n: int, m: int, address: str | None = None) -> None:
        from servers.arena.backends import start_ray

        self.ray, self.started = start_ray(address, workers)
        self.task = self.ray.remote(num_cpus=1, max_retries=2)(simulate_seeded)
        self.workers, self.n, self.m = workers, n, m

    def __call__(self, positions: list[Any], w: np.ndarray, k: float, seeds: list[int]
                 ) -> list[float]:
        w_ref = self.ray.put(w)
        # interleaved, not halves: a game's early positions cost several times its late ones
        # (contiguous halves of a 35-position update: 2.26 s against 0.43 s of CPU)
        parts = [list(range(j, len(positions), self.workers)) for j in range(self.workers)]
        parts = [c for c in parts if c]
        futures = [self.task.remote([positions[i] for i in c], w_ref, k, self.n, self.m,
                                    [seeds[i] for i in c]) for c in parts]
        rates = [0.0] * len(positions)
        for c, part in zip(parts, self.ray.get(futures), strict=True):
            for i, r in zip(c, part, strict=True):
                rates[i] = r
        return rates

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def save_checkpoint(path: Path, t: int, w: np.ndarray, history: list[dict[str, float]],
                    rng: np.random.Generator, settings: dict[str, Any], seconds: float,
                    average: Average | None = None) -> None:
    """Atomically (a temporary file, then a rename); compressed, because the per-update
    history grows with the run (about 150 kB at 3,500 updates, 1.8 MB uncompressed)."""
    tmp = path.with_name(path.name + ".tmp.npz")
    arrays: dict[str, np.ndarray] = {
        "w": w, "t": np.array(t, np.int64), "history": np.array(json.dumps(history)),
        "rng": np.array(json.dumps(rng.bit_generator.state)),
        "settings": np.array(json.dumps(settings)), "seconds": np.array(seconds, np.float64)}
    if average is not None:
        arrays.update(avg_sum=average.total, avg_first=np.array(average.first, np.int64),
                      avg_count=np.array(average.n, np.int64))
    np.savez_compressed(tmp, allow_pickle=False, **arrays)
    tmp.replace(path)


def load_checkpoint(path: Path) -> dict[str, Any]:
    with np.load(path, allow_pickle=False) as z:
        average = Average(np.asarray(z["avg_sum"], dtype=np.float64), int(z["avg_first"]),
                          int(z["avg_count"])) if "avg_sum" in z.files else None
        return {"w": np.asarray(z["w"], dtype=np.float64), "t": int(z["t"]),
                "history": json.loads(str(z["history"])), "rng": json.loads(str(z["rng"])),
                "settings": json.loads(str(z["settings"])), "seconds": float(z["seconds"]),
                "average": average}


class Average(NamedTuple):
    """The running mean of ``--average-from``: the sum of the weights after ``n``
    consecutive updates, the first of them ``first`` (1-based, as the log counts)."""

    total: np.ndarray
    first: int
    n: int

    def add(self, w: np.ndarray) -> Average:
        return Average(self.total + w, self.first, self.n + 1)

    def mean(self) -> np.ndarray:
        return self.total / self.n


def learn_main(args: argparse.Namespace) -> int:
    cfg = SelectiveConfig(n=args.n, m=args.m, k=args.k, alpha=args.alpha,
                          updates=args.updates, positions=args.positions,
                          eps_start=args.eps_start, eps_end=args.eps_end,
                          selfplay_n=args.selfplay_n)
    settings = _settings(args)
    ckpt = checkpoint_path(args.out)
    rng = np.random.default_rng(args.seed)
    bad = [f"{name} {value}: {need}" for name, value, ok, need in (
        ("--n", args.n, args.n >= 1, "give n >= 1"),
        ("--m", args.m, args.m >= 1, "give m >= 1"),
        ("--updates", args.updates, args.updates >= 1, "give a count >= 1"),
        ("--positions", args.positions, args.positions >= 0, "give a count >= 0 (0: all)"),
        ("--k", args.k, args.k > 0, "give a scale > 0"),
        ("--alpha", args.alpha, args.alpha > 0, "give a step size > 0"),
        ("--eps-start", args.eps_start, 0 <= args.eps_start <= 1, "give 0..1"),
        ("--eps-end", args.eps_end, 0 <= args.eps_end <= 1, "give 0..1"),
        ("--selfplay-n", args.selfplay_n, args.selfplay_n >= 0, "give a count >= 0 (0: all)"),
        ("--minutes", args.minutes, args.minutes >= 0, "give minutes >= 0 (0: no limit)"),
        ("--average-from", args.average_from, args.average_from >= 0,
         "give an update >= 1 (0: no mean)"),
        ("--checkpoint-every", args.checkpoint_every, args.checkpoint_every >= 1,
         "give U >= 1")) if not ok]
    if bad:
        print("corvid blokus learn: " + "; ".join(bad), file=sys.stderr)
        return 2
    if args.workers < 0 or (args.workers and args.python):
        print("--workers: N >= 0, and the workers run the compiled simulations (not with "
              "--python)", file=sys.stderr)
        return 2
    if args.ray_address and not args.workers:
        print("--ray-address needs --workers N", file=sys.stderr)
        return 2
    begun = _start(args, settings, ckpt, rng)
    if begun is None:
        return 2
    # Ray only once the run is sure to go ahead
    win_rates = RayWinRates(args.workers, cfg.n, cfg.m, args.ray_address) if args.workers \
        else None
    try:
        return _learn(args, cfg, settings, ckpt, rng, begun, win_rates)
    finally:
        if win_rates is not None:
            win_rates.close()


Begun = tuple[np.ndarray | None, int, list[dict[str, float]], float, Average | None]


def _start(args: argparse.Namespace, settings: dict[str, Any], ckpt: Path,
           rng: np.random.Generator) -> Begun | None:
    """Where the run starts (weights, update, statistics, seconds so far; the generator set
    from a checkpoint), or None after saying on stderr why it cannot."""
    start, history, before = 0, [], 0.0
    w0: np.ndarray | None = None
    average: Average | None = None
    if args.resume:
        if not ckpt.exists():
            print(f"no checkpoint {ckpt} to resume", file=sys.stderr)
            return None
        c = load_checkpoint(ckpt)
        if c["settings"] != settings:
            diff = {k: (c["settings"].get(k), settings.get(k))
                    for k in sorted(c["settings"].keys() | settings.keys())
                    if c["settings"].get(k) != settings.get(k)}
            print(f"{ckpt} is a run with other settings (checkpoint, now): {diff}",
                  file=sys.stderr)
            return None
        w0, start, history, before = c["w"], c["t"] + 1, c["history"], c["seconds"]
        average = c["average"]  # a mean the run keeps goes on, --average-from or not
        if average is not None and args.average_from > average.first:
            print(f"{ckpt} keeps the mean from update {average.first}: --average-from "
                  f"{args.average_from} cannot start it later", file=sys.stderr)
            return None
        rng.bit_generator.state = c["rng"]
        log.info("learn_resume", checkpoint=str(ckpt), update=start)
    elif ckpt.exists():
        print(f"{ckpt} exists: --resume to continue that run, or remove it", file=sys.stderr)
        return None
    elif args.init:
        w0, _, _ = load_weights(args.init)
    elif args.prior_score:
        w0 = np.zeros(len(blokus_features(BlokusPosition(BlokusState()))))
        w0[feature_index(0, None, own=True)] = args.prior_score
        w0[feature_index(0, None, own=False)] = -args.prior_score
    if average is None and args.average_from:
        w = np.zeros(len(blokus_features(BlokusPosition(BlokusState())))) if w0 is None else w0
        average = Average(np.zeros_like(w), max(args.average_from, start + 1), 0)
    return w0, start, history, before, average


def _learn(args: argparse.Namespace, cfg: SelectiveConfig, settings: dict[str, Any],
           ckpt: Path, rng: np.random.Generator, begun: Begun,
           win_rates: RayWinRates | None) -> int:
    w0, start, history, before, average = begun
    learner = SelectiveLearner(blokus_features, cfg,
                               simulate=None if args.python else selective_simulate,
                               make_eval=BlokusEval, win_rates=win_rates)
    t0 = time.monotonic()
    limit = args.minutes * 60.0
    last: dict[str, Any] = {"average": average}

    def meta(t: int) -> dict[str, Any]:
        return {"n": cfg.n, "m": cfg.m, "k": cfg.k, "alpha": cfg.alpha, "updates": t + 1,
                "of_updates": cfg.updates, "positions": cfg.positions,
                "selfplay_n": cfg.selfplay_n, "seed": args.seed, "features": len(last["w"]),
                "init": args.init or f"prior {args.prior_score}",
                "seconds": round(before + time.monotonic() - t0, 1),
                "command": command(args),
                "date": datetime.date.today().isoformat(),
                "simulations": "python" if args.python else "compiled"}

    def write(t: int) -> None:
        save_checkpoint(ckpt, t, last["w"], last["history"], last["rng_state"], settings,
                        before + time.monotonic() - t0, last["average"])
        save_weights(args.out, last["w"], cfg.k, meta(t))
        avg: Average | None = last["average"]
        if avg is not None and avg.n:
            save_weights(average_path(args.out), avg.mean(), cfg.k,
                         {**meta(t), "averaged": [avg.first, avg.first + avg.n - 1]})

    def on_update(t: int, w: np.ndarray, hist: list[dict[str, float]]) -> None:
        avg: Average | None = last["average"]
        if avg is not None and t + 1 >= avg.first:
            avg = avg.add(w)
        # one update of `last`: a SIGTERM between two would leave a mixed state
        last.update(t=t, w=w, history=hist, rng_state=_frozen(rng), average=avg)
        if (t + 1) % max(1, args.checkpoint_every) == 0:
            write(t)

    def progress(t: int, stats: dict[str, float]) -> None:
        log.info("learn_update", update=t + 1, of=cfg.updates, eps=round(stats["eps"], 3),
                 positions=int(stats["positions"]), mse=round(stats["mse"], 4),
                 mean_r=round(stats["mean_r"], 3),
                 seconds=round(before + time.monotonic() - t0, 1))

    def on_term(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, on_term)
    interrupted = False
    try:
        learner.learn(BlokusPosition(BlokusState()), rng, w0=w0, progress=progress, start=start,
                      history=history, on_update=on_update,
                      should_stop=(lambda: time.monotonic() - t0 > limit) if limit else None)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGTERM, old)
    if "t" in last:
        write(last["t"])
        log.info("learn_stopped" if interrupted else "learn_done", out=args.out,
                 checkpoint=str(ckpt), **meta(last["t"]))
    elif start >= cfg.updates:
        log.info("learn_done", out=args.out, updates=start, note="nothing left to run")
    return 130 if interrupted else 0


def command(args: argparse.Namespace) -> str:
    """The command line that makes this run (every setting spelled out)."""
    parts = ["corvid", "blokus", "learn", "--out", str(args.out)]
    for k in RUN_KEYS:
        v = getattr(args, k)
        if k == "python":
            parts += ["--python"] if v else []
        elif v is not None:
            parts += ["--" + k.replace("_", "-"), str(v)]
    if args.workers:
        parts += ["--workers", str(args.workers)]
    if args.average_from:
        parts += ["--average-from", str(args.average_from)]
    return shlex.join(parts)


def _frozen(rng: np.random.Generator) -> np.random.Generator:
    """A copy of the generator as it is now (the checkpoint's random state)."""
    g = np.random.default_rng()
    g.bit_generator.state = rng.bit_generator.state
    return g
