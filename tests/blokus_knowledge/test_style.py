"""The Blokus Duo playing styles: each style's feature kernel against the plain-Python
reference, the style in the priors (against the reference), the style setting, a styled
search choosing feature moves more often than the plain one, and the style report's games."""

from __future__ import annotations

from types import ModuleType

import msgspec
import numpy as np
import pytest

from clients.blokus.config import PRESETS, PlayerConfig, load_player_config
from clients.config import ConfigError
from games.blokus_duo import PASS
from games.blokus_duo.reference import RefBoard
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.reference import reference_priors, reference_style_moves
from knowledge.blokus_duo.settings import BlokusConfig
from knowledge.blokus_duo.style import BASE, STYLES, style_moves
from search.budget import Budget
from search.ctree import CompiledUCT
from search.uct import UCTConfig
from tests.blokus_knowledge.test_priors import positions
from tests.paths import load_bench


@pytest.mark.parametrize("name", list(STYLES))
def test_style_kernel_matches_the_reference(name: str) -> None:
    with_feature = without = 0
    for s in positions(11, BlokusConfig(), 14):
        moves, flags = style_moves(s.state, name)
        if moves == [PASS]:
            continue
        ref = reference_style_moves(RefBoard.from_state(s.state), s.state.to_move_colour, name)
        assert {m for m, f in zip(moves, flags.tolist(), strict=True) if f} == ref
        with_feature += int(flags.sum())
        without += int((~flags).sum())
    assert with_feature > 20 and without > 20  # the feature tells moves apart


@pytest.mark.parametrize("config", [
    BlokusConfig(style="blocking"),
    BlokusConfig(priors="knowledge", open_pieces=2, style="expanding:0.5"),
    BlokusConfig(priors="knowledge", style="blocking:3"),
], ids=["size-blocking", "knowledge-pruned-expanding", "knowledge-blocking"])
def test_styled_priors_match_the_reference(config: BlokusConfig) -> None:
    styled = 0
    for s in positions(4, config, 10):
        pr = s.priors()
        if pr.moves == [PASS]:
            continue
        ref = reference_priors(RefBoard.from_state(s.state), s.state.to_move_colour, config)
        for m, v, c in zip(pr.moves, pr.values, pr.counts, strict=True):
            assert (v, c) == pytest.approx(ref[m], abs=1e-12), s.state.code(m)
        styled += int((pr.counts > config.prior_count).sum())
    assert styled > 0


def test_the_style_is_optimistic_prior_knowledge() -> None:
    """A feature move gets strength x its style's BASE pseudo-visits, all wins; the others
    are as the plain player has them."""
    s = positions(7, BlokusConfig(), 12)[-1]
    _, flags = style_moves(s.state, "blocking")
    assert flags.any() and not flags.all()
    plain = BlokusPosition(s.state, BlokusConfig(priors="knowledge")).priors()
    styled = BlokusPosition(s.state, BlokusConfig(priors="knowledge",
                                                  style="blocking:2")).priors()
    e = 2 * BASE["blocking"]
    assert np.array_equal(styled.counts, np.where(flags, plain.counts + e, plain.counts))
    want = np.where(flags, (plain.values * plain.counts + e) / (plain.counts + e), plain.values)
    assert np.array_equal(styled.values, want)


def test_the_style_setting() -> None:
    cfg = load_player_config(None, ["style=expanding:2.5"])
    assert cfg.style == "expanding:2.5" and cfg.game.style == "expanding:2.5"
    assert load_player_config(None, ["style=blocking", "core=abucb"]).game.style == "blocking"
    assert PlayerConfig().game.style == ""
    with pytest.raises(ConfigError, match="unknown style 'calm'; the styles of this game: "
                                          "blocking .*; expanding"):
        load_player_config(None, ["style=calm"])
    with pytest.raises(ConfigError, match="strength after ':' must be a number"):
        load_player_config(None, ["style=blocking:0"])
    with pytest.raises(ConfigError, match="style"):  # alpha-beta reads no priors
        load_player_config(None, ["style=blocking", "core=alphabeta"])
    with pytest.raises(ConfigError, match="needs priors=true"):
        load_player_config(None, ["style=blocking", "priors=false"])
    assert all(p["style"] == "" for p in PRESETS.values())


def test_help_lists_the_styles(capsys: pytest.CaptureFixture[str]) -> None:
    from clients.cli import main

    with pytest.raises(SystemExit):
        main(["blokus", "--help"])
    out = capsys.readouterr().out
    assert all(f"style={name}: {text}" in out for name, text in STYLES.items())


def test_a_styled_search_prefers_feature_moves() -> None:
    """On positions where the mover can choose, the compiled UCT styled at strength 2 picks a
    move with the feature more often than the plain one at the same seed and playouts."""
    plain_cfg = BlokusConfig(priors="knowledge")
    counts = {name: [0, 0] for name in STYLES}
    for s in positions(21, BlokusConfig(), 40):
        for name in STYLES:
            moves, flags = style_moves(s.state, name)
            if not flags.any() or flags.all():
                continue
            feature = dict(zip(moves, flags.tolist(), strict=True))
            styled_cfg = msgspec.structs.replace(plain_cfg, style=f"{name}:2")
            for k, cfg in enumerate((plain_cfg, styled_cfg)):
                res = CompiledUCT(UCTConfig(c=0.0)).search(
                    BlokusPosition(s.state.clone(), cfg), s.to_move, Budget(playouts=200),
                    np.random.default_rng(5))
                counts[name][k] += feature[int(res.move)]  # type: ignore[call-overload]
    for name, (plain, styled) in counts.items():
        assert styled >= plain + 5, (name, plain, styled)


def _bench() -> ModuleType:
    return load_bench("_style_blokus")


def test_the_style_report_plays_and_counts() -> None:
    figures = _bench().measure(["blocking:2"], 1, 20, 3)
    assert figures["games"] == 1 and figures["playouts"] == 20
    (row,) = figures["styles"]
    assert (row["name"], row["strength"]) == ("blocking", 2.0)
    assert row["positions"] > 5 and 0 <= row["rate_plain"] <= row["rate_styled"] <= 1
    assert row["score"] in (0.0, 0.5, 1.0) and row["score_plain"] == 1.0 - row["score"]
    assert row["ci95"][0] <= row["score"] <= row["ci95"][1]
    with pytest.raises(ValueError, match="unknown style"):
        _bench().measure(["calm"], 1, 20, 3)
