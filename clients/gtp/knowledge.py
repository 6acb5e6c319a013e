"""The learned Go knowledge a `corvid gtp` search uses: the weights file (``weights``) for
playout policy 3 and the learned priors, checked when a setting names it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clients.config import ConfigError
from clients.gtp.config import GtpConfig
from games.go.priors import LearnedPriors
from games.go.weights import GoWeights, load_weights

if TYPE_CHECKING:
    from games.go import GoState


def needs_weights(cfg: GtpConfig) -> bool:
    return cfg.playout_policy == 3 or cfg.learned_priors


def load_knowledge(cfg: GtpConfig) -> GoWeights | None:
    """The weights the settings use (None if they use none). ConfigError if the file is
    missing or not a weights file."""
    if not needs_weights(cfg):
        return None
    try:
        return load_weights(cfg.weights)
    except (FileNotFoundError, ValueError) as e:
        raise ConfigError(f"weights: {e}") from None


def learned_priors(cfg: GtpConfig) -> LearnedPriors | None:
    if not cfg.learned_priors:
        return None
    return LearnedPriors(cfg.prior_visits, cfg.prior_low, cfg.prior_high, cfg.prior_tau)


def prepare_state(state: GoState, cfg: GtpConfig) -> None:
    """Give a search state the learned knowledge of the settings."""
    state.weights = load_knowledge(cfg)
    state.learned_priors = learned_priors(cfg)
