"""The engine's board: games.go.GoState seen through GTP vertices and GTP colours.

GTP colours are 0 (black) and 1 (white) (protocols.gtp); games.go uses BLACK=1, WHITE=2.
Vertices are ``(col, row)`` 0-based or None for pass; games.go points are ints, PASS = -1.
This is the only module of the engine that knows games.go's encodings.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from games.go.coords import EMPTY, PASS, fixed_handicap_points, max_fixed_handicap, point, row_col
from games.go.sgf import from_sgf, to_sgf
from games.go.state import GoState
from games.go.state import IllegalMove as GoIllegalMove
from knowledge.go import dead
from knowledge.go.position import GoPosition
from protocols.gtp import GtpError, Vertex

DEAD_STONE_PLAYOUTS = 200  # for final_score / final_status_list
IN_GAME_DEAD_STONE_PLAYOUTS = 64  # for decisions during a game (on the move's clock)


class IllegalMove(Exception):
    pass


def go_colour(colour: int) -> int:
    return colour + 1


class Board:
    """Protocol state of the position: a GoState plus the GTP view of it, and the scoring
    in force: area (Chinese, AGA, New Zealand, Tromp–Taylor) or, with ``territory``,
    territory (Japanese), counted as the area score less black's surplus of stones placed
    (:meth:`placed_surplus`)."""

    def __init__(self, size: int, komi: float, state: GoState | None = None,
                 territory: bool = False) -> None:
        self.state = state if state is not None else GoState(size, komi)
        self.territory = territory

    @property
    def size(self) -> int:
        return self.state.size

    @property
    def komi(self) -> float:
        return self.state.komi

    def set_komi(self, komi: float) -> None:
        self.state.komi = float(komi)

    def copy(self) -> Board:
        return Board(self.size, self.komi, self.state.clone(), self.territory)

    # -- encodings ----------------------------------------------------------------------
    def point_of(self, vertex: Vertex) -> int:
        if vertex is None:
            return PASS
        col, row = vertex
        return point(self.size, row, col)

    def vertex_of(self, move: object) -> Vertex:
        pt = int(move)  # type: ignore[call-overload]
        if pt == PASS:
            return None
        row, col = row_col(self.size, pt)
        return (col, row)

    # -- the game -----------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return self.state.to_play - 1

    @property
    def moves(self) -> list[tuple[int, Vertex]]:
        return [(c - 1, self.vertex_of(p)) for c, p in self.state.history]

    def play(self, colour: int, vertex: Vertex) -> None:
        try:
            self.state.play_colour(go_colour(colour), self.point_of(vertex))
        except (GoIllegalMove, ValueError) as e:
            raise IllegalMove(str(e)) from None

    def undo(self) -> bool:
        if not self.state.history:
            return False
        self.state.undo()
        return True

    def is_empty(self) -> bool:
        return self.state.is_empty() and not self.state.history

    def setup_black(self, vertices: Iterable[Vertex]) -> None:
        try:
            self.state.place_handicap([self.point_of(v) for v in vertices])
        except ValueError as e:
            raise IllegalMove(str(e)) from None

    def max_fixed_handicap(self) -> int:
        return max_fixed_handicap(self.size)

    def fixed_handicap(self, n: int) -> list[Vertex]:
        """GTP fixed_handicap placement; GtpError where the spec defines none."""
        try:
            return [self.vertex_of(p) for p in fixed_handicap_points(self.size, n)]
        except ValueError:
            raise GtpError("invalid number of stones") from None

    def stones(self) -> list[Vertex]:
        col = self.state.grid()
        return [(c, r) for r in range(self.size) for c in range(self.size) if col[r, c] != EMPTY]

    def last_was_pass(self) -> bool:
        return bool(self.state.history) and self.state.history[-1][1] == PASS

    def position_key(self, colour: int) -> int:
        """A key of the position with ``colour`` to play."""
        return self.state.position_hash() ^ (colour * 0x5BD1E995)

    def diagram(self) -> str:
        return self.state.diagram()

    # -- search -------------------------------------------------------------------------
    def search_state(self, colour: int) -> GoState:
        """A copy with ``colour`` to play and the game not over (GTP may ask for a move after
        two passes, e.g. kgs-genmove_cleanup), without undo history (it is searched, and
        pickled for the workers)."""
        s = self.state.clone()
        s.forget_undo()
        s.komi = self.area_komi()
        s.to_play = go_colour(colour)
        if s.passes >= 2:
            s.clear_passes()
        return s

    def fallback_vertex(self, colour: int) -> Vertex:
        """A safe legal move without search: a random legal point that does not fill one
        of our own eyes, or pass."""
        moves = [m for m in self.search_state(colour).legal_moves() if m != PASS]
        if not moves:
            return None
        rng = np.random.default_rng(self.state.position_hash() & (2**63 - 1))
        return self.vertex_of(moves[int(rng.integers(len(moves)))])

    def fills_own_eye(self, colour: int, vertex: Vertex) -> bool:
        pt = self.point_of(vertex)
        return pt not in self.state.legal_points(go_colour(colour), include_eyes=False)

    # -- scoring ------------------------------------------------------------------------
    def placed_surplus(self) -> int:
        """Black's stones put on the board (handicap and setup stones included) less
        white's. Territory and area scores differ by it: with S the stones on the board and
        P the prisoners each side took, territory = area − (S_black − S_white) + (P_black −
        P_white), and S_black = placed_black − P_white (likewise for white), so territory =
        area − (placed_black − placed_white): a pass or a handicap stone shifts it by one,
        captures cancel out (a territory score counts no seki eyes: not modelled)."""
        placed = [0, 0]
        for colour, pt in (*self.state.setup, *self.state.history):
            if pt != PASS:
                placed[colour - 1] += 1
        return placed[0] - placed[1]

    def komi_correction(self) -> int:
        """What the area score must also give white to be the score of the rules in force:
        0 under area rules; under territory rules, black's surplus of placed stones so far
        (that of the moves still to come, one stone at most, is not counted)."""
        return self.placed_surplus() if self.territory else 0

    def area_komi(self) -> float:
        """The komi the search counts the area score with: the komi plus the correction."""
        return self.komi + self.komi_correction()

    def tromp_taylor(self) -> float:
        """Black minus white minus komi, the board as it stands, counted by area (under
        territory rules with :meth:`area_komi`, so the territory score)."""
        return self.state.score() - self.komi_correction()

    def tt_margin(self, colour: int) -> float:
        s = self.tromp_taylor()
        return s if colour == 0 else -s

    def pass_margin(self, colour: int) -> float:
        """``colour``'s lead should the game end now: under area rules by Tromp–Taylor as
        the board stands (CGOS removes no dead stones); under territory rules after taking
        off the estimated dead stones, as the players agree before counting."""
        if not self.territory:
            return self.tt_margin(colour)
        s = dead.score_with_dead_removed(self.state, self._rng(), IN_GAME_DEAD_STONE_PLAYOUTS)
        s -= self.komi_correction()
        return s if colour == 0 else -s

    def _rng(self) -> np.random.Generator:
        return np.random.default_rng([self.state.position_hash() & (2**63 - 1), 7])

    def dead_stones(self) -> list[Vertex]:
        return [self.vertex_of(p) for p in dead.dead_stones(self.state, self._rng(),
                                                                DEAD_STONE_PLAYOUTS)]

    def final_status(self) -> dict[str, list[Vertex]]:
        """GTP final_status_list: {'alive': [...], 'dead': [...], 'seki': [...]}."""
        st = dead.final_status(self.state, self._rng(), DEAD_STONE_PLAYOUTS)
        return {k: [self.vertex_of(p) for p in v] for k, v in st.items()}

    def dead_opponent_stones(self, colour: int) -> list[Vertex]:
        opp = go_colour(1 - colour)
        return [self.vertex_of(p)
                for p in dead.dead_stones(self.state, self._rng(), IN_GAME_DEAD_STONE_PLAYOUTS)
                if self.state.colour_at(p) == opp]

    def liberties_of(self, stones: list[Vertex]) -> set[Vertex]:
        """The empty points next to any of ``stones``."""
        out: set[Vertex] = set()
        for v in stones:
            assert v is not None
            c, r = v
            for nc, nr in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                if 0 <= nc < self.size and 0 <= nr < self.size:
                    if self.state.colour_at(self.point_of((nc, nr))) == EMPTY:
                        out.add((nc, nr))
        return out

    def final_score(self) -> float:
        """Black's lead after removing the estimated dead stones, under the rules in force."""
        area = dead.score_with_dead_removed(self.state, self._rng(), DEAD_STONE_PLAYOUTS)
        return area - self.komi_correction()

    # -- SGF ----------------------------------------------------------------------------
    def to_sgf(self, black: str = "", white: str = "") -> bytes:
        return to_sgf(self.state, black_name=black or None, white_name=white or None)

    @classmethod
    def from_sgf(cls, data: bytes, upto: int | None, max_size: int) -> Board:
        """The position of an SGF game before move number ``upto`` (1-based, as GTP
        ``loadsgf``; None: after the last move)."""
        state = from_sgf(data, None if upto is None else max(0, upto - 1))
        if state.size > max_size:
            raise ValueError("board too large")
        return cls(state.size, state.komi, state)


def warm_up() -> None:
    """Load (or compile) the playout kernels before the first timed move, the ownership
    playouts of the dead-stone estimate included (a first pass that compiled them took 7 s)."""
    s = GoPosition(GoState(5, 0.5))
    rng = np.random.default_rng(0)
    s.playout(rng, 0)
    s.priors()
    s.ownership(rng, 1)
