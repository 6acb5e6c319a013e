import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Literal

import msgspec
import pytest

from clients.config import ConfigError, load_config, with_setting


class Cfg(msgspec.Struct, frozen=True):
    preset: str = ""
    name: str = "corvid"
    core: str = "uct"
    seconds: Annotated[float, msgspec.Meta(ge=0)] = 0.0
    playouts: Annotated[int, msgspec.Meta(ge=0)] = 3000
    depth: Annotated[int, msgspec.Meta(ge=1, le=4)] = 2  # read by core abucb only
    c: Annotated[float, msgspec.Meta(gt=0)] = 0.5  # read by core uct only
    bandit: Literal["ucb1-tuned", "ucb1"] = "ucb1-tuned"
    weights: tuple[float, float] = (0.5, 1.0)


CORES = {"depth": ("abucb",), "c": ("uct",)}
PRESETS = {"old": {"name": "crow", "c": 1.0, "playouts": 50}}


def test_defaults_file_and_overrides(tmp_path: Path) -> None:
    assert load_config(Cfg) == Cfg()
    f = tmp_path / "c.toml"
    f.write_text('name = "crow"\nplayouts = 500\n')
    c = load_config(Cfg, f, ["c=1.0", "bandit=ucb1"])
    assert (c.name, c.playouts, c.c, c.bandit) == ("crow", 500, 1.0, "ucb1")
    with pytest.raises(AttributeError):
        c.name = "x"  # type: ignore[misc]  # frozen


def test_presets_lie_beneath_the_file_and_the_overrides(tmp_path: Path) -> None:
    assert load_config(Cfg, presets=PRESETS) == Cfg()
    c = load_config(Cfg, None, ["preset=old"], presets=PRESETS)
    assert (c.name, c.c, c.playouts) == ("crow", 1.0, 50)
    f = tmp_path / "c.toml"
    f.write_text('preset = "old"\nplayouts = 7\n')
    c = load_config(Cfg, f, ["name=kite"], presets=PRESETS)
    assert (c.name, c.c, c.playouts) == ("kite", 1.0, 7)
    with pytest.raises(ConfigError, match="^preset=new: unknown preset; known: old$"):
        load_config(Cfg, None, ["preset=new"], presets=PRESETS)


def test_seconds_without_playouts_is_a_time_only_budget(tmp_path: Path) -> None:
    assert load_config(Cfg, None, ["seconds=2"]).playouts == 0
    assert load_config(Cfg, None, ["seconds=2", "playouts=100"]).playouts == 100
    f = tmp_path / "c.toml"
    f.write_text("seconds = 2\n")
    assert load_config(Cfg, f).playouts == 0
    assert load_config(Cfg, f, ["playouts=10"]).playouts == 10
    # a preset's playouts are not the user's: seconds alone still means time only
    assert load_config(Cfg, None, ["preset=old", "seconds=1"], presets=PRESETS).playouts == 0
    assert load_config(Cfg, None, ["seconds=0"]).playouts == 3000  # 0: no time given
    assert with_setting(Cfg(), "seconds", 1.5).playouts == 0


def test_a_setting_of_a_core_not_in_use_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="^depth=3 with core=uct: depth is a setting of "
                                          "core abucb$"):
        load_config(Cfg, None, ["depth=3"], cores=CORES)
    f = tmp_path / "c.toml"
    f.write_text('core = "abucb"\nc = 0.7\n')
    with pytest.raises(ConfigError, match="^c=0.7 with core=abucb: c is a setting of core uct$"):
        load_config(Cfg, f, cores=CORES)
    assert load_config(Cfg, None, ["core=abucb", "depth=3"], cores=CORES).depth == 3
    # only the settings the user gave: the preset's c is not refused with core=abucb
    assert load_config(Cfg, None, ["preset=old", "core=abucb"], presets=PRESETS,
                       cores=CORES).c == 1.0
    with pytest.raises(ConfigError, match="^depth=3 with core=uct"):
        with_setting(Cfg(), "depth", 3, cores=CORES)


@pytest.mark.parametrize(("setting", "message"), [
    ("depth=5", "depth=5: depth must be an integer >= 1 and <= 4"),
    ("depth=0", "depth=0: depth must be an integer >= 1 and <= 4"),
    ("playouts=-1", "playouts=-1: playouts must be an integer >= 0"),
    ("playouts=many", "playouts=many: playouts must be an integer >= 0"),
    ("c=0", "c=0: c must be a number > 0"),
    ("bandit=greedy", "bandit=greedy: bandit must be one of ucb1, ucb1-tuned"),
    ("weights=[1]", "weights=[1]: weights must be a list of 2 values, each a number"),
    ("name=3", "name=3: name must be text"),
    ("serch=1", "unknown setting 'serch'; known: bandit, c, core, depth, name, playouts, "
                "preset, seconds, weights"),
    ("alpha", "--set expects key=value, got 'alpha'"),
])
def test_errors_name_the_setting_the_value_and_what_is_allowed(setting: str,
                                                               message: str) -> None:
    with pytest.raises(ConfigError) as e:
        load_config(Cfg, None, [setting])
    assert str(e.value) == message


def test_file_errors_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(Cfg, tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(Cfg, bad)
    bad.write_text("[search]\nalpha = 1\n")
    with pytest.raises(ConfigError, match="unknown setting 'search'"):
        load_config(Cfg, bad)


class Checked(msgspec.Struct, frozen=True):
    low: int = 1
    high: int = 2

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise ConfigError(f"low={self.low} must not exceed high={self.high}")


def test_a_structs_own_check_keeps_its_sentence() -> None:
    with pytest.raises(ConfigError) as e:
        load_config(Checked, None, ["low=5"])
    assert str(e.value) == "low=5 must not exceed high=2"


def test_help_shows_each_default_as_typed() -> None:
    from clients.config import settings_help

    text = settings_help(Cfg).splitlines()
    assert 'preset=""' in text and "seconds=0.0" in text and "weights=[0.5, 1.0]" in text


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
