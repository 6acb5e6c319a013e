"""The playing settings of Blokus Duo: what the search's position
(:class:`knowledge.blokus_duo.position.BlokusPosition`) plays with."""

from __future__ import annotations

from typing import Literal

import msgspec

from knowledge.blokus_duo.moves import load_move_weights
from knowledge.blokus_duo.playout_features import load_playout_weights
from knowledge.blokus_duo.style import STYLES
from knowledge.style import parse_style


class BlokusConfig(msgspec.Struct, frozen=True):
    """How the search plays Blokus Duo: playout policy, priors, opening pruning and reward.
    The defaults are the first player's settings (preset v1): uniform playouts, size
    priors, win/loss reward."""

    playout: Literal["uniform", "weighted", "learned"] = "uniform"
    # weighted playouts (policy.k_weight): probability proportional to the product of the
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
    # learned playouts (policy.k_learned_weight): probability proportional to the product of
    # the strengths of the placement's playout features (knowledge.blokus_duo.
    # playout_features) from the weights file playout_weights ("" = the bundled one), each
    # raised to playout_tau (below 1 flatter, above 1 sharper); among playout_candidates
    # legal placements drawn uniformly at each pick (0: among all legal placements, exact
    # but slow early in the game)
    playout_weights: str = ""
    playout_tau: float = 1.0
    playout_candidates: int = 16
    # priors (knowledge.blokus_duo.priors): "size" = 0.5 + prior_size_bonus * (size - 3) while
    # the mover has placed fewer than prior_early_pieces; "knowledge" = size, attach points
    # created and taken, spent, distance to the opponent; "learned" = the strength of the
    # placement's move features (knowledge.blokus_duo.moves) from the weights file
    # move_weights ("" = the bundled one), value prior_low + (prior_high - prior_low)
    # (gamma / max gamma) ** prior_tau; each worth prior_count visits
    priors: Literal["size", "knowledge", "learned"] = "size"
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
    prior_low: float = 0.3
    prior_high: float = 0.9
    prior_tau: float = 0.25
    move_weights: str = ""
    # opening pruning in the tree: while the mover has placed fewer than open_pieces pieces,
    # placements smaller than open_min_size (when a bigger one fits) are never searched
    open_pieces: int = 0
    open_min_size: int = 5
    prune_count: float = 1e4
    # the playing style NAME[:STRENGTH] (knowledge.blokus_duo.style): placements with its
    # feature get STRENGTH x style.BASE[NAME] extra prior pseudo-visits, all wins; "" = none
    style: str = ""
    # the reward of a finished game: 1/0.5/0 for win/draw/loss, blended with weight
    # score_weight with 0.5 + 0.5 clip(margin / score_scale, -1, 1)
    score_weight: float = 0.0
    score_scale: float = 30.0
    # the leaf's reachable space (knowledge.blokus_duo.space): a new leaf's value is
    # (1 - space_weight) * its playout's reward + space_weight * the logistic of its
    # reachable-score margin / space_scale (0: the playout alone)
    space_weight: float = 0.0
    space_scale: float = 8.0

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
        if not 0 <= self.space_weight <= 1 or self.space_scale <= 0:
            raise ValueError("space_weight in [0, 1] and space_scale > 0")
        if self.prior_count < 0 or self.prune_count < 0:
            raise ValueError("prior_count and prune_count must be >= 0")
        parse_style(self.style, STYLES)
        if self.playout == "learned":
            if self.playout_tau <= 0 or self.playout_candidates < 0:
                raise ValueError("playout_tau must be > 0 and playout_candidates >= 0")
            load_playout_weights(self.playout_weights)  # a missing or wrong file: its error now
        if self.priors == "learned":
            if not 0 <= self.prior_low <= self.prior_high <= 1 or self.prior_tau <= 0:
                raise ValueError("the learned priors need 0 <= prior_low <= prior_high <= 1 "
                                 "and prior_tau > 0")
            load_move_weights(self.move_weights)  # a missing or wrong file: its error now


DEFAULT_CONFIG = BlokusConfig()
