"""The learned Go knowledge a `corvid gtp` search uses: the weights file (``weights``) for
playout policy 3 and the learned priors, checked when a setting names it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clients.config import ConfigError
from clients.gtp.config import GtpConfig
from games.go.coords import BLACK
from games.go.priors import LADDER_PRIORS, LearnedPriors, PriorWeights
from games.go.weights import GoWeights, load_weights

if TYPE_CHECKING:
    from games.go import GoState


def needs_weights(cfg: GtpConfig) -> bool:
    return cfg.playout_policy == 3 or cfg.learned_priors or cfg.td_visits > 0


def load_knowledge(cfg: GtpConfig) -> GoWeights | None:
    """The weights the settings use (None if they use none). ConfigError if the file is
    missing or not a weights file."""
    if not needs_weights(cfg):
        return None
    try:
        w = load_weights(cfg.weights)
    except (FileNotFoundError, ValueError) as e:
        raise ConfigError(f"weights: {e}") from None
    if cfg.td_visits > 0 and w.td_theta is None:
        raise ConfigError(f"td_visits: {w.path} has no TD(0) value (corvid learn go td)")
    return w


def learned_priors(cfg: GtpConfig) -> LearnedPriors | None:
    """The learned priors of the settings: the move ratings' (``learned_priors``) and/or
    the TD(0) value's (``td_visits`` > 0); None for the heuristic priors alone."""
    if not cfg.learned_priors and cfg.td_visits <= 0:
        return None
    return LearnedPriors(cfg.prior_visits if cfg.learned_priors else 0.0, cfg.prior_low,
                         cfg.prior_high, cfg.prior_tau, cfg.td_visits, cfg.large_patterns)


def prepare_state(state: GoState, cfg: GtpConfig) -> None:
    """Give a search state the playout settings and the learned knowledge of the settings."""
    jigo = cfg.jigo_value if state.to_play == BLACK else 1.0 - cfg.jigo_value  # black's
    state.settings = state.settings._replace(policy=cfg.playout_policy, lgrf=cfg.lgrf_level,
                                            score_weight=cfg.score_weight, jigo=jigo)
    if cfg.prior_scale != 1.0 or cfg.ladder_priors:
        weights = LADDER_PRIORS if cfg.ladder_priors else PriorWeights()
        state.prior_weights = weights.scaled(cfg.prior_scale)
    state.weights = load_knowledge(cfg)
    state.learned_priors = learned_priors(cfg)
