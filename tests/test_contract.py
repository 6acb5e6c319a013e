"""One contract test run over every game (OpenSpiel/pgx `api_test` style)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from games.contract import HasInfoSets, HasPriors, State
from tests.toygames import HighCard, Nim, TicTacToe


def _daihinmin(seed: int) -> Any:
    from games.daihinmin import Match, MatchConfig
    from knowledge.daihinmin.position import World

    m = Match(MatchConfig(games=10, seed=seed))
    return World(m.deal().state())


def _go(seed: int) -> Any:
    from games.go import GoState
    from knowledge.go.position import GoPosition

    return GoPosition(GoState(size=5 + 2 * (seed % 3), komi=7.5 if seed % 2 else 0.5))


def _blokus(seed: int) -> Any:
    from games.blokus_duo import BlokusState
    from knowledge.blokus_duo.position import BlokusPosition

    return BlokusPosition(BlokusState(first=seed % 2))


GAMES: dict[str, Callable[[int], Any]] = {
    "nim": lambda seed: Nim(7 + seed, 3),
    "tictactoe": lambda seed: TicTacToe(),
    "highcard": lambda seed: HighCard.deal(np.random.default_rng(seed)),
    "daihinmin": _daihinmin,
    "go": _go,
    "blokus_duo": _blokus,
}
ZERO_SUM = {"nim", "tictactoe", "highcard", "go", "blokus_duo"}


def _snapshot(s: Any) -> tuple[Any, ...]:
    term = s.is_terminal()
    return (s.key(), s.diagram(), term, None if term else s.to_move, sorted(
        s.legal_moves(), key=repr))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_contract(name: str) -> None:
    for seed in range(3):
        rng = np.random.default_rng(seed)
        s = GAMES[name](seed)
        assert isinstance(s, State)
        plies = 0
        while not s.is_terminal():
            legal = list(s.legal_moves())
            assert legal, "a non-terminal state has a legal move (a pass counts)"
            assert 0 <= s.to_move < s.num_players
            if isinstance(s, HasPriors) and plies % 7 == 0:
                pr = s.priors()
                assert set(pr.moves) <= set(legal)
                assert np.all((pr.values >= 0) & (pr.values <= 1)) and np.all(pr.counts >= 0)
            if plies % 5 == 0:
                before = _snapshot(s)
                c = s.clone()
                assert c.key() == s.key()
                c.play(legal[int(rng.integers(len(legal)))])  # clone independence
                p = s.playout(rng, s.to_move)  # a playout leaves its state untouched
                assert _snapshot(s) == before
                assert len(p.returns) == s.num_players
                assert np.all((p.returns >= 0) & (p.returns <= 1))
                assert len(p.moves) == len(p.players)
                if isinstance(s, HasInfoSets):
                    for seat in range(s.num_players):
                        info = s.info_set(seat)
                        w = info.sample_world(rng)
                        assert w.info_set(seat) == info
                        if seat == s.to_move:
                            assert sorted(w.legal_moves()) == sorted(legal)
            s.play(legal[int(rng.integers(len(legal)))])
            plies += 1
            assert plies < 2000, "game did not end"
        assert list(s.legal_moves()) == []
        r = np.asarray(s.returns(), dtype=float)
        assert r.shape == (s.num_players,) and np.all((r >= 0) & (r <= 1))
        if name in ZERO_SUM:
            assert abs(r.sum() - 1.0) < 1e-12
        else:  # Daihinmin: points 5..1 by finishing order -> (points-1)/4
            assert sorted(r.tolist()) == [0.0, 0.25, 0.5, 0.75, 1.0]
