"""Configuration of the Blokus Duo player (TOML + ``--set key=value``): flat settings from
which the player builds the search's configs (:class:`search.uct.UCTConfig` and the others)
and the game's playing settings (:class:`BlokusConfig`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from clients.config import ConfigError, CoreMap, load_config
from knowledge.blokus_duo.settings import BlokusConfig
from search.abucb import ABUCBConfig
from search.alphabeta import AlphaBetaConfig
from search.flat import FlatConfig
from search.uct import UCTConfig

# the decision cores that can play Blokus Duo, by the names of every client; the first
# three search in worker processes too (search.parallel)
BLOKUS_CORES = ("uct", "flat", "abucb", "alphabeta", "greedy")
PARALLEL_CORES = ("uct", "flat", "abucb")


class PlayerConfig(msgspec.Struct, frozen=True):
    """core: ``uct`` (UCT with RAVE and the game's priors, on the compiled tree unless
    ``compiled`` is false), ``alphabeta`` (iterative deepening over the learned evaluation in
    ``weights``), ``flat`` (flat Monte Carlo, UCB1-TUNED at the root), ``abucb`` (α-β over UCB
    bounds) or ``greedy`` (1 ply of the learned evaluation). ``workers`` > 1 runs uct, flat
    or abucb root-parallel in that many processes. ``seconds`` is the host's limit per move;
    the search gets ``seconds - margin`` minus what was already spent since the prompt
    arrived; ``playouts`` caps it (0: no cap). ``book``: the opening book played before any
    search. The settings of one core are named by it where two cores share a name
    (``abucb_depth``, ``alphabeta_depth``)."""

    preset: str = ""  # a release's player (PRESETS) beneath the settings given; "" = none
    # uct with the knowledge priors beat the first release's alphabeta (preset=v1) at 1 s per
    # move, and with the learned priors v2's knowledge priors (docs/results/blokus-duo.md)
    core: str = "uct"
    compiled: bool = True  # uct on the compiled tree (search.ctree); false: search.uct
    workers: Annotated[int, msgspec.Meta(ge=1, le=64)] = 1
    seconds: Annotated[float, msgspec.Meta(gt=0)] = 1.0  # the host's limit per move
    playouts: Annotated[int, msgspec.Meta(ge=0)] = 0  # a cap per move (0: none)
    margin: Annotated[float, msgspec.Meta(ge=0)] = 0.25  # seconds kept back from each move
    # (uct) search on the opponent's time: after our answer, the position after our move on
    # the tree the next decision reuses, until the next prompt (at most ``seconds`` and
    # ``playouts``); the compiled tree in this process only (compiled=true, workers=1)
    ponder: bool = False
    seed: int = 0  # the search's random generator (0: fresh randomness)
    team_code: str = "01"
    weights: str = ""  # a weights .npz (corvid blokus learn); "" = the bundled file
    # the opening book (corvid blokus book): "" = the bundled one, "none" = no book, a bundled
    # book's name (book-NAME.json: "replies"), or a file
    book: str = ""
    # the exact endgame solver (knowledge.blokus_duo.endgame), before any core's search: when
    # both colours together have at most endgame_moves legal placements it searches up to
    # endgame_nodes nodes, and a move it proves is played (0: off; it searches some 300k
    # nodes a second on a loaded machine, up to 900k)
    endgame_nodes: Annotated[int, msgspec.Meta(ge=0)] = 0
    endgame_moves: Annotated[int, msgspec.Meta(ge=0)] = 100
    warmup: bool = True  # compile / load the kernels before connecting
    # uct (search.uct.UCTConfig): exploration, RAVE, priors, tree reuse, widening
    c: Annotated[float, msgspec.Meta(ge=0)] = 0.0  # UCT's exploration constant
    rave: bool = True
    rave_k: Annotated[float, msgspec.Meta(gt=0)] = 300.0
    rave_mse: bool = False
    rave_child: bool = False  # β's n the child's own real visits (search.uct.rave_beta)
    rave_weighted: bool = False
    priors: bool = True  # the game's priors (prior_kind) in the tree
    prior_value: float = 0.5
    uct_prior_count: Annotated[float, msgspec.Meta(ge=0)] = 0.0
    grandfather: Annotated[float, msgspec.Meta(ge=0)] = 0.0
    widening: bool = False
    widening_initial: Annotated[int, msgspec.Meta(ge=1)] = 1
    widening_a: Annotated[float, msgspec.Meta(gt=0)] = 40.0
    widening_b: Annotated[float, msgspec.Meta(gt=0)] = 1.4
    reuse: bool = True
    uct_final: Literal["visits", "mean"] = "visits"
    uct_max_depth: Annotated[int, msgspec.Meta(ge=1)] = 1000
    tree_mb: Annotated[float, msgspec.Meta(gt=0)] = 1024.0  # the compiled tree's memory cap
    # the compiled tree answers as soon as its most visited move cannot be overtaken in the
    # time left (UCTConfig.early_stop)
    early_stop: bool = False
    # a leaf of the compiled tree gets its moves and priors once the edge into it has this
    # many visits (UCTConfig.expand_visits; 1: on its second visit)
    expand_visits: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 1
    # alphabeta (search.alphabeta.AlphaBetaConfig): depth, moves searched per node (0: all)
    alphabeta_depth: Annotated[int, msgspec.Meta(ge=1)] = 8
    alphabeta_width: Annotated[int, msgspec.Meta(ge=0)] = 12
    alphabeta_root_width: Annotated[int, msgspec.Meta(ge=0)] = 24
    alphabeta_order: bool = True
    alphabeta_check_every: Annotated[int, msgspec.Meta(ge=1)] = 16
    # abucb (search.abucb.ABUCBConfig): α-β over UCB bounds, abucb_width moves (0: all)
    abucb_depth: Annotated[int, msgspec.Meta(ge=1)] = 2
    abucb_width: Annotated[int, msgspec.Meta(ge=0)] = 12
    abucb_min_playouts: Annotated[int, msgspec.Meta(ge=1)] = 4
    abucb_bounds: Literal["ucb1-tuned", "ucb1"] = "ucb1-tuned"
    abucb_c: Annotated[float, msgspec.Meta(ge=0)] = 1.4142135623730951
    abucb_batch: Annotated[int, msgspec.Meta(ge=1)] = 8
    # flat (search.flat.FlatConfig): flat Monte Carlo, a bandit at the root
    bandit: Literal["ucb1-tuned", "ucb1"] = "ucb1-tuned"
    flat_c: Annotated[float, msgspec.Meta(ge=0)] = 1.4142135623730951
    alpha: Annotated[float, msgspec.Meta(gt=0, le=1)] = 1.0
    flat_final: Literal["mean", "visits"] = "mean"
    flat_batch: Annotated[int, msgspec.Meta(ge=1)] = 16
    prune: Annotated[float, msgspec.Meta(gt=0, le=1)] = 1.0
    min_arms: Annotated[int, msgspec.Meta(ge=1)] = 4
    # the game's playing settings (BlokusConfig): weighted playouts (policy.k_weight) with
    # probability proportional to the product of the weight of the placement's size 1..5,
    # near_factor if it touches the opponent's last placement (else far_factor), gain_factor
    # per new attach point it creates short of gain_cap (1: no such term), notake_factor if
    # it covers none of the opponent's attach points (1: no such term), and open_factor for
    # a piece smaller than 5 while the mover has placed fewer than open_playout pieces;
    # learned playouts (policy.k_learned_weight): probability proportional to the product of
    # the strengths of the placement's playout features (piece by phase, touching the
    # opponent's last placement, its attach points taken, new attach points, own attach
    # points spent) fitted to strong play (corvid learn blokus playouts; playout_weights:
    # the weights file, "" = the bundled one), each raised to playout_tau, one drawn among
    # playout_candidates legal placements drawn uniformly (0: among all, exact but slow)
    playout: Literal["uniform", "weighted", "learned"] = "uniform"
    size_weights: tuple[float, float, float, float, float] = (0.05, 0.1, 0.25, 0.5, 1.0)
    near_factor: Annotated[float, msgspec.Meta(gt=0, le=1)] = 1.0
    far_factor: Annotated[float, msgspec.Meta(gt=0, le=1)] = 0.5
    gain_factor: Annotated[float, msgspec.Meta(gt=0, le=1)] = 1.0
    gain_cap: int = 4
    notake_factor: Annotated[float, msgspec.Meta(gt=0, le=1)] = 1.0
    open_playout: int = 0
    open_factor: Annotated[float, msgspec.Meta(gt=0, le=1)] = 0.1
    playout_weights: str = ""
    playout_tau: Annotated[float, msgspec.Meta(gt=0)] = 1.0
    playout_candidates: Annotated[int, msgspec.Meta(ge=0)] = 16
    # the priors: "size" = 0.5 + prior_size_bonus * (size - 3) while the mover has placed
    # fewer than prior_early_pieces; "knowledge" = size, attach points created and taken,
    # spent, distance to the opponent; "learned" (the default: docs/results/blokus-duo.md) =
    # the strength of the placement's move features learned from strong play (corvid learn
    # blokus priors; move_weights: the weights file, "" = the bundled one), value prior_low +
    # (prior_high - prior_low) (gamma / max gamma) ** prior_tau; each worth prior_count visits
    prior_kind: Literal["size", "knowledge", "learned"] = "learned"
    prior_count: Annotated[float, msgspec.Meta(ge=0)] = 10.0
    prior_size_bonus: float = 0.05
    prior_early_pieces: int = 10
    prior_size: float = 0.03
    prior_gain: float = 0.02
    prior_gain_cap: int = 6
    prior_take: float = 0.03
    prior_waste: float = 0.02
    prior_front: float = 0.02
    prior_front_radius: int = 4
    prior_low: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.3
    prior_high: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.9
    prior_tau: Annotated[float, msgspec.Meta(gt=0)] = 0.25
    move_weights: str = ""
    # opening pruning in the tree: while the mover has placed fewer than open_pieces pieces,
    # placements smaller than open_min_size (when a bigger one fits) are never searched
    open_pieces: int = 0
    open_min_size: int = 5
    prune_count: Annotated[float, msgspec.Meta(ge=0)] = 1e4
    # the playing style NAME[:STRENGTH] (knowledge.blokus_duo.style; --help lists them): the
    # placements with its feature get STRENGTH x the style's base of extra prior
    # pseudo-visits, all wins, so the player chooses them more often; "" = the plain player.
    # It acts through the priors (cores uct and abucb), not on a move of the opening book
    style: str = ""
    # the reward of a finished game: 1/0.5/0 for win/draw/loss, blended with weight
    # score_weight with 0.5 + 0.5 clip(margin / score_scale, -1, 1)
    score_weight: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.0
    score_scale: Annotated[float, msgspec.Meta(gt=0)] = 30.0
    # the leaf's reachable space (knowledge.blokus_duo.space): a new leaf's value is
    # (1 - space_weight) x its playout's reward + space_weight x the logistic of its
    # reachable-score margin / space_scale (0: the playout alone)
    space_weight: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.0
    space_scale: Annotated[float, msgspec.Meta(gt=0)] = 8.0

    def __post_init__(self) -> None:
        """Every setting checked once, whichever way it came (TOML, --set): a bad value or
        two settings that contradict each other are an error naming them."""
        if self.core not in BLOKUS_CORES:
            raise ConfigError(f"core={self.core!r} cannot play Blokus Duo; the cores that "
                              "can: " + ", ".join(BLOKUS_CORES))
        if self.workers > 1 and self.core not in PARALLEL_CORES:
            raise ConfigError(f"workers={self.workers} needs core "
                              + ", ".join(PARALLEL_CORES) + f", not {self.core!r}")
        check_team_code(self.team_code, "team_code")
        if not self.margin < self.seconds:
            raise ConfigError(f"margin={self.margin:g} must be less than "
                              f"seconds={self.seconds:g} (else no move is ever searched)")
        if self.ponder and (self.core != "uct" or not self.compiled or self.workers > 1):
            raise ConfigError("ponder=true searches the compiled tree in this process: it "
                              "needs core=uct, compiled=true and workers=1 (here core="
                              f"{self.core}, compiled={str(self.compiled).lower()}, "
                              f"workers={self.workers})")
        if self.style and self.core == "uct" and not self.priors:
            raise ConfigError(f"style={self.style!r} acts through the priors: it needs "
                              "priors=true")
        if self.rave_child and self.rave_mse:
            raise ConfigError("rave_child=true sets the hand-selected schedule's n; the "
                              "minimum-MSE schedule (rave_mse=true) has none")
        try:
            self.game  # noqa: B018 - the game's own checks
        except ValueError as e:
            raise ConfigError(str(e)) from None

    @property
    def uct(self) -> UCTConfig:
        """The uct core's config."""
        return UCTConfig(c=self.c, rave=self.rave, rave_k=self.rave_k, rave_mse=self.rave_mse,
                         rave_child=self.rave_child, rave_weighted=self.rave_weighted,
                         priors=self.priors,
                         prior_value=self.prior_value, prior_count=self.uct_prior_count,
                         grandfather=self.grandfather, widening=self.widening,
                         widening_initial=self.widening_initial,
                         widening_a=self.widening_a, widening_b=self.widening_b,
                         reuse=self.reuse, final=self.uct_final, max_depth=self.uct_max_depth,
                         tree_mb=self.tree_mb, early_stop=self.early_stop,
                         expand_visits=self.expand_visits)

    @property
    def alphabeta(self) -> AlphaBetaConfig:
        """The alphabeta core's config."""
        return AlphaBetaConfig(max_depth=self.alphabeta_depth, width=self.alphabeta_width,
                               root_width=self.alphabeta_root_width,
                               order=self.alphabeta_order,
                               check_every=self.alphabeta_check_every)

    @property
    def abucb(self) -> ABUCBConfig:
        """The abucb core's config."""
        return ABUCBConfig(depth=self.abucb_depth, width=self.abucb_width,
                           min_playouts=self.abucb_min_playouts, bounds=self.abucb_bounds,
                           c=self.abucb_c, batch=self.abucb_batch)

    @property
    def flat(self) -> FlatConfig:
        """The flat core's config."""
        return FlatConfig(bandit=self.bandit, c=self.flat_c, alpha=self.alpha,
                          final=self.flat_final, batch=self.flat_batch, prune=self.prune,
                          min_arms=self.min_arms)

    @property
    def game(self) -> BlokusConfig:
        """The game's playing settings: playout policy, priors, opening pruning, reward."""
        return BlokusConfig(
            playout=self.playout, size_weights=self.size_weights,
            near_factor=self.near_factor, far_factor=self.far_factor,
            gain_factor=self.gain_factor, gain_cap=self.gain_cap,
            notake_factor=self.notake_factor, open_playout=self.open_playout,
            open_factor=self.open_factor, playout_weights=self.playout_weights,
            playout_tau=self.playout_tau, playout_candidates=self.playout_candidates,
            priors=self.prior_kind, prior_count=self.prior_count,
            prior_size_bonus=self.prior_size_bonus,
            prior_early_pieces=self.prior_early_pieces, prior_size=self.prior_size,
            prior_gain=self.prior_gain, prior_gain_cap=self.prior_gain_cap,
            prior_take=self.prior_take, prior_waste=self.prior_waste,
            prior_front=self.prior_front, prior_front_radius=self.prior_front_radius,
            prior_low=self.prior_low, prior_high=self.prior_high, prior_tau=self.prior_tau,
            move_weights=self.move_weights, open_pieces=self.open_pieces,
            open_min_size=self.open_min_size,
            prune_count=self.prune_count, style=self.style, score_weight=self.score_weight,
            score_scale=self.score_scale, space_weight=self.space_weight,
            space_scale=self.space_scale)


