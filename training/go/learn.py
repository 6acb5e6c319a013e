"""``corvid learn go learn``: Go weights files from recorded games.

The prior model rates every feature group of :mod:`knowledge.go.features` by MM
(:func:`search.learn.mm_fit`) on the contests of :mod:`training.go.dataset`, and the large
patterns that the moves played show at least ``large_min`` times in the training games (a
candidate takes its distance-3 pattern if listed, else its distance-2 pattern if listed: one
more group of the model). The playout
model is fitted the same way on what the playout policy sees (:func:`playout_view`): no
ladders, no empty-area or pass features, and only the distances of the 8-neighbourhood of
the last two moves; the mean γ of the other moves is its ``far`` scalar. The last
``test_share`` of the games (in file order) is held out to measure the prediction rate.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from knowledge.go import features as F
from knowledge.go.weights import MAXLEVEL, FeatureGammas, GoWeights, save_weights
from search.learn import mm_fit, mm_log_likelihood, mm_prediction_rate
from training.files import files_digest
from training.go.dataset import (
    FEATURES_VERSION,
    Contests,
    load_contests,
    sgf_files,
)

PLAYOUT_GROUPS = (F.G_PATTERN, F.G_CAPTURE, F.G_ESCAPE, F.G_ATARI, F.G_SELF_ATARI, F.G_DIST,
                  F.G_DIST2, F.G_LINE, F.G_EYE)


def playout_view(feats: np.ndarray) -> np.ndarray:
    """The features as the playout policy computes them: ladders read as not working
    (escape 3 -> 2, 6 -> 5; atari 3 -> 1, 4 -> 2), distances only 1 (d = 2) and 2 (d = 3),
    no empty-area or pass feature."""
    f = feats.copy()
    esc = f[:, F.G_ESCAPE]
    esc[esc == 3] = 2
    esc[esc == 6] = 5
    at = f[:, F.G_ATARI]
    at[at >= 3] -= 2
    for g in (F.G_DIST, F.G_DIST2):
        d = f[:, g]
        d[d > 2] = 0
    f[:, F.G_EMPTY_AREA] = 0
    f[:, F.G_PASS] = 0
    return f


def _lookup(table: np.ndarray, col: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index into the sorted ``table``, whether ``col``'s value is there) per row."""
    if not len(table):
        return np.zeros(len(col), dtype=np.int64), np.zeros(len(col), dtype=bool)
    i = np.minimum(np.searchsorted(table, col), len(table) - 1)
    return i, table[i] == col


def frequent_large(large: np.ndarray, minimum: int) -> np.ndarray:
    """The sorted large-pattern codes (either distance) that occur at least ``minimum`` times
    in ``large`` (the codes of the moves played); empty if ``minimum`` < 1."""
    if minimum < 1 or not len(large):
        return np.zeros(0, dtype=np.int64)
    codes, counts = np.unique(large[large >= 0], return_counts=True)
    return codes[counts >= minimum].astype(np.int64)


