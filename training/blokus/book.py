"""``corvid blokus book``: an opening book from long searches of the player's own search.

From the empty board (colour 0 first: the other move order is the same games rotated, see
``knowledge.blokus_duo.book``), breadth first: each position of the first ``--plies`` plies
gets one search of ``--playouts`` playouts by the player's UCT (its UCT and game settings,
``--set`` as for ``corvid blokus``), seeded from the seed and the position, so the
book depends on the command alone, not on the machine or its load. The book move is the
most visited; the ``--width`` most visited moves lead on to the positions of the next ply
(either player may face them). ``--replies N`` adds the second mover's first move against
every first move of the first mover (up to symmetry) that the book does not answer yet, each
from a search of N playouts, so that a player moving second never searches its first move.
``--base FILE`` starts from the moves of an existing book (kept as they are; its manifest goes
under ``base``), with ``--plies 0`` adding only the replies. Every search is appended to
``OUT.journal.jsonl`` as it ends; a rerun takes the searches done from there (resume), and
the book with its manifest is written at the end.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import time
import zlib
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import structlog

from clients.blokus.config import load_player_config
from games.blokus_duo import BlokusState
from knowledge.blokus_duo.book import Book, canonical_key
from knowledge.blokus_duo.position import BlokusPosition
from search.budget import Budget
from search.ctree import CompiledUCT

log = structlog.get_logger()


def add_arguments(bp: argparse.ArgumentParser) -> None:
    bp.add_argument("--out", required=True, metavar="FILE", help="the book (JSON)")
    bp.add_argument("--plies", type=int, default=4, help="plies with a book move (default "
                    "%(default)s)")
    bp.add_argument("--width", type=int, default=3, help="most visited moves followed to "
                    "the next ply (default %(default)s)")
    bp.add_argument("--playouts", type=int, default=200000, help="per position (default "
                    "%(default)s)")
    bp.add_argument("--replies", type=int, default=0, metavar="PLAYOUTS",
                    help="also the second mover's reply to every first move, each searched "
                    "with PLAYOUTS playouts (default 0: none)")
    bp.add_argument("--base", default="", metavar="FILE",
                    help="start from this book's moves (with --plies 0: add only the replies; "
                    "default none: an empty book)")
    bp.add_argument("--seed", type=int, default=1, help="random seed (default %(default)s)")
    bp.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="player settings for the search (UCT and game settings, such as "
                    "rave_k=500 or prior_kind=size), as corvid blokus")


def command(args: argparse.Namespace) -> str:
    parts = ["corvid", "blokus", "book", "--out", str(args.out), "--plies", str(args.plies),
             "--width", str(args.width), "--playouts", str(args.playouts), "--seed",
             str(args.seed)]
    if args.replies:
        parts += ["--replies", str(args.replies)]
    if args.base:
        parts += ["--base", str(args.base)]
    for s in args.set:
        parts += ["--set", s]
    return shlex.join(parts)


def search(state: BlokusState, args: argparse.Namespace, key: str,
           playouts: int) -> dict[str, Any]:
    cfg = load_player_config(None, args.set)
    s = BlokusPosition(state.clone(), cfg.game)
    t = time.perf_counter()
    seed = (args.seed * 1_000_003 + zlib.crc32(key.encode())) % 2**63
    res = CompiledUCT(cfg.uct).search(s, None, Budget(playouts=playouts),
                                      np.random.default_rng(seed))
    order = sorted(range(len(res.moves)), key=lambda i: -res.visits[i])
    g = state.geo
    return {"key": key, "history": [g.code(m) for _, m in state.history],
            "best": g.code(int(res.move)),  # type: ignore[call-overload]
            "top": [[g.code(res.moves[i]), res.visits[i], round(res.values[i], 4)]
                    for i in order[:max(args.width, 5)]],
            "playouts": res.playouts, "seconds": round(time.perf_counter() - t, 1)}


def book_main(args: argparse.Namespace) -> int:
    load_player_config(None, args.set)  # bad settings fail now, not after an hour
    if args.plies < 0 or args.replies < 0 or args.playouts <= 0 or args.width <= 0:
        raise SystemExit("corvid blokus book: --plies and --replies must be >= 0, "
                         "--playouts and --width > 0")
    if args.plies == 0 and not args.replies:
        raise SystemExit("corvid blokus book: nothing to search (--plies 0 and no --replies)")
    base = Book.load(args.base) if args.base else None
    journal = Path(str(args.out) + ".journal.jsonl")
    done: dict[str, dict[str, Any]] = {}
    if journal.exists():
        for line in journal.read_text().splitlines():
            if line.strip():
                rec = json.loads(line)
                done[rec["key"]] = rec
        log.info("book_resume", journal=str(journal), searches=len(done))
    book = Book(base.moves if base else {})
    searched = 0
    seconds = 0.0

    def searched_move(state: BlokusState, key: str, playouts: int) -> dict[str, Any]:
        nonlocal searched, seconds
        rec = done.get(key)
        if rec is None:
            rec = search(state, args, key, playouts)
            with journal.open("a") as f:
                f.write(json.dumps(rec) + "\n")
            log.info("book_search", ply=len(state.history), best=rec["best"],
                     top=rec["top"][:3], seconds=rec["seconds"])
            searched += 1
        seconds += rec["seconds"]
        book.add(state, state.geo.parse_code(rec["best"]))
        return rec

    queue = [BlokusState(first=0)] if args.plies > 0 else []
    seen: set[str] = set()
    while queue:
        state = queue.pop(0)
        key = canonical_key(state)[0]
        if key in seen:
            continue
        seen.add(key)
        rec = searched_move(state, key, args.playouts)
        if len(state.history) + 1 < args.plies:
            for code, _, _ in rec["top"][:args.width]:
                child = state.clone()
                child.play_code(code)
                queue.append(child)
    replies = 0
    if args.replies:
        root = BlokusState(first=0)
        for move in root.legal_moves():
            state = root.clone()
            state.play(move)
            if book.lookup(state) is not None:  # answered already (or a symmetric image)
                continue
            searched_move(state, canonical_key(state)[0], args.replies)
            replies += 1
    cfg = load_player_config(None, args.set)
    book.manifest = {"command": command(args), "seed": args.seed,
                     "date": datetime.date.today().isoformat(), "plies": args.plies,
                     "width": args.width, "playouts": args.playouts,
                     "replies": args.replies, "replies_added": replies, "settings": args.set,
                     "uct": msgspec.to_builtins(cfg.uct), "game": msgspec.to_builtins(cfg.game),
                     "positions": len(book), "search_seconds": round(seconds, 1),
                     "data": "searches of the positions (no game records)"}
    if base:
        book.manifest["base"] = base.manifest
    book.save(args.out)
    log.info("book_done", out=args.out, positions=len(book), searched_now=searched)
    return 0
