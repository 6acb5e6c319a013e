"""The style report's Blokus Duo games (``bench/style.py --game blokus``).

For each style, ``games`` games of the styled player against the plain default, both the
default player (``corvid blokus``'s defaults: compiled UCT with the knowledge priors, the
opening book) in process (``clients.blokus.player.Core``) at ``playouts`` per decision. The
styled player takes colour 0 and colour 1 in turn (the two start squares), and the colour
that moves first changes every two games. At every position where the mover can choose
(at least one legal placement with the style's feature and one without) both players are
asked for their move: the mover's is played, the other's only recorded, so both style rates
count the same positions. Positions the opening book answers are left out (the book plays
the same move for both; ``book_positions`` counts them). The score is the styled player's
result by the rules (win 1, draw 0.5, loss 0 on the final scores). Fixed seeds and playouts:
the figures are reproducible.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from clients.blokus.config import PlayerConfig
from clients.blokus.player import Core
from games.blokus_duo import PASS, BlokusState
from knowledge.blokus_duo.style import STYLES, style_moves
from knowledge.style import parse_styles
from search.budget import Budget
from servers.arena.stats import wilson

DEFAULT_PLAYOUTS = 1000


def decide(core: Core, state: BlokusState, budget: Budget, rng: np.random.Generator
           ) -> tuple[int, bool]:
    """The core's move for the mover of ``state`` and whether its opening book gave it."""
    res = core.search(state.clone(), budget, rng)
    return int(res.move), bool(res.info.get("book"))  # type: ignore[call-overload,unused-ignore]


def play(styled: Core, plain: Core, name: str, i: int, seed: int, playouts: int
         ) -> dict[str, Any]:
    """Game ``i``: the styled player's result and its counts of style positions."""
    colour = i % 2  # the styled player's colour (its start square)
    state = BlokusState(first=(i // 2) % 2)
    styled.reset()
    plain.reset()
    rng = {id(styled): np.random.default_rng([seed, i, 0]),
           id(plain): np.random.default_rng([seed, i, 1])}
    budget = Budget(playouts=playouts)
    positions = book = hits_styled = hits_plain = 0
    while not state.is_terminal():
        moves, flags = style_moves(state, name)
        if moves == [PASS] or len(moves) == 1:
            state.play(moves[0])
            continue
        mover, other = (styled, plain) if state.to_move_colour == colour else (plain, styled)
        move, from_book = decide(mover, state, budget, rng[id(mover)])
        if flags.any() and not flags.all():
            if from_book:
                book += 1
            else:
                reply, _ = decide(other, state, budget, rng[id(other)])
                feature = dict(zip(moves, flags.tolist(), strict=True))
                positions += 1
                hits_styled += feature[move if mover is styled else reply]
                hits_plain += feature[reply if mover is styled else move]
        state.play(move)
    margin = state.score(colour) - state.score(1 - colour)
    return {"score": 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5, "positions": positions,
            "book": book, "hits_styled": hits_styled, "hits_plain": hits_plain}


def measure(styles: list[str], games: int, playouts: int, seed: int) -> dict[str, Any]:
    """The figures of ``bench/style.py`` for Blokus Duo (its docstring)."""
    todo = parse_styles(styles, STYLES)
    playouts = playouts or DEFAULT_PLAYOUTS
    plain = Core(PlayerConfig())
    rows = []
    for spec in todo:
        styled = Core(PlayerConfig(style=f"{spec.name}:{spec.strength:g}"))
        t0 = time.perf_counter()
        results = []
        for i in range(games):
            r = play(styled, plain, spec.name, i, seed, playouts)
            results.append(r)
            print(f"blokus style={spec.name}:{spec.strength:g} game {i + 1}/{games}: "
                  f"score {r['score']:g}, positions {r['positions']}", file=sys.stderr,
                  flush=True)
        positions = sum(r["positions"] for r in results)
        wins = sum(r["score"] == 1.0 for r in results)
        draws = sum(r["score"] == 0.5 for r in results)
        points = wins + 0.5 * draws
        lo, hi = wilson(points, games)
        rows.append({
            "name": spec.name, "strength": spec.strength, "positions": positions,
            "book_positions": sum(r["book"] for r in results),
            "rate_plain": sum(r["hits_plain"] for r in results) / max(positions, 1),
            "rate_styled": sum(r["hits_styled"] for r in results) / max(positions, 1),
            "score": points / games, "score_plain": 1.0 - points / games, "ci95": [lo, hi],
            "wins": wins, "draws": draws, "losses": games - wins - draws,
            "seconds": round(time.perf_counter() - t0, 1)})
    return {"games": games, "playouts": playouts, "styles": rows}
