"""``corvid learn go balance``: simulation balancing of the learned playout policy (policy 3).

Starting from a weights file (``corvid learn go learn``), the playout part's strengths are tuned
by :func:`search.learn.simulation_balancing` (Silver and Tesauro 2009) so that the mean result of
policy-3 playouts from a position matches its target value V*, on positions sampled from the
games, for the player to move. V* is either the result of the recorded game from that position
(an unbiased, noisy estimate of the value under the recording engine's play), or, for UCT
balancing (Watanabe and Kaneko, "Realizing individuality in UCT with prior knowledge and
policy learning"), the value of the most visited move of a UCT search of the position by the
default engine. The prior part of the weights is kept. The mean squared error of the playouts'
value against the games' results on held-out positions is reported before and after.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from games.go import PASS, GoState
from games.go import board as K
from knowledge.go.balance import k_balance_playouts
from knowledge.go.patterns import canonical20
from knowledge.go.position import GoPosition
from knowledge.go.tactics import (
    G_ATARI,
    G_CAPTURE,
    G_DIST,
    G_DIST2,
    G_ESCAPE,
    G_EYE,
    G_LINE,
    G_SELF_ATARI,
    LEVELS,
    NG,
)
from knowledge.go.weights import MAXLEVEL, FeatureGammas, GoWeights, load_weights, save_weights
from search.learn import simulation_balancing
from training.go.dataset import replay, sgf_files
from training.go.label import LabelledPosition, labelling_config, read_labels, search_value

LEVEL_GROUPS = (G_CAPTURE, G_ESCAPE, G_ATARI, G_SELF_ATARI, G_DIST, G_DIST2,
                G_LINE, G_EYE)
PLAYOUT_LEVELS = {G_DIST: 2, G_DIST2: 2}  # the playout sees only levels 1-2 of these
TARGETS = ("result", "uct")  # V*(s): the recorded game's result, or a UCT search's value


@dataclass
class Position:
    """A position for the learners: a rules state without undo history, its kernel board,
    its komi, and the player to move (``to_move``: seat, 0 = black)."""

    state: GoState
    game: str = ""  # the game file it comes from
    move: int = 0  # moves played before it

    @property
    def board(self) -> np.ndarray:
        return self.state.board_array()

    @property
    def komi(self) -> float:
        return self.state.komi

    @property
    def to_move(self) -> int:
        return self.state.to_move


def game_positions(data: bytes, every: int, skip: int, game: str = ""
                   ) -> list[tuple[Position, float]]:
    """Every ``every``-th position from move ``skip`` up to the first pass of an SGF game
    (named ``game``), with the game's result for the player to move (1 win, 0 loss, 0.5
    jigo); none if the result is unknown."""
    from sgfmill import sgf

    root = sgf.Sgf_game.from_bytes(data).get_root()
    result = root.get_raw("RE").decode() if root.has_property("RE") else ""
    winner = {"B": 1, "W": 2}.get(result[:1])
    if winner is None and result != "0":
        return []
    s, history = replay(data)
    out = []
    for i, (colour, p) in enumerate(history):
        if p == PASS:
            break
        s.to_play = colour
        if i >= skip and (i - skip) % every == 0:
            target = 0.5 if winner is None else float(winner == colour)
            t = s.clone()
            t.forget_undo()
            out.append((Position(t, game, i), target))
        s.play_colour(colour, p)
    return out


def load_positions(dirs: list[Path], every: int = 4, skip: int = 6
                   ) -> list[tuple[Position, float]]:
    return [x for d in dirs for f in sgf_files(d)
            for x in game_positions(f.read_bytes(), every, skip, str(f))]


class PolicyParameters:
    """θ = log γ of the playout part of a weights file, and the tables the kernels read."""

    def __init__(self, playout: FeatureGammas) -> None:
        self.base = playout
        lidx = np.full((NG + 1, MAXLEVEL + 1), -1, dtype=np.int32)
        theta: list[float] = []
        for g in LEVEL_GROUPS:
            for lv in range(1, PLAYOUT_LEVELS.get(g, LEVELS[g]) + 1):
                lidx[g, lv] = len(theta)
                theta.append(float(np.log(playout.levels[g, lv])))
        self.n_levels = len(theta)
        lidx[NG, 0] = len(theta)
        theta.append(float(np.log(playout.scalars[0])))
        self.pattern0 = len(theta)
        self.theta0 = np.concatenate([theta, np.log(playout.gammas)])
        canon = canonical20()
        i = np.searchsorted(playout.codes, canon)
        i = np.minimum(i, max(len(playout.codes) - 1, 0))
        hit = (canon >= 0) & (playout.codes[i] == canon) if len(playout.codes) else canon < -1
        self.pidx = np.where(hit, self.pattern0 + i, -1).astype(np.int32)
        self.lidx = lidx
        self._key = b""
        self._tables: tuple[np.ndarray, np.ndarray] = (np.zeros(0), np.zeros(0))

    def gammas(self, theta: npt.NDArray[np.float64]) -> FeatureGammas:
        levels = np.ones((NG, MAXLEVEL + 1))
        for g in LEVEL_GROUPS:
            for lv in range(1, MAXLEVEL + 1):
                if self.lidx[g, lv] >= 0:
                    levels[g, lv] = np.exp(theta[self.lidx[g, lv]])
        return FeatureGammas(levels, self.base.codes, np.exp(theta[self.pattern0:]),
                             np.array([np.exp(theta[self.lidx[NG, 0]])]))

    def tables(self, theta: npt.NDArray[np.float64]) -> tuple[np.ndarray, np.ndarray]:
        """(ptab, plv) for θ (the last ones are kept)."""
        key = hashlib.sha1(theta.tobytes()).digest()
        if key != self._key:
            fg = self.gammas(theta)
            self._tables = (fg.pattern_table, fg.policy_levels)
            self._key = key
        return self._tables

    def sampler(self, sa_min: int = 2, max_moves_factor: int = 3,
                patterns: bool = True) -> Any:
        """The sampler of :func:`search.learn.simulation_balancing` (without ``patterns``
        the pattern strengths get no gradient: only the levels and the far moves' move)."""
        def sample(pos: Position, theta: npt.NDArray[np.float64], n: int, seat: int,
                   rng: np.random.Generator) -> tuple[Any, Any, Any]:
            ptab, plv = self.tables(theta)
            size = int(pos.board[K.META, K.M_SIZE])
            z = np.empty(n)
            grads = np.empty((n, len(theta)))
            steps = np.empty(n)
            seed = np.uint64(int(rng.integers(1, 2**62)))
            k_balance_playouts(pos.board, seed, n, ptab, plv, self.pidx, self.lidx, sa_min,
                               max_moves_factor * size * size, pos.komi, seat + 1, z, grads,
                               steps)
            if not patterns:
                grads[:, self.pattern0:] = 0.0
            return z, grads, steps

        return sample


def playout_mse(positions: list[tuple[Position, float]], policy: int, playouts: int,
                rng: np.random.Generator, weights: GoWeights | None = None) -> float:
    """Mean squared error of the mean result of ``playouts`` playouts of ``policy`` from each
    position (for the player to move) against its target."""
    err = 0.0
    for pos, target in positions:
        s = GoPosition(pos.state, weights=weights)
        scores, _ = s.playout_scores(rng, playouts, policy=policy)
        margin = scores - pos.komi
        black = float(np.mean(np.where(margin > 0, 1.0, np.where(margin < 0, 0.0, 0.5))))
        v = black if pos.to_move == 0 else 1.0 - black
        err += (v - target) ** 2
    return err / max(len(positions), 1)


def uct_targets(positions: list[tuple[Position, float]], playouts: int, cache: Path,
                log: Callable[[str], None] = print) -> list[tuple[Position, float]]:
    """The positions with UCT balancing's targets: each one's value, for the player to move,
    of the most visited root move of a search by the default engine
    (:func:`training.go.label.search_value`) with ``playouts`` playouts, seeded by the
    position's game and move. Each is appended to ``cache`` (a labels file of
    :mod:`training.go.label`) when found and read back from it by the next run, so an
    interrupted run resumes."""
    known = {(x.game, x.move): x.value for x in read_labels(cache)}
    todo = [p for p, _ in positions if (p.game, p.move) not in known]
    log(f"UCT targets: {len(positions) - len(todo)} in {cache}, searching {len(todo)} "
        f"at {playouts} playouts")
    cfg = labelling_config([])
    cache.parent.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(todo):
        rng = np.random.default_rng([zlib.crc32(Path(p.game).name.encode()), p.move])
        value, run = search_value(p.state.clone(), cfg, playouts, rng)
        rec = LabelledPosition(p.game, p.move, round(value, 5), run)
        with cache.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(rec.__dict__) + "\n")
        known[(p.game, p.move)] = rec.value
        if (i + 1) % 20 == 0:
            log(f"  {i + 1} of {len(todo)} searched")
    return [(p, known[(p.game, p.move)]) for p, _ in positions]


