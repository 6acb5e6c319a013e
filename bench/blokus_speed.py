"""Blokus Duo speed: random playouts per second and full legal-move generation time.

Usage: python bench/blokus_speed.py [--playouts N] [--search-playouts N] [--python-tree]
                                    [--priors knowledge|size] [--set KEY=VALUE ...]
                                    [--plies N] [--json]

* playouts/s: uniform random playouts from the empty board, one core, in one numba call
  (``playout_batch``); also the weighted policy, and single ``playout()`` calls (with their
  Python overhead, as UCT makes them).
* search playouts/s: one `corvid blokus --set core=uct` move from the empty board (or after
  ``--plies`` random plies) with the client's defaults (UCT, RAVE, the learned priors,
  uniform playouts) and the ``--set`` settings, tree included, on the compiled tree
  (``--python-tree``: search.uct; ``--priors size``: the first release's size priors, less
  work per node); ``search_ratio`` is that rate over the uniform kernel's.
* features µs: the evaluation feature vector of a position (Osaki and Kotani's learner;
  numba, with Python overhead).
* movegen µs: one full legal-move generation from the board alone (``k_generate``, attach
  points then placements), averaged over the positions of random games; also the incremental
  list (``legal_placements``, with Python overhead).
Times are CPU time of this process (``time.process_time``); batch rates are the best of
three runs.
"""

from __future__ import annotations

import argparse
import json
import time

import _common  # noqa: F401  (the repository on sys.path; stale numba caches dropped)
import numpy as np

from games.blokus_duo import BlokusState
from games.blokus_duo import kernels as K
from knowledge.blokus_duo.features import features
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.settings import BlokusConfig


def batch_rate(policy: str, n: int) -> float:
    s = BlokusPosition(BlokusState(first=0), BlokusConfig(playout=policy))
    rng = np.random.default_rng(1)
    s.playout_batch(s.legal_moves()[:2], rng, 0)  # compile / warm up
    best = 0.0
    for _ in range(3):  # best of three: the machine is shared
        # the first move of each playout is drawn at random too: pass a random legal move
        moves = rng.choice(s.legal_moves(), size=max(n // 3, 1)).tolist()
        t = time.process_time()
        s.playout_batch(moves, rng, 0)
        best = max(best, len(moves) / (time.process_time() - t))
    return best


def single_rate(n: int) -> float:
    s = BlokusPosition(BlokusState(first=0), BlokusConfig(playout="uniform"))
    rng = np.random.default_rng(2)
    s.playout(rng, 0)
    t = time.process_time()
    for _ in range(n):
        s.playout(rng, 0)
    return n / (time.process_time() - t)


def search_rate(playouts: int, compiled: bool = True, repeats: int = 3,
                priors: str = "", settings: list[str] | None = None, plies: int = 0) -> float:
    """Playouts per CPU second of the client's UCT core, one move from the empty board or
    after ``plies`` random plies (``priors``: the game's priors setting instead of the
    client's; ``settings``: more player settings, key=value)."""
    from clients.blokus.config import load_player_config
    from clients.blokus.player import Core
    from search.budget import Budget

    cfg = load_player_config(overrides=[  # a search, not the book
        "core=uct", f"compiled={str(compiled).lower()}", "book=none",
        *([f"prior_kind={priors}"] if priors else []), *(settings or [])])
    s = BlokusState(first=0)
    rng = np.random.default_rng(4)
    for _ in range(plies):
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves)))])
    Core(cfg).search(s.clone(), Budget(playouts=20), rng)  # compile / load
    best = 0.0
    for _ in range(repeats):
        core = Core(cfg)
        t = time.process_time()
        core.search(s.clone(), Budget(playouts=playouts), rng)
        best = max(best, playouts / (time.process_time() - t))
    return best


def movegen(games: int) -> tuple[float, float, int, float]:
    rng = np.random.default_rng(3)
    positions = []
    for _ in range(games):
        s = BlokusState(first=0)
        p = BlokusPosition(s, BlokusConfig(playout="uniform")).playout(rng, 0)
        for m in p.moves.tolist():
            positions.append(s.clone())
            s.play(m)
    g = positions[0].geo
    mark = np.zeros(g.num_placements, dtype=np.int32)
    out = np.empty(g.num_placements, dtype=np.int32)
    reps = 20
    total = 0
    K.k_generate(0, positions[0].board, positions[0].used, g.start, g.size, g.cells,
                 g.ncells, g.bcp_start, g.bcp, mark, out)
    t = time.process_time()
    for _ in range(reps):
        for s in positions:
            total += K.k_generate(s.to_move_colour, s.board, s.used, g.start, g.size,
                                  g.cells, g.ncells, g.bcp_start, g.bcp, mark, out)
    scratch = (time.process_time() - t) / (reps * len(positions)) * 1e6
    t = time.process_time()
    for _ in range(reps):
        for s in positions:
            s.legal_placements()
    inc = (time.process_time() - t) / (reps * len(positions)) * 1e6
    features(positions[0], 0)
    t = time.process_time()
    for s in positions:
        features(s, s.to_move_colour)
    feat = (time.process_time() - t) / len(positions) * 1e6
    return scratch, inc, total // (reps * len(positions)), feat


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--playouts", type=int, default=5000)
    ap.add_argument("--search-playouts", type=int, default=3000)
    ap.add_argument("--python-tree", action="store_true",
                    help="the UCT core on search.uct instead of the compiled tree")
    ap.add_argument("--priors", choices=["knowledge", "size"], default="",
                    help="the game's priors in the search (default: the client's)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a player setting for the search, as `corvid blokus client --set` "
                         "(repeatable; default: the client's settings)")
    ap.add_argument("--plies", type=int, default=0,
                    help="random plies played before the searched position (default 0: "
                         "the empty board)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    uni = batch_rate("uniform", args.playouts)
    search = search_rate(args.search_playouts, compiled=not args.python_tree,
                         priors=args.priors, settings=args.set, plies=args.plies)
    wei = batch_rate("weighted", args.playouts)
    single = single_rate(max(args.playouts // 5, 100))
    scratch, inc, mean_moves, feat = movegen(20)
    rows = [
        ("uniform playouts/s (batch kernel)", f"{uni:,.0f}"),
        ("weighted playouts/s (batch kernel)", f"{wei:,.0f}"),
        ("uniform playouts/s (position.playout)", f"{single:,.0f}"),
        (f"search playouts/s (uct, {'Python' if args.python_tree else 'compiled'} tree)",
         f"{search:,.0f}"),
        ("search ratio (search / uniform kernel)", f"{search / uni:.2f}"),
        ("full movegen µs (k_generate)", f"{scratch:.1f}"),
        ("legal_placements µs (incremental)", f"{inc:.1f}"),
        ("mean legal moves per position", f"{mean_moves}"),
        ("features µs (features)", f"{feat:.1f}"),
    ]
    w = max(len(r[0]) for r in rows)
    for name, val in rows:
        print(f"{name:<{w}}  {val:>10}")
    if args.json:
        print(json.dumps({
            "playouts_per_s": round(uni),
            "search_playouts_per_s": round(search),
            "search_ratio": round(search / uni, 3),
            "movegen_us": round(scratch, 2),
            "weighted_playouts_per_s": round(wei),
            "single_playouts_per_s": round(single),
            "incremental_legal_us": round(inc, 2),
            "features_us": round(feat, 2),
        }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
