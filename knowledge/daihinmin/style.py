"""Playing styles of the Daihinmin player (Watanabe and Kaneko, "Realizing individuality in UCT
with prior knowledge and policy learning"): each style is a preference for the moves with one
feature, given to the search as optimistic prior knowledge.

The features of a move ``m`` (a move int of :mod:`games.daihinmin.cards`, the pass included)
of the player whose hand is ``h``, before the move:

- ``hoarding``: the move spends none of the joker, the 2s and the 8s (:data:`HOARD_CARDS`)
  while the hand still holds more than :data:`HOARD_UNTIL` cards. The pass spends nothing, so
  it has the feature too: passing rather than spending a 2 is what a hoarder does. With
  :data:`HOARD_UNTIL` cards or fewer no move has the feature (the end, when the hoard is
  spent). A joker standing in a meld is the joker spent;
- ``shedding``: a group of three cards or more (the joker counting) or a sequence (of three
  or more, as the rules have them);
- ``revolutionary``: a move that makes a revolution (a group of four or more, or a sequence
  of five or more: :func:`games.daihinmin.rules.revolts`).

:func:`has_feature` is the numba kernel (over one move; :func:`feature_mask_into` over the
legal moves), :func:`py_has_feature` the plain-Python reference built on ``rules.py`` and
``cards.py``; the tests compare them on random positions.

The prior (:func:`style_priors`): every legal move with the feature starts with
``strength * BASE[style]`` pseudo-visits at the best reward (1: first place); the others with
none.
"""

from __future__ import annotations

import numpy as np

import games.daihinmin.rules as R
from games.contract import Priors
from games.daihinmin.cards import (
    ALL_CARDS,
    JOKER_BIT,
    KIND_GROUP,
    KIND_SEQ,
    PASS,
    card_index,
    move_cards,
    move_count,
    move_kind,
    popcount,
)
from games.daihinmin.kernels import hot
from games.daihinmin.kernels import popcount as popcount_k
from knowledge.daihinmin.features import _revolts
from knowledge.style import StyleSpec

HOARD_UNTIL = 5  # hoarding: the hoard may be spent once the hand holds this many cards or fewer
STYLES = {
    "hoarding": "keeps the joker, the 2s and the 8s for the end (moves, passes included, that "
                f"spend none of them while the hand holds more than {HOARD_UNTIL} cards)",
    "shedding": "plays long melds and sequences early (groups of 3+ cards, sequences)",
    "revolutionary": "seeks revolutions (groups of 4+ cards, sequences of 5+)",
}
HOARDING, SHEDDING, REVOLUTIONARY = 0, 1, 2
CODES = {"hoarding": HOARDING, "shedding": SHEDDING, "revolutionary": REVOLUTIONARY}

_TWO = 12  # rank index of the 2s (3 4 5 ... A 2)
_EIGHT = 5  # rank index of the 8s
HOARD_CARDS = JOKER_BIT | sum(1 << card_index(s, r) for s in range(4) for r in (_TWO, _EIGHT))
# the pseudo-visits of a feature move at strength 1, each style's equivalent experience at the
# client's 3000 playouts, chosen over 500-game runs (docs/results/daihinmin.md): hoarding and
# revolutionary shift the plain player's share by 20 points at 300; shedding at 200 (at 100 it
# shifted 16 points, at 300 it cost 0.3 points a game)
BASE = {"hoarding": 300.0, "shedding": 200.0, "revolutionary": 300.0}
BEST_REWARD = 1.0  # the return of first place


@hot()
def has_feature(code: int, hand: int, m: int) -> bool:
    """Whether move ``m`` of a player holding ``hand`` has the feature of style ``code``."""
    if code == HOARDING:
        return popcount_k(hand) > HOARD_UNTIL and (m & HOARD_CARDS) == 0
    kind = (m >> 60) & 3
    if code == SHEDDING:
        return kind == 3 or (kind == 2 and popcount_k(m & ALL_CARDS) >= 3)
    return _revolts(m)


@hot()
def feature_mask_into(code: int, hand: int, moves: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` = 1 if ``moves[i]`` has the feature of style ``code``, else 0."""
    for i in range(len(moves)):
        out[i] = 1 if has_feature(code, hand, moves[i]) else 0


def py_has_feature(name: str, hand: int, m: int) -> bool:
    """Reference of :func:`has_feature`, by style name."""
    if name == "hoarding":
        return popcount(hand) > HOARD_UNTIL and not move_cards(m) & HOARD_CARDS
    if name == "shedding":
        return m != PASS and (move_kind(m) == KIND_SEQ
                              or (move_kind(m) == KIND_GROUP and move_count(m) >= 3))
    if name == "revolutionary":
        return m != PASS and R.revolts(m)
    raise ValueError(f"unknown style {name!r}")


def feature_mask(name: str, hand: int, moves: list[int]) -> np.ndarray:
    """Which of ``moves`` have the feature of style ``name`` (a bool array)."""
    mv = np.asarray(moves, dtype=np.int64)
    out = np.zeros(len(mv), dtype=np.int64)
    feature_mask_into(CODES[name], hand, mv, out)
    return out.astype(bool)


def style_priors(spec: StyleSpec, hand: int, moves: list[int]) -> Priors:
    """The style's optimistic prior over ``moves``: ``spec.strength * BASE[spec.name]``
    pseudo-visits at the best reward for each move with the feature, none for the others."""
    mask = feature_mask(spec.name, hand, moves)
    counts = np.where(mask, spec.strength * BASE[spec.name], 0.0)
    return Priors(moves, np.full(len(moves), BEST_REWARD), counts)
