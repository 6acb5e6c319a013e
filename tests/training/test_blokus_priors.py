"""``corvid learn blokus priors``: the learned priors fitted to recorded games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from clients.cli import main
from games.blokus_duo import PASS, BlokusState
from knowledge.blokus_duo import moves as MV
from knowledge.blokus_duo import playout_features as PF
from knowledge.blokus_duo.settings import BlokusConfig
from servers.blokus.sgf import GameRecord, write_sgf
from training.blokus.moves import PRIORS, learn_weights


def biggest_first_games(out: Path, games: int, seed: int) -> None:
    """Records of a player that places one of its biggest pieces, at random among them."""
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    for g in range(games):
        s = BlokusState(first=g % 2)
        rec = GameRecord(first=g % 2, names=("big", "big"))
        while not s.is_terminal():
            legal = s.legal_placements()
            if not legal:
                rec.moves.append((s.to_move_colour, PASS))
                s.play(PASS)
                continue
            sizes = s.geo.ncells[np.asarray(legal)]
            best = [m for m, k in zip(legal, sizes, strict=True) if k == sizes.max()]
            m = best[int(rng.integers(len(best)))]
            rec.moves.append((s.to_move_colour, m))
            s.play(m)
        rec.scores = s.scores()
        (out / f"g{g:03d}.blksgf").write_text(write_sgf(rec))


def test_learned_priors_predict_the_player(tmp_path: Path) -> None:
    biggest_first_games(tmp_path / "games" / "blokus", 12, seed=1)
    out = tmp_path / "w.npz"
    w = learn_weights(PRIORS, [tmp_path / "games"], out, iterations=8, test_share=0.25,
                      command="corvid learn blokus priors test", log=lambda _m: None)
    assert MV.load_move_weights(str(out)).gamma == pytest.approx(w.gamma)
    test = w.manifest["test"]
    assert w.manifest["data"]["games"] == 12 and test["positions"] > 50
    # the player's one rule (the biggest piece) is learned: far above a uniform choice
    assert test["prediction_rate"] > 3 * test["uniform_prediction_rate"]
    assert test["log_likelihood"] > test["uniform_log_likelihood"] + 0.5
    piece = w.gamma[:4 * 21].reshape(21, 4)  # piece x phase; pieces 0..20 by size
    assert piece[20, 2:].mean() > 10 * piece[0, 2:].mean()  # from the seventh piece on
    cfg = BlokusConfig(priors="learned", move_weights=str(out))
    assert cfg.move_weights == str(out)


def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    biggest_first_games(tmp_path / "g", 4, seed=2)
    out = tmp_path / "w.npz"
    assert main(["learn", "blokus", "priors", "--games", str(tmp_path / "g"), "--out",
                 str(out), "--iterations", "2"]) == 0
    assert "test prediction rate" in capsys.readouterr().out
    manifest = MV.load_move_weights(str(out)).manifest
    assert manifest["command"].startswith("corvid learn blokus priors --games")
    assert main(["learn", "blokus", "priors", "--games", str(tmp_path / "none"), "--out",
                 str(out)]) == 2
    (tmp_path / "empty").mkdir()
    assert main(["learn", "blokus", "priors", "--games", str(tmp_path / "empty"), "--out",
                 str(out)]) == 2
    assert "no .blksgf records" in capsys.readouterr().err


def test_learned_playouts_predict_the_player(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``corvid learn blokus playouts``: the playout features' strengths fitted the same way,
    read back by the player's settings."""
    biggest_first_games(tmp_path / "g", 12, seed=3)
    out = tmp_path / "p.npz"
    assert main(["learn", "blokus", "playouts", "--games", str(tmp_path / "g"), "--out",
                 str(out), "--iterations", "8", "--test-share", "0.25"]) == 0
    assert "test prediction rate" in capsys.readouterr().out
    w = PF.load_playout_weights(str(out))
    assert w.manifest["command"].startswith("corvid learn blokus playouts --games")
    test = w.manifest["test"]
    assert test["prediction_rate"] > 3 * test["uniform_prediction_rate"]
    piece = w.gamma[:4 * 21].reshape(21, 4)  # piece x phase; pieces 0..20 by size
    assert piece[20, 2:].mean() > 10 * piece[0, 2:].mean()
    cfg = BlokusConfig(playout="learned", playout_weights=str(out))
    assert cfg.playout_weights == str(out)
