"""The compiled tree's Go kernels (knowledge/go/tree.py) with learned knowledge give the same
trees as the Python UCT over GoPosition: learned priors, the TD(0) prior, capture reading's
priors, playout policy 3, and the heuristic priors reading ladders with playout policy 5."""

from __future__ import annotations

import numpy as np
import pytest

from knowledge.go.priors import LADDER_PRIORS, LearnedPriors
from knowledge.go.shapes import n_shape_features
from knowledge.go.weights import GoWeights, load_weights
from search.uct import UCTConfig
from tests.core.test_ctree import GO_POSITIONS, assert_same, both
from tests.goweights import make_weights


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> GoWeights:
    w = load_weights(str(make_weights(tmp_path_factory.mktemp("w"), games=3)))
    theta = np.random.default_rng(2).normal(0.0, 0.3, n_shape_features())
    return GoWeights(w.prior, w.playout, w.manifest, "", theta)


@pytest.mark.parametrize("priors,policy", [
    (LearnedPriors(), 2),
    (LearnedPriors(visits=30.0, low=0.2, high=0.8, tau=1.0, td_visits=15.0), 3),
    (LearnedPriors(visits=0.0, td_visits=20.0), 2),  # heuristic priors and the TD value
    (None, 3),
    (LearnedPriors(read_visits=5.0), 2),  # the learned priors and capture reading
    (LearnedPriors(visits=0.0, read_visits=3.0), 2),  # the heuristic ones and reading
])
def test_same_tree_with_learned_knowledge(weights: GoWeights, priors: LearnedPriors | None,
                                          policy: int) -> None:
    s = GO_POSITIONS["9x9 fight"].clone()
    s.weights = weights
    s.learned_priors = priors
    s.settings = s.settings._replace(policy=policy)
    for cfg in (UCTConfig(rave=True, c=0.0), UCTConfig(rave=True, c=0.0, grandfather=10.0)):
        assert_same(*both(s, cfg, 300, 5))


def test_same_tree_with_ladder_priors_and_policy_5() -> None:
    s = GO_POSITIONS["9x9 fight"].clone()
    s.prior_weights = LADDER_PRIORS
    s.settings = s.settings._replace(policy=5)
    assert_same(*both(s, UCTConfig(rave=True, c=0.0, grandfather=10.0), 300, 5))
