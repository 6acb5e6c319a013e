"""bench/daihinmin_opponents.py on recorded official-server logs: before any game the adapted
model is the shared one; after some games it explains the sample clients' moves better; a
model's log-likelihood and first-choice share are those of its probabilities."""

from __future__ import annotations

import json
import math
from types import ModuleType

import numpy as np
import pytest

from games.daihinmin import rules as R
from games.daihinmin.replay import parse_log
from knowledge.daihinmin.learned import load_policy
from knowledge.daihinmin.opponents import OpponentModels
from tests.paths import REPO, load_bench
from training.daihinmin.dataset import start_state

LOGS = REPO / "tests" / "data" / "uecda"
FIVE = LOGS / "server-log-5games-same-match.log"
HUNDRED = LOGS / "server-log-100games.log"


def _bench() -> ModuleType:
    return load_bench("daihinmin_opponents")


def test_first_game_adapted_is_shared() -> None:
    bench = _bench()
    games = parse_log(FIVE.read_text()).games[:1]
    for t in bench.score_match(games, load_policy()):
        assert t.n > 0
        assert t.logp["adapted"] == pytest.approx(t.logp["shared"])
        assert t.first["adapted"] == t.first["shared"]
        for k in bench.MODELS:
            assert t.logp[k] < 0.0
            assert 0.0 < t.first[k] <= t.n


def test_adapted_explains_the_sample_clients_better() -> None:
    bench = _bench()
    games = parse_log(HUNDRED.read_text()).games[:30]
    for t in bench.score_match(games, load_policy(), from_game=10):
        s = t.summary()
        assert s["decisions"] > 100
        assert s["loglik"]["adapted"] > s["loglik"]["shared"] + 0.1
        assert s["loglik"]["shared"] > s["loglik"]["uniform"]


def test_the_sample_clients_get_an_adapted_model_among_the_candidates() -> None:
    """With two priors, each as it is and adapted (--weights A+B --select), the sample
    clients' models in use end adapted, and predict them as well as the one prior adapted."""
    bench = _bench()
    games = parse_log(HUNDRED.read_text()).games[:30]
    priors = np.vstack([load_policy("strong"), load_policy()])
    chosen = bench.score_match(games, priors, from_game=10, select=True)
    one = bench.score_match(games, load_policy(), from_game=10)
    for t, u in zip(chosen, one, strict=True):
        s = t.summary()
        assert OpponentModels(priors, fixed=True).candidates[s["candidate"]][1]  # adapted
        assert s["loglik"]["adapted"] > s["loglik"]["shared"] + 0.1
        assert s["loglik"]["adapted"] > u.summary()["loglik"]["adapted"] - 0.05


def test_model_of_a_player_is_the_same_from_every_seat() -> None:
    """The bench reads each player's model from one observer: every other seat fits the same."""
    theta = load_policy()
    models = [OpponentModels(theta) for _ in range(R.NP)]
    for g in parse_log(FIVE.read_text()).games:
        st = start_state(g)
        for _, m in g.plays:
            if st.is_terminal():
                break
            st.play(m if m == 0 or st.accepts(m) else 0)
        for me, model in enumerate(models):
            model.learn_game(list(st.history), list(st.order), list(st.finish), st.hand(me), me)
    for p in range(R.NP):
        seen = [models[me].weights()[p] for me in range(R.NP) if me != p]
        for w in seen[1:]:
            np.testing.assert_allclose(w, seen[0])
        rule = [models[me].rule_weights(me)[p] for me in range(R.NP) if me != p]
        assert max(rule) - min(rule) < 1e-12


def test_tally_scores_probabilities() -> None:
    bench = _bench()
    t = bench.Tally()
    p = np.array([0.5, 0.25, 0.25])
    t.add({k: p for k in bench.MODELS}, 1)
    t.add({k: p for k in bench.MODELS}, 0)
    s = t.summary()
    assert s["decisions"] == 2
    assert s["loglik"]["shared"] == pytest.approx((math.log(0.25) + math.log(0.5)) / 2, abs=1e-4)
    assert s["first"]["shared"] == 0.5  # the mode was played once in two
    assert s["first"]["uniform"] == pytest.approx(1 / 3, abs=1e-4)  # chance: 1 / candidates


def test_json_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    assert bench.main([str(FIVE), "--games", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    players = out["logs"][FIVE.name]["players"]
    assert [r["name"] for r in players] == ["traced", "def1", "def2", "def3", "def4"]
    assert set(players[0]["loglik"]) == set(bench.MODELS)
    assert out["by_name"]["def1"] == {k: players[1][k] for k in ("decisions", "loglik",
                                                                  "first")}


def test_players_pooled_by_name_without_the_arena_seat() -> None:
    """The seats of one kind pool, weighted by their decisions; other names stay apart."""
    def row(name: str, n: int, ll: float) -> dict[str, object]:
        return {"name": name, "decisions": n, "loglik": dict.fromkeys(_bench().MODELS, ll),
                "first": dict.fromkeys(_bench().MODELS, 0.5)}

    results = {"a.log": {"players": [row("p2corvid", 100, -1.0), row("paoon", 50, -2.0)]},
               "b.log": {"players": [row("p3corvid", 300, -1.4), row("paoon", 50, -1.0),
                                     row("p4base", 10, -0.2)]}}
    pooled = _bench().by_name(results)
    assert set(pooled) == {"corvid", "paoon", "base"}
    assert pooled["corvid"]["decisions"] == 400
    assert pooled["corvid"]["loglik"]["shared"] == pytest.approx(-1.3)
    assert pooled["paoon"]["loglik"]["adapted"] == pytest.approx(-1.5)


def test_a_strong_prior_keeps_the_adapted_model_shared() -> None:
    bench = _bench()
    games = parse_log(FIVE.read_text()).games
    for t in bench.score_match(games, load_policy(), from_game=2, l2=1e9):
        assert t.logp["adapted"] == pytest.approx(t.logp["shared"], abs=1e-4)
