"""The exchange decision: which cards the daifugo (two) or the fugo (one) gives back.

The candidates are the gifts drawn from the giver's weakest cards (the joker never); each is
judged by Monte Carlo over deals of the unseen cards, the resulting game played out from its
first lead with the playout settings. With the tribute model
(:class:`knowledge.daihinmin.inference.TributeModel`: the receiver was forced to give its
strongest cards, so it holds nothing stronger) the gifts compete by successive halving over
batches of deals played in one kernel call; with uniform deals (the v1 player), by UCB1, one
playout at a time.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

import games.daihinmin.rules as R
from games.daihinmin.cards import (
    ALL_CARDS,
    JOKER,
    cards_of,
    hand_from_cards,
    popcount,
    strength_key,
)
from games.daihinmin.state import Exchange, GameState
from knowledge.daihinmin.inference import TributeModel
from knowledge.daihinmin.playout import REWARD_PLAYERS, playout_deals_kernel, state_playout
from knowledge.daihinmin.position import Settings
from search.budget import Budget


def gift_candidates(hand: int, n: int, weakest: int) -> list[int]:
    """The gifts of ``n`` cards drawn from the ``weakest`` (at least ``n``) weakest cards of
    ``hand``, the joker left out."""
    weak = sorted((c for c in cards_of(hand) if c != JOKER), key=strength_key)
    return [hand_from_cards(list(c)) for c in combinations(weak[: max(weakest, n)], n)]


def search_gift(hand: int, n: int, me: int, ranks: list[int], counts: list[int],
                seats: list[int], budget: Budget, rng: np.random.Generator,
                settings: Settings, *, weakest: int,
                tribute_model: bool) -> tuple[int, dict[str, Any]]:
    """The ``n`` cards the daifugo or fugo ``me`` gives from ``hand`` (after the tribute),
    among :func:`gift_candidates`, and the search's figures for the log. ``counts``: the
    cards dealt to each player; ``seats``: the player in each seat; ``settings``: how the
    playouts play (their policy, weights and our sure finishes; r_t is not used);
    ``tribute_model``: deals by the tribute model and successive halving, else uniform deals
    and UCB1."""
    dst = ranks.index(4 if ranks[me] == 0 else 3)
    cands = gift_candidates(hand, n, weakest)
    if len(cands) == 1:
        return cands[0], {"candidates": 1}
    if tribute_model:
        tribute = TributeModel(hand, n, counts[dst] - n)
        if len(tribute.p):
            return _halving(cands, tribute, me, dst, counts, seats, budget, rng, settings)
    return _ucb1(cands, hand, me, dst, counts, ranks, seats, budget, rng, settings)


def _halving(cands: list[int], tribute: TributeModel, me: int, dst: int, counts: list[int],
             seats: list[int], budget: Budget, rng: np.random.Generator,
             settings: Settings) -> tuple[int, dict[str, Any]]:
    """Successive halving over the k gifts (a best-arm search): in each of ⌈log2 k⌉ rounds
    every gift still in plays an equal share of the round's playouts, in batches (worlds
    dealt by the tribute model, played out in one kernel call), and the better half by
    mean goes on; the last one left is given. If the budget ends a round early (time):
    the best mean of the gifts still in."""
    k = len(cands)
    gifts = np.asarray(cands, dtype=np.int64)
    nn = np.zeros(k)
    s = np.zeros(k)
    st0 = np.asarray(R.new_state([0] * R.NP, seats, 0), dtype=np.int64)
    weights = settings.kernel_weights()
    meter = budget.start()
    rounds = max(1, int(np.ceil(np.log2(k))))
    cap = budget.playouts or 1 << 40
    alive = np.arange(k)
    total = 0
    done = False
    for r in range(rounds):
        # this round: ``per`` playouts of each gift still in, interleaved, in batches
        per = max(1, (cap - total) // (rounds - r) // len(alive))
        for i in range(0, per * len(alive), 256):
            n_batch = min(256, per * len(alive) - i, cap - total)
            arms = alive[(i + np.arange(n_batch)) % len(alive)]
            worlds = tribute.deal_many(me, dst, gifts[arms], counts, rng)
            ret = np.empty(len(arms))
            playout_deals_kernel(st0, worlds, me, settings.policy_code, REWARD_PLAYERS,
                                 weights, int(rng.integers(1, 1 << 62)), settings.own_sure,
                                 ret)
            np.add.at(s, arms, ret)
            np.add.at(nn, arms, 1)
            total += len(arms)
            if meter.done(total):
                done = True
                break
        if done:
            break
        means = s[alive] / nn[alive]
        alive = alive[np.argsort(-means, kind="stable")[:(len(alive) + 1) // 2]]
    means = s[alive] / np.maximum(nn[alive], 1)
    best = int(alive[int(np.argmax(means))])
    return cands[best], {"candidates": k, "playouts": total, "search": "halving",
                         "value": round(float(s[best] / max(nn[best], 1)), 4),
                         "elapsed_ms": round(meter.elapsed() * 1000, 1)}


def _ucb1(cands: list[int], hand: int, me: int, dst: int, counts: list[int],
          ranks: list[int], seats: list[int], budget: Budget, rng: np.random.Generator,
          settings: Settings) -> tuple[int, dict[str, Any]]:
    """The v1 player's exchange search: UCB1 over the gifts, one playout at a time, the
    unseen cards dealt at random and the gift to the receiver."""
    k = len(cands)
    nn = np.zeros(k)
    s = np.zeros(k)
    meter = budget.start()
    total = 0
    while not meter.done(total):
        a = int(np.argmin(nn)) if total < k else int(np.argmax(
            s / nn + np.sqrt(2 * np.log(total) / nn)))
        gift = cands[a]
        unseen = ALL_CARDS & ~hand
        pool = [int(c) for c in rng.permutation(cards_of(unseen))]
        hands = [0] * R.NP
        hands[me] = hand & ~gift
        hands[dst] = gift
        for q in range(R.NP):
            if q == me:
                continue
            while popcount(hands[q]) < counts[q] and pool:
                hands[q] |= 1 << pool.pop()
        world = GameState(hands, list(seats), None, ranks=ranks,
                          exchanges=[Exchange(me, dst, gift, False)])
        po = state_playout(world, rng, me, settings.policy_code, settings.weights,
                           own_sure=settings.own_sure)
        v = float(po.returns[me])
        nn[a] += 1
        s[a] += v
        total += 1
    means = np.where(nn > 0, s / np.maximum(nn, 1), -1.0)
    best = int(np.argmax(means))
    return cands[best], {"candidates": k, "playouts": total, "value": round(float(
        means[best]), 4), "elapsed_ms": round(meter.elapsed() * 1000, 1)}
