"""How well corvid's move models predict each opponent: the log-likelihood of every player's
actual moves under the shared learned model, under the model adapted to that player online,
and under uniform choice, on the game logs of a match (tndhms logs: the official server's or
the mock server's, where every hand is known at each game's end).

    python bench/daihinmin_opponents.py [LOG ...] [--from-game N] [--l2 L] [--weights FILE[+FILE]]
                                        [--select] [--json]

Each log is one match, replayed in order. Before each game, the adapted model of player p is
what ``knowledge.daihinmin.opponents.OpponentModels`` holds after the earlier games of the
match (its own update, ``learn_game``, with its prior, as a client with ``opponents=adapt``
runs it at the end of every game). For each decision of p (two candidates or more; forced
moves say nothing), the log-probability of the move p played under:

* ``shared``: the default policy (``knowledge/daihinmin/data/policy-v1-selfplay.json``, or
  ``--weights``; with several, A+B, the first);
* ``adapted``: p's model in use: its fitted softmax (with several priors, or with
  ``--select`` as a client with ``opponents=select`` runs it, the candidate chosen for p);
* ``rule``: the adapted softmax with the rule player mixed in at p's fitted weight (what
  ``rule_model=true`` gives the inference);
* ``uniform``: 1 / the number of candidates.

Reported per player: decisions, mean log-likelihood per decision for each model, and the
share of decisions where the move played is the model's first choice (for ``uniform``: the
share a random pick would hit, the mean of 1 / candidates); then the same pooled over every
log by the players' names, weighted by their decisions (the seat the arena puts before the
name of its own clients, ``p2`` of ``p2corvid``, left out: the three corvids of a line-up
pool as ``corvid``). ``--from-game N`` scores only the games from the N-th of each match on
(the models still learn from all of them). With ``--json`` the last line is one JSON object,
the pooled figures under ``by_name``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (the repository on sys.path; stale numba caches dropped)
import numpy as np

from games.daihinmin import rules as R
from games.daihinmin.kernels import gen_moves_list
from games.daihinmin.replay import GameRecord, parse_log
from games.daihinmin.state import GameState
from knowledge.daihinmin.learned import decision_rows, load_policies
from knowledge.daihinmin.opponents import OpponentModels
from knowledge.daihinmin.policies import heuristic_move
from training.daihinmin.dataset import plays

DEFAULT_LOGS = [Path(__file__).resolve().parents[1] / "tests" / "data" / "uecda" /
                "server-log-100games.log"]
MODELS = ("shared", "adapted", "rule", "uniform")


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()  # type: ignore[no-any-return]


class Tally:
    """Sums of log-likelihoods and first-choice hits of one player's decisions."""

    def __init__(self) -> None:
        self.n = 0
        self.logp = dict.fromkeys(MODELS, 0.0)
        self.first = dict.fromkeys(MODELS, 0.0)
        self.candidate = 0  # the model in use at the match's end: OpponentModels.candidates

    def add(self, probs: dict[str, np.ndarray], chosen: int) -> None:
        self.n += 1
        for k, p in probs.items():
            self.logp[k] += math.log(max(float(p[chosen]), 1e-300))
            # uniform: the chance of a random pick; else whether the played move is the mode
            self.first[k] += 1.0 / len(p) if k == "uniform" else float(np.argmax(p) == chosen)

    def summary(self) -> dict[str, Any]:
        n = max(self.n, 1)
        return {"decisions": self.n,
                "loglik": {k: round(v / n, 4) for k, v in self.logp.items()},
                "first": {k: round(v / n, 4) for k, v in self.first.items()},
                "candidate": self.candidate}