def check_team_code(code: str, what: str) -> str:
    """The two printable ASCII characters the host keeps; ValueError naming ``what``."""
    if len(code) != 2 or not all(0x21 <= ord(c) < 0x7F for c in code):
        raise ValueError(f"{what} {code!r} must be two printable ASCII characters")
    return code


# which cores read a setting (the others are read by every core): the playout policy is read
# by the three playout cores, the priors (opening pruning included) by the two tree cores
_PLAYOUT_CORES = ("uct", "flat", "abucb")
_PRIOR_CORES = ("uct", "abucb")
CORE_KEYS: CoreMap = {
    "compiled": ("uct",), "weights": ("alphabeta", "greedy"),
} | {key: ("uct",) for key in (
    "c", "rave", "rave_k", "rave_mse", "rave_child", "rave_weighted", "priors", "prior_value",
    "uct_prior_count", "grandfather", "widening", "widening_initial", "widening_a",
    "widening_b", "reuse", "uct_final", "uct_max_depth", "tree_mb", "early_stop", "ponder",
    "expand_visits")
} | {key: ("alphabeta",) for key in (
    "alphabeta_depth", "alphabeta_width", "alphabeta_root_width", "alphabeta_order",
    "alphabeta_check_every")
} | {key: ("abucb",) for key in (
    "abucb_depth", "abucb_width", "abucb_min_playouts", "abucb_bounds", "abucb_c",
    "abucb_batch")
} | {key: ("flat",) for key in (
    "bandit", "flat_c", "alpha", "flat_final", "flat_batch", "prune", "min_arms")
} | {key: _PLAYOUT_CORES for key in (
    "playout", "size_weights", "near_factor", "far_factor", "gain_factor", "gain_cap",
    "notake_factor", "open_playout", "open_factor", "playout_weights", "playout_tau",
    "playout_candidates")
} | {key: _PRIOR_CORES for key in (
    "prior_kind", "prior_count", "prior_size_bonus", "prior_early_pieces", "prior_size",
    "prior_gain", "prior_gain_cap", "prior_take", "prior_waste", "prior_front",
    "prior_front_radius", "prior_low", "prior_high", "prior_tau", "move_weights",
    "open_pieces", "open_min_size", "prune_count", "style")
} | {key: ("uct", "abucb") for key in ("space_weight", "space_scale")}

