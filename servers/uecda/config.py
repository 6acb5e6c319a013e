"""Settings of the mock UECda server."""

from __future__ import annotations

import msgspec


class ServerConfig(msgspec.Struct, frozen=True, kw_only=True):
    games: int = 1000
    seed: int | None = None  # None: a fresh random seed (written to the log header)
    host: str = "127.0.0.1"
    port: int = 42485
    timeout: float = 10.0  # seconds per move, exchange and profile before a stand-in plays
    accept_timeout: float | None = None  # wait this long for all five; then stand-ins
    log: str | None = None  # tndhms-format game log
    reset_every: int = 100  # ranks reset (no exchange) in games 1, 101, ...
    reshuffle_every: int = 3  # seats reshuffled in games 1, 4, 7, ...
