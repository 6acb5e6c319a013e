"""Golden values of how the Blokus Duo player decides, on fixed seeds: the default player
(compiled UCT with the learned priors and the book) and v2's (the knowledge priors), the
Python UCT, the alpha-beta core
over the bundled learned evaluation, the playout kernels (uniform and weighted), the priors,
the features, the compiled child evaluation and the best-of-n simulations. The expected
values are in ``data/parity.json``; any change of a move, a visit count or a value fails.

Regenerate (only when a change of behaviour is intended):
``python -m tests.blokus_host.test_parity``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from clients.blokus.config import PlayerConfig
from clients.blokus.player import Core
from games.blokus_duo import BlokusState
from knowledge.blokus_duo import policy as P
from knowledge.blokus_duo.evaluation import BlokusEval, blokus_features
from knowledge.blokus_duo.features import selective_simulation
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.settings import BlokusConfig
from search.budget import Budget

GOLDEN = Path(__file__).resolve().parent / "data" / "parity.json"
PLIES = (0, 3, 9, 18, 24)
# weighted playouts with every term in use (the player's settings of the same names)
WEIGHTED_SETTINGS: dict[str, Any] = {
    "playout": "weighted", "size_weights": (0.1, 0.2, 0.3, 0.6, 1.0), "far_factor": 0.25,
    "gain_factor": 0.7, "gain_cap": 5, "notake_factor": 0.4, "open_playout": 7,
    "open_factor": 0.3, "score_weight": 0.3, "score_scale": 20.0}
WEIGHTED = BlokusConfig(**WEIGHTED_SETTINGS)
KNOWLEDGE = BlokusConfig(priors="knowledge", open_pieces=3, open_min_size=5)
LEARNED = BlokusConfig(priors="learned", open_pieces=3, open_min_size=5)  # the bundled weights


def position(plies: int) -> BlokusState:
    """The position after ``plies`` moves of a seeded uniform playout."""
    s = BlokusState(first=plies % 2)
    walk = BlokusPosition(BlokusState(first=plies % 2)).playout(
        np.random.default_rng(100 + plies), 0)
    for m in walk.moves[:plies].tolist():
        s.play(m)
    return s


def _result(res: Any) -> dict[str, Any]:
    return {"move": int(res.move), "value": float(res.value),
            "moves": [int(m) for m in res.moves], "visits": [int(v) for v in res.visits],
            "values": [float(v) for v in res.values]}


def _search(cfg: PlayerConfig, plies: int, playouts: int) -> dict[str, Any]:
    core = Core(cfg)
    s = position(plies)
    return _result(core.search(s, Budget(playouts=playouts), np.random.default_rng(plies)))


def player_decisions() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for plies in PLIES:
        out[f"ctree/{plies}"] = _search(PlayerConfig(prior_kind="knowledge"), plies, 300)
        out[f"ctree-learned/{plies}"] = _search(PlayerConfig(), plies, 300)
    for plies in (9, 18):
        out[f"uct/{plies}"] = _search(PlayerConfig(compiled=False, prior_kind="knowledge"),
                                      plies, 120)
        out[f"alphabeta/{plies}"] = _search(
            PlayerConfig(core="alphabeta", alphabeta_depth=2, alphabeta_width=6,
                         alphabeta_root_width=8), plies, 400)
        flat = PlayerConfig(core="flat", prior_kind="size", **WEIGHTED_SETTINGS)
        assert flat.game == WEIGHTED
        out[f"flat/{plies}"] = _search(flat, plies, 200)
    return out


def kernel_values() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for plies in PLIES:
        for name, cfg in (("uniform", BlokusConfig()), ("weighted", WEIGHTED)):
            s = BlokusPosition(position(plies), cfg)
            p = s.playout(np.random.default_rng(plies), 1)
            out[f"playout/{name}/{plies}"] = {"moves": p.moves.tolist(),
                                              "players": p.players.tolist(),
                                              "returns": p.returns.tolist()}
            moves = s.legal_moves()[:12]
            b = s.playout_batch(moves, np.random.default_rng(plies), s.to_move)
            out[f"batch/{name}/{plies}"] = b.returns.tolist()
            pol, w = P.playout_params(cfg)
            picks = np.empty(200, dtype=np.int64)
            r = s.state
            P.k_sample_picks(r.geo.kernel_args, *r.arrays(), r.to_move_colour, pol, w,
                             np.array([plies], dtype=np.uint64), picks,
                             np.zeros(r.geo.num_cells, dtype=np.uint8))
            out[f"picks/{name}/{plies}"] = picks.tolist()
        for name, cfg in (("size", BlokusConfig()), ("knowledge", KNOWLEDGE),
                          ("learned", LEARNED)):
            pr = BlokusPosition(position(plies), cfg).priors()
            out[f"priors/{name}/{plies}"] = {"moves": [int(m) for m in pr.moves],
                                             "values": pr.values.tolist(),
                                             "counts": pr.counts.tolist()}
    return out


def evaluation_values() -> dict[str, Any]:
    out: dict[str, Any] = {}
    rng = np.random.default_rng(7)
    w = rng.normal(size=len(blokus_features(BlokusPosition(BlokusState())))) * 0.05
    ev = BlokusEval(w, 0.02)
    for plies in PLIES:
        s = BlokusPosition(position(plies))
        f = s.features()
        out[f"features/{plies}"] = [float(f.sum()), float(f @ np.arange(len(f)))]
        moves = s.legal_moves()[:30]
        out[f"children/{plies}"] = ev.child_values(s, moves).tolist()
        rate, sim = selective_simulation(s.state, w, 0.02, 6, 3, np.random.default_rng(plies))
        out[f"selective/{plies}"] = {"rate": rate, "moves": sim}
    return out


SECTIONS = {"player": player_decisions, "kernels": kernel_values,
            "evaluation": evaluation_values}


def _same(got: Any, want: Any, where: str) -> None:
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), where
        for k in want:
            _same(got[k], want[k], f"{where}/{k}")
    elif isinstance(want, list):
        assert len(got) == len(want), where
        for i, (g, e) in enumerate(zip(got, want, strict=True)):
            _same(g, e, f"{where}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12, nan_ok=True), where
    else:
        assert got == want, where


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_parity(section: str) -> None:
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))[section]
    _same(json.loads(json.dumps(SECTIONS[section]())), want, section)


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({k: f() for k, f in SECTIONS.items()}) + "\n",
                      encoding="utf-8")
