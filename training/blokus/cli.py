"""``corvid blokus learn`` and ``corvid blokus book``: registered under ``corvid blokus``
through the ``corvid.blokus`` entry points (clients do not import training); ``corvid learn
blokus`` through ``corvid.learn``."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path


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


PRIORS = """\
Fit the learned priors of Blokus Duo (Coulom 2007): the strengths of the move features
(knowledge/blokus_duo/moves.py) by minorization-maximization to the placements chosen in the
Blokus records (*.blksgf) under each --games directory, and write them to --out (.npz with its
manifest: data, command, date, figures). The last --test-share of the games is held out: the
prediction rate on it is reported beside the hand-made knowledge priors'. The player reads
them with --set prior_kind=learned (--set move_weights=FILE for another file than the
bundled knowledge/blokus_duo/data/move-weights.npz).

The games: a strong engine against itself through the arena, which records every game
and resumes an interrupted run (Pentobi one thread, no book, level 6: about 2 s a game):
  corvid arena blokus --player "a=gtp:pentobi-gtp --game duo --nobook --noresign --level 6" \\
      --player "b=gtp:pentobi-gtp --game duo --nobook --noresign --level 6" \\
      --games 1200 --seed 7 --out data/blokus/pentobi6
  corvid learn blokus priors --games data/blokus/pentobi6 \\
      --out knowledge/blokus_duo/data/move-weights.npz
"""


PLAYOUTS = """\
Fit the learned playouts of Blokus Duo: the strengths of the playout features
(knowledge/blokus_duo/playout_features.py: the piece by the mover's phase, touching the
opponent's last placement, the opponent's attach points taken, new attach points, own attach
points spent) by minorization-maximization to the placements chosen in the Blokus records
(*.blksgf) under each --games directory, and write them to --out (.npz with its manifest:
data, command, date, figures). The last --test-share of the games is held out: the
prediction rate on it is reported beside a uniform choice's. The player reads them with
--set playout=learned (--set playout_weights=FILE for another file than the bundled
knowledge/blokus_duo/data/playout-weights.npz).

The games are those of the priors (corvid learn blokus priors --help):
  corvid learn blokus playouts --games data/blokus/pentobi6 \\
      --out knowledge/blokus_duo/data/playout-weights.npz
"""


def register_pipeline(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``corvid learn blokus``: the learned priors and playouts (the learned evaluation and
    the opening book are ``corvid blokus learn`` and ``corvid blokus book``)."""
    bp = subparsers.add_parser(
        "blokus", help="Blokus Duo: the learned priors and playouts from recorded games",
        description="The Blokus Duo learning pipeline (docs/blokus-duo.md, Knowledge). The "
        "learned evaluation and the opening book: corvid blokus learn, corvid blokus book.")
    sub = bp.add_subparsers(dest="blokus_command", metavar="STEP", required=True)
    for step, text, what in (("priors", PRIORS, "the priors' move features"),
                             ("playouts", PLAYOUTS, "the playout features")):
        p = sub.add_parser(step, help=f"fit the strengths of {what} to recorded games",
                           description=text,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        _fit_arguments(p)
        p.set_defaults(func=_run_fit, blokus_step=step)


def _fit_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=Path, action="append", required=True, metavar="DIR",
                   help="directory of .blksgf records, searched recursively (repeatable)")
    p.add_argument("--out", type=Path, required=True, metavar="FILE", help="weights .npz")
    p.add_argument("--iterations", type=int, default=30, help="MM sweeps (default 30)")
    p.add_argument("--prior", type=float, default=1.0,
                   help="virtual wins and losses per feature (default 1)")
    p.add_argument("--test-share", type=float, default=0.1,
                   help="share of the games (the last ones) held out (default 0.1)")


def _run_fit(args: argparse.Namespace) -> int:
    from training.blokus.moves import FEATURE_SETS, learn_weights

    name = f"corvid learn blokus {args.blokus_step}"
    for d in args.games:
        if not d.is_dir():
            print(f"{name}: {d} is not a directory", file=sys.stderr)
            return 2
    if args.iterations < 1 or not 0 <= args.test_share < 1 or args.prior < 0:
        print(f"{name}: need --iterations >= 1, 0 <= --test-share < 1, --prior >= 0",
              file=sys.stderr)
        return 2
    words = [w for d in args.games for w in ("--games", str(d))]
    words += ["--out", str(args.out), "--iterations", str(args.iterations), "--prior",
              f"{args.prior:g}", "--test-share", f"{args.test_share:g}"]
    command = " ".join([name, *map(shlex.quote, words)])
    try:
        w = learn_weights(FEATURE_SETS[args.blokus_step], args.games, args.out,
                          iterations=args.iterations, prior=args.prior,
                          test_share=args.test_share, command=command,
                          log=lambda m: print(m, flush=True))
    except ValueError as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 2
    test = w.manifest.get("test", {})
    nan = float("nan")
    base = ("hand-made priors", "handmade_prediction_rate") \
        if FEATURE_SETS[args.blokus_step].handmade else ("uniform", "uniform_prediction_rate")
    print(f"wrote {args.out}: test prediction rate {test.get('prediction_rate', nan):.3f} "
          f"({base[0]} {test.get(base[1], nan):.3f})")
    return 0