@dataclass(frozen=True)
class FeatureIndex:
    """Feature ids for MM: group g's level L is ``offsets[g] + L - 1``; the patterns
    ``codes`` (sorted canonical codes) follow from ``n_levels``, then the ``large`` patterns
    (sorted codes; empty: no large-pattern group)."""

    groups: tuple[int, ...]
    offsets: dict[int, int]
    n_levels: int
    codes: np.ndarray
    large: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @staticmethod
    def build(feats: np.ndarray, groups: tuple[int, ...],
              large: np.ndarray | None = None) -> FeatureIndex:
        offsets = {}
        n = 0
        for g in groups:
            if g != F.G_PATTERN:
                offsets[g] = n
                n += F.LEVELS[g]
        pat = feats[:, F.G_PATTERN]
        codes = np.unique(pat[pat >= 0]).astype(np.int32)
        return FeatureIndex(groups, offsets, n, codes,
                            np.zeros(0, dtype=np.int64) if large is None else large)

    @property
    def n_features(self) -> int:
        return self.n_levels + len(self.codes) + len(self.large)

    def teams(self, feats: np.ndarray, large: np.ndarray | None = None) -> np.ndarray:
        """(K, len(groups) [+ 1]) feature ids, -1 for none (and for patterns not in
        ``codes``); with large patterns, the last column is the candidate's distance-3
        pattern if listed, else its distance-2 pattern (``large``: the candidates' codes)."""
        cols = len(self.groups) + (1 if len(self.large) else 0)
        out = np.full((len(feats), cols), -1, dtype=np.int64)
        for j, g in enumerate(self.groups):
            col = feats[:, g]
            if g == F.G_PATTERN:
                i, ok = _lookup(self.codes, col)
                out[:, j] = np.where(ok & (col >= 0), self.n_levels + i, -1)
            else:
                out[:, j] = np.where(col > 0, self.offsets[g] + col - 1, -1)
        if len(self.large):
            if large is None:
                raise ValueError("this model has large patterns: give the candidates' codes")
            base = self.n_levels + len(self.codes)
            for k in (1, 0):  # the distance-3 pattern wins
                i, ok = _lookup(self.large, large[:, k])
                out[:, -1] = np.where(ok, base + i, out[:, -1])
        return out

    def gammas(self, gamma: np.ndarray, scalars: np.ndarray | None = None) -> FeatureGammas:
        levels = np.ones((F.NG, MAXLEVEL + 1))
        for g, off in self.offsets.items():
            levels[g, 1:F.LEVELS[g] + 1] = gamma[off:off + F.LEVELS[g]]
        base = self.n_levels + len(self.codes)
        return FeatureGammas(levels, self.codes, gamma[self.n_levels:base].copy(),
                             np.ones(1) if scalars is None else scalars,
                             self.large.copy(), gamma[base:].copy())


@dataclass
class Fit:
    index: FeatureIndex
    gamma: np.ndarray
    figures: dict[str, float]


def fit_model(train: Contests, test: Contests, view: Callable[[np.ndarray], np.ndarray],
              groups: tuple[int, ...], iterations: int, prior: float,
              log: Callable[[str], None], large_min: int = 0) -> Fit:
    ftr = view(train.feats)
    large = frequent_large(train.large[train.chosen], large_min)
    if large_min > 0:
        log(f"  {len(large)} large patterns played at least {large_min} times")
    index = FeatureIndex.build(ftr, groups, large)
    ttr = index.teams(ftr, train.large)
    tte = index.teams(view(test.feats), test.large) if test.positions else None

    def report(it: int, g: np.ndarray) -> None:
        msg = f"  iteration {it + 1}: train log-likelihood {mm_log_likelihood(ttr, train.starts, train.chosen, g):.4f}"  # noqa: E501
        if tte is not None:
            msg += f", test prediction rate {mm_prediction_rate(tte, test.starts, test.chosen, g):.4f}"  # noqa: E501
        log(msg)

    gamma = mm_fit(ttr, train.starts, train.chosen, index.n_features, iterations=iterations,
                   prior=prior, on_iteration=report)
    figures = {
        "train_positions": float(train.positions),
        "train_log_likelihood": mm_log_likelihood(ttr, train.starts, train.chosen, gamma),
        "train_prediction_rate": mm_prediction_rate(ttr, train.starts, train.chosen, gamma),
    }
    if large_min > 0:
        figures["large_patterns"] = float(len(large))
    if tte is not None:
        figures.update({
            "test_positions": float(test.positions),
            "test_log_likelihood": mm_log_likelihood(tte, test.starts, test.chosen, gamma),
            "test_prediction_rate": mm_prediction_rate(tte, test.starts, test.chosen, gamma),
        })
    return Fit(index, gamma, figures)


