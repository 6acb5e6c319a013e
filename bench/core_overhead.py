"""The Python cost of the decision core around the kernels.

Search iterations per second on a trivial game whose playout costs almost nothing, so the
figures are the core's own overhead: what a game's kernel has to beat to matter.

    python bench/core_overhead.py [--playouts N] [--branching B] [--json]
"""

from __future__ import annotations

import argparse
import time

import _common  # noqa: F401  (sys.path)
import numpy as np
from _common import emit_json, print_table

from games.contract import Playout, PlayoutBatch
from search.budget import Budget
from search.flat import FlatConfig, FlatMC
from search.uct import UCT, UCTConfig

_EMPTY = np.zeros(0, dtype=np.int64)


class Trivial:
    """Two players, ``branching`` moves each turn, 20 plies, a constant-time playout."""

    num_players = 2

    def __init__(self, branching: int, ply: int = 0) -> None:
        self.branching = branching
        self.ply = ply
        self.h = 0

    @property
    def to_move(self) -> int:
        return self.ply % 2

    def legal_moves(self) -> list[int]:
        return list(range(self.branching))

    def play(self, move: int) -> None:
        self.ply += 1
        self.h = self.h * 31 + move + 1

    def clone(self) -> Trivial:
        c = Trivial(self.branching, self.ply)
        c.h = self.h
        return c

    def is_terminal(self) -> bool:
        return self.ply >= 20

    def returns(self) -> list[float]:
        return [0.5, 0.5]

    def key(self) -> int:
        return self.h

    def diagram(self) -> str:
        return str(self.h)

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        r = float(rng.random())
        return Playout(np.array([r, 1.0 - r]), np.zeros(0), _EMPTY, _EMPTY)

    def playout_batch(self, moves: list[int], rng: np.random.Generator,
                      seat: int) -> PlayoutBatch:
        k = len(moves)
        return PlayoutBatch(rng.random(k), np.zeros((k, 0)), np.zeros(k, dtype=np.int64))


class TrivialUnbatched(Trivial):
    playout_batch = None  # type: ignore[assignment]

    def __getattribute__(self, name: str):  # type: ignore[no-untyped-def]
        if name == "playout_batch":
            raise AttributeError(name)
        return super().__getattribute__(name)


def rate(searcher, game, playouts: int) -> float:  # type: ignore[no-untyped-def]
    searcher.search(game, 0, Budget(playouts=min(playouts, 200)), np.random.default_rng(0))
    t = time.perf_counter()
    res = searcher.search(game, 0, Budget(playouts=playouts), np.random.default_rng(1))
    return float(res.playouts / (time.perf_counter() - t))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--playouts", type=int, default=20000)
    ap.add_argument("--branching", type=int, default=30)
    ap.add_argument("--json", action="store_true", help="JSON figures on the last line")
    a = ap.parse_args()
    b = a.branching
    figs = {
        "flat_unbatched_per_s": rate(FlatMC(), TrivialUnbatched(b), a.playouts),
        "flat_batched_per_s": rate(FlatMC(FlatConfig(batch=32)), Trivial(b), a.playouts),
        "uct_per_s": rate(UCT(UCTConfig(reuse=False)), Trivial(b), a.playouts),
        "uct_rave_per_s": rate(UCT(UCTConfig(rave=True, reuse=False)), Trivial(b), a.playouts),
    }
    print_table(f"core overhead: iterations/s, trivial game, branching {b}, one core",
                [(k, v) for k, v in figs.items()])
    if a.json:
        emit_json({k: round(v, 1) for k, v in figs.items()})


if __name__ == "__main__":
    main()
