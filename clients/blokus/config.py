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


# the default player's game: the knowledge priors (measured, docs/blokus-host.md); uniform
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

    preset: str = ""  # a named player (PRESETS) beneath the settings given; "" = none
    # uct with the knowledge priors beat the wave-1 alphabeta (preset=v1) at 1 s per move
    # (docs/blokus-host.md)
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


# Named players: a preset's settings lie beneath the file's and the --set ones (nested
# sections merge key by key). v1 is the wave-1 default player, kept so that every later
# version can be measured against it: alpha-beta over the bundled learned evaluation.
PRESETS: dict[str, dict[str, Any]] = {
    "v1": {
        "core": "alphabeta",
        "weights": "",
        "book": "none",
        "margin": 0.25,
        "alphabeta": {"max_depth": 8, "width": 12, "root_width": 24, "order": True,
                      "check_every": 16},
        "game": msgspec.to_builtins(BlokusConfig()),  # the wave-1 game (unused by alphabeta)
    },
}


PRESET_DOCS = {
    "v1": "the wave-1 default player: core=alphabeta over the bundled weights (max_depth 8, "
          "width 12, root_width 24), no book, margin 0.25, the wave-1 game settings",
}


def preset_help() -> str:
    """One line per preset, for --help."""
    return "\n".join(f"preset={name}: {PRESET_DOCS[name]}" for name in PRESETS)


def load_player_config(path: str | Path | None = None, overrides: Iterable[str] = ()
                       ) -> PlayerConfig:
    """The player's settings: defaults <- preset <- TOML file <- ``--set`` overrides."""
    return load_config(PlayerConfig, path, overrides, presets=PRESETS)
