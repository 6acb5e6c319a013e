"""Configuration of the UECda client (``--config FILE`` and ``--set key=value``).

:func:`load_client_config` is the one way in: :func:`clients.config.load_config` reads the
TOML file and the overrides over a release's player (``preset=v1``, ``preset=v2``), refuses a
setting of a core not in use (:data:`CORE_KEYS`), and :func:`check` checks the settings that
depend on each other, so a setting never silently means something else.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from clients.config import ConfigError, CoreMap, load_config
from knowledge.daihinmin.style import STYLES
from knowledge.style import parse_style

CORES = ("flat", "ismcts", "uct", "baseline")  # the cores that can play Daihinmin (hidden cards)


class ClientConfig(msgspec.Struct, frozen=True, kw_only=True):
    preset: str = ""  # a release's player (PRESETS) beneath the settings given; "" = none
    core: str = "flat"  # flat | ismcts | uct | baseline
    # the budget per decision: seconds (0: none, then playouts alone, within max_seconds)
    # and an optional cap of playouts (0: none); seconds given without playouts: time only
    seconds: Annotated[float, msgspec.Meta(ge=0)] = 0.0
    playouts: Annotated[int, msgspec.Meta(ge=0)] = 3000
    max_seconds: Annotated[float, msgspec.Meta(gt=0)] = 5.0  # hard cap per decision
    # α discounting of intermediate rewards (1.0 = plain Monte Carlo)
    alpha: Annotated[float, msgspec.Meta(gt=0, le=1)] = 0.9
    reward: Literal["players", "cards"] = "players"  # the intermediate reward r_t
    bandit: Literal["ucb1-tuned", "ucb1"] = "ucb1-tuned"
    final: Literal["mean", "visits"] = "mean"
    batch: Annotated[int, msgspec.Meta(ge=1)] = 16  # flat MC, ISMCTS: playouts per kernel call
    # ISMCTS: below the root, PUCT over our own playout policy's probabilities of our moves
    tree_priors: bool = False
    # flat MC: search the likeliest moves (policy) up to this probability mass (1: every move)
    prune: Annotated[float, msgspec.Meta(gt=0, le=1)] = 1.0
    policy: Literal["heuristic", "uniform", "learned"] = "learned"  # playout policy
    # the learned policy's weights: a file, or the name of a bundled one (v1-selfplay: fitted
    # to v1's self-play; strong: to strong play; "" = v1-selfplay;
    # knowledge.daihinmin.learned.policy_path); several, A+B: each opponent's model starts
    # from the one that predicts its moves best, the first serving our own moves
    weights: str = "v1-selfplay"
    own_policy: str = ""  # weights of our own moves in the playouts ("" = weights')
    # of the learned policy for our own moves in the playouts
    temperature: Annotated[float, msgspec.Meta(gt=0)] = 1.0
    # of the opponents' models for their moves in the playouts
    opp_temperature: Annotated[float, msgspec.Meta(gt=0)] = 1.0
    deal: Literal["uniform", "inference"] = "inference"  # how the hidden cards are dealt
    worlds: Annotated[int, msgspec.Meta(ge=1)] = 64  # deal=inference: worlds per decision
    # opponent model: (1 - eps) policy + eps uniform
    model_eps: Annotated[float, msgspec.Meta(gt=0, le=1)] = 0.05
    # deal=inference: chain steps (card swaps tried) between worlds
    chain_thin: Annotated[int, msgspec.Meta(ge=1)] = 16
    # adapt: per-opponent models, refitted online; select: each opponent's model chosen
    # by how well it predicts that opponent, among the weights adapted and as they are
    opponents: Literal["fixed", "adapt", "select"] = "adapt"
    rule_model: bool = False  # the inference's models mix in the rule player (weights fitted)
    rule_playouts: bool = False  # ... and so do the opponents' moves in the playouts
    exchange_prior: bool = False  # deal=inference: the exchanges we did not see weigh worlds
    c: Annotated[float, msgspec.Meta(ge=0)] = 0.7  # exploration: UCT, ISMCTS with UCB1
    endgame: bool = True  # play a sure finish (knowledge.daihinmin.endgame) without searching
    endgame_playouts: bool = True  # our own seat takes its sure finishes in the playouts too
    exchange: Literal["search", "heuristic"] = "search"
    # exchange search: the weakest cards considered (the daifugo gives two)
    exchange_candidates: Annotated[int, msgspec.Meta(ge=2)] = 6
    # exchange search: playouts (0: a decision's budget)
    exchange_playouts: Annotated[int, msgspec.Meta(ge=0)] = 0
    # >1: root-parallel search in that many worker processes
    workers: Annotated[int, msgspec.Meta(ge=1, le=64)] = 1
    # a playing style NAME[:STRENGTH] (STYLES; "" = the plain player): the search's
    # optimistic prior for the moves with the style's feature, STRENGTH times the default
    style: str = ""
    seed: int = 0  # 0: fresh randomness
    # seconds to wait for the server (0: forever)
    recv_timeout: Annotated[float, msgspec.Meta(ge=0)] = 0.0


# Named players, one per release. A preset sets every setting it names unless the user set
# it too; it names every setting of how its player plays, literally, so that later changes
# of the defaults leave it as it was (the worker count, the seed, the cap per decision and
# the server's timeout are not part of a player). The newest preset is the default player.
PRESETS: dict[str, dict[str, Any]] = {
    # the first release: flat MC, 3000 playouts, alpha 0.9, heuristic playouts, uniform dealing
    "v1": {"core": "flat", "playouts": 3000, "seconds": 0.0, "alpha": 0.9,
           "reward": "players", "bandit": "ucb1-tuned", "final": "mean", "batch": 16,
           "prune": 1.0, "temperature": 1.0, "opp_temperature": 1.0, "endgame": False,
           "endgame_playouts": False, "policy": "heuristic", "deal": "uniform",
           "opponents": "fixed", "exchange": "search", "exchange_candidates": 6,
           "exchange_playouts": 0, "rule_model": False, "rule_playouts": False,
           "exchange_prior": False, "style": ""},
    # the second release: flat MC over the learned playout policy in worlds dealt by
    # inference of the hidden hands, opponent models adapted online, sure finishes played
    "v2": {"core": "flat", "playouts": 3000, "seconds": 0.0, "alpha": 0.9,
           "reward": "players", "bandit": "ucb1-tuned", "final": "mean", "batch": 16,
           "prune": 1.0, "policy": "learned", "weights": "v1-selfplay", "own_policy": "",
           "temperature": 1.0, "opp_temperature": 1.0, "deal": "inference", "worlds": 64,
           "model_eps": 0.05, "chain_thin": 16, "opponents": "adapt", "rule_model": False,
           "rule_playouts": False, "exchange_prior": False, "c": 0.7, "endgame": True,
           "endgame_playouts": True, "exchange": "search", "exchange_candidates": 6,
           "exchange_playouts": 0, "style": "", "tree_priors": False},
}

PRESET_DOCS = {
    "v1": "the first release's player: flat MC, 3000 playouts, heuristic playouts, uniform "
          "dealing of the hidden cards, no sure finishes",
    "v2": "the second release's player (the defaults): flat MC, 3000 playouts, the learned "
          "playout policy, the hidden hands dealt by inference, opponent models, sure finishes",
}

# which cores read a setting (the others are read by every core, or by none that searches)
_SEARCHING = ("flat", "ismcts", "uct")
CORE_KEYS: CoreMap = {
    key: _SEARCHING for key in (
        "playouts", "seconds", "alpha", "reward", "policy", "exchange", "exchange_candidates",
        "exchange_playouts", "workers", "temperature", "opp_temperature", "endgame",
        "endgame_playouts", "weights", "own_policy", "deal", "worlds", "model_eps",
        "chain_thin", "opponents", "rule_model", "rule_playouts", "exchange_prior")
} | {key: ("flat", "ismcts") for key in ("bandit", "final", "batch")} | {"prune": ("flat",)} \
  | {"c": ("ismcts", "uct"), "style": ("flat", "uct"), "tree_priors": ("ismcts",)}


def preset_help() -> str:
    """One line per preset, for --help."""
    return "\n".join(f"preset={name}: {PRESET_DOCS[name]}" for name in PRESETS)


def load_client_config(path: str | Path | None = None,
                       overrides: Iterable[str] = ()) -> ClientConfig:
    """The client's settings: defaults <- preset <- file <- ``--set``, the core rule, then
    :func:`check`."""
    return load_config(ClientConfig, path, overrides, presets=PRESETS, cores=CORE_KEYS,
                       check=check)


def check(cfg: ClientConfig, given: frozenset[str] = frozenset()) -> ClientConfig:
    """The settings that depend on each other, checked once; conflicting settings are errors
    naming them. ``given`` names the settings the user gave (not those a preset filled in).
    Returns the settings in force."""
    if cfg.core not in CORES:
        raise ConfigError(f"core={cfg.core!r} cannot play Daihinmin (five players, hidden "
                          f"cards); cores for corvid uecda: {', '.join(CORES)}")
    if cfg.seconds > cfg.max_seconds:
        raise ConfigError(f"seconds={cfg.seconds} exceeds max_seconds={cfg.max_seconds}, the "
                          "hard cap per decision: raise max_seconds too")
    if cfg.playouts == 0 and cfg.seconds == 0 and cfg.core != "baseline":
        raise ConfigError("playouts=0 (no playout limit) needs seconds=S, the time per "
                          "decision")
    for key in ("temperature", "opp_temperature", "own_policy"):
        if key in given and cfg.policy != "learned":
            raise ConfigError(f"{key}: a setting of policy=learned")
    for key in ("worlds", "chain_thin", "rule_model", "rule_playouts", "exchange_prior"):
        if key in given and cfg.deal != "inference":
            raise ConfigError(f"{key}: only with deal=inference")
    for key in ("rule_model", "rule_playouts"):
        if key in given and getattr(cfg, key) and cfg.opponents == "fixed":
            raise ConfigError(f"{key}: the rule player's weights are fitted to the opponents' "
                              "revealed decisions; it needs opponents=adapt or select")
    if ("opponents" in given and cfg.opponents != "fixed" and cfg.policy != "learned"
            and cfg.deal != "inference"):
        raise ConfigError(f"opponents={cfg.opponents}: the opponent models serve "
                          "policy=learned and deal=inference; with neither it has no effect")
    try:
        parse_style(cfg.style, STYLES)
    except ValueError as e:
        raise ConfigError(str(e)) from e
    if "weights" in given and not uses_weights(cfg):
        raise ConfigError("weights: only read with policy=learned, deal=inference or "
                          "prune < 1")
    return cfg


def uses_weights(cfg: ClientConfig) -> bool:
    """Whether the learned policy is needed (for the playouts or the opponent model)."""
    return cfg.policy == "learned" or cfg.deal == "inference" or cfg.prune < 1.0
