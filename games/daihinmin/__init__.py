"""Daihinmin (UECda rules): cards, moves, rules engine, kernels, info sets, log replay.
How corvid plays it is :mod:`knowledge.daihinmin`.

See docs/daihinmin.md for the rules as implemented and the API.
"""

from games.daihinmin.cards import (
    JOKER,
    PASS,
    SINGLE_JOKER,
    card_from_str,
    card_str,
    cards_of,
    hand_from_rows,
    hand_from_str,
    hand_str,
    hand_to_rows,
    move_cards,
    move_from_rows,
    move_from_str,
    move_str,
    move_to_rows,
    strongest,
)
from games.daihinmin.match import Deal, Match, MatchConfig
from games.daihinmin.replay import (
    GameRecord,
    LogFile,
    ReplayResult,
    format_log,
    parse_log,
    record_of,
    replay_log,
    write_log,
)
from games.daihinmin.state import Exchange, GameState, InfoSet

__all__ = [
    "JOKER", "PASS", "SINGLE_JOKER", "card_from_str", "card_str", "cards_of", "hand_from_rows",
    "hand_from_str", "hand_str", "hand_to_rows", "move_cards", "move_from_rows",
    "move_from_str", "move_str", "move_to_rows", "strongest", "GameRecord", "LogFile",
    "ReplayResult", "format_log", "parse_log", "record_of", "replay_log", "write_log", "Deal",
    "Exchange", "GameState", "Match", "MatchConfig", "InfoSet",
]
