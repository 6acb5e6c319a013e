"""``corvid blokus learn``: the best-of-n selective-simulation learner on Blokus Duo."""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import structlog

from clients.blokus.evaluation import BlokusEval, blokus_features
from games.blokus_duo import BlokusState
from search.selective import SelectiveConfig, SelectiveLearner, load_weights, save_weights

log = structlog.get_logger()


def fast_simulate() -> Any:
    """The game's compiled best-of-n simulation, when games.blokus_duo offers one."""
    try:
        from games.blokus_duo import features as F
    except ImportError:
        return None
    return getattr(F, "selective_simulate", None)


def learn_main(args: argparse.Namespace) -> int:
    cfg = SelectiveConfig(n=args.n, m=args.m, k=args.k, alpha=args.alpha,
                          updates=args.updates, positions=args.positions,
                          eps_start=args.eps_start, eps_end=args.eps_end,
                          selfplay_n=args.selfplay_n)
    rng = np.random.default_rng(args.seed)
    learner = SelectiveLearner(blokus_features, cfg, simulate=fast_simulate(),
                               make_eval=BlokusEval)
    w0 = None
    if args.init:
        w0, _, _ = load_weights(args.init)
    elif args.prior_score:
        from games.blokus_duo.features import feature_index

        w0 = np.zeros(len(blokus_features(BlokusState())))
        w0[feature_index(0, None, own=True)] = args.prior_score
        w0[feature_index(0, None, own=False)] = -args.prior_score
    t0 = time.monotonic()
    limit = args.minutes * 60.0

    def progress(t: int, stats: dict[str, float]) -> None:
        log.info("learn_update", update=t + 1, eps=round(stats["eps"], 3),
                 positions=int(stats["positions"]), mse=round(stats["mse"], 4),
                 mean_r=round(stats["mean_r"], 3),
                 seconds=round(time.monotonic() - t0, 1))

    res = learner.learn(BlokusState(), rng, w0=w0, progress=progress,
                        should_stop=(lambda: time.monotonic() - t0 > limit) if limit else None)
    meta = {"n": cfg.n, "m": cfg.m, "alpha": cfg.alpha, "updates": len(res.history),
            "positions": cfg.positions, "seed": args.seed,
            "features": len(res.weights), "init": args.init or f"prior {args.prior_score}",
            "seconds": round(time.monotonic() - t0, 1)}
    save_weights(args.out, res.weights, res.k, meta)
    log.info("learn_done", out=args.out, **meta)
    return 0
