"""The ``style`` setting of corvid gtp (accepted, refused with the styles listed, at runtime
through corvid-param, in --help) and Go's style report (bench/style.py --game go) on one tiny
game."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from clients.config import ConfigError
from clients.gtp.cli import register
from clients.gtp.config import PRESETS, load_gtp_config
from clients.gtp.player import SearchPlayer, search_position
from games.go import GoState
from knowledge.go.style import STYLES
from knowledge.style import StyleSpec
from tests.gtp.test_engine import make, talk
from tests.paths import REPO


def test_style_setting_reaches_the_position() -> None:
    assert search_position(GoState(9, 7.0), load_gtp_config()).style is None
    for text, spec in (("fighting", StyleSpec("fighting")),
                       ("territorial:2.5", StyleSpec("territorial", 2.5))):
        cfg = load_gtp_config(overrides=[f"style={text}"])
        assert search_position(GoState(9, 7.0), cfg).style == spec
    cfg = load_gtp_config(overrides=["preset=v1", "style=influential"])
    assert search_position(GoState(9, 7.0), cfg).style == StyleSpec("influential")
    assert all(preset["style"] == "" for preset in PRESETS.values())
    assert load_gtp_config(overrides=["core=abucb", "style=fighting"]).style == "fighting"


@pytest.mark.parametrize("text,message", [
    ("calm", "unknown style 'calm'; the styles of this game: territorial .*fighting"),
    ("fighting:0", "strength after ':' must be a number in"),
    ("fighting:x", "strength after ':' must be a number in"),
])
def test_bad_style_is_refused_with_the_styles(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_gtp_config(overrides=[f"style={text}"])


def test_style_is_a_setting_of_the_cores_that_read_priors() -> None:
    with pytest.raises(ConfigError, match="style=fighting with core=flat: style is a setting "
                                          "of core uct or abucb"):
        load_gtp_config(overrides=["core=flat", "style=fighting"])


def test_style_needs_the_priors() -> None:
    with pytest.raises(ConfigError, match="acts through the priors: it needs priors=true"):
        load_gtp_config(overrides=["style=fighting", "priors=false"])


def test_style_at_runtime() -> None:
    e, gen = make()
    assert talk(e, "corvid-param style fighting:2") == b"= \n\n"
    assert e.config.style == "fighting:2" and gen.config == e.config
    assert talk(e, "corvid-param style calm").startswith(
        b"? invalid parameter: style='calm': unknown style 'calm'")
    assert e.config.style == "fighting:2"
    assert talk(e, 'corvid-param style ""') == b"= \n\n" and e.config.style == ""


def test_a_new_style_starts_a_new_tree() -> None:
    player = SearchPlayer(load_gtp_config(overrides=["warmup=false"]))
    game = player.game
    player.configure(load_gtp_config(overrides=["warmup=false", "playouts=100"]))
    assert player.game == game  # the same search: the tree goes on
    player.configure(load_gtp_config(overrides=["warmup=false", "style=fighting"]))
    assert player.game == game + 1


def test_help_lists_the_styles() -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    gtp = parser._subparsers._group_actions[0].choices["gtp"]  # type: ignore[union-attr]
    text = gtp.format_help()
    assert "presets:" in text and "styles (--set style=NAME[:STRENGTH]" in text
    for name in STYLES:
        assert f"style={name}: " in text


def test_style_report_on_one_tiny_game() -> None:
    p = subprocess.run([sys.executable, str(REPO / "bench" / "style.py"), "--game", "go",
                        "--games", "1", "--playouts", "16", "--style", "territorial:2", "--json"],
                       capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert p.returncode == 0, p.stderr
    figures = json.loads(p.stdout.splitlines()[-1])
    assert (figures["game"], figures["games"], figures["playouts"]) == ("go", 1, 16)
    [row] = figures["styles"]
    assert (row["name"], row["strength"]) == ("territorial", 2.0)
    assert row["positions"] > 0 and 0.0 <= row["rate_plain"] <= 1.0
    assert row["score"] in (0.0, 0.5, 1.0) and row["score"] + row["score_plain"] == 1.0
    assert row["wins"] + row["draws"] + row["losses"] == 1
    assert "game 1/1" in p.stderr
    bad = subprocess.run([sys.executable, str(REPO / "bench" / "style.py"), "--game", "go",
                          "--style", "calm"], capture_output=True, text=True, timeout=300,
                         check=False, cwd=REPO)
    assert bad.returncode == 2 and "unknown style 'calm'" in bad.stderr
