"""Dynamic komi: value-based situational compensation (Baudiš 2011, "Balancing MCTS by
dynamically adjusting the komi value").

A Monte Carlo search that wins nearly every playout cannot tell a safe move from a slack one,
and one that loses nearly every playout cannot tell a fighting move from a hopeless one: the
win rate is flat at either end. Moving the komi of the search restores the contrast. The extra
komi (the points the searches ask of the engine beyond the game's komi) moves between moves,
by the value of the last search:

* above ``high``, one ``step`` more (up to ``cap``);
* below ``low`` with a positive extra, one step less, and the komi ratchet falls to the new
  extra: it is never raised above it again in this game, so it cannot swing back into the
  fight it just left;
* below ``red`` (0: never), one step less (down to ``-cap``): the search plays for a smaller
  loss, and with it for the opponent's mistakes;
* above one half with a negative extra, one step back toward the game's komi.

Only the searches see it: the score and passing go by the game's komi, and the engine resigns
only on a search at the game's komi or at the lowest extra.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Side:
    """One colour's extra komi in the game."""

    extra: float = 0.0
    ratchet: float = float("inf")
    moves: int = 0  # the game's moves at the last update (fewer: a new game, or undone)


@dataclass
class DynamicKomi:
    """The extra points the searches ask of each colour, the engine's own (a GTP engine may
    be asked to move for both)."""

    step: float
    high: float
    low: float
    cap: float
    red: float = 0.0
    sides: dict[int, Side] = field(default_factory=dict)

    def reset(self) -> None:
        self.sides.clear()

    def for_move(self, colour: int, moves: int) -> float:
        """The extra komi of ``colour``'s search in a game of ``moves`` moves so far."""
        side = self.sides.get(colour)
        if side is None or moves < side.moves:
            side = self.sides[colour] = Side()
        return side.extra

    def update(self, colour: int, value: float, moves: int) -> None:
        """After ``colour``'s search of value ``value`` for it at ``moves`` moves."""
        side = self.sides.setdefault(colour, Side())
        side.moves = moves
        if value > self.high:
            side.extra = min(side.extra + self.step, self.cap, side.ratchet)
        elif value < self.low and side.extra > 0:
            side.extra = max(0.0, side.extra - self.step)
            side.ratchet = side.extra
        elif value < self.red:
            side.extra = max(side.extra - self.step, -self.cap)
        elif value > 0.5 and side.extra < 0:
            side.extra = min(0.0, side.extra + self.step)

    def may_resign(self, extra: float) -> bool:
        """Whether a search at ``extra`` may resign: at the game's komi, or at the lowest."""
        return extra == 0 or extra <= -self.cap
