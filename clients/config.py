"""Configuration: frozen msgspec Structs loaded from TOML, overridden by ``--set key=value``.

Every component defines its own frozen Struct with defaults; :func:`load_config` builds one
from (defaults) <- (TOML file) <- (``--set`` overrides, dotted keys for nested structs).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import msgspec

T = TypeVar("T", bound=msgspec.Struct)


class ConfigError(ValueError):
    """A configuration file or override the user gave is invalid (the message says which)."""


def parse_value(text: str) -> Any:
    """A ``--set`` value: a TOML literal (number, bool, array, quoted string) or a bare string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def apply_override(data: dict[str, Any], assignment: str) -> None:
    key, sep, value = assignment.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ConfigError(f"--set expects key=value, got {assignment!r}")
    parts = key.split(".")
    node = data
    for part in parts[:-1]:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise ConfigError(f"--set {key}: {part!r} is not a section")
        node = child
    node[parts[-1]] = parse_value(value.strip())


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _check_keys(data: dict[str, Any], typ: type, where: str = "") -> None:
    """Reject unknown keys with a message naming them (msgspec would silently drop them)."""
    fields = {f.name: f.type for f in msgspec.structs.fields(typ)}
    for k, v in data.items():
        if k not in fields:
            raise ConfigError(
                f"unknown setting {where}{k!r}; known: {', '.join(sorted(fields))}"
            )
        ftype = fields[k]
        if isinstance(v, dict) and isinstance(ftype, type) and issubclass(ftype, msgspec.Struct):
            _check_keys(v, ftype, f"{where}{k}.")


def load_config(
    typ: type[T], path: str | Path | None = None, overrides: Iterable[str] = (),
    presets: Mapping[str, dict[str, Any]] | None = None,
) -> T:
    """defaults <- (a named preset) <- TOML file <- ``--set`` overrides. With ``presets``, the
    struct's ``preset`` setting (from the file or an override) names one of them: its
    settings lie beneath the file's and the overrides' (nested sections merge key by key)."""
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
    over: dict[str, Any] = {}
    for a in overrides:
        apply_override(over, a)
    _check_keys(over, typ)
    if presets is not None:
        name = over.get("preset", file_data.get("preset", data.get("preset")))
        if name:
            if name not in presets:
                raise ConfigError(f"unknown preset {name!r}; known: {', '.join(presets)}")
            data = _merge(data, presets[name])
    data = _merge(_merge(data, file_data), over)
    try:
        return msgspec.convert(data, typ)
    except msgspec.ValidationError as e:
        raise ConfigError(f"invalid configuration: {e}") from e


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
    type's default instance): nested sections show the values the parent gives them, not
    the section type's own defaults."""
    obj = config if isinstance(config, msgspec.Struct) else config()
    out = []
    for f in msgspec.structs.fields(type(obj)):
        value = getattr(obj, f.name)
        if isinstance(value, msgspec.Struct):
            out += [f"{f.name}.{line}" for line in settings_help(value).splitlines()]
        else:
            out.append(f"{f.name}={'(unset)' if value is None else toml_value(value)}")
    return "\n".join(out)


def add_config_arguments(parser: Any, typ: type[msgspec.Struct] | None = None,
                         example: str | None = None) -> None:
    """The two options every configurable subcommand takes; with ``typ``, the settings and
    their defaults are listed at the end of the subcommand's --help. ``example``: a
    ``key=value`` of this command for the --set help (default: its first setting)."""
    sections = ""
    if typ is not None:
        import argparse

        lines = settings_help(typ).splitlines()
        parser.formatter_class = argparse.RawDescriptionHelpFormatter
        listing = "\n  ".join(lines)
        parser.epilog = ((parser.epilog or "") + "\n\nsettings (--set KEY=VALUE, or in the "
                         f"--config TOML file), with their defaults:\n  {listing}").lstrip()
        if example is None:
            example = lines[0]
        nested = next((ln for ln in lines if "." in ln.split("=")[0]), None)
        if nested is not None:
            sections = f" (dotted keys for sections: --set {nested})"
    parser.add_argument("--config", metavar="FILE", help="TOML configuration file")
    parser.add_argument(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="override one setting" + (f", e.g. --set {example}" if example else "")
        + sections + "; repeatable",
    )
