"""Playing styles: a player with a character (Watanabe and Kaneko, "Realizing individuality in
UCT with prior knowledge and policy learning").

A style is a preference for the moves that have one chosen feature. The search learns of it
as optimistic prior knowledge: every legal move with the feature starts with ``strength``
times the game's base equivalent experience in pseudo-visits, all of them wins, on top of
the priors it has anyway. The player then chooses such moves more often than the plain
player does (its **style rate**), at a price in strength; ``bench/style.py`` measures both.

Each game's knowledge holds its own library (``knowledge.<game>.style``: the styles by name,
each with its feature, a numba kernel beside a plain-Python reference); this module holds
what they share: the setting ``style=NAME[:STRENGTH]`` and its check.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import NamedTuple

MAX_STRENGTH = 100.0


class StyleSpec(NamedTuple):
    """A style by name, and the factor on its base optimistic prior (1: the default)."""

    name: str
    strength: float = 1.0


def parse_style(text: str, styles: Mapping[str, str]) -> StyleSpec | None:
    """``NAME[:STRENGTH]`` as a :class:`StyleSpec`; ``""`` (the plain player) as None.

    ``styles`` maps each style of the game to a one-line description. A name not among them,
    or a strength that is not a number in (0, 100], is a :class:`ValueError` whose message
    names the value and what is allowed.
    """
    text = text.strip()
    if not text:
        return None
    name, sep, number = text.partition(":")
    name = name.strip()
    if name not in styles:
        known = "; ".join(f"{k} ({v})" for k, v in styles.items())
        raise ValueError(f"style={text!r}: unknown style {name!r}; the styles of this game: "
                         f"{known}")
    if not sep:
        return StyleSpec(name)
    try:
        strength = float(number)
    except ValueError:
        strength = math.nan
    if not 0.0 < strength <= MAX_STRENGTH:  # also refuses nan
        raise ValueError(f"style={text!r}: the strength after ':' must be a number in "
                         f"(0, {MAX_STRENGTH:g}], the factor on the style's prior (1: default)")
    return StyleSpec(name, strength)


def parse_styles(texts: Iterable[str], styles: Mapping[str, str]) -> list[StyleSpec]:
    """Several ``NAME[:STRENGTH]`` texts (a report's ``--style`` options) as styles; none: every
    style of the game at strength 1. An empty text is the plain player, not a style: a
    :class:`ValueError`, as is any text :func:`parse_style` refuses."""
    specs = []
    for text in texts:
        spec = parse_style(text, styles)
        if spec is None:
            raise ValueError("an empty style is the plain player, not a style to measure")
        specs.append(spec)
    return specs or [StyleSpec(name) for name in styles]


def style_help(styles: Mapping[str, str], cores: str = "") -> str:
    """The styles' paragraph of a client's --help: a heading (``cores``: the cores that read
    the style, if not all), then one line per style."""
    where = f"; cores {cores}" if cores else ""
    return (f"styles (--set style=NAME[:STRENGTH]; STRENGTH scales the style's prior, 1 by "
            f"default{where}):\n" + "\n".join(f"  style={name}: {text}"
                                               for name, text in styles.items()))
