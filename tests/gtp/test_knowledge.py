"""`corvid gtp` with learned knowledge: the weights setting, the learned priors and playout
policy 3 reaching the search, and clear errors for a weights file that does not load."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec
import numpy as np
import pytest

from clients.config import ConfigError, load_config
from clients.gtp.config import GtpConfig
from clients.gtp.engine import GtpEngine
from clients.gtp.player import SearchPlayer, load_knowledge
from knowledge.go.priors import LearnedPriors
from tests.goweights import make_weights
from tests.paths import REPO


@pytest.fixture(scope="module")
def weights_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_weights(tmp_path_factory.mktemp("w"), games=3)


def engine(**cfg: object) -> GtpEngine:
    settings: dict[str, object] = {"default_size": 9, "default_komi": 7.0, "warmup": False,
                                   "playouts": 150, "reuse": False, **cfg}
    config = GtpConfig(**settings)  # type: ignore[arg-type]
    return GtpEngine(config, SearchPlayer(config))


def talk(e: GtpEngine, script: str) -> bytes:
    return b"".join(e.handle_line(ln)[0] for ln in script.strip().split("\n"))


@pytest.mark.parametrize("compiled", [True, False])
def test_learned_priors_reach_the_search(weights_file: Path, compiled: bool) -> None:
    e = engine(weights=str(weights_file), learned_priors=True, prior_visits=40.0,
               playout_policy=3, compiled=compiled)
    assert talk(e, "play b e5\ngenmove w").startswith(b"= ")
    player = e.generator
    assert isinstance(player, SearchPlayer)
    if compiled:
        n0 = player.core.root_edges()["N0"]
    else:
        assert player.core.root is not None
        n0 = player.core.root.N0
    assert np.all(n0[:-1] == 40.0)  # every point: prior_visits (PASS keeps its own)
    assert load_knowledge(e.config) is not None
    assert talk(e, "corvid-param learned_priors 0\ncorvid-param playout_policy 2") == \
        b"= \n\n= \n\n"
    assert load_knowledge(e.config) is None


def test_a_weights_file_that_does_not_load_is_refused(weights_file: Path,
                                                      tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="weights"):
        load_knowledge(load_config(GtpConfig, overrides=[
            f"weights={tmp_path / 'missing.npz'}", "playout_policy=3"]))
    # not needed, not read
    assert load_knowledge(load_config(GtpConfig, overrides=[
        "weights=/nowhere.npz", "learned_priors=false"])) is None
    e = engine(weights=str(tmp_path / "missing.npz"), learned_priors=False)
    assert talk(e, "corvid-param learned_priors 1").startswith(b"? invalid parameter: weights")
    assert talk(e, f"corvid-param weights {weights_file}\ncorvid-param learned_priors 1") == \
        b"= \n\n= \n\n"
    assert e.config.learned_priors
    p = subprocess.run([sys.executable, "-m", "clients.cli", "gtp", "--set", "playout_policy=3",
                        "--set", f"weights={tmp_path / 'missing.npz'}"], cwd=REPO,
                       capture_output=True, text=True, input="quit\n", check=False)
    assert p.returncode == 2 and "weights" in p.stderr and p.stdout == ""


def test_learned_priors_config_maps_to_the_state() -> None:
    from clients.gtp.player import learned_priors

    cfg = GtpConfig(learned_priors=True, prior_visits=7.0, prior_low=0.1, prior_high=0.7,
                    prior_tau=2.0, read_visits=3.0)
    assert learned_priors(cfg) == LearnedPriors(7.0, 0.1, 0.7, 2.0, read_visits=3.0)
    heuristic = GtpConfig(learned_priors=False, read_visits=0.0)
    assert learned_priors(heuristic) is None
    reading = learned_priors(msgspec.structs.replace(heuristic, read_visits=2.0))
    assert reading is not None and reading.visits == 0.0 and reading.read_visits == 2.0
    with pytest.raises(ConfigError, match="prior_high"):
        load_config(GtpConfig, overrides=["prior_high=1.5"])


def test_the_bundled_weights_load_and_say_how_they_were_made() -> None:
    from knowledge.go.weights import DEFAULT_WEIGHTS, load_weights

    w = load_weights("")
    assert w.path == str(DEFAULT_WEIGHTS)
    assert w.manifest["command"].startswith("corvid learn go learn ")
    assert w.manifest["data"]["games"] > 0
    # learned from real games: a 3x3 pattern table, and better than chance at predicting
    assert len(w.prior.codes) > 100
    assert w.manifest["prior_model"]["test_prediction_rate"] > 0.2


def test_the_default_weights_are_those_of_the_nearest_bundled_board(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``weights=""`` names, for each board size, the bundled file fitted to games on the
    board of the nearest size (the smaller on a tie); files that are not of one board
    (``9x9-nolarge``) are never a default; with no board's file, the 9x9 default path."""
    from knowledge.go import weights as W

    monkeypatch.setattr(W, "DATA_DIR", tmp_path)
    assert W.weights_path("", 19) == W.DEFAULT_WEIGHTS
    for name in ("9x9", "9x9-nolarge", "19x19", "9x19"):
        (tmp_path / f"weights-{name}.npz").write_bytes(b"")
    got = {size: W.weights_path("", size).name for size in (5, 9, 13, 14, 15, 19, 25)}
    assert got == {5: "weights-9x9.npz", 9: "weights-9x9.npz", 13: "weights-9x9.npz",
                   14: "weights-9x9.npz", 15: "weights-19x19.npz", 19: "weights-19x19.npz",
                   25: "weights-19x19.npz"}
    assert W.weights_path("9x9-nolarge", 19).name == "weights-9x9-nolarge.npz"
    # a list names one file a board: the one of the nearest size, whatever the order
    got = {size: W.weights_path("19x19|9x9-nolarge", size).name for size in (9, 14, 15, 19)}
    assert got == {9: "weights-9x9-nolarge.npz", 14: "weights-9x9-nolarge.npz",
                   15: "weights-19x19.npz", 19: "weights-19x19.npz"}
    with pytest.raises(ValueError, match="not the name of weights fitted to one board"):
        W.weights_path("9x9|9x19")
    with pytest.raises(ValueError, match="two weights of 9x9"):
        W.weights_path("9x9|9x9-nolarge")
    with pytest.raises(ValueError, match="neither a path"):
        W.weights_path("9x9|13x13")


