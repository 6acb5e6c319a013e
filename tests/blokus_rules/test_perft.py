"""Perft (depth 1, both colours) along the 30 recorded Pentobi games, for the incremental
numba lists, the numba full generator and the plain-Python reference."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import pytest

from games.blokus_duo import PASS, BlokusState
from games.blokus_duo.reference import RefBoard, generate, reference_legal
from tests.paths import DATA

GAMES = DATA / "blokus" / "random-games-legal-counts.jsonl"


@lru_cache(maxsize=1)
def games() -> list[dict[str, Any]]:
    with open(GAMES) as f:
        return [json.loads(line) for line in f if line.strip()]


def positions(game: dict[str, Any]):  # type: ignore[no-untyped-def]
    """Yield (state, expected counts {'b','w'}) before each move, up to the contest end."""
    s = BlokusState(first=0)
    for text, counts in zip(game["moves"], game["legal_counts_before_each_move"], strict=True):
        if s.is_terminal():
            break
        yield s, counts
        colour, _, move = text.partition(" ")
        assert s.to_move_colour == {"b": 0, "w": 1}[colour]
        s.play_pentobi(move)


def divide(s: BlokusState, colour: int, got: set[int], want: set[int]) -> str:
    g = s.geo
    extra = sorted(g.pentobi(m) for m in got - want)[:10]
    missing = sorted(g.pentobi(m) for m in want - got)[:10]
    return f"\n{s.diagram()}\ncolour {colour}: extra {extra} missing {missing}"


def test_data_present() -> None:
    assert len(games()) == 30


@pytest.mark.regression
@pytest.mark.parametrize("gi", range(30))
def test_incremental_and_generator(gi: int) -> None:
    n = 0
    for s, counts in positions(games()[gi]):
        for colour, key in ((0, "b"), (1, "w")):
            inc = s.legal_count(colour)
            full = generate(s, colour)
            assert len(full) == len(set(full))
            assert inc == counts[key] == len(full), divide(
                s, colour, set(s.legal_placements(colour)), set(full))
            if s.to_move_colour == colour and inc > 0:
                assert set(s.legal_placements(colour)) == set(full)
        n += 1
    assert n > 10


@pytest.mark.regression
@pytest.mark.parametrize("gi", [0, 7, 23])
def test_python_reference(gi: int) -> None:
    """The plain-Python brute-force reference (every placement tested) on some games."""
    for k, (s, counts) in enumerate(positions(games()[gi])):
        if k % 3:
            continue
        ref = RefBoard.from_state(s)
        for colour, key in ((0, "b"), (1, "w")):
            want = reference_legal(ref, colour)
            assert len(want) == counts[key]
            assert set(s.legal_placements(colour)) == set(want)


@pytest.mark.slow
@pytest.mark.parametrize("gi", range(30))
def test_python_reference_all(gi: int) -> None:
    for s, counts in positions(games()[gi]):
        ref = RefBoard.from_state(s)
        for colour, key in ((0, "b"), (1, "w")):
            assert len(reference_legal(ref, colour)) == counts[key]


def test_recorded_game_ends() -> None:
    """The recorded games end where the contest rules end them (no random game places all
    21 pieces; that end is tested in test_rules.py)."""
    ended = 0
    for game in games():
        s = BlokusState(first=0)
        for text in game["moves"]:
            if s.is_terminal():
                break
            s.play_pentobi(text.partition(" ")[2])
        if max(s.placed(0), s.placed(1)) == 21:
            ended += 1
            assert s.is_terminal()
            c = 0 if s.placed(0) == 21 else 1
            assert s.score(c) in (15, 20)
            assert s.legal_moves() == []
        else:  # Pentobi stops once both are blocked, maybe before the second pass
            assert s.legal_count(0) == 0 and s.legal_count(1) == 0
            assert s.history[-1][1] == PASS
    assert ended == 0


@pytest.mark.parametrize("seed", range(6))
def test_random_positions(seed: int) -> None:
    """Incremental lists vs the full generator (every position) vs the reference (some),
    along kernel playouts with either colour first and both policies."""
    import numpy as np

    from knowledge.blokus_duo.position import BlokusPosition
    from knowledge.blokus_duo.settings import BlokusConfig

    policy = "uniform" if seed % 3 else "weighted"
    s = BlokusState(first=seed % 2)
    p = BlokusPosition(s, BlokusConfig(playout=policy)).playout(
        np.random.default_rng(100 + seed), 0)
    for k, m in enumerate(p.moves.tolist()):
        for colour in (0, 1):
            inc = s.legal_placements(colour)
            assert inc == sorted(generate(s, colour))
            if k % 8 == seed % 8:
                assert inc == sorted(reference_legal(RefBoard.from_state(s), colour))
        check_bitboards(s)
        s.play(m)


def check_bitboards(s: BlokusState) -> None:
    """The bitboard rows agree with the per-cell arrays (forbidden cells, attach points)."""
    from games.blokus_duo.geometry import bit_of

    g = s.geo
    for cell in range(g.num_cells):
        w, b = bit_of(cell, g.size)
        for c in (0, 1):
            assert bool((int(s.forbb[c, w]) >> b) & 1) == bool(s.forb[c, cell])
            assert bool((int(s.forbb[2 + c, w]) >> b) & 1) == (s.att[c, cell] == 1)
