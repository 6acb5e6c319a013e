"""`corvid learn go learn`: contests from SGF games, the weights file and its manifest, and the
learned priors and playout policy reading it."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from games.go import PASS, GoState
from knowledge.go import features as F
from knowledge.go.patterns import canonical20
from knowledge.go.position import GoPosition
from knowledge.go.priors import LearnedPriors
from knowledge.go.weights import load_weights
from tests.goweights import make_weights, random_games
from tests.paths import REPO
from training.go.dataset import build_contests, load_contests, sgf_files
from training.go.learn import FeatureIndex, learn_weights, playout_view


@pytest.fixture(scope="module")
def weights_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_weights(tmp_path_factory.mktemp("w"))


def test_contests_are_the_legal_moves_with_the_move_played(tmp_path: Path) -> None:
    files = sgf_files(random_games(tmp_path, games=2))
    c = build_contests(files)
    assert c.positions > 100 and c.starts[-1] == len(c.feats)
    assert np.all((c.chosen >= c.starts[:-1]) & (c.chosen < c.starts[1:]))
    assert set(c.game.tolist()) == {0, 1}
    pat = c.feats[:, F.G_PATTERN]
    assert np.all(canonical20()[pat[pat >= 0]] == pat[pat >= 0])  # stored canonical
    assert (pat < 0).sum() == c.positions  # one PASS candidate per position
    cache = tmp_path / "c.npz"
    assert load_contests(files, cache).positions == c.positions
    assert load_contests(files, cache).feats.tolist() == c.feats.tolist()  # from the cache
    half = c.subset(c.game == 1)
    assert half.positions == int((c.game == 1).sum()) and half.starts[0] == 0


def test_a_damaged_or_unwritable_contests_cache_is_no_error(tmp_path: Path) -> None:
    files = sgf_files(random_games(tmp_path, games=1))
    c = build_contests(files)
    cache = tmp_path / "c.npz"
    cache.write_bytes(b"not an npz: a run killed while writing, or another file")
    assert load_contests(files, cache).feats.tolist() == c.feats.tolist()  # rebuilt
    assert load_contests(files, cache).positions == c.positions  # and rewritten, readable
    assert [p.name for p in tmp_path.glob("*.npz")] == ["c.npz"]  # no temporary file left
    missing = tmp_path / "no such dir" / "c.npz"
    assert load_contests(files, missing).positions == c.positions  # not kept, not an error


def test_contests_of_one_named_player(tmp_path: Path) -> None:
    files = sgf_files(random_games(tmp_path, games=2, names=("gnugo", "corvid")))
    every = build_contests(files)
    gnugo = build_contests(files, player="gnugo")
    corvid = build_contests(files, player="corvid")
    assert gnugo.positions + corvid.positions == every.positions
    assert 0.4 < gnugo.positions / every.positions < 0.6
    # game 1: gnugo is black, so its first contest is the opening position; game 2: white
    assert gnugo.feats[:gnugo.starts[1]].tolist() == every.feats[:every.starts[1]].tolist()
    second = int(np.flatnonzero(every.game == 1)[1])  # white's first move of game 2
    first_g2 = int(np.flatnonzero(gnugo.game == 1)[0])
    assert (gnugo.feats[gnugo.starts[first_g2]:gnugo.starts[first_g2 + 1]].tolist()
            == every.feats[every.starts[second]:every.starts[second + 1]].tolist())
    assert build_contests(files, player="nobody").positions == 0
    cache = tmp_path / "c.npz"
    assert load_contests(files, cache, "gnugo").positions == gnugo.positions
    assert load_contests(files, cache).positions == every.positions  # the key names the player
    with pytest.raises(ValueError, match="no moves of a player named 'nobody'"):
        learn_weights([tmp_path], tmp_path / "w.npz", player="nobody", log=lambda m: None)


def test_playout_view_and_feature_ids() -> None:
    f = np.zeros((3, F.NG), dtype=np.int32)
    f[:, F.G_PATTERN] = [5, 9, -1]
    f[0, F.G_ESCAPE], f[1, F.G_ESCAPE] = 3, 6
    f[0, F.G_ATARI], f[1, F.G_ATARI] = 4, 1
    f[0, F.G_DIST], f[1, F.G_DIST] = 2, 3
    v = playout_view(f)
    assert v[:2, F.G_ESCAPE].tolist() == [2, 5] and v[:2, F.G_ATARI].tolist() == [2, 1]
    assert v[:2, F.G_DIST].tolist() == [2, 0]
    idx = FeatureIndex.build(v, (F.G_PATTERN, F.G_ESCAPE))
    teams = idx.teams(v)
    assert teams[:, 1].tolist() == [1, 4, -1]  # escape levels 2 and 5
    assert teams[:, 0].tolist() == [6, 7, -1]  # patterns after the 6 escape levels


def test_weights_file_and_manifest(weights_file: Path) -> None:
    w = load_weights(str(weights_file))
    m = json.loads(weights_file.with_suffix(".json").read_text())
    assert m == w.manifest and m["command"] == "test" and m["data"]["games"] == 6
    assert 0 < m["prior_model"]["test_prediction_rate"] < 1
    assert w.prior.levels.shape == (F.NG, 11) and np.all(w.prior.levels[:, 0] == 1)
    table = w.prior.pattern_table
    assert table.shape == (1 << 20,) and not table.flags.writeable
    code = int(w.prior.codes[0])
    raw = np.flatnonzero(canonical20() == code)
    assert np.all(table[raw] == np.float32(w.prior.gammas[0]))
    assert w.playout.policy_levels[F.NG, 0] == w.playout.scalars[0] > 0
    # large patterns (played at least twice): the prior model has them, the playouts not
    assert m["large_min"] == 2 and m["prior_model"]["large_patterns"] == len(w.prior.large_codes)
    assert len(w.prior.large_codes) > 5 and np.all(np.diff(w.prior.large_codes) > 0)
    assert w.prior.large_gammas.shape == w.prior.large_codes.shape
    assert not np.all(w.prior.large_gammas == 1) and not len(w.playout.large_codes)
    again = pickle.loads(pickle.dumps(w.prior))
    assert np.array_equal(again.large_codes, w.prior.large_codes)
    assert pickle.loads(pickle.dumps(w)) is w  # travels as its path (cached load)
    with pytest.raises(ValueError, match="not a Go weights file"):
        bad = weights_file.with_name("bad.npz")
        bad.write_bytes(b"nonsense")
        load_weights(str(bad))
    with pytest.raises(FileNotFoundError):
        load_weights(str(weights_file.with_name("missing.npz")))


def test_learned_priors_and_policy_3_use_the_weights(weights_file: Path) -> None:
    w = load_weights(str(weights_file))
    s = GoPosition(GoState(9, 7.0),
                   learned_priors=LearnedPriors(visits=30, low=0.2, high=0.8, tau=1.0), weights=w)
    for v in (40, 41, 50):
        s.play(v)
    pr = s.priors()
    assert pr.moves == s.legal_moves() and pr.moves[-1] == PASS
    pts = np.asarray(pr.moves[:-1], dtype=np.int32)
    gam = np.empty(len(pts))
    F.k_gammas(s.state.board_array(), s.to_play, pts, w.prior.pattern_table, w.prior.levels,
               *w.prior.large_table, np.empty((len(pts), F.NG), dtype=np.int32), gam)
    expect = 0.2 + 0.6 * gam / gam.max()
    assert np.allclose(pr.values[:-1], expect) and np.all(pr.counts[:-1] == 30)
    # each move's γ is its features' times its large pattern's (distance 3 first, then 2)
    codes = np.zeros((len(pts), 2), dtype=np.int64)
    F.k_large_codes(s.state.board_array(), s.to_play, pts, codes)
    table = dict(zip(w.prior.large_codes.tolist(), w.prior.large_gammas.tolist(), strict=True))
    large = np.array([table.get(r3, table.get(r2, 1.0)) for r3, r2 in codes.tolist()])
    assert np.any(large != 1)
    plain = np.empty(len(pts))
    F.k_gammas(s.state.board_array(), s.to_play, pts, w.prior.pattern_table, w.prior.levels,
               np.zeros(0, dtype=np.int64), np.zeros(0),
               np.empty((len(pts), F.NG), dtype=np.int32), plain)
    assert np.allclose(gam, plain * large)
    off = s.clone()
    off.learned_priors = s.learned_priors._replace(large=False)
    assert np.allclose(off.priors().values[:-1], 0.2 + 0.6 * plain / plain.max())
    assert pr.values[-1] == 0.25  # PASS keeps its heuristic prior
    c = s.clone()
    assert c.weights is w and c.learned_priors == s.learned_priors
    s.settings = s.settings._replace(policy=3)
    p = s.playout(np.random.default_rng(1), 0)
    assert len(p.moves) > 20


def test_cli_learn(tmp_path: Path) -> None:
    games = random_games(tmp_path / "g", games=3)
    out = tmp_path / "w.npz"
    p = subprocess.run([sys.executable, "-m", "clients.cli", "learn", "go", "learn", "--games",
                        str(games), "--out", str(out), "--iterations", "1"], cwd=REPO,
                       capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stderr
    assert "test prediction rate" in p.stdout and out.exists()
    assert "--iterations 1" in load_weights(str(out)).manifest["command"]
    p = subprocess.run([sys.executable, "-m", "clients.cli", "learn", "go", "learn", "--games",
                        str(tmp_path / "none"), "--out", str(out)], cwd=REPO,
                       capture_output=True, text=True, check=False)
    assert p.returncode == 2 and "not a directory" in p.stderr
    p = subprocess.run([sys.executable, "-m", "clients.cli", "learn", "go", "learn", "--games",
                        str(games), "--out", str(out), "--large-min", "-1"], cwd=REPO,
                       capture_output=True, text=True, check=False)
    assert p.returncode == 2 and "--large-min >= 0" in p.stderr
    p = subprocess.run([sys.executable, "-m", "clients.cli", "learn", "go", "learn", "--games",
                        str(games), "--out", str(tmp_path / "d.npz"), "--iterations", "1",
                        "--drop", "libs"],
                       cwd=REPO, capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stderr
    dropped = load_weights(str(tmp_path / "d.npz"))  # load_weights caches by path
    assert dropped.manifest["dropped_groups"] == ["libs"]
    assert np.all(dropped.prior.levels[F.G_LIBS] == 1)
    p = subprocess.run([sys.executable, "-m", "clients.cli", "learn", "go", "learn", "--games",
                        str(games), "--out", str(out), "--drop", "nonsense"], cwd=REPO,
                       capture_output=True, text=True, check=False)
    assert p.returncode == 2 and "no feature group nonsense" in p.stderr


def test_a_file_from_before_a_feature_group_loads_with_its_gammas_at_1(
        weights_file: Path, tmp_path: Path) -> None:
    with np.load(weights_file) as z:
        arrays = {k: z[k] for k in z.files}
    # as files made before the capturing-race group
    arrays["prior_levels"] = arrays["prior_levels"][:F.G_LIBS]
    old = tmp_path / "old.npz"
    np.savez_compressed(old, **arrays)
    w = load_weights(str(old))
    assert w.prior.levels.shape == (F.NG, 11) and np.all(w.prior.levels[F.G_LIBS] == 1)
    assert np.array_equal(w.prior.levels[:F.G_LIBS], arrays["prior_levels"])


def test_balance_tunes_the_playout_part_only(weights_file: Path, tmp_path: Path) -> None:
    from training.go.balance import balance_weights, load_positions

    games = random_games(tmp_path / "g", games=2, seed=5)
    positions = load_positions([games])
    assert positions and all(t in (0.0, 1.0, 0.5) for _, t in positions)
    out = tmp_path / "b.npz"
    logs: list[str] = []
    balance_weights(str(weights_file), [games], out, positions=12, m_playouts=4,
                    n_playouts=4, batch=4, step=0.5, command="t", log=logs.append)
    base, tuned = load_weights(str(weights_file)), load_weights(str(out))
    assert np.array_equal(base.prior.levels, tuned.prior.levels)
    assert not np.array_equal(base.playout.gammas, tuned.playout.gammas)
    assert np.array_equal(base.playout.codes, tuned.playout.codes)
    sb = tuned.manifest["simulation_balancing"]
    assert sb["data"]["positions"] == 12 and sb["command"] == "t"
    assert any("MSE after" in m for m in logs)


def test_td_value_resumes_and_feeds_the_priors(weights_file: Path, tmp_path: Path) -> None:
    from training.go.td import td_weights

    out = tmp_path / "td.npz"
    logs: list[str] = []
    td_weights(str(weights_file), out, games=2, chunk=1, step=0.5, log=logs.append)
    whole = load_weights(str(out))
    assert whole.td_theta is not None and np.abs(whole.td_theta).sum() > 0
    assert whole.manifest["td0"]["games"] == 2
    part = tmp_path / "part.npz"
    td_weights(str(weights_file), part, games=1, chunk=1, step=0.5, log=logs.append)
    resumed = td_weights(str(weights_file), part, games=2, chunk=1, step=0.5,
                         log=logs.append)
    assert any("resuming after 1 games" in m for m in logs)
    assert resumed.td_theta is not None
    assert np.allclose(resumed.td_theta, whole.td_theta)  # the same games either way
    s = GoPosition(GoState(9, 7.0), learned_priors=LearnedPriors(visits=0.0, td_visits=10.0),
                   weights=whole)
    s.play(40)
    plain = GoPosition(GoState(9, 7.0))
    plain.play(40)
    pr, base = s.priors(), plain.priors()
    assert np.allclose(pr.counts[:-1], base.counts[:-1] + 10.0)  # heuristic + TD visits
    assert pr.counts[-1] == base.counts[-1]


GAMES = REPO / "training" / "go" / "data"
# each bundled weights file: the shipped games it was fitted to, and whose moves
BUNDLED = {"9x9": ("gnugo10-vs-corvid-9x9.tar.xz", "gnugo"),
           "9x9-nolarge": ("gnugo10-vs-corvid-9x9.tar.xz", "gnugo"),
           "19x19": ("gnugo10-19x19.tar.xz", None),
           "9x9-pachi": ("pachi-vs-corvid-9x9.tar.xz", "opponent")}


def _games(tar_name: str, into: Path) -> list[Path]:
    import tarfile

    with tarfile.open(GAMES / tar_name) as tar:
        tar.extractall(into / tar_name, filter="data")
    (games,) = [d for d in (into / tar_name).iterdir() if d.is_dir()]
    return sgf_files(games)


def test_the_bundled_weights_come_from_the_bundled_games(tmp_path: Path) -> None:
    """The games shipped in training/go/data are the data each bundled weights file names
    (their digest), learned from GNU Go's side where GNU Go played corvid and from Pachi's
    (named opponent by bench/go_strength.py) where Pachi did; and a fit on a few
    of those games learns from GNU Go's moves only (the records of bench/go_strength.py name
    it gnugo)."""
    from knowledge.go.weights import bundled_weights
    from training.go.dataset import files_digest

    assert set(bundled_weights()) == set(BUNDLED)
    games: dict[str, list[Path]] = {}
    for name, (tar_name, player) in BUNDLED.items():
        manifest = load_weights(name).manifest
        if tar_name not in games:
            games[tar_name] = _games(tar_name, tmp_path)
        files = games[tar_name]
        assert manifest["data"]["player"] == player
        assert (f"--player {player}" in manifest["command"]) == (player is not None)
        assert manifest["data"]["games"] == len(files)
        assert manifest["data"]["digest"] == files_digest(files)
    few = games[BUNDLED["9x9"][0]][:20]
    gnugo, every = build_contests(few, player="gnugo"), build_contests(few)
    assert 0.4 < gnugo.positions / every.positions < 0.6
