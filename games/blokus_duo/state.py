"""The Blokus Duo game state (contest rules), implementing ``games.contract.State``.

Colour 0 is the contest's player 1 (start (5,5), Pentobi ``b``), colour 1 player 2 (start
(a,a), Pentobi ``w``). Either colour may move first (``first``). Seats are the places in the
match: ``seat_colours[seat]`` is the colour a seat plays (default seat i plays colour i).
Moves are ints: a placement id (see :mod:`games.blokus_duo.geometry`) or :data:`PASS` (-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec
import numpy as np

from games.blokus_duo import kernels as _kernels
from games.blokus_duo.geometry import PASS, PIECE_LETTERS, Geometry, geometry
from games.contract import FloatArray, Playout, PlayoutBatch, Priors, TreeGame

K: Any = _kernels  # numba dispatchers: untyped for mypy


class BlokusConfig(msgspec.Struct, frozen=True):
    """Playout policy, priors and reward of a Blokus Duo state (shared by its clones). The
    defaults are the wave-1 game: uniform playouts, size priors, win/loss reward."""

    playout: Literal["uniform", "weighted"] = "uniform"
    # weighted playouts (kernels.k_weight): probability proportional to the product of the
    # weight of the placement's size 1..5, near_factor if it touches the opponent's last
    # placement (else far_factor), gain_factor per new attach point it creates short of
    # gain_cap (1: no such term), notake_factor if it covers none of the opponent's attach
    # points (1: no such term), and open_factor for a piece smaller than 5 while the mover
    # has placed fewer than open_playout pieces
    size_weights: tuple[float, float, float, float, float] = (0.05, 0.1, 0.25, 0.5, 1.0)
    near_factor: float = 1.0
    far_factor: float = 0.5
    gain_factor: float = 1.0
    gain_cap: int = 4
    notake_factor: float = 1.0
    open_playout: int = 0
    open_factor: float = 0.1
    # priors (games.blokus_duo.knowledge): "size" = 0.5 + prior_size_bonus * (size - 3) while
    # the mover has placed fewer than prior_early_pieces; "knowledge" = size, attach points
    # created and taken, spent, distance to the opponent; each worth prior_count visits
    priors: Literal["size", "knowledge"] = "size"
    prior_count: float = 10.0
    prior_size_bonus: float = 0.05
    prior_early_pieces: int = 10
    prior_size: float = 0.03
    prior_gain: float = 0.02
    prior_gain_cap: int = 6
    prior_take: float = 0.03
    prior_waste: float = 0.02
    prior_front: float = 0.02
    prior_front_radius: int = 4
    # opening pruning in the tree: while the mover has placed fewer than open_pieces pieces,
    # placements smaller than open_min_size (when a bigger one fits) are never searched
    open_pieces: int = 0
    open_min_size: int = 5
    prune_count: float = 1e4
    # the reward of a finished game: 1/0.5/0 for win/draw/loss, blended with weight
    # score_weight with 0.5 + 0.5 clip(margin / score_scale, -1, 1)
    score_weight: float = 0.0
    score_scale: float = 30.0

    def __post_init__(self) -> None:
        factors = (*self.size_weights, self.near_factor, self.far_factor, self.gain_factor,
                   self.notake_factor, self.open_factor)
        if min(factors) <= 0:
            raise ValueError("playout weights and factors must be > 0 (a placement must "
                             "stay possible)")
        if max(self.gain_factor, self.notake_factor, self.open_factor) > 1:
            raise ValueError("gain_factor, notake_factor and open_factor are at most 1")
        if not 0 <= self.score_weight <= 1 or self.score_scale <= 0:
            raise ValueError("score_weight in [0, 1] and score_scale > 0")
        if self.prior_count < 0 or self.prune_count < 0:
            raise ValueError("prior_count and prune_count must be >= 0")


DEFAULT_CONFIG = BlokusConfig()
_POLICY_CACHE: dict[BlokusConfig, tuple[int, FloatArray]] = {}
_PRIOR_CACHE: dict[BlokusConfig, FloatArray] = {}


class BlokusState:
    """A Blokus Duo position under the contest rules."""

    num_players = 2

    def __init__(
        self,
        first: int = 0,
        seat_colours: tuple[int, int] = (0, 1),
        config: BlokusConfig = DEFAULT_CONFIG,
        size: int = 14,
    ) -> None:
        if first not in (0, 1) or sorted(seat_colours) != [0, 1]:
            raise ValueError("first must be a colour (0/1); seat_colours a permutation of 0,1")
        g = geometry(size)
        self.geo: Geometry = g
        self.config = config
        self.first = first
        self.seat_colours = tuple(seat_colours)
        S, NP = g.num_cells, g.num_placements
        self.board = np.empty(S, dtype=np.int8)
        self.forb = np.empty((2, S), dtype=np.uint8)
        self.forbb = np.empty((4, g.bb_len), dtype=np.uint64)
        self.att = np.empty((2, S), dtype=np.uint8)
        self.used = np.empty((2, K.NUM_PIECES), dtype=np.uint8)
        self.cand = np.empty((2, NP), dtype=np.int32)
        self.ncand = np.empty((2, K.NUM_PIECES), dtype=np.int32)
        self.meta = np.empty(K.META_LEN, dtype=np.int64)
        K.k_init(g.start, g.piece, g.bcp_start, g.bcp, g.pstart, g.bb_word, g.bb_mask,
                 *self._arrays(), first)
        self._key = 0
        self.history: list[tuple[int, int]] = []  # (colour, move)

    def _arrays(self) -> tuple[Any, ...]:
        """The state arrays in kernel order."""
        return (self.board, self.forb, self.forbb, self.att, self.used, self.cand, self.ncand,
                self.meta)

    def _scratch(self) -> tuple[Any, ...]:
        """Uninitialised state arrays for a playout copy, then a zeroed ``near`` array."""
        return (np.empty_like(self.board), np.empty_like(self.forb), np.empty_like(self.forbb),
                np.empty_like(self.att), np.empty_like(self.used), np.empty_like(self.cand),
                np.empty_like(self.ncand), np.empty_like(self.meta),
                np.zeros(self.geo.num_cells, dtype=np.uint8))

    # -- seats and colours ---------------------------------------------------------------
    @property
    def to_move_colour(self) -> int:
        """The colour to move (0 = player 1 / (5,5), 1 = player 2 / (a,a))."""
        return int(self.meta[K.M_TO_MOVE])

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return self.seat_of(int(self.meta[K.M_TO_MOVE]))

    def colour_of(self, seat: int) -> int:
        return self.seat_colours[seat]

    def seat_of(self, colour: int) -> int:
        return 0 if self.seat_colours[0] == colour else 1

    # -- moves ---------------------------------------------------------------------------
    def legal_placements(self, colour: int | None = None) -> list[int]:
        """The legal placements of ``colour`` (default: the colour to move), sorted; no pass.
        Empty when the game is over."""
        if self.is_terminal():
            return []
        c = self.to_move_colour if colour is None else colour
        g = self.geo
        out = np.empty(int(self.ncand[c].sum()), dtype=np.int32)
        n = K.k_legal(c, g.bb_word, g.bb_mask, g.pstart, self.forbb, self.cand, self.ncand, out)
        out = out[:n]
        out.sort()
        return out.tolist()

    def legal_count(self, colour: int | None = None) -> int:
        """How many legal placements ``colour`` has (ignoring whose turn it is)."""
        c = self.to_move_colour if colour is None else colour
        g = self.geo
        return int(K.k_count_legal(c, g.piece, g.bb_word, g.bb_mask, g.pstart, self.forbb,
                                   self.used, self.cand, self.ncand))

    def legal_moves(self) -> list[int]:
        """Legal placements of the mover, or ``[PASS]`` when it has none; [] when over."""
        if self.is_terminal():
            return []
        moves = self.legal_placements()
        return moves if moves else [PASS]

    def is_legal(self, move: int) -> bool:
        """Is ``move`` legal for the mover? A pass is legal (the host allows passing with
        moves left) except as a colour's first move (unless it has no placement at all)."""
        move = int(move)
        if K.k_is_legal(self.geo.kernel_args, self.forb, self.att, self.used, self.meta, move):
            return True
        return move == PASS and not self.is_terminal() and self.legal_count() == 0

    def play(self, move: int) -> None:
        """Play a placement or PASS for the colour to move (raises ValueError if illegal)."""
        move = int(move)
        if not self.is_legal(move):
            name = self.geo.code(move) if -1 <= move < self.geo.num_placements else move
            raise ValueError(f"illegal move {name}")
        self._play(move)

    def _play(self, move: int) -> None:
        g = self.geo
        c = self.to_move_colour
        if move != PASS:
            self._key ^= int(g.zobrist[c, move])
        self.history.append((c, move))
        K.k_play(g.kernel_args, *self._arrays(), move)

    def play_code(self, code: str) -> int:
        """Play a contest ``XYpr`` code (any valid one; ``0000`` passes); returns the move."""
        move = self.geo.parse_code(code)
        self.play(move)
        return move

    def play_pentobi(self, text: str) -> int:
        """Play a move in Pentobi notation (``e8,d9,e9,f9,e10`` or ``pass``)."""
        move = self.geo.parse_pentobi(text)
        self.play(move)
        return move

    def code(self, move: int) -> str:
        return self.geo.code(move)

    # -- end and score -------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """Two successive passes, or a colour has placed all 21 pieces."""
        return bool(self.meta[K.M_OVER])

    def placed(self, colour: int) -> int:
        return int(self.meta[K.M_PLACED + colour])

    def pieces_left(self, colour: int) -> list[int]:
        return [p for p in range(K.NUM_PIECES) if not self.used[colour, p]]

    def score(self, colour: int) -> int:
        """-(squares not placed), +15 for all 21 placed, +20 if the last was the monomino."""
        return int(K.k_score(self.meta, colour))

    def scores(self) -> tuple[int, int]:
        """The scores of colour 0 and colour 1."""
        return self.score(0), self.score(1)

    def returns(self) -> list[float]:
        """Per seat: 1 win, 0 loss, 0.5 draw (on the current scores); with the config's
        ``score_weight`` > 0 blended with the score margin (:meth:`reward`)."""
        return [self.reward(self.colour_of(seat)) for seat in range(2)]

    # -- contract plumbing ---------------------------------------------------------------
    def clone(self) -> BlokusState:
        s = BlokusState.__new__(BlokusState)
        s.geo = self.geo
        s.config = self.config
        s.first = self.first
        s.seat_colours = self.seat_colours
        s.board = np.empty_like(self.board)
        s.forb = np.empty_like(self.forb)
        s.forbb = np.empty_like(self.forbb)
        s.att = np.empty_like(self.att)
        s.used = np.empty_like(self.used)
        s.cand = np.empty_like(self.cand)
        s.ncand = np.empty_like(self.ncand)
        s.meta = np.empty_like(self.meta)
        K.k_copy_state(self.geo.pstart, *self._arrays(), *s._arrays())
        s._key = self._key
        s.history = list(self.history)
        return s

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the geometry tables (13 MB; rebuilt from the cache by size), so a
        state travels cheaply to the worker processes."""
        state = dict(self.__dict__)
        state["geo"] = self.geo.size
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        state["geo"] = geometry(state["geo"])
        self.__dict__.update(state)

    def key(self) -> int:
        """Zobrist key of (placements per colour, colour to move, a pending pass)."""
        g = self.geo
        k = self._key ^ int(g.zobrist_side[self.to_move_colour])
        if self.meta[K.M_PASSES]:
            k ^= 0x5A5A_0F0F_3C3C_9696
        return k

    def diagram(self) -> str:
        """The board, row 1 at the top: ``X`` colour 0, ``O`` colour 1, ``+`` empty start."""
        g = self.geo
        n = g.size
        cols = "".join(_dig(x + 1) for x in range(n))
        lines = [f"   {cols}"]
        for y in range(n):
            row = []
            for x in range(n):
                cell = y * n + x
                v = int(self.board[cell])
                row.append("X" if v == 0 else "O" if v == 1 else
                           "+" if cell in (int(g.start[0]), int(g.start[1])) else ".")
            lines.append(f"{_dig(y + 1):>2} {''.join(row)}")
        for c, mark in ((0, "X"), (1, "O")):
            left = "".join(PIECE_LETTERS[p] for p in self.pieces_left(c))
            lines.append(f"{mark} colour {c}: score {self.score(c)}, left {left or '-'}")
        if self.is_terminal():
            lines.append("game over")
        else:
            lines.append(f"to move: colour {self.to_move_colour} (seat {self.to_move})")
        return "\n".join(lines)

    # -- playouts ------------------------------------------------------------------------
    def _policy(self) -> tuple[int, FloatArray]:
        """(policy code, playout parameters) for the kernels, computed once per config: the
        weights of ``kernels.k_weight`` (``W_*``) and the reward's (``W_REWARD*``)."""
        cached = _POLICY_CACHE.get(self.config)
        if cached is None:
            cfg = self.config
            w = np.zeros(K.POLICY_WEIGHTS)
            w[1:6] = cfg.size_weights
            w[K.W_NEAR] = cfg.near_factor
            w[K.W_FAR] = cfg.far_factor
            w[1:6] /= w[1:6].max()  # all weights in (0, 1] for rejection sampling
            w[6:8] /= max(w[6], w[7])
            w[K.W_GAIN] = cfg.gain_factor
            w[K.W_GAIN_CAP] = cfg.gain_cap
            w[K.W_NOTAKE] = cfg.notake_factor
            w[K.W_OPEN_PIECES] = cfg.open_playout
            w[K.W_OPEN] = cfg.open_factor
            w[K.W_REWARD] = cfg.score_weight
            w[K.W_REWARD_SCALE] = cfg.score_scale
            pol = K.POLICY_UNIFORM if cfg.playout == "uniform" else K.POLICY_WEIGHTED
            cached = _POLICY_CACHE[cfg] = (pol, w)
        return cached

    def _prior_params(self) -> FloatArray:
        """The parameters of ``knowledge.k_priors`` (``P_*``), computed once per config."""
        pp = _PRIOR_CACHE.get(self.config)
        if pp is None:
            from games.blokus_duo import knowledge as KN

            cfg = self.config
            pp = np.zeros(KN.NUM_PARAMS)
            pp[KN.P_KIND] = 1.0 if cfg.priors == "knowledge" else 0.0
            pp[KN.P_COUNT] = cfg.prior_count
            pp[KN.P_SIZE_BONUS] = cfg.prior_size_bonus
            pp[KN.P_EARLY] = cfg.prior_early_pieces
            pp[KN.P_SIZE] = cfg.prior_size
            pp[KN.P_GAIN] = cfg.prior_gain
            pp[KN.P_GAIN_CAP] = cfg.prior_gain_cap
            pp[KN.P_TAKE] = cfg.prior_take
            pp[KN.P_WASTE] = cfg.prior_waste
            pp[KN.P_FRONT] = cfg.prior_front
            pp[KN.P_FRONT_RADIUS] = cfg.prior_front_radius
            pp[KN.P_OPEN_PIECES] = cfg.open_pieces
            pp[KN.P_OPEN_MIN] = cfg.open_min_size
            pp[KN.P_PRUNE_COUNT] = cfg.prune_count
            pp = _PRIOR_CACHE[self.config] = pp
        return pp

    def reward(self, colour: int) -> float:
        """Colour's reward for the current scores (``kernels.k_reward``): 1/0.5/0, blended
        with the score margin when the config's ``score_weight`` > 0."""
        w = self._policy()[1]
        d = self.score(colour) - self.score(1 - colour)
        return float(K.k_reward(d, w[K.W_REWARD], w[K.W_REWARD_SCALE]))

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        """Play a copy to the end with the configured policy; moves/players for RAVE."""
        pol, w = self._policy()
        r = np.array([rng.integers(2**63)], dtype=np.uint64)
        moves = np.empty(K.MAX_PLAYOUT_MOVES, dtype=np.int64)
        colours = np.empty(K.MAX_PLAYOUT_MOVES, dtype=np.int64)
        scores = np.empty(2, dtype=np.int64)
        n = K.k_playout_copy(self.geo.kernel_args, *self._arrays(), pol, w, r, moves, colours,
                             scores)
        c0 = self.seat_colours[0]
        players = (colours[:n] != c0).astype(np.int64)  # seat 0 plays colour c0
        r0 = float(K.k_reward(int(scores[c0] - scores[1 - c0]), w[K.W_REWARD],
                              w[K.W_REWARD_SCALE]))
        return Playout(np.array([r0, 1.0 - r0]), np.zeros(0), moves[:n], players)

    def playout_batch(self, moves: Sequence[int], rng: np.random.Generator,
                      seat: int) -> PlayoutBatch:
        """For each move: play it on a copy and play out; ``seat``'s returns."""
        g = self.geo
        pol, w = self._policy()
        r = np.array([rng.integers(2**63)], dtype=np.uint64)
        first = np.asarray(list(moves), dtype=np.int64)
        ret = np.empty(len(first))
        sc = np.empty(len(first), dtype=np.int64)
        K.k_playout_batch(g.kernel_args, *self._arrays(), *self._scratch(), first,
                          self.colour_of(seat), pol, w, r, ret, sc)
        return PlayoutBatch(ret, np.zeros((len(first), 0)), np.zeros(len(first), np.int64))

    def tree_game(self) -> TreeGame:
        """The position as the compiled UCT (search.ctree) sees it (games.blokus_duo.tree)."""
        from games.blokus_duo.tree import tree_game

        return tree_game(self)

    # -- priors and features --------------------------------------------------------------
    def priors(self) -> Priors:
        """The prior value and pseudo-count of each legal move (games.blokus_duo.knowledge:
        size priors or the knowledge priors, opening pruning)."""
        moves = self.legal_moves()
        if moves == [PASS] or not moves:
            return Priors(moves, np.full(len(moves), 0.5), np.zeros(len(moves)))
        from games.blokus_duo.knowledge import k_priors

        g = self.geo
        n = len(moves)
        values = np.empty(n)
        counts = np.empty(n)
        k_priors(g.cells, g.ncells, g.corners, g.ncorners, g.edges, g.nedges, g.start,
                 self.board, self.forb, self.att, self.meta, np.asarray(moves, dtype=np.int64),
                 n, values, counts, self._prior_params(),
                 np.empty(2 * g.num_cells, dtype=np.int64))
        return Priors(moves, values, counts)

    def features(self, colour: int | None = None) -> FloatArray:
        """The §7 evaluation features from ``colour``'s view (default: the mover); layout in
        :mod:`games.blokus_duo.features`."""
        from games.blokus_duo.features import features

        return features(self, self.to_move_colour if colour is None else colour)


def _dig(v: int) -> str:
    return "123456789abcdefghijklmnopqrstuvwxyz"[v - 1]
