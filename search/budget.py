"""Budgets: every search stops on one. Playouts and/or seconds, with an injectable clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

Clock = Callable[[], float]


@dataclass(frozen=True)
class Budget:
    """Stop after ``playouts`` playouts or ``seconds`` of wall time, whichever comes first.

    ``visits`` caps the root's visits instead, those of a subtree kept from the last search
    included (as Pachi's ``-t =N`` and KataGo's ``maxVisits`` count): a search that keeps
    R visits runs at most ``visits - R`` playouts, and at least one (:meth:`after_reuse`; a
    core that keeps no tree runs ``visits`` playouts). At least one of the three must be
    set. ``clock`` returns seconds (monotonic); tests inject a fake clock to make time
    budgets deterministic. A remaining game clock is turned into ``seconds`` by the client's
    time manager before the search starts.
    """

    playouts: int | None = None
    seconds: float | None = None
    visits: int | None = None
    clock: Clock = field(default=time.perf_counter, compare=False)
    check_every: int = 1  # consult the clock every this many playouts (clocks cost time)

    def __post_init__(self) -> None:
        if self.playouts is None and self.seconds is None and self.visits is None:
            raise ValueError("a Budget needs playouts, visits or seconds")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError("Budget.playouts must be >= 1")
        if self.seconds is not None and self.seconds < 0:
            raise ValueError("Budget.seconds must be >= 0")
        if self.visits is not None:
            if self.visits < 1:
                raise ValueError("Budget.visits must be >= 1")
            # no tree kept: the visits are the playouts (after_reuse tightens this)
            if self.playouts is None or self.playouts > self.visits:
                object.__setattr__(self, "playouts", self.visits)

    def after_reuse(self, reused: float) -> Budget:
        """This budget for a search whose root starts with ``reused`` visits kept from the
        last search: the playouts that bring its root to ``visits`` (at least one, at most
        ``playouts``); itself when no visits are set."""
        if self.visits is None:
            return self
        playouts = max(1, min(int(self.playouts or self.visits), self.visits - int(reused)))
        return replace(self, playouts=playouts, visits=None)

    @classmethod
    def from_clock(cls, remaining: float, moves_to_go: float, *, reserve: float = 0.0,
                   playouts: int | None = None, clock: Clock = time.perf_counter) -> Budget:
        """A budget from the remaining game clock: an even share of what is left after the
        ``reserve``, ``(remaining - reserve) / moves_to_go`` seconds (never negative), and at
        most ``playouts`` if given. Clients with richer time controls (byo-yomi, Canadian)
        compute ``seconds`` themselves."""
        if moves_to_go <= 0:
            raise ValueError("moves_to_go must be > 0")
        seconds = max(0.0, (remaining - reserve) / moves_to_go)
        return cls(playouts=playouts, seconds=seconds, clock=clock)

    def start(self) -> Meter:
        return Meter(self, self.clock())


class Meter:
    """A running budget: call :meth:`done` before each playout with the count so far."""

    def __init__(self, budget: Budget, t0: float) -> None:
        self.budget = budget
        self.t0 = t0
        self.deadline = None if budget.seconds is None else t0 + budget.seconds

    def done(self, playouts: int) -> bool:
        b = self.budget
        if b.playouts is not None and playouts >= b.playouts:
            return True
        if self.deadline is not None and playouts % b.check_every == 0:
            return b.clock() >= self.deadline
        return False

    def elapsed(self) -> float:
        return self.budget.clock() - self.t0
