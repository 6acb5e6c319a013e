"""Who plays in an arena run: ``--player SPEC`` parsed into a :class:`Player`.

A spec is one of

* ``corvid[:key=value,...]`` — the corvid client of the game, each pair passed as
  ``--set key=value`` (``corvid:playouts=5000,preset=v1``); the client validates them; a
  list value keeps its commas inside its brackets (``corvid:size_weights=[0.1,0.3,1]``);
* a built-in opponent of the game: one that the server plays itself (UECda ``standin``,
  Blokus ``first-legal`` / ``biggest``), or a named shortcut for a client (UECda ``baseline``
  = ``corvid:core=baseline``, Go ``gnugo[:level=N]`` = GNU Go in GTP mode);
* ``cmd:PROGRAM ARGS...`` — any other program; ``{host}``, ``{port}`` and ``{name}`` in the
  command are replaced when it is started;
* ``gtp:PROGRAM ARGS...`` (Blokus) — a GTP engine that the server drives itself through
  the game's GTP notation (Pentobi's ``pentobi-gtp``); ``{name}`` is replaced.

Any spec may carry a label, ``LABEL=SPEC`` (a label has no ``:`` and no spaces), which names
the player in tables, records and plots; by default the label is the spec itself, and
players given twice get ``#1``, ``#2``, ... appended.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

Kind = Literal["corvid", "server", "cmd", "gtp"]
# name -> (params) -> the spec it stands for (a shortcut), or None if it is a server player
Alias = Callable[[dict[str, str]], str]

_LABEL = re.compile(r"^([^\s:=]+)=(.+)$")


class SpecError(ValueError):
    """A ``--player`` spec (or a sweep over it) that cannot be understood."""


@dataclass(frozen=True)
class Player:
    label: str
    spec: str  # as given, without the label
    kind: Kind
    settings: tuple[str, ...] = ()  # corvid: key=value, each passed as --set
    command: str = ""  # cmd, gtp: the command line template; server: the built-in's name

    def setting(self, key: str) -> str | None:
        for s in self.settings:
            k, _, v = s.partition("=")
            if k.strip() == key:
                return v.strip()
        return None

    def with_setting(self, key: str, value: str) -> Player:
        """This corvid player with ``key=value`` set (replacing an earlier value)."""
        kept = tuple(s for s in self.settings if s.partition("=")[0].strip() != key)
        settings = (*kept, f"{key}={value}")
        return replace(self, settings=settings, spec="corvid:" + ",".join(settings))

    def argv(self, corvid: Sequence[str], host: str = "127.0.0.1", port: int = 0,
             name: str = "", seed: int | None = None, log_level: str = "warning",
             extra: Sequence[str] = ()) -> list[str]:
        """The command line of a client player. ``corvid``: the game's subcommand and its
        options after ``corvid --log-level L`` (e.g. ``["uecda", "--port", "4000"]``);
        ``seed``: passed as ``--set seed=N`` unless the spec sets one; ``extra``: settings
        the game adds unless the spec sets them (``seconds=1.0`` for Blokus)."""
        if self.kind in ("cmd", "gtp"):
            try:
                return [a.format(host=host, port=port, name=name)
                        for a in shlex.split(self.command)]
            except (KeyError, IndexError, ValueError) as e:
                raise SpecError(f"player {self.label!r}: bad command template: {e}") from e
        if self.kind != "corvid":
            raise SpecError(f"player {self.label!r} is played by the server, not a client")
        out = [sys.executable, "-m", "clients.cli", "--log-level", log_level, *corvid]
        given = {s.partition("=")[0].strip() for s in self.settings}
        for s in extra:
            if s.partition("=")[0] not in given:
                out += ["--set", s]
        if seed is not None and "seed" not in given:
            out += ["--set", f"seed={seed}"]
        for s in self.settings:
            out += ["--set", s]
        return out


def _split_settings(rest: str) -> list[str]:
    """``rest`` split at the commas outside brackets (a list value keeps its own)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(rest):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            parts.append(rest[start:i])
            start = i + 1
    parts.append(rest[start:])
    return parts


def _settings(rest: str, text: str) -> tuple[str, ...]:
    settings = tuple(s.strip() for s in _split_settings(rest) if s.strip())
    for s in settings:
        key, eq, _ = s.partition("=")
        if not eq or not key.strip():
            raise SpecError(f"player {text!r}: setting {s!r} is not key=value")
    return settings


def parse_player(text: str, servers: Sequence[str] = (),
                 aliases: Mapping[str, Alias] | None = None, gtp: bool = False) -> Player:
    """One spec (see the module docstring). ``servers``: the game's server-side opponents;
    ``aliases``: its named shortcuts for client players; ``gtp``: the game's server drives
    GTP engines (``gtp:COMMAND``)."""
    text = text.strip()
    label = ""
    m = _LABEL.match(text)
    if m:
        label, text = m.group(1), m.group(2).strip()
    if not text:
        raise SpecError("empty player spec")
    if text.startswith("cmd:"):
        command = text[4:].strip()
        if not command:
            raise SpecError("player 'cmd:' needs a command")
        return Player(label or text, text, "cmd", command=command)
    if gtp and text.startswith("gtp:"):
        command = text[4:].strip()
        if not command:
            raise SpecError("player 'gtp:' needs a command")
        return Player(label or text, text, "gtp", command=command)
    name, _, rest = text.partition(":")
    if name == "corvid":
        return Player(label or text, text, "corvid", _settings(rest, text))
    if name in servers:
        if rest.strip():
            raise SpecError(f"player {name!r} takes no settings")
        return Player(label or text, text, "server", command=name)
    if aliases and name in aliases:
        params = dict(s.split("=", 1) for s in _settings(rest, text))
        try:
            expanded = aliases[name]({k.strip(): v.strip() for k, v in params.items()})
        except (KeyError, ValueError) as e:
            raise SpecError(f"player {text!r}: {e}") from e
        return replace(parse_player(expanded, servers, gtp=gtp), label=label or text, spec=text)
    known = ["corvid[:key=value,...]", *servers, *(aliases or {}), "cmd:COMMAND",
             *(["gtp:COMMAND"] if gtp else [])]
    raise SpecError(f"unknown player {text!r}: use one of {', '.join(known)}")


def unique_labels(players: Sequence[Player]) -> list[Player]:
    """Players whose labels are unique: repeated labels get ``#1``, ``#2``, ..."""
    count: dict[str, int] = {}
    for p in players:
        count[p.label] = count.get(p.label, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for p in players:
        if count[p.label] > 1:
            seen[p.label] = seen.get(p.label, 0) + 1
            p = replace(p, label=f"{p.label}#{seen[p.label]}")
        out.append(p)
    return out


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """``key=v1,v2,...`` -> (key, [v1, v2, ...])."""
    key, eq, values = text.partition("=")
    vals = [v.strip() for v in values.split(",") if v.strip()]
    if not eq or not key.strip() or not vals:
        raise SpecError(f"--sweep expects key=v1,v2,..., got {text!r}")
    if len(set(vals)) != len(vals):
        raise SpecError(f"--sweep {text!r} repeats a value")
    return key.strip(), vals
