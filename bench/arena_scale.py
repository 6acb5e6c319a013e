"""How the arena scales: games per second for short games (low budgets) with the in-process
backend (one task at a time), a local Ray with 1 CPU and a local Ray with 2 CPUs.

    python bench/arena_scale.py --game uecda|gtp|blokus [--games N] [--chunk K]
                                [--repeat R] [--mode all|inprocess|ray1|ray2] [--json]

Each measurement is one arena run (records in memory) of ``--games`` games in tasks of
``--chunk`` games, timed from the first task's start to the last game's end; a local Ray is
started (and warmed up: one task per CPU) before its clock starts and shut down after.
The modes run in turn, ``--repeat`` rounds (in-process, ray1, ray2, in-process, ...), and
each figure is the median over the rounds; the load average is printed beside every run,
since the machine may be shared, and so are the cores the whole machine kept busy during it
(from /proc/stat: a task of several processes — a server and its clients — can keep more
than one core busy even on a Ray with 1 CPU, which bounds what a second CPU can add). The
games:

* uecda: ``corvid:playouts=200`` and four ``baseline`` clients (five processes per task);
* gtp: ``corvid:playouts=50`` against ``corvid:playouts=50,seed=2`` on 9x9;
* blokus: ``corvid:core=greedy`` against the host's ``biggest`` at 1 s per move.

The last line with ``--json``: ``{"inprocess_games_per_s", "ray1_games_per_s",
"ray2_games_per_s", "speedup_2v1", "busy_cores": {mode: median}, ...}`` (a mode not run is
null).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

from _common import emit_json, print_table  # also puts the repository on sys.path

from clients.logs import setup_logging
from servers.arena import run
from servers.arena.backends import start_ray

GAMES: dict[str, dict[str, Any]] = {
    "uecda": {"players": ["corvid:playouts=200", "baseline", "baseline", "baseline",
                          "baseline"], "games": 40, "chunk": 10, "options": {}},
    "gtp": {"players": ["corvid:playouts=50", "corvid:playouts=50,seed=2"], "games": 8,
            "chunk": 2, "options": {"size": 9, "komi": 7.0}},
    "blokus": {"players": ["corvid:core=greedy", "biggest"], "games": 12, "chunk": 3,
               "options": {"timeout": 1.0}},
}
MODES = ("inprocess", "ray1", "ray2")


def load() -> float:
    return os.getloadavg()[0]


def cpu_times() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs so far (0, 0 where /proc/stat is missing)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


def _pause() -> None:
    time.sleep(0.5)  # a task on every CPU, so Ray's workers are up before the clock starts


def measure(game: str, mode: str, games: int, chunk: int, seed: int
            ) -> tuple[float, float, float]:
    """(games per second, load average before, cores busy during it) of one run in
    ``mode``."""
    g = GAMES[game]
    ray = None
    if mode != "inprocess":
        ray, _ = start_ray(cpus=int(mode[-1]))
        warm = ray.remote(num_cpus=1)(_pause)
        ray.get([warm.remote() for _ in range(int(mode[-1]))])
    before = load()
    busy0, total0 = cpu_times()
    try:
        t0 = time.perf_counter()
        res = run(game, g["players"], games=games, chunk=chunk, seed=seed,
                  options=g["options"], backend="inprocess" if ray is None else "ray")
        wall = time.perf_counter() - t0
        busy1, total1 = cpu_times()
    finally:
        if ray is not None:
            ray.shutdown()
    if len(res.ok) != games:
        raise SystemExit(f"arena_scale: {games - len(res.ok)} {game} games failed in {mode}")
    busy = (busy1 - busy0) / (total1 - total0) * (os.cpu_count() or 1) if total1 > total0 \
        else float("nan")
    return games / wall, before, busy


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=sorted(GAMES), required=True)
    ap.add_argument("--games", type=int, default=None, help="games per run (default: the "
                    "game's, see above)")
    ap.add_argument("--chunk", type=int, default=None, help="games per task")
    ap.add_argument("--repeat", type=int, default=3, help="rounds of the modes (default 3)")
    ap.add_argument("--mode", choices=["all", *MODES], default="all")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    setup_logging("warning")
    g = GAMES[args.game]
    games, chunk = args.games or g["games"], args.chunk or g["chunk"]
    modes = MODES if args.mode == "all" else (args.mode,)
    rates: dict[str, list[float]] = {m: [] for m in modes}
    cores: dict[str, list[float]] = {m: [] for m in modes}
    print(f"arena_scale {args.game}: {games} games in tasks of {chunk}, players "
          f"{', '.join(g['players'])}; {args.repeat} round(s); {os.cpu_count()} cores",
          flush=True)
    for r in range(args.repeat):
        for m in modes:
            rate, before, busy = measure(args.game, m, games, chunk, args.seed + r)
            rates[m].append(rate)
            cores[m].append(busy)
            print(f"round {r + 1} {m:<9} {rate:7.3f} games/s  {busy:4.2f} cores busy  (load "
                  f"average before {before:.2f}, after {load():.2f})", flush=True)
    med = {m: statistics.median(v) for m, v in rates.items()}
    figures: dict[str, Any] = {f"{m}_games_per_s": round(med[m], 4) if m in med else None
                               for m in MODES}
    figures["speedup_2v1"] = round(med["ray2"] / med["ray1"], 3) \
        if "ray1" in med and "ray2" in med else None
    busy_med = {m: statistics.median(v) for m, v in cores.items()}
    figures["busy_cores"] = {m: round(v, 2) for m, v in busy_med.items()}
    figures.update(game=args.game, games=games, chunk=chunk, repeat=args.repeat,
                   runs={m: [round(x, 4) for x in v] for m, v in rates.items()})
    print_table(f"arena_scale {args.game} (medians)",
                [(f"{m} games/s", med[m]) for m in modes] +
                [(f"{m} cores busy", busy_med[m]) for m in modes] +
                ([("speedup ray2 / ray1", figures["speedup_2v1"])]
                 if figures["speedup_2v1"] is not None else []))
    if args.json:
        emit_json(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
