"""Daihinmin strength pooled over several runs: the ``--out`` files of
``bench/daihinmin_strength.py`` read together, nothing played.

    python bench/daihinmin_pool.py RUN-1.out RUN-301.out RUN-601.out [--json]
    python bench/daihinmin_pool.py NEW-*.out --against OLD-*.out [--json]

A figure over thousands of games comes from many runs (each on its own ``--seed``, so that two
machines or two nights can share the work); this pools their games. The runs must be of one
line-up (the same specs in the same order); a match (a chunk's seed) met twice is an error,
since its games would count twice.

The report: for each player of the line-up its points per game; for the first player, its
difference from each other player, game by game (the same deals); and with ``--against``,
the first player of these runs against the first player of the runs given there, per game
played on the same seed (game ``i`` of the match of seed ``s`` in both), pooled over every
seed the two sets share: what a setting changes, measured on the same deals. Intervals are
95 %, by batch means over blocks of ``--block`` consecutive games of a match (default 10, as
``daihinmin_strength.py``: the ranks, and so the exchange, carry over from game to game).

``after`` gives, for each player and each of its results (5 points for first down to 1 for
last), how often it came and the mean points of its next game in the same match: where a
player gains or loses against another, by the hand the exchange gave it.

With ``--json`` the last line is ``{"files", "games", "players": [{"name", "spec",
"points_per_game", "ci95", "games"}], "diffs": [{"players", "names", "mean", "ci95"}],
"after": {name: {"5": [count, mean next], ...}}, "against"?: {"files", "spec", "games",
"mean", "ci95"}}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import _common  # noqa: F401  (the repository on sys.path)
from daihinmin_strength import Run, against, label_of, read_runs

from servers.arena.stats import batch_mean_ci95


def interval(runs: list[list[float]], block: int, lo: float, hi: float) -> dict[str, Any]:
    m, (a, b) = batch_mean_ci95(runs, block, lo, hi)
    return {"mean": round(m, 4), "ci95": [round(a, 4), round(b, 4)]}


def after(matches: Run, p: int) -> dict[str, list[float]]:
    """Player p's results over the matches: for each result, its count and the mean result of
    the games that followed one in the same match (a match's last game has none)."""
    nxt: dict[int, list[int]] = {}
    for games in matches.values():
        for g, h in zip(games, games[1:], strict=False):
            nxt.setdefault(g[p], []).append(h[p])
    return {str(r): [len(v), round(sum(v) / len(v), 4)]
            for r, v in sorted(nxt.items(), reverse=True)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", metavar="FILE",
                    help="--out files of daihinmin_strength.py runs of one line-up")
    ap.add_argument("--against", nargs="+", default=[], metavar="FILE",
                    help="--out files of runs on the same seeds to compare the first "
                    "player with")
    ap.add_argument("--block", type=int, default=10, metavar="N",
                    help="intervals by batch means over N consecutive games of a match "
                    "(default 10; 1: per game)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.block < 1:
        ap.error(f"--block {args.block}: give N >= 1")
    specs, matches = read_runs(args.files)
    runs = [matches[s] for s in sorted(matches)]
    games = sum(len(r) for r in runs)
    names = [label_of(s) or f"p{p}:{s}" for p, s in enumerate(specs)]
    players = []
    for p, spec in enumerate(specs):
        fig = interval([[float(g[p]) for g in r] for r in runs], args.block, 1.0, 5.0)
        players.append({"name": names[p], "spec": spec,
                        "points_per_game": fig["mean"], "ci95": fig["ci95"], "games": games})
    diffs = [{"players": [0, p], "names": [names[0], names[p]],
              **interval([[float(g[0] - g[p]) for g in r] for r in runs], args.block,
                         -4.0, 4.0)} for p in range(1, len(specs))]
    figures: dict[str, Any] = {"files": list(args.files), "games": games, "players": players,
                               "diffs": diffs,
                               "after": {names[p]: after(matches, p)
                                         for p in range(len(specs))}}
    print(f"Daihinmin strength pooled: {games} games in {len(runs)} matches from "
          f"{len(args.files)} file(s)")
    width = max(len(n) for n in names)
    print(f"{'player':<{width}}  {'pts/game':>8}  95% CI")
    for r in players:
        print(f"{r['name']:<{width}}  {r['points_per_game']:>8.3f}  [{r['ci95'][0]:.3f}, "
              f"{r['ci95'][1]:.3f}]")
    for d in diffs:
        print(f"{d['names'][0]} - {d['names'][1]}: {d['mean']:+.3f} "
              f"[{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}] points per game")
    print("the next game's mean points after each result (count):")
    for name, rows in figures["after"].items():
        print(f"  {name:<{width}}  " + "  ".join(f"after {r}: {m:.2f} ({n})"
                                               for r, (n, m) in rows.items()))
    if args.against:
        their_specs, theirs = read_runs(args.against)
        a = figures["against"] = {"files": list(args.against), "spec": their_specs[0],
                                  **against(matches, theirs, args.block)}
        print(f"{names[0]} against the first player of --against ({their_specs[0]}), "
              f"{a['games']} games on the same seeds: {a['mean']:+.3f} "
              f"[{a['ci95'][0]:+.3f}, {a['ci95'][1]:+.3f}] points per game")
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
