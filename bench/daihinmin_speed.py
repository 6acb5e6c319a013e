"""Daihinmin speed: uniform random playouts/s from fresh deals (one core), and the median wall
time of one decision of N playouts over a root (an info set with its playout settings) by the
flat core (FlatMC, alpha 0.9) or the information-set MCTS (``--core ismcts``), over many
positions.

    python bench/daihinmin_speed.py [--playouts 3000] [--positions 50] [--batch 16] [--json]
        [--policy uniform|heuristic|learned] [--deal uniform|inference] [--core flat|ismcts]

With ``--policy learned`` the playouts follow the bundled learned policy (and its playouts/s
is timed as well); with ``--deal inference`` each decision first draws its worlds from a
fresh Metropolis chain (burn-in included: the worst case of a client's first decision of a
game), timed apart as ``inference_ms``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import _common  # noqa: F401  (the repository on sys.path; stale numba caches dropped)
import numpy as np

from games.daihinmin import Match, MatchConfig
from knowledge.daihinmin.inference import HandSampler
from knowledge.daihinmin.learned import load_policy
from knowledge.daihinmin.playout import random_playouts_kernel, state_playout
from knowledge.daihinmin.policies import POLICY_HEURISTIC, POLICY_LEARNED, POLICY_UNIFORM
from knowledge.daihinmin.position import Root, Settings
from search.budget import Budget
from search.flat import FlatConfig, FlatMC
from search.ismcts import ISMCTS, ISMCTSConfig


def positions(n: int, seed: int):  # type: ignore[no-untyped-def]
    """n info sets of the player to move, at random points of random games, where the player
    has at least two legal moves (a real decision)."""
    m = Match(MatchConfig(seed=seed))
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        d = m.deal()
        for p in range(5):
            if d.to_give(p):
                d.give(p, 0)
        s = d.state()
        stop = int(rng.integers(0, 40))
        i = 0
        while not s.is_terminal():
            if i >= stop and len(s.legal_moves()) >= 2:
                out.append(s.info_set(s.to_move))
                break
            lm = s.legal_moves()
            s.play(lm[int(rng.integers(len(lm)))])
            i += 1
        while not s.is_terminal():
            lm = s.legal_moves()
            s.play(lm[int(rng.integers(len(lm)))])
        m.finish(s)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40000, help="random playouts to time")
    ap.add_argument("--playouts", type=int, default=3000, help="playouts per decision")
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--alpha", type=float, default=0.9)
    ap.add_argument("--policy", default="uniform", choices=["uniform", "heuristic", "learned"])
    ap.add_argument("--deal", default="uniform", choices=["uniform", "inference"])
    ap.add_argument("--core", default="flat", choices=["flat", "ismcts"],
                    help="the searching core of the decisions timed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    random_playouts_kernel(10, 1, POLICY_UNIFORM)  # compile / load the cache
    random_playouts_kernel(10, 1, POLICY_HEURISTIC)
    rows = []
    figures: dict[str, float] = {}
    chunks = 5  # the machine may be shared: time in chunks, report the total and best chunk
    for name, pol in (("uniform", POLICY_UNIFORM), ("heuristic", POLICY_HEURISTIC)):
        n = max(1, args.games // chunks)
        walls, cpus, plies = [], [], 0
        for c in range(chunks):
            w0, c0 = time.perf_counter(), time.process_time()
            plies += random_playouts_kernel(n, args.seed + c, pol)
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
        rows.append((f"{name} playouts/s (wall)", f"{n * chunks / sum(walls):,.0f}"))
        rows.append((f"{name} playouts/s (cpu)", f"{n * chunks / sum(cpus):,.0f}"))
        rows.append((f"{name} playouts/s (best chunk, cpu)", f"{n / min(cpus):,.0f}"))
        rows.append((f"{name} plies per game", f"{plies / (n * chunks):.1f}"))
        figures[f"{name}_playouts_per_s"] = n * chunks / sum(walls)
        figures[f"{name}_playouts_per_s_cpu"] = n * chunks / sum(cpus)
        figures[f"{name}_playouts_per_s_best_cpu"] = n / min(cpus)
    figures["playouts_per_s"] = figures["uniform_playouts_per_s"]
    W = np.tile(load_policy(), (5, 1))
    if args.policy == "learned":
        deals = [Match(MatchConfig(seed=args.seed + i)).deal().state() for i in range(200)]
        rng0 = np.random.default_rng(args.seed)
        state_playout(deals[0], rng0, 0, POLICY_LEARNED, W)
        w0, c0 = time.perf_counter(), time.process_time()
        plies = sum(len(state_playout(d, rng0, 0, POLICY_LEARNED, W).moves) for d in deals)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        rows.append(("learned playouts/s (wall)", f"{len(deals) / wall:,.0f}"))
        rows.append(("learned playouts/s (cpu)", f"{len(deals) / cpu:,.0f}"))
        rows.append(("learned plies per game", f"{plies / len(deals):.1f}"))
        figures["learned_playouts_per_s"] = len(deals) / wall
        figures["learned_playouts_per_s_cpu"] = len(deals) / cpu

    # the flat core discounts the evaluations itself; ISMCTS has its kernel discount them
    ismcts = args.core == "ismcts"
    settings = Settings(args.policy, W if args.policy == "learned" else None,
                        alpha=args.alpha if ismcts else 1.0)
    roots = [Root(i, settings) for i in positions(args.positions, args.seed)]
    core = (ISMCTS(ISMCTSConfig(batch=args.batch)) if ismcts
            else FlatMC(FlatConfig(alpha=args.alpha, batch=args.batch)))
    rng = np.random.default_rng(args.seed)
    core.search(roots[0], roots[0].seat, Budget(playouts=64), rng)  # warm up
    walls, cpus, arms, infer = [], [], [], []
    for root in roots:
        w0, c0 = time.perf_counter(), time.process_time()
        if args.deal == "inference":
            root = Root(root.info, settings, HandSampler().worlds(root.info, W, 64, rng))
            infer.append(time.perf_counter() - w0)
        r = core.search(root, root.seat, Budget(playouts=args.playouts), rng)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
        arms.append(len(r.moves))
    figures["decision_ms_3000" if args.playouts == 3000 else "decision_ms"] = (
        1000 * statistics.median(walls))
    figures["decision_ms_cpu"] = 1000 * statistics.median(cpus)
    rows.append((f"decision {args.playouts} playouts, median wall ms",
                 f"{1000 * statistics.median(walls):.1f}"))
    rows.append((f"decision {args.playouts} playouts, median cpu ms",
                 f"{1000 * statistics.median(cpus):.1f}"))
    rows.append(("decision arms, median", f"{statistics.median(arms):.0f}"))
    if infer:
        figures["inference_ms"] = 1000 * statistics.median(infer)
        rows.append(("inference (64 worlds, fresh chain), median wall ms",
                     f"{1000 * statistics.median(infer):.1f}"))
    rows.append(("core / policy / deal / batch / alpha",
                 f"{args.core} / {args.policy} / {args.deal} / {args.batch} / {args.alpha}"))
    w = max(len(a) for a, _ in rows)
    for a, b in rows:
        print(f"{a:<{w}}  {b:>12}")
    if args.json:
        print(json.dumps({k: round(v, 1) for k, v in figures.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
