"""Bandit problems dressed as games, so the flat core is tested end to end."""

from __future__ import annotations

import numpy as np

from games.contract import Playout, PlayoutBatch


class BanditGame:
    """Seat 0 picks an arm; the playout then returns Bernoulli(mean[arm]).

    ``evals`` intermediate evaluations (uniform noise) are reported per playout so that α
    discounting has something to discount. ``batched`` adds the playout_batch fast path.
    """

    num_players = 1

    def __init__(self, means: list[float], evals: int = 0, batched: bool = False,
                 arm: int | None = None, report_evals: bool = True) -> None:
        self.means = means
        self.n_evals = evals
        self.report_evals = report_evals  # False: draw the same noise but report none
        self.batched = batched
        self.arm = arm
        self.to_move = 0
        if batched:
            self.playout_batch = self._playout_batch

    def legal_moves(self) -> list[int]:
        return list(range(len(self.means))) if self.arm is None else []

    def play(self, move: int) -> None:
        self.arm = move

    def clone(self) -> BanditGame:
        return BanditGame(self.means, self.n_evals, False, self.arm, self.report_evals)

    def is_terminal(self) -> bool:
        return False

    def returns(self) -> list[float]:
        return [0.0]

    def key(self) -> int:
        return -1 if self.arm is None else self.arm

    def diagram(self) -> str:
        return f"arm={self.arm}"

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        assert self.arm is not None
        r = float(rng.random() < self.means[self.arm])
        ev = rng.random(self.n_evals)
        if not self.report_evals:
            ev = ev[:0]
        e = np.zeros(0, dtype=np.int64)
        return Playout(np.array([r]), ev, e, e)

    def _playout_batch(self, moves: list[int], rng: np.random.Generator,
                       seat: int) -> PlayoutBatch:
        out = np.empty(len(moves))
        ev = np.zeros((len(moves), self.n_evals))
        for i, m in enumerate(moves):
            out[i] = float(rng.random() < self.means[m])
            ev[i] = rng.random(self.n_evals)
        n = self.n_evals if self.report_evals else 0
        return PlayoutBatch(out, ev[:, :n], np.full(len(moves), n, dtype=np.int64))
