"""Daihinmin strength: corvid against baseline players on the mock UECda server.

    python bench/daihinmin_strength.py --games 50 [--alpha 0.9] [--playouts 3000] [--json]
    python bench/daihinmin_strength.py --games 50 --alpha-table [--json]

Default: one corvid (flat Monte Carlo, UCB1-TUNED, the given α and playouts) against four
baselines. ``--alpha-table``: corvid α=0.9 and corvid α=1.0 against three baselines in the
same match. Prints points per game with 95% confidence intervals; with ``--json`` the last
line is ``{"players": [{"name", "points_per_game", "ci95": [lo, hi]}, ...]}`` (the arena's
format). Runs through ``corvid arena uecda`` machinery: one server, five client processes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clients.logs import setup_logging  # noqa: E402
from servers.arena.uecda import print_report, run_arena, run_parallel  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--alpha", type=float, default=0.9)
    ap.add_argument("--playouts", type=int, default=3000)
    ap.add_argument("--core", default="flat", choices=["flat", "uct"])
    ap.add_argument("--alpha-table", action="store_true",
                    help="corvid α=0.9 and α=1.0 against three baselines")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parallel", type=int, default=1,
                    help="independent matches at once (seeds S, S+1, ...)")
    ap.add_argument("--log", metavar="FILE", help="keep the server's game log")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    setup_logging("warning")

    def corvid(alpha: float) -> str:
        return f"corvid:core={args.core},playouts={args.playouts},alpha={alpha},seed={args.seed}"

    if args.alpha_table:
        specs = [corvid(0.9), corvid(1.0), "baseline", "baseline", "baseline"]
    else:
        specs = [corvid(args.alpha)] + ["baseline"] * 4
    progress = None
    try:
        from tqdm import tqdm

        bar = tqdm(total=args.games, file=sys.stderr, unit="game", disable=None)

        def progress(game: int, rec) -> None:  # type: ignore[no-untyped-def]
            bar.update(1)
    except ImportError:  # pragma: no cover
        bar = None
    t0 = time.perf_counter()
    try:
        if args.parallel > 1:
            res = run_parallel(specs, args.games, args.parallel, args.seed, timeout=120.0,
                               on_game=progress)
        else:
            res = run_arena(specs, args.games, args.seed, timeout=120.0, log=args.log,
                            on_game=progress)
    finally:
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - t0
    print(f"Daihinmin strength: {len(res.record.points)} games, seed {args.seed}, "
          f"{elapsed:.0f} s (baseline expectation: 3.0 points per game)")
    print_report(res)
    if args.json:
        print(json.dumps({"players": res.report(), "games": len(res.record.points),
                          "seed": res.record.seed, "elapsed_s": round(elapsed, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
