"""Pinned behaviour of the Go playing code on fixed seeds: the playouts of every policy, the
last-good-reply playouts, the priors (heuristic, reading ladders, learned), the move
features, the dead-stone estimate and the searches of the default player. The expected
values are in ``data/parity.json``; any change to what a kernel draws or computes shows here.

Regenerate only after an intended change of behaviour:
``python -m tests.go_rules.test_parity``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from clients.gtp.config import GtpConfig
from clients.gtp.player import make_core, search_position
from games.go import GoState
from knowledge.go import features as F
from knowledge.go.dead import dead_stones
from knowledge.go.patterns import pattern_table
from knowledge.go.position import GoPosition, PlayoutSettings
from knowledge.go.priors import LADDER_PRIORS, NFEAT, k_features
from search.budget import Budget

DATA = Path(__file__).parent / "data" / "parity.json"


def positions() -> dict[str, GoState]:
    """Three 9x9 positions of random legal play (rules only, so they never change)."""
    out = {}
    for name, seed, n in (("opening", 3, 6), ("middle", 5, 30), ("late", 11, 60)):
        rng = np.random.default_rng(seed)
        s = GoState(9, 7.0)
        for _ in range(n):
            moves = [m for m in s.legal_moves() if m >= 0]
            s.play(moves[int(rng.integers(len(moves)))])
        out[name] = s
    return out


def _floats(a: Any) -> list[float]:
    return [float(x) for x in np.asarray(a).ravel()]


def _ints(a: Any) -> list[int]:
    return [int(x) for x in np.asarray(a).ravel()]


def observe_position(state: GoState) -> dict[str, Any]:
    obs: dict[str, Any] = {}
    for policy in range(7):
        scores, own = GoPosition(state).playout_scores(np.random.default_rng(policy), 6, policy)
        obs[f"playout_scores_{policy}"] = [_ints(scores), _ints(own)]
    s = GoPosition(state.clone(), PlayoutSettings(policy=6))
    p = s.playout(np.random.default_rng(1), 0)
    obs["playout"] = [_floats(p.returns), _ints(p.moves), _ints(p.players)]
    legal = [m for m in s.legal_moves()][:6]
    obs["playout_batch"] = _floats(s.playout_batch(legal, np.random.default_rng(2), 1).returns)
    for name, ps in (("heuristic", None), ("ladders", LADDER_PRIORS)):
        pr = GoPosition(state.clone(), prior_weights=ps).priors()
        obs[f"priors_{name}"] = [_ints(pr.moves), _floats(pr.values), _floats(pr.counts)]
    pr = search_position(state.clone(), GtpConfig(td_visits=0.0)).priors()
    obs["priors_learned"] = [_ints(pr.moves), _floats(pr.values), _floats(pr.counts)]
    b = state.board_array()
    pts = np.array([m for m in state.legal_moves() if m >= 0], dtype=np.int32)
    out = np.zeros((len(pts), F.NG), dtype=np.int32)
    F.k_move_features(b, state.to_play, pts, out)
    obs["move_features"] = _ints(out)
    out = np.zeros((len(pts), NFEAT), dtype=np.int32)
    k_features(b, state.to_play, pts, pattern_table(), out, True)
    obs["prior_features"] = _ints(out)
    obs["dead"] = _ints(dead_stones(state, np.random.default_rng(4), 40))
    return obs


SEARCHES = {
    "default": {},
    "lgrf1": {"lgrf": 1},
    "lgrf3": {"lgrf": 3},
    "policy3": {"playout_policy": 3, "lgrf": 0},
    "heuristic": {"learned_priors": False, "playout_policy": 2, "lgrf": 0},
    "python_uct": {"compiled": False},
    "amaf_every_player": {"rave_first_player": False},
}


def observe_search(state: GoState, settings: dict[str, Any]) -> list[Any]:
    cfg = GtpConfig(**settings)
    s = search_position(state.clone(), cfg)
    r = make_core(cfg).search(s, s.to_move, Budget(playouts=150), np.random.default_rng(9))
    return [int(r.move), float(r.value), _ints(r.moves), _ints(r.visits)]


def observe() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, state in positions().items():
        out[name] = observe_position(state)
        for sname, settings in SEARCHES.items():
            out[name][f"search_{sname}"] = observe_search(state, settings)
    return out


@pytest.fixture(scope="module")
def observed() -> dict[str, Any]:
    return observe()


EXPECTED: dict[str, Any] = json.loads(DATA.read_text()) if DATA.exists() else {}
KEYS = sorted((p, k) for p, obs in EXPECTED.items() for k in obs)


@pytest.mark.parametrize("position,key", KEYS)
def test_same_as_pinned(observed: dict[str, Any], position: str, key: str) -> None:
    assert observed[position][key] == EXPECTED[position][key]


def test_every_observation_is_pinned(observed: dict[str, Any]) -> None:
    assert sorted((p, k) for p, obs in observed.items() for k in obs) == KEYS


if __name__ == "__main__":
    DATA.write_text(json.dumps(observe(), separators=(",", ":")) + "\n")
    print("wrote", DATA)
