"""`corvid learn daihinmin imitate`: the decisions of a log (all players', or those of the
players named), the weights file and its manifest."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from clients.cli import main
from knowledge.daihinmin.features import DENSE, FEATURES, N_DENSE, SHAPE_TABLE
from knowledge.daihinmin.learned import load_policy
from tests.paths import DATA
from training.daihinmin.dataset import decisions_from_logs

FIVE = DATA / "uecda" / "server-log-5games-same-match.log"  # players traced, def1 … def4


def test_decisions_of_the_players_named() -> None:
    every = decisions_from_logs([FIVE])
    traced = decisions_from_logs([FIVE], names=["traced"])
    two = decisions_from_logs([FIVE], names={"traced", "def3"})
    assert set(every.player.tolist()) == {0, 1, 2, 3, 4}
    assert set(traced.player.tolist()) == {0}
    assert set(two.player.tolist()) == {0, 3}
    assert len(traced) == int(np.sum(every.player == 0)) > 20
    assert len(two) == int(np.sum((every.player == 0) | (every.player == 3)))
    assert len(decisions_from_logs([FIVE], names=["nobody"])) == 0


def test_imitate_fits_the_players_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    out = tmp_path / "policy.json"
    assert main(["learn", "daihinmin", "imitate", str(FIVE), "--name", "traced", "--name",
                 "def1", "--holdout", "0.2", "--out", str(out)]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    w = json.loads(out.read_text())
    assert w["features"] == list(FEATURES)
    assert w["manifest"]["names"] == ["traced", "def1"]
    assert w["manifest"]["fit"] == report
    n = report["train"]["decisions"] + report["test"]["decisions"]
    assert n == len(decisions_from_logs([FIVE], names=["traced", "def1"]))
    # the fit explains the moves it saw better than a uniform choice does
    assert report["train"]["log_likelihood"] > report["train"]["uniform_log_likelihood"]
    assert load_policy(out).shape == (len(FEATURES),)


@pytest.mark.parametrize(("flag", "names"), [("--dense", DENSE),
                                             ("--no-context", DENSE + SHAPE_TABLE)])
def test_imitate_fewer_blocks_of_the_features(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              flag: str, names: tuple[str, ...]) -> None:
    """--dense fits neither the shape table nor the context, --no-context no context: the
    file names the features it fitted, and loads with the others at 0."""
    out = tmp_path / "fewer.json"
    assert main(["learn", "daihinmin", "imitate", str(FIVE), flag, "--out", str(out)]) == 0
    capsys.readouterr()
    assert json.loads(out.read_text())["features"] == list(names)
    theta = load_policy(out)
    assert theta[N_DENSE:len(names)].any() or len(names) == N_DENSE
    assert theta[:N_DENSE].any() and not theta[len(names):].any()


def test_imitate_names_nobody_in_the_logs(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "policy.json"
    assert main(["learn", "daihinmin", "imitate", str(FIVE), "--name", "paoon",
                 "--out", str(out)]) == 2
    assert "no decisions of a player named paoon" in capsys.readouterr().err
    assert not out.exists()
