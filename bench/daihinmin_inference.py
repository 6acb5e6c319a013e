"""How well corvid reads the hidden hands: the inference against uniform dealing, on logs
that record every dealt hand (tndhms logs: the official server's, or the mock server's).

    python bench/daihinmin_inference.py [LOG ...] [--every 3] [--worlds 64] [--json]

Every game of each log is followed from each player's seat, as a client would follow it;
after every ``--every``-th play, for every card that player cannot see, the probability that
each opponent holds it is estimated from the worlds of a dealer:

* ``uniform``: unseen cards dealt at random (counts, cards given, tribute bound);
* ``inference``: the Metropolis chain of knowledge.daihinmin.inference with the shipped policy as
  every opponent's model;
* ``adapted``: the same with each opponent's model fitted to its revealed hands in the
  earlier games of the log (what ``opponents=adapt`` does in a match).
* ``rule``: ``adapted`` with the rule player mixed into each model, its weight fitted to the
  opponent's revealed decisions (what ``rule_model=true`` does).

With ``--exchange-prior`` the chain's dealers weigh worlds by the exchanges the player did
not see, as the client does with ``exchange_prior=true``.

Scores per card (lower is better for Brier, higher for log-probability): the log-probability
of the true holder (frequencies smoothed by 1/2 world) and the Brier score
Σ_p (P(p) − [p holds it])². Reported overall and by the share of the game played.
With ``--json`` the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (the repository on sys.path; stale numba caches dropped)
import numpy as np

from games.daihinmin import rules as R
from games.daihinmin.cards import cards_of
from games.daihinmin.replay import GameRecord, parse_log
from knowledge.daihinmin.inference import HandSampler
from knowledge.daihinmin.learned import load_policy
from knowledge.daihinmin.opponents import OpponentModels
from training.daihinmin.dataset import start_state

DEFAULT_LOGS = [Path(__file__).resolve().parents[1] / "tests" / "data" / "uecda" /
                "server-log-100games.log"]
STAGES = ((0.0, 0.33, "early"), (0.33, 0.66, "middle"), (0.66, 1.01, "late"))


def holder_probs(worlds: np.ndarray, cards: list[int], holders: list[int]) -> np.ndarray:
    """P(player p holds card c) per card (rows) from n worlds (n x 5 hands), smoothed by half
    a world spread over the possible ``holders`` (the opponents who hold cards)."""
    n = len(worlds)
    freq = np.array([[np.count_nonzero((worlds[:, p] >> c) & 1) for p in range(R.NP)]
                     for c in cards], dtype=np.float64)
    prior = np.zeros(R.NP)
    prior[holders] = 0.5 / len(holders)
    return (freq + prior) / (n + 0.5)  # type: ignore[no-any-return]


def score(probs: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """(mean log P(true holder), mean Brier) over the rows (cards)."""
    p_true = probs[np.arange(len(truth)), truth]
    onehot = np.zeros_like(probs)
    onehot[np.arange(len(truth)), truth] = 1.0
    logp = float(np.mean(np.log(np.maximum(p_true, 1e-9))))
    brier = float(np.mean(np.sum((probs - onehot) ** 2, axis=1)))
    return logp, brier


def follow(games: list[GameRecord], theta: np.ndarray, every: int, n_worlds: int,
           seed: int, dealers: list[str], thin: int = 4, burn: int = 200,
           exchange_prior: bool = False) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    models = {me: OpponentModels(theta) for me in range(R.NP)}
    fixed = np.tile(theta, (R.NP, 1))
    sums: dict[str, dict[str, list[float]]] = {d: {s[2]: [] for s in STAGES} | {"all": []}
                                              for d in dealers}
    briers: dict[str, dict[str, list[float]]] = {d: {s[2]: [] for s in STAGES} | {"all": []}
                                                for d in dealers}
    for g in games:
        samplers = {(d, me): HandSampler(burn=burn, thin=thin, exchange_prior=exchange_prior)
                    for d in dealers if d != "uniform" for me in range(R.NP)}
        st = start_state(g)
        total = len(g.plays)
        for i, (_, m) in enumerate(g.plays):
            if st.is_terminal():
                break
            if i % every == every - 1:
                frac = i / max(total, 1)
                stage = next(name for lo, hi, name in STAGES if lo <= frac < hi)
                for me in range(R.NP):
                    info = st.info_set(me)
                    cards = cards_of(info.unseen())
                    if not cards:
                        continue
                    truth = np.array([next(q for q in range(R.NP) if st.hand(q) >> c & 1)
                                      for c in cards])
                    for d in dealers:
                        if d == "uniform":
                            worlds = np.array([info.deal_hands(rng) for _ in range(n_worlds)],
                                              dtype=np.int64)
                        else:
                            W = models[me].weights() if d in ("adapted", "rule") else fixed
                            rule_w = models[me].rule_weights(me) if d == "rule" else None
                            worlds = samplers[(d, me)].worlds(info, W, n_worlds, rng, rule_w)
                        holders = [q for q in range(R.NP) if q != me and info.counts[q]]
                        lp, br = score(holder_probs(worlds, cards, holders), truth)
                        for key in (stage, "all"):
                            sums[d][key].append(lp)
                            briers[d][key].append(br)
            if m != 0 and not st.accepts(m):
                m = 0
            st.play(m)
        if {"adapted", "rule"} & set(dealers) and st.is_terminal() and not st.st[R.STALE]:
            for me in range(R.NP):
                models[me].learn_game(list(st.history), list(st.order), list(st.finish),
                                      st.hand(me), me)
    out: dict[str, Any] = {}
    for d in dealers:
        out[d] = {k: {"logp": round(float(np.mean(v)), 4) if v else math.nan,
                      "brier": round(float(np.mean(briers[d][k])), 4) if v else math.nan,
                      "n": len(v)}
                  for k, v in sums[d].items()}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="*", metavar="LOG", help="tndhms game logs (default: the "
                    "official server's 100-game log in tests/data/uecda)")
    ap.add_argument("--every", type=int, default=3, help="measure after every N-th play")
    ap.add_argument("--worlds", type=int, default=64, help="worlds per estimate")
    ap.add_argument("--games", type=int, default=0, help="at most this many games per log")
    ap.add_argument("--weights", default="", help="policy weights (default: bundled)")
    ap.add_argument("--dealers", default="uniform,inference,adapted,rule")
    ap.add_argument("--thin", type=int, default=16, help="chain steps between worlds")
    ap.add_argument("--burn", type=int, default=200, help="chain steps before the first")
    ap.add_argument("--exchange-prior", action="store_true",
                    help="the chain weighs worlds by the exchanges a player did not see")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    theta = load_policy(args.weights or None)
    dealers = args.dealers.split(",")
    results = {}
    t0 = time.perf_counter()
    for path in [Path(p) for p in args.logs] or DEFAULT_LOGS:
        games = parse_log(path.read_text()).games
        if args.games:
            games = games[:args.games]
        res = follow(games, theta, args.every, args.worlds, args.seed, dealers, args.thin,
                     args.burn, args.exchange_prior)
        results[path.name] = {"games": len(games), **res}
        print(f"{path.name}: {len(games)} games")
        print(f"  {'dealer':<10} {'stage':<7} {'log P(holder)':>14} {'Brier':>7} {'n':>6}")
        for d in dealers:
            for stage, r in res[d].items():
                print(f"  {d:<10} {stage:<7} {r['logp']:>14.3f} {r['brier']:>7.3f} "
                      f"{r['n']:>6}")
    elapsed = time.perf_counter() - t0
    print(f"{elapsed:.0f} s")
    if args.json:
        print(json.dumps({"logs": results, "every": args.every, "worlds": args.worlds,
                          "elapsed_s": round(elapsed, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
