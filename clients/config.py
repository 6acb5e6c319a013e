"""Configuration: frozen msgspec Structs of flat settings, loaded from TOML and ``--set``.

Every client defines one frozen Struct of top-level settings with their defaults;
:func:`load_config` builds it from (defaults) <- (a named preset) <- (TOML file) <- (``--set``
overrides) and checks it: every mistake a user can make is a :class:`ConfigError` whose
message names the setting, the value given and what is allowed. Three rules hold in every
client:

- **the time rule**: ``seconds`` (or, where a client has it, ``visits``) given without
  ``playouts`` makes the budget that alone (``playouts = 0``, no playout cap);
- **the core rule**: a setting that only some cores read (the client's ``cores`` map) is
  refused when given with another core;
- only the settings the user gave (in the file or by ``--set``) are held to these two rules,
  never those a preset or the defaults filled in.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import msgspec

T = TypeVar("T", bound=msgspec.Struct)

# which cores read a setting (those not named are read by every core)
CoreMap = Mapping[str, tuple[str, ...]]
# the client's checks that need to know which settings the user gave
Check = Callable[[T, frozenset[str]], T]


class ConfigError(ValueError):
    """A configuration file or override the user gave is invalid (the message says which)."""


def parse_value(text: str) -> Any:
    """A ``--set`` value: a TOML literal (number, bool, array, quoted string) or a bare string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_override(assignment: str) -> tuple[str, Any]:
    """``key=value`` as (key, parsed value)."""
    key, sep, value = assignment.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ConfigError(f"--set expects key=value, got {assignment!r}")
    return key, parse_value(value.strip())


def _check_keys(data: Mapping[str, Any], typ: type) -> None:
    """Reject unknown keys with a message naming them (msgspec would silently drop them)."""
    fields = {f.name for f in msgspec.structs.fields(typ)}
    for k in data:
        if k not in fields:
            raise ConfigError(f"unknown setting {k!r}; known: {', '.join(sorted(fields))}")


def _allowed(t: msgspec.inspect.Type) -> str:
    """What a setting of type ``t`` may be, in words (ranges and choices included)."""
    mi = msgspec.inspect
    if isinstance(t, mi.LiteralType):
        return "one of " + ", ".join(toml_value(v) for v in t.values)
    if isinstance(t, mi.BoolType):
        return "true or false"
    if isinstance(t, (mi.IntType, mi.FloatType)):
        bounds = [f"{op} {toml_value(b)}" for op, b in
                  ((">=", t.ge), (">", t.gt), ("<=", t.le), ("<", t.lt)) if b is not None]
        kind = "an integer" if isinstance(t, mi.IntType) else "a number"
        return kind + (" " + " and ".join(bounds) if bounds else "")
    if isinstance(t, mi.StrType):
        return "text"
    if isinstance(t, (mi.TupleType, mi.ListType)):
        item = t.item_type if isinstance(t, mi.ListType) else t.item_types[0]
        count = "" if isinstance(t, mi.ListType) else f"{len(t.item_types)} "
        return f"a list of {count}values, each {_allowed(item)}"
    if isinstance(t, mi.UnionType):
        return " or ".join(_allowed(u) for u in t.types)
    return type(t).__name__.removesuffix("Type").lower()


def _convert(typ: type[T], data: dict[str, Any]) -> T:
    """``data`` as a ``typ``; a value out of its range or choices, or a check of the
    struct's own (its ``__post_init__``), is a ConfigError naming it."""
    try:
        return msgspec.convert(data, typ)
    except msgspec.ValidationError as e:
        if isinstance(e.__cause__, ValueError):  # the struct's own check: its sentence
            raise ConfigError(str(e.__cause__)) from None
        where = re.search(r"at `\$\.(\w+)", str(e))
        if where is None:
            raise ConfigError(f"invalid configuration: {e}") from None
        key = where.group(1)
        field = next(f for f in msgspec.inspect.type_info(typ).fields  # type: ignore[attr-defined]
                     if f.name == key)
        raise ConfigError(f"{key}={toml_value(data[key])}: {key} must be "
                          f"{_allowed(field.type)}") from None


