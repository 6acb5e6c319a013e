"""The learned move models of Blokus Duo: the strengths γ of a set of placement features
fitted by minorization-maximization (Coulom 2007, :func:`search.learn.mm_fit`) to the
placements chosen in recorded games. Two sets: the priors' move features
(:mod:`knowledge.blokus_duo.moves`, a move-weights file for ``--set prior_kind=learned
--set move_weights=FILE``) and the playouts' cheaper ones
(:mod:`knowledge.blokus_duo.playout_features`, a playout-weights file for ``--set
playout=learned --set playout_weights=FILE``).

Every position of a game where the mover had at least two legal placements is a contest
among them, the placement played its winner; the last ``test_share`` of the games (in file
order) is held out, and on it the prediction rate (the played placement ranked first) and the
mean log-likelihood are reported beside those of a uniform choice (and, for the priors, of
the hand-made knowledge priors, their value as the rank).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from games.blokus_duo.state import BlokusState
from knowledge.blokus_duo import moves as MV
from knowledge.blokus_duo import playout_features as PF
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.settings import BlokusConfig
from search.learn import (
    mm_fit,
    mm_log_likelihood,
    mm_prediction_rate,
    prediction_rate,
    select_contests,
)
from servers.blokus.sgf import read_moves
from training.files import files_digest

HANDMADE = BlokusConfig(priors="knowledge")  # the priors' baseline the report compares with


Weights = MV.MoveWeights | PF.PlayoutWeights


@dataclass(frozen=True)
class FeatureSet:
    """A set of placement features to fit: its candidates' feature ids, its size, whether
    the hand-made priors are the baseline of its report, and its weights file."""

    name: str
    team: Callable[[BlokusState, list[int]], np.ndarray]
    n_features: int
    handmade: bool
    weights: Callable[[np.ndarray, dict[str, Any]], Weights]


PRIORS = FeatureSet("priors", MV.move_features, MV.NUM_FEATURES, True, MV.MoveWeights)
PLAYOUTS = FeatureSet("playouts", PF.playout_team, PF.PF_FEATURES, False, PF.PlayoutWeights)
FEATURE_SETS = {fs.name: fs for fs in (PRIORS, PLAYOUTS)}


@dataclass
class Contests:
    """The positions of a set of games as MM contests (``search.learn``'s layout): the
    candidates' ``teams`` (K, NUM_GROUPS), contest i's rows ``starts[i]:starts[i + 1]``, the
    winner's row ``chosen[i]``, the game of each contest and each candidate's hand-made prior
    value."""

    teams: np.ndarray
    starts: np.ndarray
    chosen: np.ndarray
    game: np.ndarray
    handmade: np.ndarray

    @property
    def positions(self) -> int:
        return len(self.chosen)

    def subset(self, keep: np.ndarray) -> Contests:
        """The contests where ``keep`` (a bool per contest) holds."""
        idx, rows, starts = select_contests(self.starts, keep)
        chosen = starts[:-1] + (self.chosen[idx] - self.starts[idx])
        return Contests(self.teams[rows], starts, chosen, self.game[idx], self.handmade[rows])


def record_files(directory: Path) -> list[Path]:
    """The Blokus records (``*.blksgf``) under ``directory``, in name order."""
    return sorted(directory.rglob("*.blksgf"))


def game_contests(text: str, fs: FeatureSet = PRIORS
                  ) -> tuple[list[np.ndarray], list[int], list[np.ndarray]]:
    """Each position of a record where the mover had two or more legal placements: the
    candidates' features, the row of the placement played and the hand-made prior values
    (zeros when ``fs`` is not compared with them)."""
    _, moves = read_moves(text)
    teams: list[np.ndarray] = []
    chosen: list[int] = []
    values: list[np.ndarray] = []
    if not moves:
        return teams, chosen, values
    state = BlokusState(first=moves[0][0])
    for colour, move in moves:
        state.pass_to(colour)
        legal = state.legal_placements()
        if move not in legal:
            raise ValueError(f"{state.code(move)} is not legal for player {colour + 1} at "
                             f"ply {len(state.history) + 1}")
        if len(legal) >= 2:
            teams.append(fs.team(state, legal).astype(np.int16))
            chosen.append(legal.index(move))
            values.append(BlokusPosition(state, HANDMADE).priors().values if fs.handmade
                          else np.zeros(len(legal)))
        state.play(move)
    return teams, chosen, values


def build_contests(files: list[Path], log: Callable[[str], None] = print,
                   fs: FeatureSet = PRIORS) -> Contests:
    teams: list[np.ndarray] = []
    chosen: list[int] = []
    game: list[int] = []
    values: list[np.ndarray] = []
    starts = [0]
    for g, path in enumerate(files):
        try:
            t, c, v = game_contests(path.read_text(), fs)
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
        for ti, ci, vi in zip(t, c, v, strict=True):
            chosen.append(starts[-1] + ci)
            starts.append(starts[-1] + len(ti))
            teams.append(ti)
            values.append(vi)
            game.append(g)
        if (g + 1) % 200 == 0:
            log(f"  {g + 1}/{len(files)} games read")
    if not teams:
        raise ValueError(f"no positions with a choice in {len(files)} games")
    return Contests(np.concatenate(teams).astype(np.int64), np.asarray(starts, np.int64),
                    np.asarray(chosen, np.int64), np.asarray(game, np.int64),
                    np.concatenate(values))


def figures(c: Contests, gamma: np.ndarray, handmade: bool = True) -> dict[str, float]:
    """The learned (and the hand-made priors') prediction rates, and the log-likelihoods of
    the learned model and of a uniform choice, on the contests ``c``."""
    out = {
        "positions": float(c.positions),
        "prediction_rate": mm_prediction_rate(c.teams, c.starts, c.chosen, gamma),
        "log_likelihood": mm_log_likelihood(c.teams, c.starts, c.chosen, gamma),
        "uniform_prediction_rate": float(np.mean(1.0 / np.diff(c.starts))),
        "uniform_log_likelihood": float(np.mean(-np.log(np.diff(c.starts)))),
    }
    if handmade:
        out["handmade_prediction_rate"] = prediction_rate(c.handmade, c.starts, c.chosen)
    return out


def learn_weights(fs: FeatureSet, dirs: list[Path], out: Path, *, iterations: int = 30,
                  prior: float = 1.0, test_share: float = 0.1, command: str = "",
                  log: Callable[[str], None] = print) -> Weights:
    """Fit the strengths of ``fs`` to the games under ``dirs`` and write them, with their
    manifest, to ``out``."""
    files = [f for d in dirs for f in record_files(d)]
    if not files:
        raise ValueError(f"no .blksgf records under {', '.join(map(str, dirs))}")
    log(f"reading {len(files)} games")
    contests = build_contests(files, log, fs)
    n_games = len(files)
    cut = n_games - int(round(test_share * n_games))
    train = contests.subset(contests.game < cut)
    test = contests.subset(contests.game >= cut)
    log(f"{contests.positions} positions ({train.positions} to train, {test.positions} held "
        f"out), {len(contests.teams)} candidates")

    def report(it: int, g: np.ndarray) -> None:
        msg = (f"  iteration {it + 1}: train log-likelihood "
               f"{mm_log_likelihood(train.teams, train.starts, train.chosen, g):.4f}")
        if test.positions:
            msg += (", test prediction rate "
                    f"{mm_prediction_rate(test.teams, test.starts, test.chosen, g):.4f}")
        log(msg)

    gamma = mm_fit(train.teams, train.starts, train.chosen, fs.n_features,
                   iterations=iterations, prior=prior, on_iteration=report)
    manifest: dict[str, Any] = {
        "data": {"games": n_games, "directories": [str(d) for d in dirs],
                 "digest": files_digest(files), "positions": contests.positions},
        "command": command,
        "seed": None,  # MM is deterministic
        "date": datetime.date.today().isoformat(),
        "iterations": iterations,
        "prior": prior,
        "test_share": test_share,
        "train": figures(train, gamma, fs.handmade),
    }
    if test.positions:
        manifest["test"] = figures(test, gamma, fs.handmade)
    weights = fs.weights(gamma, manifest)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    weights.save(tmp)
    tmp.replace(out)
    return weights
