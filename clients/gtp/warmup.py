"""The GTP engine's warm-up: its kernels loaded (or compiled) in a background thread, so the
engine answers the protocol at once even from a cold compile cache, and the first command
that needs the search (``genmove``) waits for it."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import Protocol

import structlog

from clients.gtp.engine import MoveGenerator


class Player(MoveGenerator, Protocol):
    """The engine's move generator with its life cycle (:class:`SearchPlayer`)."""

    def warm_up(self) -> None: ...

    def start(self) -> None: ...

    def close(self) -> None: ...


def warm_up(player: Player) -> None:
    """Load (or compile) every kernel a move will run. First what ``play`` runs, since the
    controller's moves (which must not wait long) wait for the kernel being compiled; then
    the board's playouts and priors; then the player's core."""
    from clients.gtp.board import Board
    from clients.gtp.board import warm_up as board_warm_up

    Board(5, 0.5).play(0, (2, 2))
    board_warm_up()
    player.warm_up()


class BackgroundWarmUp:
    """The warm-up in a thread, then the player's worker processes started, so the engine
    answers the protocol at once even from a cold compile cache; :meth:`wait` blocks until
    the player can search. ``warm`` replaces :func:`warm_up` (tests). A failed warm-up is
    logged and the player used as it is."""

    def __init__(self, player: Player, warm: Callable[[], None] | None = None) -> None:
        self.player = player
        self.warm = warm if warm is not None else functools.partial(warm_up, player)
        self.done = threading.Event()
        self.lock = threading.Lock()  # the player's start and close, one at a time
        self.closed = False
        self.thread = threading.Thread(target=self._run, name="gtp-warm-up", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        log = structlog.get_logger()
        t0 = time.perf_counter()
        try:
            self.warm()
            with self.lock:
                if not self.closed:
                    self.player.start()
        except Exception:  # the client boundary: the engine plays on without it
            log.exception("gtp_warm_up_failed")
        finally:
            self.done.set()
        log.info("gtp_warmed_up", seconds=round(time.perf_counter() - t0, 3))

    def wait(self) -> None:
        self.done.wait()

    def close(self) -> None:
        """Close the player; a warm-up still under way is left to end with the process."""
        with self.lock:
            self.closed = True
            self.player.close()
