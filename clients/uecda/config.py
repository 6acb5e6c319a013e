"""Configuration of the UECda client (``--config FILE`` and ``--set key=value``).

:func:`load_client_config` is the one way in: it reads the TOML file and the overrides,
fills in a release's player (``preset=v1``, ``preset=v2``) beneath what the user set, and
checks every setting once (:func:`check`), so a setting never silently means something else.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import msgspec

from clients.config import ConfigError, apply_override, load_config

CORES = ("flat", "uct", "baseline")  # the cores that can play Daihinmin (hidden cards)


class ClientConfig(msgspec.Struct, frozen=True, kw_only=True):
    preset: str | None = None  # a release's player (PRESETS) beneath the settings given
    core: str = "flat"  # flat | uct | baseline
    playouts: int = 3000  # per decision; 0 = no playout limit (then `seconds` is needed)
    seconds: float | None = None  # per decision; with playouts, whichever ends first
    max_seconds: float = 5.0  # hard cap per decision, whatever the budget says
    alpha: float = 0.9  # α discounting of intermediate rewards (1.0 = plain Monte Carlo)
    reward: Literal["players", "cards"] = "players"  # the intermediate reward r_t
    bandit: Literal["ucb1-tuned", "ucb1"] = "ucb1-tuned"
    final: Literal["mean", "visits"] = "mean"
    batch: int = 16  # flat MC: playouts per kernel call
    prune: float = 1.0  # flat MC: search the likeliest moves (policy) up to this mass
    policy: Literal["heuristic", "uniform", "learned"] = "learned"  # playout policy
    policy_weights: str = ""  # the learned policy's weights file ("" = the bundled one)
    own_policy: str = ""  # weights of our own moves in the playouts ("" = policy_weights')
    temperature: float = 1.0  # of the learned policy for our own moves in the playouts
    opp_temperature: float = 1.0  # of the opponents' models for their moves in the playouts
    deal: Literal["uniform", "inference"] = "inference"  # how the hidden cards are dealt
    worlds: int = 64  # deal=inference: worlds sampled per decision
    model_eps: float = 0.05  # opponent model: (1 - eps) policy + eps uniform
    chain_thin: int = 16  # deal=inference: chain steps (card swaps tried) between worlds
    opponents: Literal["fixed", "adapt"] = "adapt"  # adapt: per-opponent models, online
    rule_model: bool = False  # the inference's models mix in the rule player (weights fitted)
    rule_playouts: bool = False  # ... and so do the opponents' moves in the playouts
    exchange_prior: bool = False  # deal=inference: the exchanges we did not see weigh worlds
    uct_c: float = 0.7  # UCT exploration constant
    endgame: bool = True  # play a sure finish (knowledge.daihinmin.endgame) without searching
    endgame_playouts: bool = True  # our own seat takes its sure finishes in the playouts too
    exchange: Literal["search", "heuristic"] = "search"
    exchange_candidates: int = 6  # exchange search: weakest cards considered
    exchange_playouts: int = 0  # exchange search: playouts (0: a decision's budget)
    workers: int = 1  # >1: root-parallel search in that many worker processes
    seed: int | None = None  # None: fresh randomness
    recv_timeout: float | None = None  # seconds to wait for the server (None: forever)


# Named players, one per release. A preset sets every setting it names unless the user set
# it too; it names every setting of how its player plays, literally, so that later changes
# of the defaults leave it as it was (the worker count, the seed, the cap per decision and
# the server's timeout are not part of a player). The newest preset is the default player.
PRESETS: dict[str, dict[str, Any]] = {
    # the first release: flat MC, 3000 playouts, alpha 0.9, heuristic playouts, uniform dealing
    "v1": {"core": "flat", "playouts": 3000, "seconds": None, "alpha": 0.9,
           "reward": "players", "bandit": "ucb1-tuned", "final": "mean", "batch": 16,
           "prune": 1.0, "temperature": 1.0, "opp_temperature": 1.0, "endgame": False,
           "endgame_playouts": False, "policy": "heuristic", "deal": "uniform",
           "opponents": "fixed", "exchange": "search", "exchange_candidates": 6,
           "exchange_playouts": 0, "rule_model": False, "rule_playouts": False,
           "exchange_prior": False},
    # the second release: flat MC over the learned playout policy in worlds dealt by
    # inference of the hidden hands, opponent models adapted online, sure finishes played
    "v2": {"core": "flat", "playouts": 3000, "seconds": None, "alpha": 0.9,
           "reward": "players", "bandit": "ucb1-tuned", "final": "mean", "batch": 16,
           "prune": 1.0, "policy": "learned", "policy_weights": "", "own_policy": "",
           "temperature": 1.0, "opp_temperature": 1.0, "deal": "inference", "worlds": 64,
           "model_eps": 0.05, "chain_thin": 16, "opponents": "adapt", "rule_model": False,
           "rule_playouts": False, "exchange_prior": False, "uct_c": 0.7, "endgame": True,
           "endgame_playouts": True, "exchange": "search", "exchange_candidates": 6,
           "exchange_playouts": 0},
}

PRESET_DOCS = {
    "v1": "the first release's player: flat MC, 3000 playouts, heuristic playouts, uniform "
          "dealing of the hidden cards, no sure finishes",
    "v2": "the second release's player (the defaults): flat MC, 3000 playouts, the learned "
          "playout policy, the hidden hands dealt by inference, opponent models, sure finishes",
}

# settings that only a searching core reads (an error with core=baseline)
_SEARCH_ONLY = ("playouts", "seconds", "alpha", "reward", "bandit", "final", "batch",
                "policy", "uct_c", "exchange", "exchange_candidates",
                "exchange_playouts", "workers", "prune",
                "temperature", "opp_temperature", "endgame", "endgame_playouts",
                "policy_weights", "own_policy", "deal", "worlds", "model_eps", "chain_thin",
                "opponents", "rule_model", "rule_playouts", "exchange_prior")
_FLAT_ONLY = ("bandit", "final", "batch", "prune")
_UCT_ONLY = ("uct_c",)


def preset_help() -> str:
    """One line per preset, for --help."""
    return "\n".join(f"preset={name}: {PRESET_DOCS[name]}" for name in PRESETS)


def _explicit_keys(path: str | Path | None, overrides: Iterable[str]) -> set[str]:
    keys: set[str] = set()
    if path is not None:
        try:
            keys |= set(tomllib.loads(Path(path).read_text()))
        except (OSError, tomllib.TOMLDecodeError):
            pass  # load_config has already said what is wrong with the file
    over: dict[str, Any] = {}
    for a in overrides:
        apply_override(over, a)
    return keys | set(over)


def load_client_config(path: str | Path | None = None,
                       overrides: Iterable[str] = ()) -> ClientConfig:
    """The client's settings: defaults <- preset <- file <- ``--set``, then :func:`check`."""
    overrides = list(overrides)
    cfg = load_config(ClientConfig, path, overrides)
    explicit = _explicit_keys(path, overrides)
    if cfg.preset is not None:
        if cfg.preset not in PRESETS:
            raise ConfigError(f"unknown preset {cfg.preset!r}; known: {', '.join(PRESETS)}")
        base = {k: v for k, v in PRESETS[cfg.preset].items() if k not in explicit}
        cfg = msgspec.structs.replace(cfg, **base)
    return check(cfg, explicit)


