"""clients/jitcache.py: numba's cache files of a module go when a module it imports changes,
and only then; and the stale copy it prevents is real (a subprocess compiles and caches a
kernel calling one of another module, then that module changes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from clients.jitcache import dependency_digests, drop_stale_caches
from tests.paths import REPO


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


@pytest.fixture(autouse=True)
def in_tree_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")  # numba's default: __pycache__


def test_the_caches_of_a_module_go_when_what_it_imports_changes(tmp_path: Path) -> None:
    write(tmp_path, {
        "games/__init__.py": "", "search/__init__.py": "",
        "games/a.py": "from games.b import f\n# njit(cache=True)\n",
        "games/ab.py": "# njit(cache=True)\n",
        "games/b.py": "from games import c\n",
        "games/c.py": "X = 1\n",
        "search/s.py": "import numpy\n# njit(cache=True)\n",
    })
    assert set(dependency_digests(tmp_path)) == {tmp_path / "games/a.py",
                                                  tmp_path / "games/ab.py",
                                                  tmp_path / "search/s.py"}
    assert drop_stale_caches(tmp_path) == []  # nothing cached yet: the stamps are written
    cache = tmp_path / "games" / "__pycache__"
    kept = [cache / "a.f-2.py311.nbi", cache / "a.f-2.py311.0.nbc", cache / "ab.g-1.py311.nbi"]
    for f in kept:
        f.write_bytes(b"x")
    assert drop_stale_caches(tmp_path) == []  # nothing changed
    assert all(f.exists() for f in kept)
    write(tmp_path, {"games/c.py": "X = 2\n"})  # a imports b, which imports c
    assert drop_stale_caches(tmp_path) == [tmp_path / "games/a.py"]
    assert [f.exists() for f in kept] == [False, False, True]  # ab's are not a's
    assert drop_stale_caches(tmp_path) == []


def test_numba_cache_dir_is_where_the_caches_are_looked_for(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    write(tmp_path, {"games/__init__.py": "", "search/__init__.py": "",
                     "games/a.py": "from games import b\n# njit(cache=True)\n",
                     "games/b.py": ""})
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "nc"))
    assert drop_stale_caches(tmp_path) == []
    (stamp,) = (tmp_path / "nc").rglob("a.corvid-deps")
    (stamp.parent / "a.f-2.py311.nbi").write_bytes(b"x")
    write(tmp_path, {"games/b.py": "X = 1\n"})
    assert drop_stale_caches(tmp_path) == [tmp_path / "games/a.py"]
    assert not (stamp.parent / "a.f-2.py311.nbi").exists()
    assert not (tmp_path / "games" / "__pycache__").exists()


def test_a_kernel_never_runs_a_stale_copy_of_another_modules_kernel(tmp_path: Path) -> None:
    write(tmp_path, {
        "games/__init__.py": "", "search/__init__.py": "",
        "games/outer.py": "from numba import njit\n\nfrom games.inner import f\n\n\n"
                          "@njit(cache=True)\ndef g():\n    return f() + 1\n",
        "games/inner.py": "from numba import njit\n\n\n@njit(cache=True)\ndef f():\n"
                          "    return 10\n",
    })
    run = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
           "from pathlib import Path\n"
           "from clients.jitcache import drop_stale_caches\n"
           "if sys.argv[3] == 'drop': drop_stale_caches(Path(sys.argv[1]))\n"
           "from games.outer import g\nprint(g())\n")

    def g(mode: str) -> str:
        p = subprocess.run([sys.executable, "-c", run, str(tmp_path), str(REPO), mode],
                           capture_output=True, text=True, check=True,
                           env={**os.environ, "NUMBA_CACHE_DIR": ""})
        return p.stdout.strip()

    assert g("drop") == "11"
    write(tmp_path, {"games/inner.py": "from numba import njit\n\n\n@njit(cache=True)\n"
                                       "def f():\n    return 20\n"})
    assert g("keep") == "11"  # numba alone: outer's cached copy of the old f
    assert g("drop") == "21"
    assert g("keep") == "21"
