import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from clients.config import ConfigError, load_config
from search.flat import FlatConfig


class Section(msgspec.Struct, frozen=True):
    alpha: float = 0.9
    playouts: int = 3000


class Cfg(msgspec.Struct, frozen=True):
    name: str = "corvid"
    search: Section = Section()
    flat: FlatConfig = FlatConfig()


def test_defaults_file_and_overrides(tmp_path: Path) -> None:
    assert load_config(Cfg) == Cfg()
    f = tmp_path / "c.toml"
    f.write_text('name = "crow"\n[search]\nplayouts = 500\n')
    c = load_config(Cfg, f, ["search.alpha=1.0", "flat.bandit=ucb1"])
    assert c.name == "crow" and c.search.playouts == 500 and c.search.alpha == 1.0
    assert c.flat.bandit == "ucb1"
    with pytest.raises(AttributeError):
        c.name = "x"  # type: ignore[misc]  # frozen


class WithPreset(msgspec.Struct, frozen=True):
    preset: str = ""
    name: str = "corvid"
    search: Section = Section(playouts=100)


PRESETS = {"old": {"name": "crow", "search": {"alpha": 1.0, "playouts": 50}}}


def test_presets_lie_beneath_the_file_and_the_overrides(tmp_path: Path) -> None:
    assert load_config(WithPreset, presets=PRESETS) == WithPreset()
    c = load_config(WithPreset, None, ["preset=old"], presets=PRESETS)
    assert (c.name, c.search.alpha, c.search.playouts) == ("crow", 1.0, 50)
    f = tmp_path / "c.toml"
    f.write_text('preset = "old"\n[search]\nplayouts = 7\n')
    c = load_config(WithPreset, f, ["name=kite"], presets=PRESETS)
    assert (c.name, c.search.alpha, c.search.playouts) == ("kite", 1.0, 7)
    with pytest.raises(ConfigError, match="unknown preset 'new'; known: old"):
        load_config(WithPreset, None, ["preset=new"], presets=PRESETS)


def test_help_lists_a_sections_defaults_as_its_parent_sets_them() -> None:
    from clients.config import settings_help

    text = settings_help(WithPreset)
    assert "search.playouts=100" in text and "search.alpha=0.9" in text


def test_bad_settings_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown setting 'serch'"):
        load_config(Cfg, None, ["serch.alpha=1"])
    with pytest.raises(ConfigError, match="search.playouts|int"):
        load_config(Cfg, None, ["search.playouts=many"])
    with pytest.raises(ConfigError, match="key=value"):
        load_config(Cfg, None, ["alpha"])
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(Cfg, tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(Cfg, bad)
    with pytest.raises(ConfigError, match="bandit"):
        load_config(Cfg, None, ["flat.bandit=greedy"])


def test_corvid_help_lists_the_registered_subcommands() -> None:
    p = subprocess.run([sys.executable, "-m", "clients.cli", "--help"], capture_output=True,
                       text=True, check=True)
    out = p.stdout
    assert "cannot load" not in p.stderr, p.stderr  # every registered command loads
    assert "serve" in out
    from importlib.metadata import entry_points

    for ep in entry_points(group="corvid.commands"):
        assert ep.name in out
    serve = subprocess.run([sys.executable, "-m", "clients.cli", "serve", "--help"],
                           capture_output=True, text=True, check=True).stdout
    for ep in entry_points(group="corvid.serve"):
        assert ep.name in serve


def test_corvid_without_a_command_explains_itself() -> None:
    p = subprocess.run([sys.executable, "-m", "clients.cli"], capture_output=True, text=True)
    assert p.returncode == 2 and "usage: corvid" in p.stderr


def test_top_level_options_are_not_abbreviated() -> None:
    from clients.cli import build_parser

    # a subcommand's own --log must not be mistaken for the top-level --log-level/--log-file
    args = build_parser().parse_args(["serve", "uecda", "--log", "game.log"])
    assert args.log_file is None and args.log_level == "info"
    assert "game.log" in vars(args).values()


def _options_without_their_default(parser: argparse.ArgumentParser, path: str
                                   ) -> Iterator[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options_without_their_default(sub, f"{path} {name}")
        elif action.option_strings and action.help is not argparse.SUPPRESS:
            d = action.default
            if d is None or d is False or d == [] or isinstance(action, argparse._HelpAction):
                continue
            if "default" not in (action.help or ""):
                yield f"{path} {action.option_strings[-1]} (default {d!r})"


def test_every_option_with_a_default_names_it_in_its_help() -> None:
    from clients.cli import build_parser

    assert list(_options_without_their_default(build_parser(), "corvid")) == []