def score_match(games: list[GameRecord], priors: np.ndarray, from_game: int = 0,
                l2: float | None = None, select: bool = False) -> list[Tally]:
    """Replay one match's games in order; each player's tally of its decisions (in the games
    from ``from_game`` on) under the shared, adapted, rule-mixed and uniform models; ``l2``
    is the adapted models' prior strength (None: the client's); ``priors``: one θ or several
    (rows; the first is the shared model); ``select``: the priors as they are are candidates
    too."""
    theta = np.atleast_2d(priors)[0]
    # A client learns every opponent's decisions from the revealed hands, the same rows
    # whichever seat it sits in: the model of p is the one seen from seat 0 (seat 1 for p = 0).
    kw: dict[str, Any] = {"fixed": select} | ({} if l2 is None else {"l2": l2})
    observers = {0: OpponentModels(priors, **kw), 1: OpponentModels(priors, **kw)}
    tallies = [Tally() for _ in range(R.NP)]
    for gi, g in enumerate(games):
        st: GameState | None = None
        for st, p, m in plays(g):  # the state as each play found it, played on after
            got = decision_rows(st, p, m) if gi >= from_game else None
            if got is not None:
                X, chosen = got
                seen_from = 1 if p == 0 else 0
                model = observers[seen_from]
                adapted = softmax(X @ model.weights()[p])
                w = float(model.rule_weights(seen_from)[p])
                rule = (1.0 - w) * adapted
                rule_move = heuristic_move(st.hand(p), st.table, int(st.revolution),
                                           int(st.lock))
                cands = gen_moves_list(st.hand(p), st.table, int(st.revolution),
                                       int(st.lock))  # decision_rows' candidates, in order
                if rule_move in cands:
                    rule[cands.index(rule_move)] += w
                tallies[p].add({"shared": softmax(X @ theta), "adapted": adapted,
                                "rule": rule, "uniform": np.full(len(X), 1.0 / len(X))},
                               chosen)
        if st is not None and st.is_terminal() and not st.st[R.STALE]:
            for me, model in observers.items():
                model.learn_game(list(st.history), list(st.order), list(st.finish),
                                 st.hand(me), me)
    for p, tally in enumerate(tallies):
        tally.candidate = int(observers[1 if p == 0 else 0].chosen[p])
    return tallies


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="*", metavar="LOG", help="tndhms game logs, one match each "
                    "(default: the official server's 100-game log in tests/data/uecda)")
    ap.add_argument("--games", type=int, default=0, help="at most this many games per log")
    ap.add_argument("--from-game", type=int, default=0, metavar="N",
                    help="score the games from the N-th on (default 0: all)")
    ap.add_argument("--weights", default="", help="the shared policy, a file or a bundled "
                    "name (default: v1-selfplay); several, A+B: the priors each "
                    "player's model is chosen from, the first the shared one")
    ap.add_argument("--l2", type=float, default=None, help="the adapted models' Gaussian "
                    "prior strength (default: the client's, OpponentModels')")
    ap.add_argument("--select", action="store_true", help="the priors unadapted are "
                    "candidates too (opponents=select)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        priors = load_policies(args.weights)
    except ValueError as e:
        ap.error(f"--weights: {e}")
    results: dict[str, Any] = {}
    t0 = time.perf_counter()
    for path in [Path(p) for p in args.logs] or DEFAULT_LOGS:
        log = parse_log(path.read_text())
        games = log.games[:args.games] if args.games else log.games
        names = log.player_names()
        tallies = score_match(games, priors, args.from_game, args.l2, args.select)
        players = [{"player": p, "name": names[p], **t.summary()} for p, t in enumerate(tallies)]
        results[path.name] = {"games": len(games), "players": players}
        print(f"{path.name}: {len(games)} games, scored from game {args.from_game}")
        print(f"  {'player':<10} {'decisions':>9}  " +
              "  ".join(f"{'LL ' + k:>11}" for k in MODELS) + "  " +
              "  ".join(f"{'top ' + k:>11}" for k in MODELS) + "  model")
        for r in players:
            print(f"  {r['player']} {r['name']:<8} {r['decisions']:>9}  " +
                  "  ".join(f"{r['loglik'][k]:>11.3f}" for k in MODELS) + "  " +
                  "  ".join(f"{r['first'][k]:>11.3f}" for k in MODELS) + f"  {r['candidate']:>5}")
    pooled = by_name(results)
    print("all logs, by name:")
    for name, r in pooled.items():
        print(f"  {name:<10} {r['decisions']:>9}  " +
              "  ".join(f"{r['loglik'][k]:>11.3f}" for k in MODELS) + "  " +
              "  ".join(f"{r['first'][k]:>11.3f}" for k in MODELS))
    elapsed = time.perf_counter() - t0
    print(f"{elapsed:.0f} s")
    if args.json:
        print(json.dumps({"logs": results, "by_name": pooled, "from_game": args.from_game,
                          "l2": args.l2, "weights": args.weights, "select": args.select,
                          "elapsed_s": round(elapsed, 1)}))
    return 0


def by_name(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each player's figures pooled over the logs by name (the arena's seat prefix left
    out), weighted by decisions."""
    sums: dict[str, dict[str, Any]] = {}
    for log in results.values():
        for r in log["players"]:
            name = re.sub(r"^p[0-4](?=[a-z])", "", r["name"])
            n = r["decisions"]
            acc = sums.setdefault(name, {"decisions": 0, "loglik": dict.fromkeys(MODELS, 0.0),
                                         "first": dict.fromkeys(MODELS, 0.0)})
            acc["decisions"] += n
            for key in ("loglik", "first"):
                for k in MODELS:
                    acc[key][k] += n * r[key][k]
    for acc in sums.values():
        n = max(acc["decisions"], 1)
        for key in ("loglik", "first"):
            acc[key] = {k: round(v / n, 4) for k, v in acc[key].items()}
    return sums


if __name__ == "__main__":
    sys.exit(main())
