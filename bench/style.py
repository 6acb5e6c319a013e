"""The style report: what each playing style does to a player's moves, and what it costs.

    python bench/style.py --game go --games 100 --playouts 500 --json
    python bench/style.py --game blokus --games 100 --playouts 2000 --style blocking
    python bench/style.py --game daihinmin --games 300 --json
    python bench/style.py --game daihinmin --games 100 --style shedding --own-policy W.json

For each style of the game (``--style NAME[:STRENGTH]``, repeatable; default: every style at
its default strength), the two figures of Watanabe and Kaneko ("Realizing individuality in UCT
with prior knowledge and policy learning"):

- the **style rate**: on the same positions, the share of decisions in which the styled
  player's move has the style's feature, beside the plain default's share (``rate_plain``,
  ``rate_styled``). Only decisions where the mover could choose (at least one legal move with
  the feature and one without) count: elsewhere the style has nothing to prefer;
- the **score** of the styled player against the plain default over ``--games`` games at
  fixed playouts (win rate, draws counting half; points per game in Daihinmin), with the plain
  default's own figure beside it (``score_plain``) and a 95 % interval.

A style passes (``"pass": true``) when its rate at least doubles the plain player's share or
shifts it by 20 points, at a cost of at most 10 points of win rate (0.2 points per game in
Daihinmin). One table row per style, then with --json the last line is
``{"game":..,"games":..,"playouts":..,"styles":[{"name","strength","positions","rate_plain",
"rate_styled","score","score_plain","ci95","pass"},...]}``. How each game plays its games and
picks its positions is in its module (``bench/_style_<game>.py``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from _common import emit_json, print_table  # also puts the repository on sys.path

GAMES = {"go": "_style_go", "blokus": "_style_blokus", "daihinmin": "_style_daihinmin"}
# the pass mark of a style's cost: win rate (two-player games) or points per game
MAX_COST = {"go": 0.10, "blokus": 0.10, "daihinmin": 0.2}


def passes(game: str, row: dict[str, Any]) -> bool:
    """Whether a style's rate at least doubles the plain player's share (or shifts it by 20
    points) at a cost of at most the game's pass mark."""
    plain, styled = row["rate_plain"], row["rate_styled"]
    rate_ok = styled >= 2 * plain or styled - plain >= 0.20
    return bool(rate_ok and row["score_plain"] - row["score"] <= MAX_COST[game]
                if game == "daihinmin" else rate_ok and row["score"] >= 0.5 - MAX_COST[game])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--game", choices=sorted(GAMES), required=True)
    p.add_argument("--style", action="append", default=[], metavar="NAME[:STRENGTH]",
                   help="a style to report (repeatable; default: every style of the game)")
    p.add_argument("--games", type=int, default=20, help="games per style (default 20)")
    p.add_argument("--playouts", type=int, default=0,
                   help="playouts per decision of both players (default: the game's)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--own-policy", default="", metavar="WEIGHTS",
                   help="daihinmin: the styled player's own moves in its playouts follow these "
                   "weights (the client's own_policy: a policy learned from a styled player)")
    p.add_argument("--json", action="store_true", help="the figures as the last line")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    if args.own_policy and args.game != "daihinmin":
        p.error("--own-policy: a setting of the Daihinmin player")
    module = importlib.import_module(GAMES[args.game])
    extra = {"own_policy": args.own_policy} if args.own_policy else {}
    try:
        figures = module.measure(args.style, args.games, args.playouts, args.seed, **extra)
    except ValueError as e:  # a style the game does not have, or a bad strength
        print(f"style: {e}", file=sys.stderr)
        return 2
    for row in figures["styles"]:
        row["pass"] = passes(args.game, row)
        print_table(f"{args.game}: style={row['name']}:{row['strength']:g}", [
            ("positions with a choice", row["positions"]),
            ("style rate, plain", row["rate_plain"]),
            ("style rate, styled", row["rate_styled"]),
            ("score of the styled player", row["score"]),
            ("score of the plain default", row["score_plain"]),
            ("95 % interval of the score", f"[{row['ci95'][0]:.3f}, {row['ci95'][1]:.3f}]"),
            ("passes", row["pass"]),
        ])
        print()
    if args.json:
        emit_json({"game": args.game, **figures})
    return 0


if __name__ == "__main__":
    sys.exit(main())
