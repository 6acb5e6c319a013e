"""The referee's view of the rules: games.go.GoState behind GTP colours and vertices."""

from __future__ import annotations

from games.go.coords import PASS, point
from games.go.state import GoState, IllegalMove
from protocols.gtp import Vertex


class RefereeBoard:
    """Validates moves (positional superko, suicide illegal) and scores by Tromp–Taylor."""

    def __init__(self, size: int, komi: float) -> None:
        self.state = GoState(size, komi)

    def play(self, colour: int, vertex: Vertex) -> bool:
        """Play ``colour`` (0 black, 1 white) at ``vertex``; False (and no change) if illegal."""
        pt = PASS if vertex is None else point(self.state.size, vertex[1], vertex[0])
        try:
            self.state.play_colour(colour + 1, pt)
        except (IllegalMove, ValueError):
            return False
        return True

    def tromp_taylor(self) -> float:
        """Black area - white area - komi, the board as it stands (no dead-stone removal)."""
        return self.state.score()