def _finish(cfg: T, given: frozenset[str], cores: CoreMap | None,
            check: Check[T] | None) -> T:
    """The core rule over the settings ``given``, then the client's own ``check``."""
    core = getattr(cfg, "core", None)
    for key in sorted(given):
        readers = (cores or {}).get(key)
        if readers is not None and core not in readers:
            raise ConfigError(f"{key}={toml_value(getattr(cfg, key))} with core={core}: "
                              f"{key} is a setting of core {' or '.join(readers)}")
    return cfg if check is None else check(cfg, given)


def _time_rule(data: dict[str, Any], given: frozenset[str]) -> None:
    """``seconds`` or ``visits`` given without ``playouts``: a budget of time or of visits
    alone (``playouts = 0``)."""
    if "playouts" in given or "playouts" not in data:
        return
    for key in ("seconds", "visits"):
        if (key in given and isinstance(data.get(key), (int, float))
                and not isinstance(data[key], bool) and data[key] > 0):
            data["playouts"] = 0


def load_config(
    typ: type[T], path: str | Path | None = None, overrides: Iterable[str] = (),
    presets: Mapping[str, dict[str, Any]] | None = None, cores: CoreMap | None = None,
    check: Check[T] | None = None,
) -> T:
    """defaults <- (a named preset) <- TOML file <- ``--set`` overrides, then the time rule,
    the core rule (``cores``: which cores read a setting) and ``check`` (the client's checks
    that need the set of settings the user gave). With ``presets``, the struct's ``preset``
    setting (from the file or an override) names one of them: its settings lie beneath the
    file's and the overrides'."""
    data: dict[str, Any] = msgspec.to_builtins(typ())
    file_data: dict[str, Any] = {}
    if path is not None:
        try:
            file_data = tomllib.loads(Path(path).read_text())
        except OSError as e:
            raise ConfigError(f"cannot read config {path}: {e.strerror}") from e
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"config {path} is not valid TOML: {e}") from e
        _check_keys(file_data, typ)
    over = dict(parse_override(a) for a in overrides)
    _check_keys(over, typ)
    user = file_data | over
    if presets is not None:
        name = user.get("preset", data.get("preset"))
        if name:
            if name not in presets:
                raise ConfigError(f"preset={toml_value(name)}: unknown preset; known: "
                                  f"{', '.join(presets)}")
            data |= presets[name]
    data |= user
    given = frozenset(user)
    _time_rule(data, given)
    return _finish(_convert(typ, data), given, cores, check)


def with_setting(config: T, key: str, value: Any, cores: CoreMap | None = None,
                 check: Check[T] | None = None) -> T:
    """``config`` with one setting changed at runtime, held to the same checks as
    :func:`load_config` (the setting given is the one explicit key)."""
    _check_keys({key: value}, type(config))
    data: dict[str, Any] = msgspec.to_builtins(config) | {key: value}
    given = frozenset((key,))
    _time_rule(data, given)
    return _finish(_convert(type(config), data), given, cores, check)


def toml_value(v: Any) -> str:
    """A value as one would type it after ``--set key=`` (a TOML literal)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"' if not v or not v.replace("-", "").replace("_", "").isalnum() else v
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return str(v)


def settings_help(config: msgspec.Struct | type[msgspec.Struct]) -> str:
    """One line per setting with the default in force (the values of ``config``, or of the
    type's default instance), each as one would type it."""
    obj = config if isinstance(config, msgspec.Struct) else config()
    return "\n".join(f"{f.name}={toml_value(getattr(obj, f.name))}"
                     for f in msgspec.structs.fields(type(obj)))


def add_config_arguments(parser: Any, typ: type[msgspec.Struct] | None = None,
                         example: str | None = None) -> None:
    """The two options every configurable subcommand takes; with ``typ``, the settings and
    their defaults are listed at the end of the subcommand's --help. ``example``: a
    ``key=value`` of this command for the --set help (default: its first setting)."""
    if typ is not None:
        import argparse

        lines = settings_help(typ).splitlines()
        parser.formatter_class = argparse.RawDescriptionHelpFormatter
        listing = "\n  ".join(lines)
        parser.epilog = ((parser.epilog or "") + "\n\nsettings (--set KEY=VALUE, or in the "
                         f"--config TOML file), with their defaults:\n  {listing}").lstrip()
        if example is None:
            example = lines[0]
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    parser.add_argument(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="override one setting" + (f", e.g. --set {example}" if example else "")
        + "; repeatable",
    )
