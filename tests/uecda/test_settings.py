"""corvid uecda settings: presets, validation once, conflicts named, budgets, workers, α in
UCT."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import numpy as np
import pytest

from clients.config import ConfigError
from clients.uecda.agent import UecdaPlayer
from clients.uecda.config import PRESETS, ClientConfig, load_client_config
from clients.uecda.decide import Decider
from games.daihinmin.match import Match, MatchConfig
from knowledge.daihinmin.features import CONTEXT, N_DENSE
from knowledge.daihinmin.learned import DEFAULT_POLICY, compact_weights, load_policy, policy_path
from knowledge.daihinmin.position import Root, Settings


def test_defaults_and_overrides() -> None:
    cfg = load_client_config(None, ["core=uct", "playouts=200", "alpha=1.0"])
    assert (cfg.core, cfg.playouts, cfg.alpha) == ("uct", 200, 1.0)
    assert load_client_config() == ClientConfig()
    # the default opponents=adapt is not an error where it has nothing to adapt
    cfg = load_client_config(None, ["policy=heuristic", "deal=uniform"])
    assert cfg.opponents == "adapt" and Decider(cfg, np.random.default_rng(0)).models is None


def test_preset_v1_beneath_the_settings_given(tmp_path: Path) -> None:
    cfg = load_client_config(None, ["preset=v1"])
    for k, v in PRESETS["v1"].items():
        assert getattr(cfg, k) == v
    assert load_client_config(None, ["preset=v1", "playouts=500"]).playouts == 500
    conf = tmp_path / "c.toml"
    conf.write_text('preset = "v1"\nalpha = 1.0\n')
    assert load_client_config(conf, []).alpha == 1.0
    with pytest.raises(ConfigError, match="preset=v9: unknown preset; known: v1, v2"):
        load_client_config(None, ["preset=v9"])


def test_preset_v2_is_the_default_player_written_out() -> None:
    """v2, the newest preset, loads to exactly the default settings and names every setting
    of how the player plays (all but the workers, the seed, the cap per decision and the
    server's timeout), so that a later change of a default leaves it as it is."""
    assert list(PRESETS)[-1] == "v2"
    v2 = load_client_config(None, ["preset=v2"])
    assert v2 == msgspec.structs.replace(ClientConfig(), preset="v2")
    not_a_player = {"preset", "workers", "seed", "max_seconds", "recv_timeout"}
    fields = {f.name for f in msgspec.structs.fields(ClientConfig)}
    assert set(PRESETS["v2"]) == fields - not_a_player
    # a time budget given with the preset is still time only
    assert load_client_config(None, ["preset=v2", "seconds=0.5"]).playouts == 0


def test_bundled_weights_by_name() -> None:
    """A weights value without a path separator or .json names a bundled file; a name that
    is not bundled is refused with the names that are."""
    assert policy_path("") == policy_path("v1-selfplay") == DEFAULT_POLICY
    assert policy_path("strong").name == "policy-strong.json"
    assert policy_path("runs/w.json") == Path("runs/w.json")
    assert (load_policy("v1-selfplay") == load_policy()).all()
    assert load_policy("strong")[N_DENSE:].any()  # its shape table is fitted
    assert load_policy("strong-context")[-len(CONTEXT):].any()  # and here its context
    with pytest.raises(ConfigError, match=r"weights: 'v9' is neither a path .*\(strong, "
                                          r"strong-context, v1-selfplay\)"):
        Decider(load_client_config(None, ["weights=v9"]), np.random.default_rng(0))



def test_several_weights_are_candidates_of_each_opponent_model() -> None:
    """weights=A+B: each opponent's model is chosen among the models from A and from B (the
    first for our own moves); opponents=select adds each as it is; an empty name is
    refused."""
    d = Decider(load_client_config(None, ["weights=strong+v1-selfplay", "opponents=adapt"]),
                np.random.default_rng(0))
    assert d.models is not None
    assert d.models.candidates == [(0, True), (1, True)]
    assert (d.models.weights() == load_policy("strong")).all()
    d = Decider(load_client_config(None, ["weights=v1-selfplay+strong", "opponents=select"]),
                np.random.default_rng(0))
    assert d.models is not None
    assert d.models.candidates == [(0, True), (0, False), (1, True), (1, False)]
    assert (d.models.weights() == load_policy()).all()
    with pytest.raises(ConfigError, match=r"weights='strong\+': an empty name"):
        Decider(load_client_config(None, ["weights=strong+"]), np.random.default_rng(0))
    with pytest.raises(ConfigError, match="weights: 'v9' is neither"):
        Decider(load_client_config(None, ["weights=strong+v9"]), np.random.default_rng(0))

def test_the_models_in_use_are_logged_by_the_names_of_their_weights() -> None:
    """After a game the uecda_models event names each player's model in use: the weights it
    came from, and "as given" where it is the prior unadapted."""
    from structlog.testing import capture_logs

    from clients.uecda.baseline import baseline_move
    from clients.uecda.tracker import GameTracker

    st = Match(MatchConfig(seed=3)).deal().state()
    while not st.is_terminal():
        p = st.to_move
        st.play(baseline_move(st.hand(p), st.table, st.revolution, st.lock))
    tr = GameTracker(np.random.default_rng(0))
    tr.me, tr.shadow, tr.game = 0, st, 1
    d = Decider(load_client_config(None, ["weights=strong+v1-selfplay", "opponents=select"]),
                np.random.default_rng(0))
    assert d.model_names == ["strong", "v1-selfplay"]
    with capture_logs() as logs:
        d.end_game(tr)
    models = [e for e in logs if e["event"] == "uecda_models"][-1]["models"]
    assert len(models) == 5 and models[0] == "strong"  # our own seat keeps the first
    assert set(models) <= {"strong", "strong as given", "v1-selfplay", "v1-selfplay as given"}


@pytest.mark.parametrize(("settings", "message"), [
    (["core=abucb"], "core='abucb' cannot play Daihinmin.*flat, ismcts, uct, baseline"),
    (["core=baseline", "playouts=100"],
     "^playouts=100 with core=baseline: playouts is a setting of core flat or ismcts or uct$"),
    (["core=baseline", "workers=2"], "workers=2 with core=baseline: workers is a setting of"),
    (["core=uct", "batch=8"], "^batch=8 with core=uct: batch is a setting of core flat or ismcts$"),
    (["c=0.3"], "^c=0.3 with core=flat: c is a setting of core ismcts or uct$"),
    (["playouts=-1"], "^playouts=-1: playouts must be an integer >= 0$"),
    (["playouts=0"], "playouts=0 .* needs seconds"),
    (["seconds=-1"], "^seconds=-1: seconds must be a number >= 0$"),
    (["seconds=10"], "seconds=10.* exceeds max_seconds=5.0"),
    (["alpha=0"], "^alpha=0: alpha must be a number > 0 and <= 1$"),
    (["alpha=1.5"], "^alpha=1.5: alpha must be a number > 0 and <= 1$"),
    (["reward=score"], "^reward=score: reward must be one of cards, players$"),
    (["workers=0"], "^workers=0: workers must be an integer >= 1 and <= 64$"),
    (["exchange_candidates=1"], "^exchange_candidates=1: .* an integer >= 2$"),
    (["policy=heuristic", "deal=uniform", "opponents=adapt"], "opponents=adapt: "),
    (["deal=uniform", "worlds=10"], "worlds: only with deal=inference"),
    (["prune=0"], "prune=0"),
    (["temperature=0"], "temperature=0"),
    (["policy=heuristic", "temperature=0.5"], "temperature: a setting of policy=learned"),
    (["model_eps=0"], "model_eps=0"),
    (["chain_thin=0"], "chain_thin=0"),
    (["deal=uniform", "chain_thin=64"], "chain_thin: only with deal=inference"),
    (["deal=uniform", "rule_model=true"], "rule_model: only with deal=inference"),
    (["opponents=fixed", "rule_playouts=true"], "rule_playouts: .* needs opponents=adapt"),
    (["core=baseline", "rule_model=true"], "^rule_model=true with core=baseline: rule_model is a "
     "setting of core flat or ismcts or uct$"),
    (["deal=uniform", "exchange_prior=true"], "exchange_prior: only with deal=inference"),
    (["bogus=1"], "unknown setting 'bogus'"),
])
def test_bad_and_conflicting_settings_are_named(settings: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_client_config(None, settings)


def test_time_budgets() -> None:
    # seconds alone: time only (the default playouts do not cap it)
    cfg = load_client_config(None, ["seconds=0.03"])
    assert cfg.playouts == 0
    b = Decider(cfg, np.random.default_rng(0)).budget()
    assert b.playouts is None and b.seconds == 0.03
    # both: whichever ends first
    b = Decider(load_client_config(None, ["seconds=0.03", "playouts=500"]),
                np.random.default_rng(0)).budget()
    assert (b.playouts, b.seconds) == (500, 0.03)
    # playouts alone: capped by max_seconds
    b = Decider(load_client_config(None, ["playouts=500", "max_seconds=2"]),
                np.random.default_rng(0)).budget()
    assert (b.playouts, b.seconds) == (500, 2.0)
    assert load_client_config(None, ["playouts=0", "seconds=0.1"]).playouts == 0
    # a time-only budget searches: no silent fallback to the baseline
    ticks = iter(range(10**6))
    d = Decider(load_client_config(None, ["seconds=0.05", "seed=1"]), np.random.default_rng(1),
                clock=lambda: next(ticks) * 0.001)  # 1 ms a look at the clock
    st = Match(MatchConfig(seed=3)).deal().state()
    root = Root(st.info_set(st.to_move), Settings("heuristic"))
    res = d._search(root, st.to_move, 0)
    assert res.playouts == 16 * 49 and res.move in root.legal_moves()


def test_alpha_reaches_the_worlds_of_uct_only() -> None:
    """UCT backs up the playouts' returns as they are, so its worlds discount them by α;
    the flat core discounts the evaluations itself (its root's worlds keep α = 1)."""
    st = Match(MatchConfig(seed=5)).deal().state()
    info = st.info_set(st.to_move)
    for core, want in (("uct", 0.6), ("flat", 1.0)):
        d = Decider(load_client_config(None, [f"core={core}", "alpha=0.6", "deal=uniform"]),
                    np.random.default_rng(0))
        assert d._root(info, 1).settings.alpha == want


@pytest.fixture
def two_worker_player() -> Iterator[UecdaPlayer]:
    player = UecdaPlayer(load_client_config(None, ["workers=2", "playouts=200", "seed=1"]),
                         "w")
    player.warm_up()
    try:
        yield player
    finally:
        player.close()


@pytest.mark.integration
def test_root_parallel_workers(two_worker_player: UecdaPlayer) -> None:
    d = two_worker_player.decider
    assert d.pool is not None and len(d.pool.ready) == 2
    st = Match(MatchConfig(seed=4)).deal().state()
    root = Root(st.info_set(st.to_move), Settings("heuristic"))
    res = d._search(root, st.to_move, 1)
    assert res.playouts == 200 and res.info["workers"] == 2  # 100 in each worker
    assert res.move in root.legal_moves()
    for p in d.pool.procs:
        p.kill()
        p.join(timeout=5)
    res = d._search(root, st.to_move, 1)  # the workers died: searched here, logged
    assert d.workers_failed and d.pool is None and res.playouts == 200


def test_temperature_sharpens_our_own_playout_moves_only() -> None:
    st = Match(MatchConfig(seed=5)).deal().state()
    me = st.to_move
    d = Decider(load_client_config(None, ["temperature=0.5", "deal=uniform"]),
                np.random.default_rng(0))
    assert d.models is not None
    root = d._root(st.info_set(me), 1)
    assert root.settings.weights is not None
    base = compact_weights(d.models.weights())  # as the kernels take them
    assert np.allclose(root.settings.weights[me], 2 * base[me])
    others = [p for p in range(5) if p != me]
    assert np.array_equal(root.settings.weights[others], base[others])


def test_endgame_plays_a_sure_finish_without_searching() -> None:
    from structlog.testing import capture_logs

    from clients.uecda.tracker import GameTracker
    from games.daihinmin.cards import ALL_CARDS, JOKER, cards_of, hand_from_str, move_str
    from games.daihinmin.state import GameState

    mine = hand_from_str("S2H5") | 1 << JOKER  # the 2 is sure (the joker is ours), then 5+joker
    rest = cards_of(ALL_CARDS & ~mine)
    hands = [mine] + [sum(1 << c for c in rest[i::4]) for i in range(4)]
    tr = GameTracker(np.random.default_rng(0))
    tr.me = 0
    for endgame, core in ((True, "endgame"), (False, "flat")):
        tr.shadow = GameState(hands, [0, 1, 2, 3, 4], first=0)
        d = Decider(load_client_config(None, [f"endgame={str(endgame).lower()}",
                                              "playouts=50", "deal=uniform"]),
                    np.random.default_rng(0))
        with capture_logs() as logs:
            m = d.move(tr, lead=True)
        decision = [e for e in logs if e["event"] == "uecda_decision"][-1]
        assert decision["core"] == core and decision["move"] == move_str(m)
        if endgame:
            assert move_str(m) == "S2" and decision["line"] == ["S2", "pass", "K5H5"]
    with pytest.raises(ConfigError, match="^endgame=true with core=baseline: endgame is a setting "
                                          "of core flat or ismcts or uct$"):
        load_client_config(None, ["core=baseline", "endgame=true"])


def test_exchange_playouts_and_sure_finishes_in_the_playouts() -> None:
    """exchange_playouts sets the exchange search's budget (0: a decision's playouts);
    endgame_playouts reaches the settings of the root the search plays out from."""
    from structlog.testing import capture_logs

    from clients.uecda.tracker import GameTracker
    from games.daihinmin.match import Match, MatchConfig
    from protocols.uecda.cards import hand_to_cells
    from protocols.uecda.events import GameStart

    m = Match(MatchConfig(seed=9, reset_every=100))
    m.game = 1  # not a rank reset: player 0 is the daifugo and gives two cards
    m.ranks = [0, 1, 2, 3, 4]
    d2 = m.deal()
    counts = tuple(bin(h).count("1") for h in d2.dealt)
    for settings, playouts in ((["exchange_playouts=120"], 120), (["playouts=90"], 90)):
        tr = GameTracker(np.random.default_rng(0))
        tr.me = 0
        tr.on_game_start(GameStart(hand_to_cells(d2.hands[0]), 2, counts, (0, 1, 2, 3, 4),
                                   tuple(d2.order)))
        d = Decider(load_client_config(None, settings), np.random.default_rng(0))
        with capture_logs() as logs:  # the exchange's kernels too: none compiled in its budget
            d.warm_up()
        assert [e["event"] for e in logs] == ["uecda_warm_up"]
        with capture_logs() as logs:
            gift = d.exchange(tr, 2)
        ev = [e for e in logs if e["event"] == "uecda_exchange"][-1]
        assert 0.9 * playouts <= ev["playouts"] <= playouts and ev["search"] == "halving"
        assert bin(gift).count("1") == 2
        assert gift & d2.hands[0] == gift
    # a time-only budget (an injected clock, 1 ms per reading: one reading per batch of 256
    # playouts) ends the search on time
    ticks = iter(range(10**6))
    tr = GameTracker(np.random.default_rng(0))
    tr.me = 0
    tr.on_game_start(GameStart(hand_to_cells(d2.hands[0]), 2, counts, (0, 1, 2, 3, 4),
                               tuple(d2.order)))
    d = Decider(load_client_config(None, ["seconds=0.05"]), np.random.default_rng(0),
                clock=lambda: next(ticks) / 1000)
    with capture_logs() as logs:
        d.exchange(tr, 2)
    ev = [e for e in logs if e["event"] == "uecda_exchange"][-1]
    assert ev["playouts"] == 256 * 50 and ev["elapsed_ms"] == pytest.approx(50, abs=2)
    d2.give(0, gift)
    d2.give(1, d2.hands[1] & -d2.hands[1])  # the fugo's weakest-numbered card
    st = d2.state()
    for flag in (False, True):
        d = Decider(load_client_config(None, [f"endgame_playouts={str(flag).lower()}"]),
                    np.random.default_rng(0))
        assert d._root(st.info_set(st.to_move), 1).settings.own_sure is flag
    with pytest.raises(ConfigError, match="exchange_playouts=-1"):
        load_client_config(None, ["exchange_playouts=-1"])


def test_opp_temperature_sharpens_the_opponents_playout_moves_not_the_inference() -> None:
    st = Match(MatchConfig(seed=5)).deal().state()
    me = st.to_move
    d = Decider(load_client_config(None, ["opp_temperature=0.5"]), np.random.default_rng(0))
    assert d.models is not None and d.sampler is not None
    seen = []
    worlds = d.sampler.worlds
    d.sampler.worlds = lambda info, W, n, rng, rule_w: seen.append(W.copy()) or worlds(  # type: ignore
        info, W, n, rng, rule_w)
    root = d._root(st.info_set(me), 1)
    assert root.settings.weights is not None and root.worlds is not None
    base = compact_weights(d.models.weights())  # as the kernels take them
    others = [p for p in range(5) if p != me]
    assert np.allclose(root.settings.weights[others], 2 * base[others])
    assert np.array_equal(root.settings.weights[me], base[me])
    assert np.array_equal(seen[0], d.models.weights())  # the inference: the models as fitted
    with pytest.raises(ConfigError, match="opp_temperature: a setting of policy=learned"):
        load_client_config(None, ["policy=heuristic", "deal=uniform", "opponents=fixed",
                                  "opp_temperature=0.5"])


def test_own_policy_sets_our_own_playout_moves_only(tmp_path: Path) -> None:
    import json

    from knowledge.daihinmin.learned import DEFAULT_POLICY

    data = json.loads(DEFAULT_POLICY.read_text())
    data["theta"] = [2 * t for t in data["theta"]]
    own = tmp_path / "own.json"
    own.write_text(json.dumps(data))
    st = Match(MatchConfig(seed=5)).deal().state()
    me = st.to_move
    d = Decider(load_client_config(None, [f"own_policy={own}", "temperature=0.5"]),
                np.random.default_rng(0))
    assert d.models is not None
    root = d._root(st.info_set(me), 1)
    assert root.settings.weights is not None
    base = compact_weights(d.models.weights())  # as the kernels take them
    assert np.allclose(root.settings.weights[me], 4 * base[me])  # 2 x θ, at temperature 0.5
    others = [p for p in range(5) if p != me]
    assert np.array_equal(root.settings.weights[others], base[others])
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(ConfigError, match="own_policy: .* other move features"):
        Decider(load_client_config(None, [f"own_policy={bad}"]), np.random.default_rng(0))
    with pytest.raises(ConfigError, match="weights: cannot read"):
        Decider(load_client_config(None, [f"weights={tmp_path / 'none.json'}"]),
                np.random.default_rng(0))


@pytest.mark.parametrize(("settings", "rule_model", "rule_playouts"), [
    ([], False, False),
    (["rule_model=true"], True, False),
    (["rule_playouts=true"], False, True),
])
def test_the_rule_weights_reach_the_inference_and_the_playouts(
        settings: list[str], rule_model: bool, rule_playouts: bool) -> None:
    st = Match(MatchConfig(seed=5)).deal().state()
    me = st.to_move
    d = Decider(load_client_config(None, settings), np.random.default_rng(0))
    assert d.models is not None and d.sampler is not None
    d.models.rule_ws[0] = [0.1, 0.2, 0.3, 0.4, 0.5]
    seen = []
    worlds = d.sampler.worlds
    d.sampler.worlds = lambda info, W, n, rng, rule_w: seen.append(rule_w) or worlds(  # type: ignore
        info, W, n, rng, rule_w)
    root = d._root(st.info_set(me), 1)
    want = d.models.rule_weights(me)
    assert want[me] == 0.0
    assert (seen[0] is not None and np.array_equal(seen[0], want)) == rule_model
    rule_w = root.settings.rule_w
    assert (rule_w is not None and np.array_equal(rule_w, want)) == rule_playouts


@pytest.mark.parametrize(("settings", "on"), [([], False), (["exchange_prior=true"], True),
                                              (["preset=v1"], False)])
def test_the_exchange_prior_reaches_the_sampler(settings: list[str], on: bool) -> None:
    d = Decider(load_client_config(None, settings), np.random.default_rng(0))
    if d.sampler is None:  # v1 deals uniformly
        assert not on and d.config.deal == "uniform"
        return
    assert d.sampler.exchange_prior is on
