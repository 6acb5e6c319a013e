"""Configuration of the Blokus Duo player (TOML + ``--set key=value``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import msgspec

from clients.config import load_config
from knowledge.blokus_duo.settings import BlokusConfig
from search.abucb import ABUCBConfig
from search.alphabeta import AlphaBetaConfig
from search.flat import FlatConfig
from search.uct import UCTConfig

# the decision cores that can play Blokus Duo, by the names of every client; the first
# three search in worker processes too (search.parallel)
BLOKUS_CORES = ("uct", "flat", "abucb", "alphabeta", "greedy")
PARALLEL_CORES = ("uct", "flat", "abucb")


# the default player's game: the knowledge priors (docs/results/blokus-duo.md); uniform
# playouts (the weighted ones win nothing at equal playouts and cost ~1.8x the time), no
# opening pruning, no score-margin reward (neither measured better)
GAME = BlokusConfig(priors="knowledge")


class PlayerConfig(msgspec.Struct, frozen=True):
    """core: ``uct`` (UCT with RAVE and the game's priors, on the compiled tree unless
    ``compiled`` is false), ``alphabeta`` (iterative deepening over the learned evaluation in
    ``weights``), ``flat`` (flat Monte Carlo, UCB1-TUNED at the root), ``abucb`` (α-β over UCB
    bounds) or ``greedy`` (1 ply of the learned evaluation). ``workers`` > 1 runs uct, flat
    or abucb root-parallel in that many processes. ``time`` is the host's limit per move;
    the search gets ``time - margin`` minus what was already spent since the prompt
    arrived. ``book``: the opening book played before any search."""

    preset: str = ""  # a release's player (PRESETS) beneath the settings given; "" = none
    # uct with the knowledge priors beat the first release's alphabeta (preset=v1) at 1 s per
    # move (docs/results/blokus-duo.md)
    core: str = "uct"
    compiled: bool = True
    workers: Annotated[int, msgspec.Meta(ge=1, le=64)] = 1
    time: float = 1.0
    margin: float = 0.25
    seed: int = 0
    team_code: str = "01"
    weights: str = ""  # a weights .npz (corvid blokus learn); "" = the bundled file
    # the opening book (corvid blokus book): "" = the bundled one, "none" = no book, or a file
    book: str = ""
    uct: UCTConfig = UCTConfig(c=0.0, rave=True, rave_k=300.0, priors=True, reuse=True)
    alphabeta: AlphaBetaConfig = AlphaBetaConfig(max_depth=8, width=12, root_width=24)
    abucb: ABUCBConfig = ABUCBConfig(depth=2, width=12)
    flat: FlatConfig = FlatConfig()
    game: BlokusConfig = GAME
    warmup: bool = True  # compile / load the kernels before connecting

    def __post_init__(self) -> None:
        """Every setting checked once, whichever way it came (TOML, --set): a bad value or
        two settings that contradict each other are an error naming them."""
        if self.core not in BLOKUS_CORES:
            raise ValueError(f"core {self.core!r} cannot play Blokus Duo; the cores that can: "
                             + ", ".join(BLOKUS_CORES))
        if self.workers > 1 and self.core not in PARALLEL_CORES:
            raise ValueError(f"workers={self.workers} needs core "
                             + ", ".join(PARALLEL_CORES) + f", not {self.core!r}")
        check_team_code(self.team_code, "team_code")
        if not self.time > 0:
            raise ValueError(f"time={self.time:g}: the host's seconds per move must be > 0")
        if not 0 <= self.margin < self.time:
            raise ValueError(f"margin={self.margin:g} must be >= 0 and less than "
                             f"time={self.time:g} (else no move is ever searched)")
        if self.weights and self.core in PARALLEL_CORES:
            raise ValueError(f"weights={self.weights!r} is read by core=alphabeta or greedy, "
                             f"not by core={self.core}")
        u, ab = self.uct, self.alphabeta
        for name, ok in (("uct.c", u.c >= 0), ("uct.rave_k", u.rave_k > 0),
                         ("uct.prior_count", u.prior_count >= 0),
                         ("uct.grandfather", u.grandfather >= 0),
                         ("uct.widening_initial", u.widening_initial >= 1),
                         ("uct.widening_a", u.widening_a > 0),
                         ("uct.widening_b", u.widening_b > 0),
                         ("uct.max_depth", u.max_depth >= 1),
                         ("alphabeta.max_depth", ab.max_depth >= 1),
                         ("alphabeta.width", ab.width >= 0),
                         ("alphabeta.root_width", ab.root_width >= 0),
                         ("alphabeta.check_every", ab.check_every >= 1)):
            if not ok:
                section, _, key = name.partition(".")
                raise ValueError(f"{name}={getattr(getattr(self, section), key)} is out of "
                                 "range")


def check_team_code(code: str, what: str) -> str:
    """The two printable ASCII characters the host keeps; ValueError naming ``what``."""
    if len(code) != 2 or not all(0x21 <= ord(c) < 0x7F for c in code):
        raise ValueError(f"{what} {code!r} must be two printable ASCII characters")
    return code


# Named players, one per release: a preset's settings lie beneath the file's and the --set
# ones (nested sections merge key by key) and name every setting of how its player plays,
# literally, so that later changes of the defaults leave it as it was. The host's time, the
# seed, the team code, the worker count and the start-up are not part of a player. The
# newest preset is the default player.
PRESETS: dict[str, dict[str, Any]] = {
    # the first release: alpha-beta over the bundled learned evaluation, no book
    "v1": {
        "core": "alphabeta",
        "weights": "",
        "book": "none",
        "margin": 0.25,
        "alphabeta": {"max_depth": 8, "width": 12, "root_width": 24, "order": True,
                      "check_every": 16},
        "game": {"playout": "uniform", "size_weights": [0.05, 0.1, 0.25, 0.5, 1.0],
                 "near_factor": 1.0, "far_factor": 0.5, "gain_factor": 1.0, "gain_cap": 4,
                 "notake_factor": 1.0, "open_playout": 0, "open_factor": 0.1,
                 "priors": "size", "prior_count": 10.0, "prior_size_bonus": 0.05,
                 "prior_early_pieces": 10, "prior_size": 0.03, "prior_gain": 0.02,
                 "prior_gain_cap": 6, "prior_take": 0.03, "prior_waste": 0.02,
                 "prior_front": 0.02, "prior_front_radius": 4, "open_pieces": 0,
                 "open_min_size": 5, "prune_count": 10000.0, "score_weight": 0.0,
                 "score_scale": 30.0},
    },
    # the second release: UCT on the compiled tree with RAVE and the knowledge priors over
    # uniform playouts, the bundled opening book
    "v2": {
        "core": "uct",
        "compiled": True,
        "weights": "",
        "book": "",
        "margin": 0.25,
        "uct": {"c": 0.0, "rave": True, "rave_k": 300.0, "rave_mse": False,
                "rave_weighted": False, "priors": True, "prior_value": 0.5,
                "prior_count": 0.0, "grandfather": 0.0, "widening": False,
                "widening_initial": 1, "widening_a": 40.0, "widening_b": 1.4, "reuse": True,
                "final": "visits", "max_depth": 1000, "tree_mb": 1024.0},
        "game": {"playout": "uniform", "size_weights": [0.05, 0.1, 0.25, 0.5, 1.0],
                 "near_factor": 1.0, "far_factor": 0.5, "gain_factor": 1.0, "gain_cap": 4,
                 "notake_factor": 1.0, "open_playout": 0, "open_factor": 0.1,
                 "priors": "knowledge", "prior_count": 10.0, "prior_size_bonus": 0.05,
                 "prior_early_pieces": 10, "prior_size": 0.03, "prior_gain": 0.02,
                 "prior_gain_cap": 6, "prior_take": 0.03, "prior_waste": 0.02,
                 "prior_front": 0.02, "prior_front_radius": 4, "open_pieces": 0,
                 "open_min_size": 5, "prune_count": 10000.0, "score_weight": 0.0,
                 "score_scale": 30.0},
    },
}


PRESET_DOCS = {
    "v1": "the first release's player: core=alphabeta over the bundled weights (max_depth 8, "
          "width 12, root_width 24), no book, margin 0.25",
    "v2": "the second release's player (the defaults): core=uct on the compiled tree with "
          "RAVE and the knowledge priors, uniform playouts, the bundled opening book",
}


def preset_help() -> str:
    """One line per preset, for --help."""
    return "\n".join(f"preset={name}: {PRESET_DOCS[name]}" for name in PRESETS)


def load_player_config(path: str | Path | None = None, overrides: Iterable[str] = ()
                       ) -> PlayerConfig:
    """The player's settings: defaults <- preset <- TOML file <- ``--set`` overrides."""
    return load_config(PlayerConfig, path, overrides, presets=PRESETS)
