"""``corvid blokus learn`` and ``corvid blokus book``: registered under ``corvid blokus``
through the ``corvid.blokus`` entry points (clients do not import training)."""

from __future__ import annotations

import argparse


def register_learn(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from training.blokus.learn import add_arguments

    lp = subparsers.add_parser(
        "learn", help="train the learned evaluation (Osaki and Kotani), compiled, resumable",
        description="Best-of-n selective-simulation learning of the linear evaluation "
        "(compiled simulations); writes a weights .npz for --set core=alphabeta "
        "--set weights=FILE, with its manifest (command, seed, date). Checkpoints every "
        "--checkpoint-every updates and when stopped (Ctrl-C loses no finished update); "
        "--resume continues.")
    add_arguments(lp)
    lp.set_defaults(func=_run_learn)


def _run_learn(args: argparse.Namespace) -> int:
    from training.blokus.learn import learn_main

    return learn_main(args)


def register_book(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from training.blokus.book import add_arguments

    bp = subparsers.add_parser(
        "book", help="build the opening book from long searches, resumable",
        description="Search every position of the first plies (breadth first, the most "
        "visited moves followed) with a fixed number of playouts and write the book the "
        "player uses (--set book=FILE; the bundled one is knowledge/blokus_duo/data/book.json), "
        "with its manifest. Searches are journalled as they end; a rerun resumes.")
    add_arguments(bp)
    bp.set_defaults(func=_run_book)


def _run_book(args: argparse.Namespace) -> int:
    from training.blokus.book import book_main

    return book_main(args)
