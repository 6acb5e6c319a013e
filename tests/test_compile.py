"""``corvid compile`` runs every client's warm-up once per core (stubbed here: the real
warm-ups compile for minutes from a cold cache)."""

from __future__ import annotations

import argparse
import tomllib

import pytest

from clients.compile import WARM_UPS, cores, register
from tests.paths import REPO


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="corvid")
    register(parser.add_subparsers())
    return parser.parse_args(argv)


@pytest.fixture
def warmed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The (client, core) pairs warmed, in order, by stubs in place of the warm-ups."""
    calls: list[tuple[str, str]] = []
    for client in list(WARM_UPS):
        monkeypatch.setitem(WARM_UPS, client,
                            lambda core, client=client: calls.append((client, core)))
    return calls


def test_every_core_of_every_client_is_warmed(warmed: list[tuple[str, str]],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["compile"])
    assert args.func(args) == 0
    assert warmed == [(c, core) for c, cs in cores().items() for core in cs]
    assert {"abucb", "flat", "uct"} <= {core for c, core in warmed if c == "gtp"}
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [f"{c} {k}" for c, k in warmed]
    assert lines[-1].startswith("compiled in ")


def test_only_the_clients_named(warmed: list[tuple[str, str]]) -> None:
    args = parse(["compile", "blokus", "gtp"])
    assert args.func(args) == 0
    assert [c for c, _ in warmed] == ["blokus"] * len(cores()["blokus"]) + \
        ["gtp"] * len(cores()["gtp"])


def test_an_unknown_client_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        parse(["compile", "chess"])
    assert e.value.code == 2
    assert "no client 'chess' (one of gtp, uecda, blokus)" in capsys.readouterr().err


def test_compile_is_a_registered_command() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    commands = project["project"]["entry-points"]["corvid.commands"]
    assert commands["compile"] == "clients.compile:register"
