"""A small Go weights file for tests: `corvid learn go learn` on a few random 9x9 games."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from games.go import GoState, score_string
from games.go.sgf import to_sgf


def random_games(directory: Path, games: int = 6, seed: int = 0,
                 names: tuple[str, str] | None = None) -> Path:
    """Games of uniformly random legal moves (the contract's, so no eye is filled); with
    ``names``, the records name the players, black and white swapping from game to game."""
    rng = np.random.default_rng(seed)
    directory.mkdir(parents=True, exist_ok=True)
    for g in range(games):
        s = GoState(9, 7.0)
        while not s.is_terminal() and len(s.history) < 120:
            moves = s.legal_moves()
            s.play(moves[int(rng.integers(len(moves) - 1))] if len(moves) > 1 else moves[0])
        s.pass_move()
        black, white = (names if g % 2 == 0 else names[::-1]) if names else (None, None)
        (directory / f"game-{g + 1:05d}.sgf").write_bytes(to_sgf(
            s, black_name=black, white_name=white, result=score_string(s.score())))
    return directory


def make_weights(tmp: Path, games: int = 6) -> Path:
    from training.go.learn import learn_weights

    out = tmp / "weights.npz"
    learn_weights([random_games(tmp / "games", games)], out, iterations=2, test_share=0.2,
                  large_min=2, command="test", log=lambda _m: None)
    return out
