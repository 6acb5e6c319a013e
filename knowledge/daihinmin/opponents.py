"""Per-opponent policy models, learned online through a match.

At the end of a game every hand is known: each opponent held the cards it played, and the
last one also the cards nobody played. Replaying the game with those hands gives every
decision each opponent took, with its candidates. Each opponent's θ_p is the softmax fit to
its decisions so far with a Gaussian prior centred on the shipped policy
(``search.learn.fit_softmax``): with few games it stays near the shipped θ, with many it
follows how that opponent really plays. The fit adapts the dense features and one scale of
the shipped shape table: its 273 cells per opponent would need more decisions than the first
games give, and a refit after every game that the table's size would slow. The models serve
the inference (P(action | hand)) and the opponents' moves in the playouts.

Each opponent also has a weight w_p of the *rule player* (``policies.heuristic_move``: the
sample client's choice, which a softmax over features only approximates): its model of the
opponent is (1 − w_p) π_θp + w_p [the rule's move]. w_p is fitted by EM to the opponent's
decisions (with π_θp as fitted): a player that always plays the rule's move gets w near 1,
one that never does near 0, and one whose rule moves the softmax already explains, little.
A Beta(1, 4) prior keeps it at 0.2 before any game.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import numpy.typing as npt

import games.daihinmin.rules as R
from games.daihinmin.cards import ALL_CARDS, PASS, move_cards
from games.daihinmin.state import GameState
from knowledge.daihinmin.features import N_DENSE
from knowledge.daihinmin.learned import decision_rows
from knowledge.daihinmin.policies import heuristic_move
from search.learn import fit_softmax, softmax_chosen_log_probs

Rows = list[tuple[npt.NDArray[np.float64], int]]


class OpponentModels:
    """θ per player: the shipped θ for us, a fitted one for each opponent."""

    def __init__(self, theta0: npt.NDArray[np.float64], l2: float = 0.3,
                 keep: int = 3000) -> None:
        self.theta0 = np.asarray(theta0, dtype=np.float64)
        self.l2 = l2
        self.keep = keep  # most recent decisions kept per opponent
        self.rows: dict[int, Rows] = defaultdict(list)
        self.rule_hits: dict[int, list[bool]] = defaultdict(list)  # per row: the rule's move?
        self.W = np.tile(self.theta0, (R.NP, 1))
        self.table_scale = np.ones(R.NP)  # of the shipped shape table, per player
        self.rule_w = np.full(R.NP, RULE_PRIOR[0] / sum(RULE_PRIOR))
        self.games = 0

    def weights(self) -> npt.NDArray[np.float64]:
        return self.W

    def rule_weights(self, me: int) -> npt.NDArray[np.float64]:
        """w_p of the rule player in each opponent's model (0 for ``me``)."""
        w = self.rule_w.copy()
        w[me] = 0.0
        return w

    def learn_game(self, history: list[tuple[int, int]], order: list[int], finish: list[int],
                   my_hand_left: int, me: int) -> int:
        """Add the opponents' decisions of a finished game and refit; returns how many."""
        hands = revealed_hands(history, finish, my_hand_left, me)
        if hands is None or not history:
            return 0
        st = GameState(hands, order, history[0][0], lead_pass=True)
        added = 0
        for p, m in history:
            if st.is_terminal():
                break
            if st.to_move != p:
                return 0  # the history does not replay (a resync): learn nothing from it
            if m != PASS and not st.accepts(m):
                m = PASS
            if p != me:
                got = decision_rows(st, p, m)
                if got is not None:
                    self.rows[p].append(got)
                    self.rule_hits[p].append(
                        heuristic_move(st.hand(p), st.table, int(st.revolution), int(st.lock)) == m)
                    added += 1
            st.play(m)
        self.games += 1
        for p, rows in self.rows.items():
            del rows[:-self.keep]
            del self.rule_hits[p][:-self.keep]
            X = np.vstack([x for x, _ in rows])
            sizes = [len(x) for x, _ in rows]
            offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
            chosen = np.array([c for _, c in rows], dtype=np.int64)
            table = self.theta0[N_DENSE:]
            Xa = np.column_stack([X[:, :N_DENSE], X[:, N_DENSE:] @ table])
            t = fit_softmax(Xa, offsets, chosen, l2=self.l2,
                            prior=np.append(self.theta0[:N_DENSE], 1.0), iterations=20,
                            start=np.append(self.W[p, :N_DENSE], self.table_scale[p]))
            self.table_scale[p] = t[N_DENSE]
            self.W[p] = np.concatenate([t[:N_DENSE], t[N_DENSE] * table])
            pi = np.exp(softmax_chosen_log_probs(t, Xa, offsets, chosen))
            self.rule_w[p] = rule_weight(pi, np.array(self.rule_hits[p], dtype=bool))
        return added


RULE_PRIOR = (1.0, 4.0)  # Beta prior of a rule weight: 0.2 before any decision is seen


def rule_weight(pi: npt.NDArray[np.float64], hits: npt.NDArray[np.bool_],
                iterations: int = 50) -> float:
    """The weight w of the rule player in the mixture (1 − w) π + w [rule's move], by EM
    over decisions whose chosen moves had probability ``pi`` under the softmax and were the
    rule's move where ``hits`` (the prior as pseudo-counts: a hits in a + b decisions)."""
    a, b = RULE_PRIOR
    w = a / (a + b)
    for _ in range(iterations):
        r = np.where(hits, w / (w + (1.0 - w) * pi + 1e-300), 0.0)
        w = (float(r.sum()) + a) / (len(pi) + a + b)
    return w


def revealed_hands(history: list[tuple[int, int]], finish: list[int],
                               my_hand_left: int, me: int) -> list[int] | None:
    """Everyone's hand at the start of a finished game (after the exchange): the cards each
    played, and for the one player left out of the finishing order (the last) the cards
    nobody played. None if that cannot be told (a stalemate leaves several with cards)."""
    played = [0] * R.NP
    for p, m in history:
        played[p] |= move_cards(m)
    hands = list(played)
    hands[me] |= my_hand_left
    left = ALL_CARDS
    for h in hands:
        left &= ~h
    if left:
        last = [p for p in range(R.NP) if p not in finish[:R.NP - 1]]
        if len(last) != 1 or last[0] == me:
            return None
        hands[last[0]] |= left
    return hands
