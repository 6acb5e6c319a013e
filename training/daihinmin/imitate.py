"""Stage 3: the softmax playout policy fitted to the decisions of strong players.

θ maximises Σ log π_θ(move taken | candidates) − (l2/2)||θ||² (``search.learn.fit_softmax``)
over the decisions of the game logs (:mod:`.dataset`); the weights go to a JSON file with
their manifest (data, command, seed, date) and their fit on held-out decisions.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import numpy as np

from knowledge.daihinmin.features import FEATURES, N_DENSE, N_TABLE
from search.learn import fit_softmax, softmax_log_likelihood
from training.daihinmin.dataset import Decisions


def split(d: Decisions, holdout: float, seed: int) -> tuple[Decisions, Decisions]:
    rng = np.random.default_rng(seed)
    test = rng.random(len(d)) < holdout
    return d.subset(~test), d.subset(test)


def fit_report(theta: np.ndarray, d: Decisions) -> dict[str, float]:
    """Mean log-likelihood per decision, of the fitted policy and of a uniform choice, and
    the share of decisions whose move the policy ranks first."""
    if len(d) == 0:
        return {}
    z = d.X @ theta
    top = [int(np.argmax(z[a:b])) for a, b in zip(d.offsets[:-1], d.offsets[1:], strict=True)]
    return {
        "decisions": len(d),
        "log_likelihood": round(softmax_log_likelihood(theta, d.X, d.offsets, d.chosen)
                                / len(d), 4),
        "uniform_log_likelihood": round(float(-np.log(np.diff(d.offsets)).mean()), 4),
        "top1": round(float(np.mean(np.array(top) == d.chosen)), 4),
    }


def imitate(d: Decisions, l2: float, holdout: float, seed: int) -> tuple[np.ndarray,
                                                                         dict[str, Any]]:
    train, test = split(d, holdout, seed)
    theta = fit_softmax(train.X, train.offsets, train.chosen, l2=l2)
    return theta, {"train": fit_report(theta, train), "test": fit_report(theta, test)}


def write_weights(path: str | Path, theta: np.ndarray, manifest: dict[str, Any]) -> None:
    """The weights file: θ (of every feature, of the dense ones and the shape table, or of
    the dense ones only: the first ``len(theta)`` features) and its manifest."""
    if len(theta) not in (len(FEATURES), N_DENSE + N_TABLE, N_DENSE):
        raise ValueError(f"{len(theta)} weights: not a block boundary of the features")
    manifest = {"date": datetime.date.today().isoformat(), **manifest}
    Path(path).write_text(json.dumps({
        "features": list(FEATURES[:len(theta)]),
        "theta": [round(float(x), 5) for x in theta],
        "manifest": manifest,
    }, indent=1) + "\n")