def far_gamma(contests: Contests, fit: Fit) -> float:
    """Mean strength (playout model) of the non-pass candidates that are not in the
    8-neighbourhood of the last two moves."""
    f = playout_view(contests.feats)
    far = (f[:, F.G_DIST] == 0) & (f[:, F.G_DIST2] == 0) & (f[:, F.G_PATTERN] >= 0)
    teams = fit.index.teams(f[far])
    g1 = np.append(fit.gamma, 1.0)
    return float(np.mean(np.prod(g1[teams], axis=1))) if far.any() else 1.0


def learn_weights(dirs: list[Path], out: Path, *, iterations: int = 30, prior: float = 1.0,
                  test_share: float = 0.1, player: str | None = None, large_min: int = 3,
                  drop: tuple[str, ...] = (),
                  command: str = "", log: Callable[[str], None] = print) -> GoWeights:
    """Fit both models on the games in ``dirs`` (the moves of every side, or of the side
    named ``player``) and write the weights file ``out``; the prior model with the large
    patterns played at least ``large_min`` times (0: none)."""
    files = [f for d in dirs for f in sgf_files(d)]
    if not files:
        raise ValueError(f"no .sgf games in {', '.join(map(str, dirs))}")
    parts = [load_contests(sgf_files(d), d / "contests.npz", player) for d in dirs]
    contests = _concat(parts)
    if not contests.positions:
        named = f" of a player named {player!r} (SGF PB/PW)" if player else ""
        raise ValueError(f"no moves{named} to learn in {len(files)} games")
    n_games = int(contests.game.max()) + 1
    cut = n_games - int(round(test_share * n_games))
    train = contests.subset(contests.game < cut)
    test = contests.subset(contests.game >= cut)
    log(f"{len(files)} games, {contests.positions} positions "
        f"({train.positions} to train, {test.positions} held out)")
    log("prior model (all features):")
    unknown = set(drop) - set(F.GROUP_NAMES[1:])
    if unknown:
        raise ValueError(f"no feature group {', '.join(sorted(unknown))} (the groups: "
                         f"{', '.join(F.GROUP_NAMES[1:])})")
    groups = tuple(g for g in range(F.NG) if F.GROUP_NAMES[g] not in drop)
    prior_fit = fit_model(train, test, lambda f: f, groups, iterations, prior, log, large_min)
    log("playout model:")
    playout_fit = fit_model(train, test, playout_view, PLAYOUT_GROUPS, iterations, prior, log)
    far = far_gamma(train, playout_fit)
    manifest: dict[str, Any] = {
        "data": {"games": len(files), "directories": [str(d) for d in dirs],
                 "digest": files_digest(files), "positions": contests.positions,
                 "player": player},
        "command": command,
        "seed": None,  # MM is deterministic
        "date": datetime.date.today().isoformat(),
        "features_version": FEATURES_VERSION,
        "iterations": iterations,
        "prior": prior,
        "test_share": test_share,
        "large_min": large_min,
        "dropped_groups": sorted(drop),
        "prior_model": prior_fit.figures,
        "playout_model": {**playout_fit.figures, "far_gamma": far},
    }
    weights = GoWeights(prior_fit.index.gammas(prior_fit.gamma),
                        playout_fit.index.gammas(playout_fit.gamma, np.array([far])),
                        manifest, str(out))
    save_weights(out, weights)
    return weights


def _concat(parts: list[Contests]) -> Contests:
    if len(parts) == 1:
        return parts[0]
    feats, starts, chosen, game, large = [], [np.zeros(1, dtype=np.int64)], [], [], []
    k = 0
    g = 0
    for c in parts:
        feats.append(c.feats)
        large.append(c.large)
        starts.append(c.starts[1:] + k)
        chosen.append(c.chosen + k)
        game.append(c.game + g)
        k += len(c.feats)
        g += int(c.game.max()) + 1 if c.positions else 0
    return Contests(np.concatenate(feats), np.concatenate(starts), np.concatenate(chosen),
                    np.concatenate(game), np.concatenate(large))
