"""The GTP engine's warm-up: its kernels loaded (or compiled) in a background thread, so the
engine answers the protocol at once even from a cold compile cache, and the first command
that needs the search (``genmove``) waits for it."""

from __future__ import annotations

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


WARM_UP_SEARCH_SECONDS = 0.05  # the last step's search: long enough to pass every stage


def warm_up(player: Player, size: int) -> None:
    """Load (or compile) every kernel a move will run. First what ``play`` runs, since the
    controller's moves (which must not wait long) wait for the kernel being compiled; then
    the board's playouts and priors; then the player's core; last one short move on an
    empty ``size`` board, which meets what a first real move would (the knowledge of that
    board size) before the clock runs, and is forgotten."""
    from clients.gtp.board import Board
    from clients.gtp.board import warm_up as board_warm_up
    from clients.gtp.engine import MoveRequest

    Board(5, 0.5).play(0, (2, 2))
    board_warm_up()
    player.warm_up()
    player(MoveRequest(Board(size, 7.0), 0, WARM_UP_SEARCH_SECONDS, cleanup=False,
                       deterministic=False))
    player.reset()


class BackgroundWarmUp:
    """The warm-up in a thread, then the player's worker processes started, so the engine
    answers the protocol at once even from a cold compile cache; :meth:`wait` blocks until
    the player can search. ``warm`` is the warm-up (:func:`warm_up`, or a stub in tests). A
    failed warm-up is logged and the player used as it is."""

    def __init__(self, player: Player, warm: Callable[[], None]) -> None:
        self.player = player
        self.warm = warm
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
