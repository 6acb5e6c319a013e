"""The install without extras: the tournament clients and the mock servers start and play
without the packages of ``corvid[arena]`` and ``corvid[serial]``, and a command that needs one
says in one sentence which extra to install.

The subprocesses run with an import hook that refuses those packages, as if they were not
installed, whatever this environment holds."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import entry_points

import pytest

from clients.extras import OPTIONAL, missing_extra
from tests.paths import REPO

REFUSE = """
import runpy, sys

class Refuse:
    '''A finder that reports the optional packages as not installed.'''

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {refused!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Refuse())
sys.argv = ["corvid", *{args!r}]
runpy.run_module("clients.cli", run_name="__main__")
"""


def corvid_without(refused: set[str], args: list[str], stdin: str = "", timeout: float = 120.0
                   ) -> subprocess.CompletedProcess[str]:
    """``corvid ARGS`` in a subprocess where the ``refused`` packages cannot be imported."""
    code = REFUSE.format(refused=refused, args=args)
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                          text=True, timeout=timeout, cwd=REPO)


def test_every_command_loads_without_the_extras() -> None:
    p = corvid_without(set(OPTIONAL), ["--help"])
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""  # no "cannot load command"
    for ep in entry_points(group="corvid.commands"):
        assert ep.name in p.stdout


@pytest.mark.parametrize("args", [["gtp", "--help"], ["uecda", "--help"], ["blokus", "--help"],
                                  ["serve", "uecda", "--help"], ["serve", "blokus", "--help"],
                                  ["serve", "gtp", "--help"]])
def test_client_and_server_help_without_the_extras(args: list[str]) -> None:
    p = corvid_without(set(OPTIONAL), args)
    assert p.returncode == 0, p.stderr
    assert "usage: corvid" in p.stdout


def test_the_gtp_client_plays_without_the_extras() -> None:
    p = corvid_without(set(OPTIONAL), ["--log-level", "warning", "gtp", "--set", "playouts=8",
                                       "--set", "warmup=false"],
                       stdin="name\nboardsize 9\ngenmove b\nquit\n",
                       timeout=600)  # a cold compile cache compiles the kernels first
    assert p.returncode == 0, p.stderr
    answers = p.stdout.split("\n\n")
    assert answers[:2] == ["= corvid", "= "] and answers[2].startswith("= ")


def test_the_arena_names_its_extra_when_it_is_missing() -> None:
    p = corvid_without({"openskill"}, ["arena", "uecda", "--games", "1"])
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines()[-1] == (
        "corvid arena: this needs openskill, which comes with the 'arena' extra: "
        "pip install 'corvid[arena]'")


def test_the_serial_line_names_its_extra_when_it_is_missing() -> None:
    p = corvid_without({"serial"}, ["blokus", "--serial", "/dev/null", "--set", "warmup=false"])
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines()[-1] == (
        "corvid blokus: this needs pyserial, which comes with the 'serial' extra: "
        "pip install 'corvid[serial]'")


def test_the_table_of_optional_packages_is_pyproject_extras() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = {name: {_dist(req) for req in reqs}
              for name, reqs in project["optional-dependencies"].items() if name != "test"}
    assert extras == {extra: {d for d, e in OPTIONAL.values() if e == extra}
                      for extra in {e for _, e in OPTIONAL.values()}}
    required = {_dist(req) for req in project["dependencies"]}
    assert not required & {d for d, _ in OPTIONAL.values()}


def _dist(requirement: str) -> str:
    """The distribution a requirement names (``ray>=2.10`` -> ``ray``)."""
    for i, ch in enumerate(requirement):
        if not (ch.isalnum() or ch in "-_."):
            return requirement[:i]
    return requirement


def test_missing_extra_names_the_extra_only_for_an_optional_package() -> None:
    msg = missing_extra(ModuleNotFoundError("No module named 'ray.util'", name="ray.util"))
    assert msg == "this needs ray, which comes with the 'arena' extra: pip install 'corvid[arena]'"
    assert missing_extra(ModuleNotFoundError("No module named 'numpy'", name="numpy")) is None