# Named players, one per release: a preset's settings lie beneath the file's and the --set
# ones and name every setting of how its player plays, literally, so that later changes of
# the defaults leave it as it was. The host's time, the seed, the team code, the worker
# count and the start-up are not part of a player. The newest preset is the default player.
PRESETS: dict[str, dict[str, Any]] = {
    # the first release: alpha-beta over the bundled learned evaluation, no book
    "v1": {
        "core": "alphabeta", "weights": "", "book": "none", "margin": 0.25, "ponder": False,
        "endgame_nodes": 0, "endgame_moves": 100,
        "alphabeta_depth": 8, "alphabeta_width": 12, "alphabeta_root_width": 24,
        "alphabeta_order": True, "alphabeta_check_every": 16,
        "playout": "uniform", "size_weights": [0.05, 0.1, 0.25, 0.5, 1.0],
        "near_factor": 1.0, "far_factor": 0.5, "gain_factor": 1.0, "gain_cap": 4,
        "notake_factor": 1.0, "open_playout": 0, "open_factor": 0.1,
        "playout_weights": "", "playout_tau": 1.0, "playout_candidates": 16,
        "prior_kind": "size", "prior_count": 10.0, "prior_size_bonus": 0.05,
        "prior_early_pieces": 10, "prior_size": 0.03, "prior_gain": 0.02,
        "prior_gain_cap": 6, "prior_take": 0.03, "prior_waste": 0.02, "prior_front": 0.02,
        "prior_front_radius": 4, "prior_low": 0.3, "prior_high": 0.9, "prior_tau": 0.25,
        "move_weights": "", "open_pieces": 0, "open_min_size": 5,
        "prune_count": 10000.0, "style": "", "score_weight": 0.0, "score_scale": 30.0,
        "space_weight": 0.0, "space_scale": 8.0,
    },
    # the second release: UCT on the compiled tree with RAVE and the knowledge priors over
    # uniform playouts, the bundled opening book
    "v2": {
        "core": "uct", "compiled": True, "weights": "", "book": "", "margin": 0.25,
        "endgame_nodes": 0, "endgame_moves": 100,
        "c": 0.0, "rave": True, "rave_k": 300.0, "rave_mse": False, "rave_child": False,
        "rave_weighted": False,
        "priors": True, "prior_value": 0.5, "uct_prior_count": 0.0, "grandfather": 0.0,
        "widening": False, "widening_initial": 1, "widening_a": 40.0, "widening_b": 1.4,
        "reuse": True, "uct_final": "visits", "uct_max_depth": 1000, "tree_mb": 1024.0,
        "early_stop": False, "ponder": False, "expand_visits": 1,
        "playout": "uniform", "size_weights": [0.05, 0.1, 0.25, 0.5, 1.0],
        "near_factor": 1.0, "far_factor": 0.5, "gain_factor": 1.0, "gain_cap": 4,
        "notake_factor": 1.0, "open_playout": 0, "open_factor": 0.1,
        "playout_weights": "", "playout_tau": 1.0, "playout_candidates": 16,
        "prior_kind": "knowledge", "prior_count": 10.0, "prior_size_bonus": 0.05,
        "prior_early_pieces": 10, "prior_size": 0.03, "prior_gain": 0.02,
        "prior_gain_cap": 6, "prior_take": 0.03, "prior_waste": 0.02, "prior_front": 0.02,
        "prior_front_radius": 4, "prior_low": 0.3, "prior_high": 0.9, "prior_tau": 0.25,
        "move_weights": "", "open_pieces": 0, "open_min_size": 5,
        "prune_count": 10000.0, "style": "", "score_weight": 0.0, "score_scale": 30.0,
        "space_weight": 0.0, "space_scale": 8.0,
    },
    # the third release: v2 with the learned priors (the move features' strengths fitted to
    # a strong engine's games, the bundled move-weights file)
    "v3": {
        "core": "uct", "compiled": True, "weights": "", "book": "", "margin": 0.25,
        "endgame_nodes": 0, "endgame_moves": 100,
        "c": 0.0, "rave": True, "rave_k": 300.0, "rave_mse": False, "rave_child": False,
        "rave_weighted": False,
        "priors": True, "prior_value": 0.5, "uct_prior_count": 0.0, "grandfather": 0.0,
        "widening": False, "widening_initial": 1, "widening_a": 40.0, "widening_b": 1.4,
        "reuse": True, "uct_final": "visits", "uct_max_depth": 1000, "tree_mb": 1024.0,
        "early_stop": False, "ponder": False, "expand_visits": 1,
        "playout": "uniform", "size_weights": [0.05, 0.1, 0.25, 0.5, 1.0],
        "near_factor": 1.0, "far_factor": 0.5, "gain_factor": 1.0, "gain_cap": 4,
        "notake_factor": 1.0, "open_playout": 0, "open_factor": 0.1,
        "playout_weights": "", "playout_tau": 1.0, "playout_candidates": 16,
        "prior_kind": "learned", "prior_count": 10.0, "prior_size_bonus": 0.05,
        "prior_early_pieces": 10, "prior_size": 0.03, "prior_gain": 0.02,
        "prior_gain_cap": 6, "prior_take": 0.03, "prior_waste": 0.02, "prior_front": 0.02,
        "prior_front_radius": 4, "prior_low": 0.3, "prior_high": 0.9, "prior_tau": 0.25,
        "move_weights": "", "open_pieces": 0, "open_min_size": 5,
        "prune_count": 10000.0, "style": "", "score_weight": 0.0, "score_scale": 30.0,
        "space_weight": 0.0, "space_scale": 8.0,
    },
}


PRESET_DOCS = {
    "v1": "the first release's player: core=alphabeta over the bundled weights "
          "(alphabeta_depth 8, alphabeta_width 12, alphabeta_root_width 24), no book, "
          "margin 0.25",
    "v2": "the second release's player: core=uct on the compiled tree with RAVE and the "
          "knowledge priors, uniform playouts, the bundled opening book",
    "v3": "the third release's player (the defaults): v2 with the learned priors "
          "(prior_kind=learned, the bundled move weights)",
}


def preset_help() -> str:
    """One line per preset, for --help."""
    return "\n".join(f"preset={name}: {PRESET_DOCS[name]}" for name in PRESETS)


def load_player_config(path: str | Path | None = None, overrides: Iterable[str] = ()
                       ) -> PlayerConfig:
    """The player's settings: defaults <- preset <- TOML file <- ``--set`` overrides, a
    setting of a core not in use refused."""
    return load_config(PlayerConfig, path, overrides, presets=PRESETS, cores=CORE_KEYS)
