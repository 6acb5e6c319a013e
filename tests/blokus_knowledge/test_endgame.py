"""The Blokus Duo endgame solver against a plain minimax over the rules state, on late
positions of random games; the monomino bonus, passes, the node budget."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.blokus_duo import PASS, BlokusState
from knowledge.blokus_duo.endgame import solve


def minimax(s: BlokusState) -> int:
    """The final score difference (mover minus opponent) of perfect play from ``s``: every
    line played out, no pruning (a colour without a placement passes)."""
    if s.is_terminal():
        c = s.to_move_colour
        return s.score(c) - s.score(1 - c)
    return max(-minimax(child(s, m)) for m in s.legal_moves())


def child(s: BlokusState, move: int) -> BlokusState:
    t = s.clone()
    t.play(move)
    return t


def late_position(seed: int, most_moves: int) -> BlokusState:
    """A uniformly random game from ``seed``, stopped at the first position after ply 16
    where both colours together have at most ``most_moves`` placements (or at its end)."""
    rng = random.Random(seed)
    s = BlokusState(first=seed % 2)
    while not s.is_terminal():
        if len(s.history) > 16 and s.legal_count(0) + s.legal_count(1) <= most_moves:
            break
        s.play(rng.choice(s.legal_moves()))
    return s


def test_solver_matches_plain_minimax_on_late_positions() -> None:
    passes = 0
    for seed in range(40):
        s = late_position(seed, 7)
        sol = solve(s, 10**6)
        assert sol.solved and sol.exact
        assert sol.value == minimax(s), seed
        moves = s.legal_moves()
        if s.is_terminal():
            assert sol.move == PASS
            continue
        assert sol.move in moves
        assert -minimax(child(s, sol.move)) == sol.value, seed  # a best move
        passes += moves == [PASS]
    assert passes >= 3  # positions where the mover must pass were among them


def monomino_last_game() -> list[BlokusState]:
    """A game where colour 1 places one piece and then passes, and colour 0 (a random one of
    its biggest placements each time) places all 21 pieces, the monomino last: its positions."""
    rng = random.Random(4)
    s = BlokusState()
    out = []
    while not s.is_terminal():
        out.append(s.clone())
        moves = s.legal_placements()
        if s.to_move_colour == 1:
            s.play(PASS if s.placed(1) else moves[0])
            continue
        sizes = s.geo.ncells[np.asarray(moves)]
        s.play(rng.choice([m for m, z in zip(moves, sizes, strict=True) if z == sizes.max()]))
    assert s.placed(0) == 21 and s.score(0) == 20
    return out


def test_the_monomino_last_is_worth_its_bonus() -> None:
    # colour 0 to move with the monomino and the domino left, both placeable: the domino
    # first, then the monomino (+20) beats the other order (+15)
    s = next(p for p in monomino_last_game()
             if p.to_move_colour == 0 and p.pieces_left(0) == [0, 1])
    assert {s.geo.piece[m] for m in s.legal_placements()} == {0, 1}
    sol = solve(s, 10**6)
    assert sol.solved and sol.exact
    assert sol.value == minimax(s)
    assert s.geo.piece[sol.move] == 1
    monomino_first = max(-minimax(child(s, m)) for m in s.legal_placements()
                         if s.geo.piece[m] == 0)
    assert monomino_first < sol.value


def test_the_budget_stops_the_search_and_says_so() -> None:
    s = late_position(3, 30)
    full = solve(s, 10**7)
    assert full.solved and full.exact and full.nodes > 100
    assert solve(s, 10) == (False, False, PASS, 0, 10)
    assert solve(s, full.nodes) == full  # the same search, deterministically
    with pytest.raises(ValueError):
        solve(s, 0)


def test_a_short_budget_proves_only_what_is_true() -> None:
    """With too few nodes for the margin, a win may still be proved: its move wins, by at
    least the value given; nothing else is claimed."""
    wins = 0
    for seed in range(12):
        s = late_position(seed, 12)
        full = solve(s, 10**7)
        for budget in (full.nodes // 8, full.nodes // 4, full.nodes // 2):
            sol = solve(s, max(budget, 1))
            if sol.exact:
                assert sol.solved and (sol.move, sol.value) == (full.move, full.value)
            elif sol.solved:
                wins += 1
                assert 0 < sol.value <= -solve(child(s, sol.move), 10**7).value
            else:
                assert (sol.move, sol.value) == (PASS, 0)
    assert wins >= 3


def test_the_position_is_left_unchanged() -> None:
    s = late_position(5, 12)
    before = [a.copy() for a in s.arrays()]
    key = s.key()
    solve(s, 10**6)
    assert all(np.array_equal(a, b) for a, b in zip(before, s.arrays(), strict=True))
    assert s.key() == key


def decide(s: BlokusState, **settings: object) -> tuple[str, dict[str, object]]:
    from clients.blokus.config import PlayerConfig
    from clients.blokus.player import BlokusPlayer

    p = BlokusPlayer(PlayerConfig(core="greedy", book="none", seconds=60.0,
                                   **settings))  # type: ignore[arg-type]
    p.state = s.clone()
    p.colour = s.to_move_colour
    return p.decide()


def test_the_player_plays_a_proved_move_and_logs_it() -> None:
    s = late_position(3, 30)
    moves = s.legal_count(0) + s.legal_count(1)
    sol = solve(s, 10**7)
    code, info = decide(s, endgame_nodes=sol.nodes, endgame_moves=moves)
    assert code == s.code(sol.move)
    assert (info["solved"], info["endgame_value"], info["endgame_nodes"]) == (
        1, sol.value, sol.nodes)
    assert info["endgame_exact"] == 1
    assert info["value"] == (1.0 if sol.value > 0 else 0.5 if sol.value == 0 else 0.0)
    # out of budget: the core's move, and the log says the solver tried
    code, info = decide(s, endgame_nodes=10, endgame_moves=moves)
    assert (info["solved"], info["endgame_nodes"]) == (0, 10)
    assert "endgame_value" not in info and info["search_move"] == code
    # more placements than the trigger, or the solver off: not tried
    for settings in ({"endgame_nodes": sol.nodes, "endgame_moves": moves - 1}, {}):
        _, info = decide(s, **settings)
        assert "solved" not in info