def balance_weights(weights_path: str, dirs: list[Path], out: Path, *, iterations: int = 1,
                    step: float = 1.0, m_playouts: int = 16, n_playouts: int = 16,
                    batch: int = 8, positions: int = 0, test_share: float = 0.1,
                    seed: int = 1, patterns: bool = True, target: str = "result",
                    target_playouts: int = 1000, command: str = "",
                    log: Callable[[str], None] = print) -> GoWeights:
    """Tune the playout part of the weights at ``weights_path`` by simulation balancing
    towards ``target``: ``result``, the game's result, or ``uct``, the value of a UCT search
    with ``target_playouts`` playouts (UCT balancing; the searches kept in OUT.uct-N.jsonl,
    N the playouts, beside ``out``); write them to ``out``."""
    if target not in TARGETS:
        raise ValueError(f"target {target!r}: one of {', '.join(TARGETS)}")
    base = load_weights(weights_path)
    rng = np.random.default_rng(seed)
    data = load_positions(dirs)
    cut = len(data) - int(round(test_share * len(data)))
    train, test = data[:cut], data[cut:]
    if positions:
        pick = rng.choice(len(train), size=min(positions, len(train)), replace=False)
        train = [train[i] for i in sorted(pick)]
    order = rng.permutation(len(train))
    train = [train[i] for i in order]
    log(f"{len(train)} training positions, {len(test)} held out")
    targets_file = out.with_name(f"{out.stem}.uct-{target_playouts}.jsonl")
    if target == "uct":
        train = uct_targets(train, target_playouts, targets_file, log)
    params = PolicyParameters(base.playout)
    mse0 = playout_mse(test, 3, 64, np.random.default_rng(seed), base) if test else float("nan")
    log(f"held-out MSE before: {mse0:.4f}")
    err = [0.0, 0]

    def progress(i: int, target: float, v_hat: float) -> None:
        err[0] += (target - v_hat) ** 2
        err[1] += 1
        if err[1] == 500:
            log(f"  position {i + 1}: running MSE {err[0] / err[1]:.4f}")
            err[0], err[1] = 0.0, 0

    theta = simulation_balancing(train, None, params.theta0, rng=rng, iterations=iterations,
                                 m_playouts=m_playouts, n_playouts=n_playouts, step=step,
                                 sampler=params.sampler(patterns=patterns), batch=batch,
                                 on_position=progress)
    playout = params.gammas(theta)
    tuned = GoWeights(base.prior, playout, {}, str(out))
    mse1 = playout_mse(test, 3, 64, np.random.default_rng(seed), tuned) if test else float("nan")
    log(f"held-out MSE after: {mse1:.4f}")
    manifest = dict(base.manifest)
    manifest["simulation_balancing"] = {
        "base_weights": {"path": str(weights_path), "date": base.manifest.get("date")},
        "data": {"directories": [str(d) for d in dirs], "positions": len(train),
                 "held_out": len(test)},
        "target": target, "target_playouts": target_playouts if target == "uct" else None,
        "targets_file": targets_file.name if target == "uct" else None,
        "command": command, "seed": seed, "date": datetime.date.today().isoformat(),
        "iterations": iterations, "step": step, "m_playouts": m_playouts,
        "n_playouts": n_playouts, "batch": batch, "patterns": patterns,
        "held_out_mse_before": mse0, "held_out_mse_after": mse1,
    }
    weights = GoWeights(base.prior, playout, manifest, str(out))
    save_weights(out, weights)
    return weights
