"""Configuration of the Blokus Duo player (TOML + ``--set key=value``)."""

from __future__ import annotations

from typing import Literal

import msgspec

from games.blokus_duo import BlokusConfig
from search.alphabeta import AlphaBetaConfig
from search.uct import UCTConfig


class PlayerConfig(msgspec.Struct, frozen=True):
    """core: ``uct`` (UCT with RAVE and the game's priors), ``alphabeta`` (iterative
    deepening over the learned evaluation in ``weights``) or ``greedy`` (1 ply of the learned
    evaluation). ``time`` is the host's limit per move; the search gets ``time - margin``
    minus what was already spent since the prompt arrived."""

    # alphabeta with the bundled weights beat uct 119-5-76 at 1 s per move (docs/blokus-host.md)
    core: Literal["uct", "alphabeta", "greedy"] = "alphabeta"
    time: float = 1.0
    margin: float = 0.25
    seed: int = 0
    team_code: str = "01"
    weights: str = ""  # a weights .npz (corvid blokus learn); "" = the bundled file
    uct: UCTConfig = UCTConfig(c=0.0, rave=True, rave_k=300.0, priors=True, reuse=True)
    alphabeta: AlphaBetaConfig = AlphaBetaConfig(max_depth=8, width=12, root_width=24)
    game: BlokusConfig = BlokusConfig()
    warmup: bool = True  # compile / load the kernels before connecting
