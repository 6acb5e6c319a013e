"""Golden figures of the Daihinmin player on fixed seeds: the client's decisions (move, value,
visits) for flat MC and UCT, the exchange search, the playout kernels (returns and the
intermediate rewards r_t), the learned policy's priors and features, and the inference's
worlds. ``data/parity.json`` holds the expected values; any change of how the player plays
shows here. ``python -m tests.daihinmin.test_parity`` rewrites the file (only after a change
of behaviour that is meant)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

import games.daihinmin.rules as R
from clients.uecda.config import load_client_config
from clients.uecda.decide import Decider
from games.daihinmin.cards import ALL_CARDS
from games.daihinmin.match import Match, MatchConfig
from games.daihinmin.state import GameState
from knowledge.daihinmin.inference import HandSampler
from knowledge.daihinmin.learned import features_matrix, load_policy, no_weights, policy_probs
from knowledge.daihinmin.playout import (
    playout_deals_kernel,
    random_playouts_kernel,
    state_playout,
)
from knowledge.daihinmin.policies import POLICY_HEURISTIC, POLICY_LEARNED, POLICY_UNIFORM
from knowledge.daihinmin.position import Root, Settings

DATA = Path(__file__).resolve().parent / "data" / "parity.json"
SETTINGS = {
    "default": ["playouts=300", "seed=1", "max_seconds=60"],
    "uct": ["core=uct", "playouts=150", "seed=1", "max_seconds=60"],
    "v1": ["preset=v1", "playouts=300", "seed=1", "max_seconds=60"],
    "strong": ["weights=strong", "playouts=300", "seed=1", "max_seconds=60"],
    "rules": ["playouts=300", "seed=1", "max_seconds=60", "rule_model=true",
              "rule_playouts=true", "exchange_prior=true", "reward=cards", "temperature=0.8"],
}


def _positions() -> list[tuple[GameState, int]]:
    """Decision points of random games: (state, game number), the player to move having two
    or more legal moves."""
    out = []
    for seed in range(4):
        m = Match(MatchConfig(seed=seed))
        d = m.deal()
        st = d.state()
        rng = np.random.default_rng(seed)
        for _ in range(6 + 7 * seed):
            lm = st.legal_moves()
            st.play(lm[int(rng.integers(len(lm)))])
        while len(st.legal_moves()) < 2:
            st.play(st.legal_moves()[0])
        out.append((st, seed))
    return out


def _result(res: Any) -> dict[str, Any]:
    return {"move": int(res.move), "value": float(res.value),
            "moves": [int(m) for m in res.moves], "visits": [int(v) for v in res.visits],
            "values": [float(v) for v in res.values]}


def _playout(po: Any) -> dict[str, Any]:
    return {"returns": [float(x) for x in po.returns], "evals": [float(x) for x in po.evals],
            "moves": [int(x) for x in po.moves], "players": [int(x) for x in po.players]}


def _batch(pb: Any) -> dict[str, Any]:
    return {"returns": [float(x) for x in pb.returns],
            "evals": [[float(x) for x in row[:n]] for row, n in zip(pb.evals, pb.n_evals,
                                                                    strict=True)]}


def compute() -> dict[str, Any]:
    out: dict[str, Any] = {}
    pos = _positions()
    for name, sets in SETTINGS.items():
        d = Decider(load_client_config(None, sets), np.random.default_rng(7))
        out[f"decide/{name}"] = [_result(d.decide(st, st.to_move, g, time.perf_counter()))
                                 for st, g in pos]
        m = Match(MatchConfig(seed=3))
        m.game, m.ranks = 1, [0, 1, 2, 3, 4]
        deal = m.deal()
        out[f"exchange/{name}"] = d._search_gift(
            deal.hands[0], 2, 0, deal.ranks, [bin(h).count("1") for h in deal.dealt],
            deal.order, d.budget())[0]
    W = np.tile(load_policy("strong"), (5, 1))  # the table's cells not all 0
    rule_w = np.array([0.0, 0.3, 0.2, 0.5, 0.1])
    kern: dict[str, Any] = {}
    for i, (st, _) in enumerate(pos):
        me = st.to_move
        info = st.info_set(me)
        moves = info.legal_moves()
        for pol in ("uniform", "heuristic"):
            kern[f"batch/{pol}/{i}"] = _batch(Root(info, Settings(pol)).playout_batch(
                moves, np.random.default_rng(i), me))
        learned = Root(info, Settings("learned", W))
        kern[f"batch/learned/{i}"] = _batch(learned.playout_batch(
            moves, np.random.default_rng(i), me))
        full = Root(info, Settings("learned", W, reward="cards", own_sure=True, rule_w=rule_w))
        kern[f"batch/full/{i}"] = _batch(full.playout_batch(moves, np.random.default_rng(i),
                                                            me))
        worlds = np.array([info.deal_hands(np.random.default_rng(i + k)) for k in range(3)])
        kern[f"batch/worlds/{i}"] = _batch(Root(info, Settings("learned", W), worlds)
                                           .playout_batch(moves, np.random.default_rng(i), me))
        kern[f"state/uniform/{i}"] = _playout(state_playout(st, np.random.default_rng(i), me))
        kern[f"state/heuristic/{i}"] = _playout(state_playout(
            st, np.random.default_rng(i), me, POLICY_HEURISTIC))
        kern[f"state/learned/{i}"] = _playout(state_playout(
            st, np.random.default_rng(i), me, POLICY_LEARNED, W, 1, True, rule_w))
        world = Root(info, Settings("learned", W, reward="cards", own_sure=True, alpha=0.9)
                     ).sample_world(np.random.default_rng(i))
        kern[f"uct_world/{i}"] = _playout(world.playout(np.random.default_rng(i), me))
        kern[f"priors/{i}"] = [float(x) for x in learned.move_priors(moves)]
        others = ALL_CARDS & ~info.hand & ~info.played
        arr = np.asarray(moves, dtype=np.int64)
        kern[f"features/{i}"] = features_matrix(info.hand, others, info.table, info.rev,
                                                info.lock, 3, arr).tolist()
        kern[f"probs/{i}"] = policy_probs(info.hand, others, info.table, info.rev, info.lock,
                                          3, arr, W[me]).tolist()
        kern[f"worlds/{i}"] = HandSampler(exchange_prior=True).worlds(
            info, W, 4, np.random.default_rng(i), rule_w).tolist()
    m = Match(MatchConfig(seed=2))
    st0 = np.asarray(R.new_state([0] * 5, m.order, 0), dtype=np.int64)
    worlds = np.array([m.deal().dealt for _ in range(6)], dtype=np.int64)
    for own_sure in (False, True):
        ret = np.empty(len(worlds))
        playout_deals_kernel(st0, worlds, 1, POLICY_LEARNED, 0, W, 99, own_sure, ret)
        kern[f"deals/learned/{own_sure}"] = ret.tolist()
        playout_deals_kernel(st0, worlds, 1, POLICY_HEURISTIC, 0, no_weights(), 99, own_sure,
                             ret)
        kern[f"deals/heuristic/{own_sure}"] = ret.tolist()
    for pol in (POLICY_UNIFORM, POLICY_HEURISTIC):
        kern[f"random_playouts/{pol}"] = int(random_playouts_kernel(200, 5, pol))
    out["kernels"] = kern
    return out


def _diff(a: Any, b: Any, path: str, bad: list[str]) -> None:
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                bad.append(f"{path}/{k}: only on one side")
            else:
                _diff(a[k], b[k], f"{path}/{k}", bad)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            bad.append(f"{path}: length {len(a)} != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _diff(x, y, f"{path}[{i}]", bad)
    elif a != b:
        bad.append(f"{path}: {a!r} != {b!r}")


def test_the_player_is_unchanged_on_fixed_seeds() -> None:
    want = json.loads(DATA.read_text())
    got = json.loads(json.dumps(compute()))
    bad: list[str] = []
    _diff(want, got, "", bad)
    assert not bad, f"{len(bad)} figures differ:\n" + "\n".join(bad[:40])


if __name__ == "__main__":
    DATA.write_text(json.dumps(compute(), sort_keys=True) + "\n")
