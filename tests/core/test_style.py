"""The style setting shared by the three clients: ``NAME[:STRENGTH]``."""

from __future__ import annotations

import pytest

from knowledge.style import StyleSpec, parse_style, parse_styles, style_help

STYLES = {"fighting": "contact moves", "territorial": "third and fourth line"}


def test_empty_is_the_plain_player() -> None:
    assert parse_style("", STYLES) is None
    assert parse_style("  ", STYLES) is None


def test_name_alone_takes_the_default_strength() -> None:
    assert parse_style("fighting", STYLES) == StyleSpec("fighting", 1.0)


def test_strength_after_a_colon() -> None:
    assert parse_style("territorial:2.5", STYLES) == StyleSpec("territorial", 2.5)


@pytest.mark.parametrize("text", ["territorial:0", "territorial:-1", "territorial:x",
                                  "territorial:", "territorial:nan", "territorial:101"])
def test_bad_strength_is_refused_with_the_range(text: str) -> None:
    with pytest.raises(ValueError, match=r"strength after ':' must be a number in \(0, 100\]"):
        parse_style(text, STYLES)


def test_unknown_name_lists_the_styles() -> None:
    with pytest.raises(ValueError, match="unknown style 'calm'.*fighting.*territorial"):
        parse_style("calm:2", STYLES)


def test_help_names_every_style() -> None:
    lines = style_help(STYLES, cores="uct, abucb").splitlines()
    assert lines[0].startswith("styles (--set style=NAME[:STRENGTH]")
    assert lines[0].endswith("; cores uct, abucb):")
    assert lines[1:] == ["  style=fighting: contact moves",
                         "  style=territorial: third and fourth line"]


def test_a_report_measures_the_styles_given_or_all() -> None:
    assert parse_styles([], STYLES) == [StyleSpec("fighting"), StyleSpec("territorial")]
    assert parse_styles(["territorial:3"], STYLES) == [StyleSpec("territorial", 3.0)]
    with pytest.raises(ValueError, match="plain player"):
        parse_styles([""], STYLES)
    with pytest.raises(ValueError, match="unknown style"):
        parse_styles(["fighting", "calm"], STYLES)
