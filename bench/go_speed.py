"""Go playout speed: playouts per second on one core from the empty board.

    python bench/go_speed.py [--size 9] [--playouts 20000] [--search-playouts 3000]
                             [--python-tree] [--set KEY=VALUE ...] [--pachi CMD]
                             [--records DIR] [--json]

Rates are per second of this process's CPU time (the one-core figure on a shared machine)
and per wall-clock second. Runs the batched kernel (one numba call for all playouts) with
the full policy (the default: MoGo-like with capture anywhere, policy 2), the MoGo-like one
without capture anywhere (policy 1) and the light policy (uniform random, no own-eye
filling, policy 0), after a warm-up call. Then the whole engine's search: one `corvid gtp`
move with its default settings (UCT, RAVE, priors, grandfather, full playouts with last good
reply) from the empty board, as playouts per CPU second and CPU milliseconds per move: the
tree's costs included, this is what a time limit buys; ``search_ratio`` is the search rate
over the full policy's kernel rate (1.0: the tree costs nothing). ``--python-tree``
measures the engine with the Python reference tree (search.uct, ``compiled=false``) instead
of the compiled one;
``--set`` measures the engine with other `corvid gtp` settings (``--set lgrf=0``, ``--set
learned_priors=true``, ...), the same as ``corvid gtp --set``.
The same search with the knowledge taken out (``BARE``: the heuristic priors without ladder
reading, no large patterns, policy 2 without nakade) is the bare tree's rate: what the
knowledge costs is the ratio of the two. ``--pachi CMD`` runs a Pachi command line (its own
``-t =N`` sets its playouts, e.g. ``--pachi "sh -c 'cd DIR && exec ./pachi -t =3000
threads=1'"``) for one GTP ``genmove`` from the same empty board and reads its rate from
its own report (``mcts ... (N games/s``: playouts per second of its search, one thread).
``--json``: ``playouts_per_s`` is the full policy, ``engine_policy_playouts_per_s`` the
engine's own (``corvid gtp``'s ``playout_policy``, 6: with the low-liberty and nakade rules,
batched the same way, without last good reply); ``search_playouts_per_s``,
``search_ms_per_move`` and ``search_ratio`` the engine's search;
``bare_search_playouts_per_s`` the bare tree's; ``pachi_playouts_per_s`` Pachi's (with
``--pachi``). ``--records DIR`` adds the engine's search rate over middle-game positions
(after moves 15, 30 and 45 of the first 20 SGF records in DIR, ``--search-playouts`` each):
``middle_search_playouts_per_s``, where the tactical knowledge has groups to read.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
import time

import _common  # noqa: F401  (the repository on sys.path; stale numba caches dropped)
import numpy as np

from clients.gtp.config import GtpConfig
from games.go import GoState
from knowledge.go.position import GoPosition, PlayoutSettings


def measure_search(size: int, playouts: int, seed: int, compiled: bool = True,
                   repeats: int = 3, settings: list[str] | None = None) -> tuple[float, float]:
    """(playouts per CPU second, CPU ms per move) of the engine's search from the empty
    board with `corvid gtp`'s defaults (and ``settings``, key=value); the best of
    ``repeats`` searches after a warm-up."""
    from clients.gtp.config import load_gtp_config
    from clients.gtp.player import make_core, search_position
    from search.budget import Budget

    cfg = load_gtp_config(overrides=[f"compiled={str(compiled).lower()}",
                                 *(settings or [])])
    s = search_position(GoState(size, 7.0), cfg)
    rng = np.random.default_rng(seed)
    make_core(cfg, size).search(s.clone(), 0, Budget(playouts=50), rng)  # warm-up
    best = float("inf")
    for _ in range(repeats):
        core = make_core(cfg, size)
        c0 = time.process_time()
        core.search(s.clone(), 0, Budget(playouts=playouts), rng)
        best = min(best, time.process_time() - c0)
    return playouts / best, 1000.0 * best


def measure_records(directory: str, playouts: int, seed: int, settings: list[str],
                    records: int = 20, plies: tuple[int, ...] = (15, 30, 45)) -> tuple[float, int]:
    """(playouts per CPU second, positions) of the engine's search over the positions after
    ``plies`` moves of the first ``records`` SGF files of ``directory`` (sorted by name;
    a record shorter than a ply gives no position there)."""
    from pathlib import Path

    from clients.gtp.config import load_gtp_config
    from clients.gtp.player import make_core, search_position
    from games.go.sgf import from_sgf
    from search.budget import Budget

    files = sorted(Path(directory).glob("*.sgf"))[:records]
    if not files:
        raise SystemExit(f"go_speed: no .sgf records in {directory}")
    states = []
    for f in files:
        data = f.read_text()
        n = data.count(";B[") + data.count(";W[")
        states += [from_sgf(data, moves=k) for k in plies if k < n]
    if not states:
        raise SystemExit(f"go_speed: no record in {directory} reaches move {min(plies)}")
    cfg = load_gtp_config(overrides=settings)
    rng = np.random.default_rng(seed)
    first = search_position(states[0].clone(), cfg)
    make_core(cfg, first.size).search(first, first.to_move, Budget(playouts=50), rng)
    cpu = 0.0
    for st in states:
        s = search_position(st.clone(), cfg)
        core = make_core(cfg, s.size)
        c0 = time.process_time()
        core.search(s, s.to_move, Budget(playouts=playouts), rng)
        cpu += time.process_time() - c0
    return playouts * len(states) / cpu, len(states)


# the engine with its knowledge taken out: heuristic priors without ladder reading, no large
# patterns, the MoGo-like policy with capture anywhere (no low-liberty rule, no nakade)
BARE = ["learned_priors=false", "ladder_priors=false", "large_patterns=false",
        "playout_policy=2"]

_PACHI_RATE = re.compile(r"mcts\s+[\d.]+s\s+\((\d+)\s+games/s")


def pachi_rate(report: str) -> int:
    """Pachi's playouts per second from its report on stderr (the last ``genmove in ...,
    mcts S s (N games/s, ...)`` line); ValueError if there is none."""
    found = _PACHI_RATE.findall(report)
    if not found:
        raise ValueError("no 'mcts ... (N games/s' line in the engine's report")
    return int(found[-1])


def measure_pachi(command: str, size: int, timeout: float = 300.0) -> int:
    """Pachi's own count of playouts per second for one move from the empty board."""
    gtp = f"boardsize {size}\nclear_board\nkomi 7\ngenmove b\nquit\n"
    try:
        done = subprocess.run(shlex.split(command), input=gtp, capture_output=True, text=True,
                              timeout=timeout, check=False)
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        raise SystemExit(f"go_speed: {command!r} failed: {e}") from e
    if done.returncode != 0 or "= " not in done.stdout:
        raise SystemExit(f"go_speed: {command!r} failed (exit {done.returncode}): "
                         f"{done.stderr.strip()[-300:]}")
    try:
        return pachi_rate(done.stderr)
    except ValueError as e:
        raise SystemExit(f"go_speed: {command!r}: {e}") from e


