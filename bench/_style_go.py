"""Go's part of the style report (``bench/style.py --game go``).

For each style, ``games`` games on 9x9 at komi 7 between the styled player and the plain
default (both ``corvid gtp`` players, :class:`clients.gtp.player.SearchPlayer`, at the same
fixed playouts per move, each with its own tree and seed), the styled player black in even
games and white in odd ones. A game ends after two passes, a resignation (the engine's own
rule: ``resign_threshold`` and the rest), or :data:`MOVE_CAP` moves, and is scored by area
(Tromp-Taylor, :meth:`games.go.state.GoState.score`); a jigo counts half.

At every position where the mover has a legal point with the style's feature and one
without (:func:`knowledge.go.style.k_style_features`), both players are asked for their move
(the mover's is played, the other's only recorded), so that the two style rates are counted
on the same positions.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from clients.gtp.board import Board
from clients.gtp.config import GtpConfig
from clients.gtp.engine import Decision, MoveRequest
from clients.gtp.player import SearchPlayer
from clients.logs import setup_logging
from knowledge.go.style import STYLE_IDS, STYLES, k_style_features, style_feature
from knowledge.style import StyleSpec, parse_styles
from servers.arena.stats import wilson

SIZE = 9
KOMI = 7.0
MOVE_CAP = 2 * SIZE * SIZE  # then the game is scored as it stands
DEFAULT_PLAYOUTS = 500  # per move: a game of about ten seconds on one core


def feature_points(board: Board, style: int) -> tuple[set[int], int]:
    """(the legal points of the colour to play with the feature of ``style``, the number of
    legal points)."""
    state = board.state
    points = np.asarray([p for p in state.legal_moves() if p >= 0], dtype=np.int32)
    out = np.zeros(len(points), dtype=np.int32)
    k_style_features(state.board_array(), state.to_play, points, style, out)
    return {int(p) for p, f in zip(points, out, strict=True) if f}, len(points)


def has_feature(board: Board, decision: Decision, style: int) -> bool:
    """Whether the move of ``decision`` (from ``board``'s position) has the style's feature."""
    if decision.resign or decision.vertex is None:
        return False
    p = board.point_of(decision.vertex)
    return bool(style_feature(board.state.board_array(), p, board.state.to_play, style))


def play_game(styled: SearchPlayer, plain: SearchPlayer, styled_colour: int, style: int
              ) -> tuple[float, list[tuple[bool, bool]]]:
    """One game; (the styled player's result: 1, 1/2 or 0; per position with a choice, whether
    the styled and the plain player's moves have the feature)."""
    board = Board(SIZE, KOMI)
    styled.reset()
    plain.reset()
    choices: list[tuple[bool, bool]] = []
    while len(board.moves) < MOVE_CAP and not board.state.is_terminal():
        colour = board.to_move
        mover, other = (styled, plain) if colour == styled_colour else (plain, styled)
        feature, n = feature_points(board, style)
        decision = mover(MoveRequest(board.copy(), colour, None, cleanup=True,
                                     deterministic=False))
        if feature and len(feature) < n:
            shadow = other(MoveRequest(board.copy(), colour, None, cleanup=True,
                                       deterministic=False))
            mine, its = has_feature(board, decision, style), has_feature(board, shadow, style)
            choices.append((mine, its) if mover is styled else (its, mine))
        if decision.resign:
            return (0.0 if mover is styled else 1.0), choices
        board.play(colour, decision.vertex)
    margin = board.state.score()  # black's
    if margin == 0:
        return 0.5, choices
    return (1.0 if (margin > 0) == (styled_colour == 0) else 0.0), choices


def player(style: str, playouts: int, seed: int) -> SearchPlayer:
    return SearchPlayer(GtpConfig(playouts=playouts, seed=seed, style=style, warmup=False,
                                  default_size=SIZE, default_komi=KOMI))


def measure_style(spec: StyleSpec, games: int, playouts: int, seed: int) -> dict[str, Any]:
    """The row of one style: its rates, its score against the plain default."""
    style = STYLE_IDS[spec.name]
    styled = player(f"{spec.name}:{spec.strength:g}", playouts, 2 * seed)
    plain = player("", playouts, 2 * seed + 1)
    results: list[float] = []
    choices: list[tuple[bool, bool]] = []
    start = time.perf_counter()
    for g in range(games):
        result, seen = play_game(styled, plain, g % 2, style)
        results.append(result)
        choices += seen
        print(f"go style={spec.name}:{spec.strength:g} game {g + 1}/{games}: "
              f"{result:g} as {'black' if g % 2 == 0 else 'white'}, {len(seen)} choices",
              file=sys.stderr, flush=True)
    score = sum(results)
    lo, hi = wilson(score, games)
    n = len(choices)
    return {
        "name": spec.name, "strength": spec.strength, "positions": n,
        "rate_plain": round(sum(p for _, p in choices) / n, 4) if n else 0.0,
        "rate_styled": round(sum(s for s, _ in choices) / n, 4) if n else 0.0,
        "score": round(score / games, 4), "score_plain": round(1.0 - score / games, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "wins": results.count(1.0), "draws": results.count(0.5), "losses": results.count(0.0),
        "seconds": round(time.perf_counter() - start, 1),
    }


def measure(styles: list[str], games: int, playouts: int, seed: int) -> dict[str, Any]:
    """The figures of ``bench/style.py --game go`` (its docstring)."""
    specs = parse_styles(styles, STYLES)
    setup_logging("warning")  # not a line per search
    playouts = playouts or DEFAULT_PLAYOUTS
    rows = [measure_style(spec, games, playouts, seed) for spec in specs]
    return {"games": games, "playouts": playouts, "styles": rows}
