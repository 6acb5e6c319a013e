"""Weights files shipped beside the knowledge that reads them, named ``PREFIX-NAME.EXT`` in a
``data`` directory, and the settings that name them: a value without a path separator or the
file's extension is the name of a bundled file, anything else a path."""

from __future__ import annotations

from pathlib import Path


def bundled_names(data_dir: Path, prefix: str, ext: str) -> list[str]:
    """The names of the bundled files: ``NAME`` for ``data_dir/PREFIX-NAME.EXT``."""
    head, tail = f"{prefix}-", f".{ext}"
    return sorted(p.name[len(head):-len(tail)] for p in data_dir.glob(f"{head}*{tail}"))


def bundled_path(path: str | Path, data_dir: Path, prefix: str, ext: str,
                 kind: str = "weights") -> Path:
    """The file that ``path`` (not empty) names: a path if it is a Path, holds a path
    separator or ends in ``.EXT``, else the bundled file of that name. ValueError for a name
    that is not bundled (``kind`` names the files in the message)."""
    text = str(path)
    if isinstance(path, Path) or "/" in text or "\\" in text or text.endswith(f".{ext}"):
        return Path(path)
    names = bundled_names(data_dir, prefix, ext)
    if text not in names:
        raise ValueError(f"{text!r} is neither a path (a file ending in .{ext}) nor a bundled "
                         f"{kind} name ({', '.join(names)})")
    return data_dir / f"{prefix}-{text}.{ext}"