def measure(size: int, playouts: int, policy: int, seed: int
            ) -> tuple[float, float, float, float]:
    """(playouts per CPU second, per wall second, mean black - white area, black win rate at
    komi 7.5). CPU time is the process's own: on a shared machine it is the one-core figure."""
    s = GoPosition(GoState(size, 7.5))
    rng = np.random.default_rng(seed)
    s.playout_scores(rng, 10, policy=policy)  # warm-up (compile / load the cache)
    c0, t0 = time.process_time(), time.perf_counter()
    scores, _ = s.playout_scores(rng, playouts, policy=policy)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    return (playouts / cpu, playouts / wall, float(np.mean(scores)),
            float(np.mean(scores - 7.5 > 0)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--playouts", type=int, default=20000)
    ap.add_argument("--search-playouts", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--python-tree", action="store_true",
                    help="the engine with search.uct (compiled=false)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a corvid gtp setting of the engine's search (repeatable)")
    ap.add_argument("--pachi", metavar="CMD", default="",
                    help="also Pachi's rate: its command line, with its playouts (-t =N); "
                    "default none")
    ap.add_argument("--records", metavar="DIR", default="",
                    help="also the engine's search rate over middle-game positions: after "
                    "moves 15, 30 and 45 of the first 20 SGF records in DIR (such as a "
                    "go_strength run's sgf/ directory); default none")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    engine_policy = GtpConfig().playout_policy
    engine = measure(args.size, args.playouts, engine_policy, args.seed)
    full = measure(args.size, args.playouts, PlayoutSettings().policy, args.seed)
    local = measure(args.size, args.playouts, 1, args.seed)
    light = measure(args.size, args.playouts, 0, args.seed)
    print(f"Go {args.size}x{args.size}, empty board, komi 7.5, {args.playouts} playouts each")
    print(f"{'policy':<10} {'playouts/cpu s':>14} {'playouts/wall s':>15} {'mean B-W':>9} "
          f"{'B wins':>7}")
    for name, (pps, wps, mean, bw) in ((f"engine ({engine_policy})", engine), ("full", full),
                                       ("local", local), ("light", light)):
        print(f"{name:<10} {pps:>14.0f} {wps:>15.0f} {mean:>9.2f} {bw:>7.3f}")
    sps, ms = measure_search(args.size, args.search_playouts, args.seed,
                             compiled=not args.python_tree, settings=args.set)
    bare, bare_ms = measure_search(args.size, args.search_playouts, args.seed,
                                   compiled=not args.python_tree, settings=args.set + BARE)
    tree = "Python" if args.python_tree else "compiled"
    extra = "".join(f", {kv}" for kv in args.set)
    print(f"engine search (corvid gtp defaults{extra}, {tree} tree, {args.search_playouts} "
          f"playouts from the empty board): {sps:.0f} playouts/cpu s, {ms:.0f} cpu ms per move, "
          f"{sps / full[0]:.2f} of the kernel's rate")
    print(f"bare tree ({', '.join(BARE)}): {bare:.0f} playouts/cpu s, {bare_ms:.0f} cpu ms "
          f"per move; the knowledge leaves {sps / bare:.2f} of its rate")
    middle = None
    if args.records:
        middle, npos = measure_records(args.records, args.search_playouts, args.seed, args.set)
        print(f"engine search over {npos} middle-game positions of {args.records}: "
              f"{middle:.0f} playouts/cpu s")
    pachi = measure_pachi(args.pachi, args.size) if args.pachi else None
    if pachi is not None:
        print(f"Pachi ({args.pachi}), its own count: {pachi} playouts/s; the engine's search "
              f"is {sps / pachi:.2f} of it")
    if args.json:
        out: dict[str, float | int | None] = {
            "playouts_per_s": round(full[0]),
            "engine_policy_playouts_per_s": round(engine[0]),
            "local_playouts_per_s": round(local[0]),
            "light_playouts_per_s": round(light[0]),
            "search_playouts_per_s": round(sps),
            "search_ms_per_move": round(ms, 1),
            "search_ratio": round(sps / full[0], 3),
            "bare_search_playouts_per_s": round(bare),
            "middle_search_playouts_per_s": None if middle is None else round(middle),
            "pachi_playouts_per_s": pachi}
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
