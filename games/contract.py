"""The game contract: what the decision core (`search`) relies on.

`search` never imports a game; it sees one only through these Protocols (structural typing),
so any game that fits the shapes below works with any core.

Conventions
-----------
* A **seat** is a place in the match, 0..num_players-1. Colour (black/white, first/second) and
  rank (Daihinmin title) are different things and never stand in for the seat.
* A **move** is any hashable value (games in this repository use Python ints, so that kernels
  can share the same encoding). Every move returned by ``legal_moves()`` may be passed to
  ``play()``.
* **Returns** are per seat and lie in [0, 1] (win 1, loss 0, draw 0.5; Daihinmin maps the
  5-4-3-2-1 points onto [0, 1]). The [0, 1] scale is what UCB1-TUNED's variance bound assumes.
* ``play()`` mutates the state. ``clone()`` returns an independent copy: playing on one never
  changes the other.
* ``playout(rng, seat)`` never mutates ``self``: it plays a copy to the end with the game's
  playout policy and returns a :class:`Playout`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Move = Hashable

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class Playout(NamedTuple):
    """What one playout reports to the core.

    returns
        One value per seat in [0, 1] at the end of the playout.
    evals
        The intermediate evaluations r_0 .. r_{N-2} of the playout for the seat it was asked
        about, one per turn of that seat (a "turn" runs from one of its moves to the next),
        on the same scale as ``returns``. The core appends r_{N-1} = returns[seat] itself
        and applies α discounting (Konuma, Honda, Hoki and Nishino; docs/references.md).
        Empty when the game defines none: then every α gives plain Monte Carlo.
    moves, players
        The moves played in the playout and the seat that played each, in order (for RAVE /
        AMAF). Games that do not support RAVE may return empty arrays.
    """

    returns: FloatArray
    evals: FloatArray
    moves: IntArray
    players: IntArray


class PlayoutBatch(NamedTuple):
    """Many playouts from one call (the hot path of flat Monte Carlo, kept inside a kernel).

    returns
        (k,) the asked seat's final return R of playout i.
    evals
        (k, T) intermediate evaluations; row i holds r_0 .. r_{n_evals[i]-1}.
    n_evals
        (k,) how many entries of each row of ``evals`` are valid.
    """

    returns: FloatArray
    evals: FloatArray
    n_evals: IntArray


@runtime_checkable
class HasPlayoutBatch(Protocol):
    """Optional fast path for flat Monte Carlo: for each ``moves[i]``, take a fresh world (a
    clone, or a determinisation sampled from an info set), play ``moves[i]`` for ``seat``
    and play the rest out with the playout policy."""

    def playout_batch(
        self, moves: Sequence[Move], rng: np.random.Generator, seat: int
    ) -> PlayoutBatch: ...


@runtime_checkable
class State(Protocol):
    """A full game state (perfect information, or one determinised world)."""

    @property
    def num_players(self) -> int: ...

    @property
    def to_move(self) -> int:
        """The seat to move. Undefined when terminal."""
        ...

    def legal_moves(self) -> Sequence[Move]:
        """Every legal move of the seat to move (never empty unless terminal: a game with a
        pass includes it)."""
        ...

    def play(self, move: Move) -> None: ...

    def clone(self) -> State: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> Sequence[float]:
        """One value per seat in [0, 1]; only meaningful when terminal."""
        ...

    def key(self) -> int:
        """A stable hash of the position (Zobrist where the game has one)."""
        ...

    def diagram(self) -> str:
        """A human-readable ASCII picture of the state."""
        ...

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        """Play a copy of this state to the end by the game's playout policy."""
        ...


@runtime_checkable
class InfoSet(Protocol):
    """What one seat knows in a game of hidden information.

    Property every implementation must hold (tests assert it):
    ``info.sample_world(rng).info_set(info.seat) == info`` for every rng, i.e. a sampled
    world is consistent with everything the seat knows.
    """

    @property
    def seat(self) -> int: ...

    def sample_world(self, rng: np.random.Generator) -> State: ...

    def legal_moves(self) -> Sequence[Move]:
        """The seat's legal moves: the same in every world consistent with this info set."""
        ...


@runtime_checkable
class HasInfoSets(Protocol):
    def info_set(self, seat: int) -> InfoSet: ...


class Priors(NamedTuple):
    """Prior knowledge for new tree nodes, as equivalent experience (Gelly and Silver 2007).

    For each move in ``moves``: ``values[i]`` in [0, 1] is the prior mean for the player to
    move and ``counts[i]`` the number of virtual visits it is worth. ``order`` (optional,
    highest first) is the static move ordering used by progressive widening.
    """

    moves: Sequence[Move]
    values: FloatArray
    counts: FloatArray


@runtime_checkable
class HasPriors(Protocol):
    def priors(self) -> Priors: ...


class TreeGame(NamedTuple):
    """What a game hands the compiled UCT (``search.ctree``, whose docstring specifies the
    six kernels): numba kernels over a kernel state (a tuple of arrays), a per-search context
    (a tuple of arrays and scratch space) and the sizes the search allocates for. Moves are
    ints in [-1, ``move_limit``)."""

    kernels: tuple[Any, Any, Any, Any, Any, Any]  # copy, to_move, key, legal, play, playout
    ctx: tuple[Any, ...]
    state: tuple[Any, ...]
    num_players: int
    max_moves: int  # most legal moves a position can have
    move_limit: int
    max_playout_moves: int  # most moves a playout records


@runtime_checkable
class HasTreeGame(Protocol):
    def tree_game(self) -> TreeGame:
        """The state as the compiled UCT sees it (a fresh kernel state and context)."""
        ...


@runtime_checkable
class HasFeatures(Protocol):
    def features(self) -> FloatArray:
        """A feature vector of the state for learned evaluations (from the mover's view)."""
        ...
