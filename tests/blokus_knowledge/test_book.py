"""The opening book: symmetries of the game, keys in both move orders, lookups."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from games.blokus_duo import PASS, BlokusState
from knowledge.blokus_duo.book import Book, canonical_key, frame_keys, symmetries


def test_symmetries_are_involutions_that_keep_or_swap_the_starts() -> None:
    sym = symmetries()
    ids = np.arange(sym.shape[1])
    for k in range(4):
        assert (sym[k][sym[k]] == ids).all()
    assert (sym[0] == ids).all()
    first0 = BlokusState(first=0).legal_placements()
    first1 = set(BlokusState(first=1).legal_placements())
    assert set(sym[1][first0].tolist()) == set(first0)  # transpose: colour 0's start kept
    assert set(sym[2][first0].tolist()) == first1  # rotation: onto colour 1's start
    assert set(sym[3][first0].tolist()) == first1


def test_symmetries_map_each_placement_cell_by_cell() -> None:
    """The table against the plain mapping of every cell of a placement: (x, y) becomes
    (x, y), (y, x), (n - x, n - y) and (n - y, n - x)."""
    g = BlokusState().geo
    n = g.size - 1
    sym = symmetries()
    frames = (lambda x, y: (x, y), lambda x, y: (y, x), lambda x, y: (n - x, n - y),
              lambda x, y: (n - y, n - x))
    for m in np.random.default_rng(5).choice(g.num_placements, 400, replace=False):
        for k, f in enumerate(frames):
            cells = frozenset(y * g.size + x
                              for x, y in (f(c % g.size, c // g.size) for c in g.move_cells(m)))
            assert g.cellset_index[cells] == sym[k, m], (m, k)


def _game(first: int, moves: list[int], k: int) -> BlokusState:
    """The game ``moves`` of the colour-0-first frame seen under symmetry k."""
    s = BlokusState(first=first)
    for m in moves:
        s.play(int(symmetries()[k, m]))
    return s


def test_one_entry_serves_all_four_equivalent_games() -> None:
    rng = np.random.default_rng(3)
    s = BlokusState()
    line = []
    for _ in range(3):
        moves = s.legal_moves()
        line.append(moves[int(rng.integers(len(moves)))])
        s.play(line[-1])
    reply = s.legal_moves()[17]
    book = Book({})
    book.add(s, reply)
    assert len(book) == 1 and book.max_plies == 3
    for first, k in ((0, 0), (0, 1), (1, 2), (1, 3)):
        t = _game(first, line, k)
        assert canonical_key(t)[0] == canonical_key(s)[0]
        assert book.lookup(t) == symmetries()[k, reply], (first, k)
    # another position, a game with a pass, a longer game: not in the book
    assert book.lookup(BlokusState()) is None
    t = _game(0, line, 0)
    t.play(reply)
    assert book.lookup(t) is None
    p = BlokusState()
    p.play(p.legal_moves()[0])
    p.play(p.legal_moves()[0])
    p.play(PASS)
    assert frame_keys(p) == [] and book.lookup(p) is None


def test_save_and_load(tmp_path: Path) -> None:
    s = BlokusState(first=1)
    book = Book({}, {"command": "test"})
    book.add(s, s.legal_moves()[5])
    f = tmp_path / "book.json"
    book.save(f)
    again = Book.load(f)
    assert again.moves == book.moves and again.manifest == {"command": "test"}
    assert again.lookup(BlokusState(first=1)) == s.legal_moves()[5]
    assert again.lookup(BlokusState(first=0)) == symmetries()[2, s.legal_moves()[5]]
    assert json.loads(f.read_text())["manifest"]["command"] == "test"


def test_a_bad_entry_is_not_played() -> None:
    s = BlokusState()
    key, _ = canonical_key(s)
    assert Book({key: "zzz9"}).lookup(s) is None
    far = s.geo.parse_code("aau0")  # a placement that does not cover the start square
    assert Book({key: s.geo.code(far)}).lookup(s) is None
    with pytest.raises(ValueError, match="is not an opening book"):
        Book.load(Path(__file__))  # not a book: a clear error, not a silent empty book


def _position(key: str) -> BlokusState | None:
    """A game reaching the position of a book key (colour 0 first), if some order of its
    placements is legal."""
    from itertools import permutations

    first, second = ([c for c in side.split(",") if c] for side in key.split("|"))
    for f in permutations(first):
        for s in permutations(second):
            game = BlokusState(first=0)
            try:
                for i in range(len(f) + len(s)):
                    game.play_code((f if i % 2 == 0 else s)[i // 2])
            except ValueError:
                continue
            return game
    return None


def test_the_bundled_book() -> None:
    from knowledge.blokus_duo.book import DEFAULT_BOOK

    book = Book.load(DEFAULT_BOOK)
    m = book.manifest
    assert m["command"].startswith("corvid blokus book --out ")  # how the file was made
    assert m["command"].split()[4].endswith("/data/book.json")
    assert m["seed"] == 1 and m["date"] and m["positions"] == len(book) >= 10
    assert book.lookup(BlokusState(first=0)) is not None  # the first move, both orders
    assert book.lookup(BlokusState(first=1)) is not None
    for key, code in book.moves.items():
        s = _position(key)
        assert s is not None, key
        move = book.lookup(s)
        assert move is not None and s.geo.code(move) == code, key
