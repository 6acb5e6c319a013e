"""``corvid blokus book`` (training/blokus/book.py): a small book, its manifest, a resumed
build, and the player playing from it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

from games.blokus_duo import BlokusState
from knowledge.blokus_duo.book import Book, symmetries


def run(args: list[str]) -> int:
    from clients.blokus.cli import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    ns = parser.parse_args(["blokus", "book", *args])
    return int(ns.func(ns))


ARGS = ["--plies", "2", "--width", "2", "--playouts", "60", "--seed", "4",
        "--set", "prior_kind=knowledge", "--set", "open_pieces=2"]


def test_book_build_resume_and_play(tmp_path: Path) -> None:
    out = tmp_path / "book.json"
    assert run(["--out", str(out), *ARGS]) == 0
    book = Book.load(out)
    assert len(book) == 3  # the empty board and two replies (ply 1)
    assert book.manifest["command"].startswith("corvid blokus book --out")
    assert book.manifest["playouts"] == 60 and book.manifest["seed"] == 4
    journal = Path(str(out) + ".journal.jsonl")
    lines = journal.read_text().splitlines()
    assert len(lines) == 3
    # resume: a build with a journal cut short searches only what is missing, to the
    # same book (searches are seeded by the position, not by their order)
    journal.write_text("\n".join(lines[:1]) + "\n")
    assert run(["--out", str(out), *ARGS]) == 0
    assert Book.load(out).moves == book.moves
    assert len(journal.read_text().splitlines()) == 3
    # the first move is a 5-square piece (opening pruning), and serves colour 1 moving first
    first = book.lookup(BlokusState(first=0))
    assert first is not None and BlokusState().geo.ncells[first] == 5
    assert book.lookup(BlokusState(first=1)) == symmetries()[2, first]
    assert json.loads(out.read_text())["manifest"]["positions"] == 3


def _assert_every_first_move_answered(book: Book) -> None:
    """Every first move of either colour moving first has a legal reply in ``book``."""
    for first in (0, 1):
        root = BlokusState(first=first)
        for move in root.legal_moves():
            s = root.clone()
            s.play(move)
            reply = book.lookup(s)
            assert reply is not None and reply in s.legal_moves(), (first, move)


def test_replies_to_every_first_move_on_a_base_book(tmp_path: Path) -> None:
    base = tmp_path / "base.json"
    assert run(["--out", str(base), *ARGS]) == 0
    out = tmp_path / "replies.json"
    assert run(["--out", str(out), "--plies", "0", "--replies", "8", "--base", str(base),
                "--seed", "4"]) == 0
    old, book = Book.load(base), Book.load(out)
    assert all(book.moves[k] == v for k, v in old.moves.items())  # the base as it was
    m = book.manifest
    assert m["base"] == old.manifest and m["replies"] == 8 and "--base" in m["command"]
    _assert_every_first_move_answered(book)
    # up to symmetry the 414 first moves are far fewer positions; the base answered some
    assert 100 < m["replies_added"] < 414 and len(book) == len(old) + m["replies_added"]


def test_book_arguments_that_search_nothing_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="nothing to search"):
        run(["--out", str(tmp_path / "b.json"), "--plies", "0"])
    with pytest.raises(SystemExit, match="--plies and --replies"):
        run(["--out", str(tmp_path / "b.json"), "--replies", "-1"])


def test_player_plays_the_book_move(tmp_path: Path) -> None:
    from clients.blokus.config import PlayerConfig
    from clients.blokus.player import Core
    from search.budget import Budget

    s = BlokusState(first=1)
    book = Book({})
    book.add(s, s.legal_moves()[3])
    f = tmp_path / "b.json"
    book.save(f)
    core = Core(PlayerConfig(core="uct", book=str(f)))
    res = core.search(s, Budget(playouts=10), np.random.default_rng(0))
    assert res.move == s.legal_moves()[3] and res.info == {"book": True}
    s.play(int(res.move))  # type: ignore[call-overload]
    res = core.search(s, Budget(playouts=10), np.random.default_rng(0))
    assert "book" not in res.info and res.playouts == 10
    assert Core(PlayerConfig(core="uct", book="none")).book is None


def test_the_bundled_reply_book() -> None:
    from clients.blokus.player import load_book
    from knowledge.blokus_duo.book import DEFAULT_BOOK

    book, path = load_book("replies")
    assert book is not None and path.endswith("/data/book-replies.json")
    m = book.manifest  # how it was made: the default book and a search per first move
    assert m["command"].startswith("corvid blokus book --out knowledge/blokus_duo/data/"
                                   "book-replies.json --plies 0 ")
    default = Book.load(DEFAULT_BOOK)
    assert m["replies"] > 0 and m["base"] == default.manifest
    assert all(book.moves[k] == v for k, v in default.moves.items())
    _assert_every_first_move_answered(book)
    with pytest.raises(ValueError, match=r"bundled book name \(replies\)"):
        load_book("nosuch")
