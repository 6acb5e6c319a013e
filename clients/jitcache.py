"""Numba's on-disk cache kept true to the sources.

numba's ``cache=True`` checks only the source file of the function it loads, but a cached
kernel holds the compiled code of every kernel it calls, from other modules too. After a
change to ``knowledge/go/features.py`` (a ``git pull``, an edit), the compiled tree of
``knowledge/go/tree.py`` would go on running its cached copy of the old features, silently.

:func:`drop_stale_caches` closes that gap before any kernel is loaded: for each module of
``games``, ``knowledge`` and ``search`` that caches kernels, a digest of its source and of every
module of ours it imports (transitively) is kept beside its cache files; where the digest
differs, its cache files are deleted, so numba compiles them afresh from the current sources. The
entry points call it first: ``corvid`` (``clients.cli.main``), the test suite (conftest) and
the bench scripts. The digests follow the import lines of the sources, so a change anywhere
in a package that a kernel's module imports (a module that imports ``games.go`` imports its
``__init__`` and what that imports) recompiles that module's kernels: conservative, never
stale.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "knowledge", "search")
_IMPORT = re.compile(r"^\s*from\s+((?:games|knowledge|search)[\w.]*)\s+import\s+\(?([^)#\n]*)"
                     r"|^\s*import\s+((?:games|knowledge|search)[\w.]*)", re.M)
_STAMP = ".corvid-deps"


def _module_file(name: str, root: Path) -> Path | None:
    base = root.joinpath(*name.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


def _imports(text: str, root: Path) -> set[Path]:
    """The files of ours that the source ``text`` imports (a package's ``__init__`` for
    ``from P import x``, and x's file when x is a submodule)."""
    found: set[Path] = set()
    for m in _IMPORT.finditer(text):
        name = m.group(1) or m.group(3)
        f = _module_file(name, root)
        if f is not None:
            found.add(f)
        for alias in (m.group(2) or "").split(","):
            sub = alias.strip().split(" ")[0]
            if sub and (f2 := _module_file(f"{name}.{sub}", root)) is not None:
                found.add(f2)
    return found


def dependency_digests(root: Path = ROOT) -> dict[Path, str]:
    """For each module under ``root``'s ``games``, ``knowledge`` and ``search`` that caches numba
    kernels, the digest of its source and of the modules of ours it imports, transitively."""
    sources = {p: p.read_bytes() for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py"))}
    direct = {p: _imports(text.decode("utf-8"), root) for p, text in sources.items()}
    digests: dict[Path, str] = {}
    for p, text in sources.items():
        if b"cache=True" not in text:
            continue
        seen, todo = {p}, [p]
        while todo:
            for q in direct.get(todo.pop(), ()):
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        h = hashlib.sha256()
        for q in sorted(seen):
            h.update(str(q.relative_to(root)).encode() + b"\0" + sources[q] + b"\0")
        digests[p] = h.hexdigest()[:32]
    return digests


def _cache_dir(path: Path) -> Path:
    """Where numba keeps the cache files of the module at ``path``: its own choice when it is
    loaded or told where (NUMBA_CACHE_DIR); else its default, the module's ``__pycache__``
    (without importing numba, which would cost a command half a second)."""
    if not os.environ.get("NUMBA_CACHE_DIR") and "numba" not in sys.modules:
        return path.parent / "__pycache__"
    try:  # NUMBA_CACHE_DIR, the in-tree __pycache__ or the user's cache, as numba chooses
        from numba.core import caching

        def probe() -> None:  # numba's locators read a function only for its line number
            pass

        impl: Any = (getattr(caching, "CacheImpl", None)  # its name now; older releases: _CacheImpl
                     or getattr(caching, "_CacheImpl"))  # noqa: B009
        for cls in impl._locator_classes:
            locator = cls.from_function(probe, str(path))
            if locator is not None:
                return Path(locator.get_cache_path())
    except Exception:  # noqa: BLE001 - a numba without these internals: the default place
        pass
    return path.parent / "__pycache__"


def drop_stale_caches(root: Path = ROOT) -> list[Path]:
    """Delete the numba cache files of every module whose imports changed since they were
    written (see the module docstring); the modules whose caches went. Never raises for a
    cache directory it cannot read or write: it leaves that one as it is."""
    dropped: list[Path] = []
    for path, digest in dependency_digests(root).items():
        cache = _cache_dir(path)
        stamp = cache / f"{path.stem}{_STAMP}"
        try:
            if stamp.is_file() and stamp.read_text(encoding="utf-8") == digest:
                continue
            stale = [f for pattern in (f"{path.stem}.*.nbi", f"{path.stem}.*.nbc")
                     for f in cache.glob(pattern)]
            for f in stale:
                f.unlink(missing_ok=True)
            cache.mkdir(parents=True, exist_ok=True)
            tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
            tmp.write_text(digest, encoding="utf-8")
            tmp.replace(stamp)
        except OSError:
            continue
        if stale:
            dropped.append(path)
    return dropped