def test_the_engine_plays_each_board_with_its_default_weights() -> None:
    """The search position of a board carries the bundled weights of its size, and a
    weights setting holds on every board."""
    from clients.gtp.player import search_position
    from games.go import GoState
    from knowledge.go.weights import weights_path

    for size in (9, 13, 19):
        pos = search_position(GoState(size=size, komi=7.0), GtpConfig(weights=""))
        assert pos.weights is not None and pos.weights.path == str(weights_path("", size))
        pos = search_position(GoState(size=size, komi=7.0), GtpConfig())
        assert pos.weights is not None
        assert pos.weights.path == str(weights_path(GtpConfig().weights, size))
        pos = search_position(GoState(size=size, komi=7.0), GtpConfig(weights="9x9"))
        assert pos.weights is not None and pos.weights.path == str(weights_path("9x9"))
    # one file is read once, whatever name and board lead to it
    from knowledge.go.weights import load_weights

    assert load_weights("", 9) is load_weights("", 13) is load_weights("9x9", 19)
    assert load_weights("", 19) is load_weights("19x19", 9) is not load_weights("", 9)


def test_bundled_weights_by_name_and_the_weights_without_large_patterns() -> None:
    """``weights=NAME`` names a bundled file (``knowledge/go/data/weights-NAME.npz``), an unknown
    name is refused with the names there are, and ``weights=9x9-nolarge`` (with the other
    settings of the engine before the large patterns) loads the weights fitted without
    them."""
    from clients.gtp.config import load_gtp_config
    from knowledge.go.weights import DATA_DIR, bundled_weights, load_weights, weights_path

    assert {"9x9", "9x9-nolarge"} <= set(bundled_weights())
    assert weights_path("9x9-nolarge") == DATA_DIR / "weights-9x9-nolarge.npz"
    assert weights_path("mine.npz") == Path("mine.npz")
    assert weights_path("runs/w3") == Path("runs/w3")
    with pytest.raises(ValueError, match="9x9-nolarge"):
        weights_path("9x9-nolarge.npz.gz")
    with pytest.raises(ConfigError, match="neither a path .* nor a bundled weights name"):
        load_knowledge(load_config(GtpConfig, overrides=["weights=nolarge"]))
    assert load_weights("9x9").path == load_weights("").path

    nolarge = load_gtp_config(overrides=["weights=9x9-nolarge", "prior_visits=20",
                                         "playout_policy=5", "opening_9x9="])
    assert nolarge.weights == "9x9-nolarge" and nolarge.learned_priors
    w = load_knowledge(nolarge)
    assert w is not None and len(w.prior.large_codes) == 0 and len(w.prior.codes) > 100
    assert "--large-min 0" in w.manifest["command"]