def check(cfg: ClientConfig, explicit: Iterable[str] = ()) -> ClientConfig:
    """Validate every setting once; conflicting settings are errors naming them.
    ``explicit`` names the settings the user gave (not those a preset filled in); a
    ``seconds`` given without ``playouts`` makes the budget time only (``playouts = 0``).
    Returns the settings in force."""
    given = set(explicit)
    if cfg.core not in CORES:
        raise ConfigError(f"core={cfg.core!r} cannot play Daihinmin (five players, hidden "
                          f"cards); cores for corvid uecda: {', '.join(CORES)}")
    if cfg.core == "baseline":
        bad = sorted(k for k in _SEARCH_ONLY if k in given)
        if bad:
            raise ConfigError(f"{', '.join(bad)}: no effect with core=baseline (the rule-based "
                              "player does not search); drop the setting or choose core=flat "
                              "or core=uct")
    if cfg.core == "uct":
        bad = sorted(k for k in _FLAT_ONLY if k in given)
        if bad:
            raise ConfigError(f"{', '.join(bad)}: a setting of the flat core, not of core=uct")
    if cfg.core == "flat":
        bad = sorted(k for k in _UCT_ONLY if k in given)
        if bad:
            raise ConfigError(f"{', '.join(bad)}: a setting of core=uct, not of the flat core")
    if cfg.playouts < 0:
        raise ConfigError(f"playouts={cfg.playouts}: give a count >= 1, or 0 for no playout "
                          "limit (with seconds=S)")
    if cfg.seconds is not None and not cfg.seconds > 0:
        raise ConfigError(f"seconds={cfg.seconds}: the time per decision must be > 0")
    if not cfg.max_seconds > 0:
        raise ConfigError(f"max_seconds={cfg.max_seconds}: must be > 0")
    if cfg.seconds is not None and cfg.seconds > cfg.max_seconds:
        raise ConfigError(f"seconds={cfg.seconds} exceeds max_seconds={cfg.max_seconds}, the "
                          "hard cap per decision: raise max_seconds too")
    if cfg.seconds is not None and "playouts" not in given:
        cfg = msgspec.structs.replace(cfg, playouts=0)  # time only
    if cfg.playouts == 0 and cfg.seconds is None and cfg.core != "baseline":
        raise ConfigError("playouts=0 (no playout limit) needs seconds=S, the time per "
                          "decision")
    if not 0.0 < cfg.alpha <= 1.0:
        raise ConfigError(f"alpha={cfg.alpha}: must lie in (0, 1] (1.0 = plain Monte Carlo)")
    if cfg.batch < 1:
        raise ConfigError(f"batch={cfg.batch}: must be >= 1")
    if cfg.uct_c < 0:
        raise ConfigError(f"uct_c={cfg.uct_c}: must be >= 0")
    if cfg.exchange_playouts < 0:
        raise ConfigError(f"exchange_playouts={cfg.exchange_playouts}: a count >= 1, or 0 for "
                          "a decision's budget")
    if cfg.exchange_candidates < 2:
        raise ConfigError(f"exchange_candidates={cfg.exchange_candidates}: must be >= 2 (the "
                          "daifugo gives two cards)")
    if not cfg.temperature > 0:
        raise ConfigError(f"temperature={cfg.temperature}: must be > 0")
    if not cfg.opp_temperature > 0:
        raise ConfigError(f"opp_temperature={cfg.opp_temperature}: must be > 0")
    for key in ("temperature", "opp_temperature", "own_policy"):
        if key in given and cfg.policy != "learned":
            raise ConfigError(f"{key}: a setting of policy=learned")
    if not 0.0 < cfg.prune <= 1.0:
        raise ConfigError(f"prune={cfg.prune}: a probability mass in (0, 1] (1.0: every move)")
    if cfg.worlds < 1:
        raise ConfigError(f"worlds={cfg.worlds}: must be >= 1")
    if not 0.0 < cfg.model_eps <= 1.0:
        raise ConfigError(f"model_eps={cfg.model_eps}: must lie in (0, 1]")
    if cfg.chain_thin < 1:
        raise ConfigError(f"chain_thin={cfg.chain_thin}: must be >= 1")
    for key in ("worlds", "chain_thin", "rule_model", "rule_playouts", "exchange_prior"):
        if key in given and cfg.deal != "inference":
            raise ConfigError(f"{key}: only with deal=inference")
    for key in ("rule_model", "rule_playouts"):
        if key in given and getattr(cfg, key) and cfg.opponents != "adapt":
            raise ConfigError(f"{key}: the rule player's weights are fitted to the opponents' "
                              "revealed decisions; it needs opponents=adapt")
    if ("opponents" in given and cfg.opponents == "adapt" and cfg.policy != "learned"
            and cfg.deal != "inference"):
        raise ConfigError("opponents=adapt: the opponent models serve policy=learned and "
                          "deal=inference; with neither it has no effect")
    if "policy_weights" in given and not uses_policy_weights(cfg):
        raise ConfigError("policy_weights: only read with policy=learned, deal=inference or "
                          "prune < 1")
    if cfg.workers < 1:
        raise ConfigError(f"workers={cfg.workers}: must be >= 1")
    if cfg.recv_timeout is not None and not cfg.recv_timeout > 0:
        raise ConfigError(f"recv_timeout={cfg.recv_timeout}: must be > 0")
    return cfg


def uses_policy_weights(cfg: ClientConfig) -> bool:
    """Whether the learned policy is needed (for the playouts or the opponent model)."""
    return cfg.policy == "learned" or cfg.deal == "inference" or cfg.prune < 1.0
