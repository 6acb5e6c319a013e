"""Playing styles of the Daihinmin player: the features (kernel against reference), the
priors the search cores see, the styled search's choices, the setting and the report."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import games.daihinmin.rules as R
from clients.config import ConfigError
from clients.uecda.config import PRESETS, load_client_config
from games.daihinmin.cards import PASS, hand_from_str, move_from_str
from games.daihinmin.match import Match, MatchConfig
from games.daihinmin.state import GameState
from knowledge.daihinmin.position import Root, Settings
from knowledge.daihinmin.style import (
    BASE,
    STYLES,
    feature_mask,
    py_has_feature,
    style_priors,
)
from knowledge.style import StyleSpec
from search.budget import Budget
from search.flat import FlatConfig, FlatMC
from search.uct import UCT, UCTConfig
from tests.paths import REPO, load_bench


def _random_positions(seeds: range) -> Iterator[GameState]:
    """Every position of random games (uniformly random legal moves), one game after
    another."""
    for seed in seeds:
        st = Match(MatchConfig(seed=seed)).deal().state()
        rng = np.random.default_rng(seed)
        while not st.is_terminal():
            yield st.clone()
            lm = st.legal_moves()
            st.play(lm[int(rng.integers(len(lm)))])


def test_the_feature_kernel_matches_the_reference_on_random_positions() -> None:
    """On the positions of random games and on leads from random hands of 6 to 20 cards
    (where revolutions are less rare)."""
    rng = np.random.default_rng(5)
    cases = [(st.hand(st.to_move), st.legal_moves()) for st in _random_positions(range(8))]
    for _ in range(300):
        hand = sum(1 << int(c) for c in rng.choice(53, int(rng.integers(6, 21)), replace=False))
        cases.append((hand, R.legal_moves(hand, PASS, int(rng.integers(2)), 0)))
    choices = dict.fromkeys(STYLES, 0)
    for hand, legal in cases:
        for name in STYLES:
            mask = feature_mask(name, hand, legal)
            assert mask.tolist() == [py_has_feature(name, hand, m) for m in legal], name
            choices[name] += bool(mask.any() and not mask.all())
    assert all(n > 0 for n in choices.values()), choices  # every feature can be chosen


@pytest.mark.parametrize(("name", "hand", "move", "has"), [
    ("hoarding", "S3 S4 S5 H6 H7 D9 DT", "S3", True),
    ("hoarding", "S3 S4 S5 H6 H7 D9 D2", "D2", False),
    ("hoarding", "S3 S4 S5 H6 H7 D9 D8", "D8", False),
    ("hoarding", "S3 S4 S5 H6 H7 D9 D2", "pass", True),  # a pass spends nothing
    ("hoarding", "S3 S4 S5 H6 D2", "S3", False),  # 5 cards: the end, the hoard may go
    ("shedding", "S3 H3 D3 S5", "S3 H3 D3", True),
    ("shedding", "S3 H3 D3 S5", "S3 H3", False),
    ("shedding", "S3 S4 S5 H9", "S3 S4 S5", True),
    ("shedding", "S3 S4 S5 H9", "pass", False),
    ("revolutionary", "S3 H3 D3 C3 S9", "S3 H3 D3 C3", True),
    ("revolutionary", "S3 H3 D3 C3 S9", "S3 H3 D3", False),
    ("revolutionary", "S3 S4 S5 S6 S7 H9", "S3 S4 S5 S6 S7", True),
    ("revolutionary", "S3 S4 S5 S6 S7 H9", "S3 S4 S5 S6", False),
])
def test_the_features_by_example(name: str, hand: str, move: str, has: bool) -> None:
    h = hand_from_str(hand.replace(" ", ""))
    m = PASS if move == "pass" else move_from_str(move.replace(" ", ""))
    assert py_has_feature(name, h, m) is has
    assert bool(feature_mask(name, h, [m])[0]) is has


def _choice_positions(name: str, count: int, most_moves: int = 1000) -> list[GameState]:
    """Positions of random games where the mover has a move with the feature and one
    without (and at most ``most_moves`` legal moves)."""
    out = []
    for st in _random_positions(range(100)):
        legal = st.legal_moves()
        mask = feature_mask(name, st.hand(st.to_move), legal)
        if mask.any() and not mask.all() and len(legal) <= most_moves:
            out.append(st)
            if len(out) == count:
                break
    return out


def test_the_priors_reach_both_cores_at_the_root_only() -> None:
    st = _choice_positions("hoarding", 1)[0]
    info = st.info_set(st.to_move)
    spec = StyleSpec("hoarding", 0.5)
    root = Root(info, Settings(style=spec))
    pr = root.priors()
    mask = feature_mask("hoarding", info.hand, info.legal_moves())
    assert list(pr.moves) == info.legal_moves()
    assert pr.counts.tolist() == np.where(mask, 0.5 * BASE["hoarding"], 0.0).tolist()
    assert np.all(pr.values[mask] == 1.0)
    assert pr.counts.tolist() == style_priors(spec, info.hand, info.legal_moves()).counts.tolist()
    world = root.sample_world(np.random.default_rng(0))
    assert world.priors().counts.tolist() == pr.counts.tolist()
    world.play(world.legal_moves()[0])
    assert not world.priors().counts.any()  # below the root: none
    assert not Root(info).priors().counts.any()  # the plain player: none


@pytest.mark.parametrize(("core", "name"), [
    ("flat", "hoarding"), ("flat", "shedding"), ("flat", "revolutionary"), ("uct", "hoarding"),
])
def test_a_styled_search_chooses_the_feature_more_often(core: str, name: str) -> None:
    """Over a few positions with a choice, at a fixed budget. UCT chooses by real visits,
    which a feature move gets once the other moves' bounds fall below its prior mean: for
    its small budget here, the positions have few moves and the strength is a tenth."""
    positions = _choice_positions(name, 6, 1000 if core == "flat" else 8)
    assert len(positions) == 6, name
    picks = {}
    for style in (None, StyleSpec(name, 1.0 if core == "flat" else 0.1)):
        n = 0
        for i, st in enumerate(positions):
            info = st.info_set(st.to_move)
            root = Root(info, Settings(policy="heuristic", style=style))
            searcher = (FlatMC(FlatConfig(alpha=0.9, priors=True)) if core == "flat"
                        else UCT(UCTConfig(c=0.7, reuse=False)))
            res = searcher.search(root, info.seat, Budget(playouts=200),
                                  np.random.default_rng(i))
            n += py_has_feature(name, info.hand, int(res.move))
        picks[style is not None] = n
    assert picks[True] > picks[False] or picks[True] == len(positions), picks


def test_the_style_setting() -> None:
    assert load_client_config(None, []).style == ""
    assert load_client_config(None, ["style=shedding:2.5"]).style == "shedding:2.5"
    assert load_client_config(None, ["core=uct", "style=hoarding"]).style == "hoarding"
    assert all(p["style"] == "" for p in PRESETS.values())
    with pytest.raises(ConfigError, match="unknown style 'calm'.*hoarding.*shedding.*"
                                          "revolutionary"):
        load_client_config(None, ["style=calm"])
    with pytest.raises(ConfigError, match="the strength after ':' must be a number"):
        load_client_config(None, ["style=hoarding:0"])
    with pytest.raises(ConfigError, match="^style=hoarding with core=baseline: style is a "
                                          "setting of core flat or uct$"):
        load_client_config(None, ["core=baseline", "style=hoarding"])


def test_the_report_plays_and_counts() -> None:
    report = load_bench("_style_daihinmin")
    with pytest.raises(ValueError, match="unknown style"):
        report.measure(["calm"], 1, 20, 1)
    fig = report.measure(["hoarding:2"], 1, 20, 1)
    assert fig["games"] == 1 and fig["playouts"] == 20
    (row,) = fig["styles"]
    assert row["name"] == "hoarding" and row["strength"] == 2.0
    assert row["positions"] > 0 and 0 <= row["rate_plain"] <= 1 and 0 <= row["rate_styled"] <= 1
    assert 1 <= row["score"] <= 5 and 1 <= row["score_plain"] <= 5
    assert row["score"] != row["score_plain"]  # two players cannot share a rank
    assert row["diff"] == row["score"] - row["score_plain"]
    # the styled player's own playout moves by other weights (here: the bundled ones)
    weights = str(REPO / "knowledge" / "daihinmin" / "data" / "policy-strong.json")
    (row,) = report.measure(["shedding"], 1, 20, 2, own_policy=weights)["styles"]
    assert row["own_policy"] == weights and row["name"] == "shedding"
