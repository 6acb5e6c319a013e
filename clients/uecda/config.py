"""Configuration of the UECda client (``--config FILE`` and ``--set key=value``)."""

from __future__ import annotations

from typing import Literal

import msgspec


class ClientConfig(msgspec.Struct, frozen=True, kw_only=True):
    core: Literal["flat", "uct", "baseline"] = "flat"
    playouts: int | None = 3000  # per decision (None: time only)
    seconds: float | None = None  # per decision (None: playouts only)
    max_seconds: float = 5.0  # hard cap per decision, whatever the budget says
    alpha: float = 0.9  # flat MC: α discounting (1.0 = plain Monte Carlo)
    bandit: Literal["ucb1-tuned", "ucb1"] = "ucb1-tuned"
    final: Literal["mean", "visits"] = "mean"
    batch: int = 16  # flat MC: playouts per kernel call
    policy: Literal["heuristic", "uniform"] = "heuristic"  # the engine's playout policy
    uct_c: float = 0.7  # UCT exploration constant
    exchange: Literal["search", "heuristic"] = "search"
    exchange_candidates: int = 6  # exchange search: weakest cards considered
    seed: int | None = None  # None: fresh randomness
    recv_timeout: float | None = None  # seconds to wait for the server (None: forever)
