"""Per-opponent policy models, learned online through a match.

At the end of a game every hand is known: each opponent held the cards it played, and the
last one also the cards nobody played. Replaying the game with those hands gives every
decision each opponent took, with its candidates. Each opponent's θ_p is the softmax fit to
its decisions so far with a Gaussian prior centred on the shipped policy
(``search.learn.fit_softmax``): with few games it stays near the shipped θ, with many it
follows how that opponent really plays. The fit adapts the dense features and one scale of
the shipped shape table and context, taken together: their 369 weights per opponent would
need more decisions than the first games give, and a refit after every game that their
number would slow. The models serve the inference (P(action | hand)) and the opponents'
moves in the playouts.

Each opponent also has a weight w_p of the *rule player* (``policies.heuristic_move``: the
sample client's choice, which a softmax over features only approximates): its model of the
opponent is (1 − w_p) π_θp + w_p [the rule's move]. w_p is fitted by EM to the opponent's
decisions (with π_θp as fitted): a player that always plays the rule's move gets w near 1,
one that never does near 0, and one whose rule moves the softmax already explains, little.
A Beta(1, 4) prior keeps it at 0.2 before any game.

The models in use are chosen per opponent. The shared policy need not be one: a policy fitted
to simple rule players and one fitted to strong clients read the same opponent differently
(``weights=A+B``); and adapting helps against a rule player (its moves are predicted twice as
well after a few games) but not against one the shared policy was fitted to, where a
match's decisions only add noise (``opponents=select`` keeps each shared policy as it is
beside its adapted fit). Each candidate is fitted from its own prior, and the one in use is
the one that has predicted that opponent's moves best in the games so far, each game scored
before the models learn from it.
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
    """θ per player: the first prior for us, a fitted one for each opponent.

    ``priors``: one θ (a vector) or several (rows); each is a candidate model of every
    opponent, fitted to its decisions from that prior, and with ``fixed`` also as it is. With
    several candidates the model in use is the one that has predicted that opponent's moves
    best so far: the prequential log-likelihood (Dawid 1984, "Statistical theory: the
    prequential approach") of each game's decisions under the candidates as they were before
    that game. Until an opponent's evidence tells them apart (and for our own moves), the
    first prior.
    """

    def __init__(self, priors: npt.ArrayLike, l2: float = 0.3, keep: int = 3000,
                 fixed: bool = False) -> None:
        self.priors = np.atleast_2d(np.asarray(priors, dtype=np.float64))
        self.theta0 = self.priors[0]
        self.l2 = l2
        self.keep = keep  # most recent decisions kept per opponent
        self.rows: dict[int, Rows] = defaultdict(list)
        self.rule_hits: dict[int, list[bool]] = defaultdict(list)  # per row: the rule's move?
        # the candidates: (prior, adapted?), each prior adapted first
        self.candidates = [(c, adapted) for c in range(len(self.priors))
                           for adapted in ((True, False) if fixed else (True,))]
        n = len(self.candidates)
        self.fits = np.stack([np.tile(self.priors[c], (R.NP, 1))
                              for c, _ in self.candidates])  # candidate × player × θ
        # of each prior's shape table and context, per player
        self.table_scales = np.ones((n, R.NP))
        self.rule_ws = np.full((n, R.NP), RULE_PRIOR[0] / sum(RULE_PRIOR))
        self.evidence = np.zeros((n, R.NP))  # prequential log-likelihood, candidate × player
        self.chosen = np.zeros(R.NP, dtype=np.int64)  # the candidate in use, per player
        self.games = 0

    @property
    def W(self) -> npt.NDArray[np.float64]:
        """The models in use: θ per player (5 × N_FEATURES)."""
        return self.fits[self.chosen, np.arange(R.NP)]

    @property
    def table_scale(self) -> npt.NDArray[np.float64]:
        """The scale of the shape table and context in each player's model in use."""
        return self.table_scales[self.chosen, np.arange(R.NP)]

    @property
    def rule_w(self) -> npt.NDArray[np.float64]:
        return self.rule_ws[self.chosen, np.arange(R.NP)]

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
        new: dict[int, Rows] = defaultdict(list)
        new_hits: dict[int, list[bool]] = defaultdict(list)
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
                    new[p].append(got)
                    new_hits[p].append(
                        heuristic_move(st.hand(p), st.table, int(st.revolution), int(st.lock)) == m)
            st.play(m)
        self.games += 1
        for p, rows in new.items():
            if len(self.candidates) > 1:  # score the game under the models before it
                X, offsets, chosen = _stack(rows)
                for k in range(len(self.candidates)):
                    self.evidence[k, p] += float(
                        softmax_chosen_log_probs(self.fits[k, p], X, offsets, chosen).sum())
                self.chosen[p] = int(np.argmax(self.evidence[:, p]))  # ties: the first
            self.rows[p].extend(rows)
            self.rule_hits[p].extend(new_hits[p])
        for p, rows in self.rows.items():
            del rows[:-self.keep]
            del self.rule_hits[p][:-self.keep]
            X, offsets, chosen = _stack(rows)
            hits = np.array(self.rule_hits[p], dtype=bool)
            for k, (c, adapted) in enumerate(self.candidates):
                if adapted:
                    self._fit(k, p, self.priors[c], X, offsets, chosen)
                pi = np.exp(softmax_chosen_log_probs(self.fits[k, p], X, offsets, chosen))
                self.rule_ws[k, p] = rule_weight(pi, hits)
        return sum(len(rows) for rows in new.values())

    def _fit(self, k: int, p: int, theta0: npt.NDArray[np.float64], X: npt.NDArray[np.float64],
             offsets: npt.NDArray[np.int64], chosen: npt.NDArray[np.int64]) -> None:
        """Refit candidate k of player p from prior θ0: the dense weights and the scale of
        the prior's shape table and context."""
        table = theta0[N_DENSE:]
        Xa = np.column_stack([X[:, :N_DENSE], X[:, N_DENSE:] @ table])
        t = fit_softmax(Xa, offsets, chosen, l2=self.l2,
                        prior=np.append(theta0[:N_DENSE], 1.0), iterations=20,
                        start=np.append(self.fits[k, p, :N_DENSE], self.table_scales[k, p]))
        self.table_scales[k, p] = t[N_DENSE]
        self.fits[k, p] = np.concatenate([t[:N_DENSE], t[N_DENSE] * table])


def _stack(rows: Rows) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64],
                                npt.NDArray[np.int64]]:
    """Decisions as one candidate matrix, the groups' offsets and the chosen indices."""
    X = np.vstack([x for x, _ in rows])
    offsets = np.concatenate([[0], np.cumsum([len(x) for x, _ in rows])]).astype(np.int64)
    return X, offsets, np.array([c for _, c in rows], dtype=np.int64)


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
