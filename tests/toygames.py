"""Small games for testing the decision core (they implement games.contract by shape)."""

from __future__ import annotations

import numpy as np
from numba import njit

from games.contract import Playout, Priors, TreeGame
from games.splitmix import rng_next


def _random_playout(state, rng: np.random.Generator, seat: int) -> Playout:  # type: ignore[no-untyped-def]
    s = state.clone()
    moves: list[int] = []
    players: list[int] = []
    while not s.is_terminal():
        legal = s.legal_moves()
        m = legal[int(rng.integers(len(legal)))]
        moves.append(m)
        players.append(s.to_move)
        s.play(m)
    return Playout(np.asarray(s.returns(), dtype=np.float64), np.zeros(0),
                   np.asarray(moves, dtype=np.int64), np.asarray(players, dtype=np.int64))


class Nim:
    """One heap; take 1..max_take; whoever takes the last object wins."""

    num_players = 2

    def __init__(self, heap: int = 10, max_take: int = 3) -> None:
        self.heap = heap
        self.max_take = max_take
        self.to_move = 0

    def legal_moves(self) -> list[int]:
        return list(range(1, min(self.max_take, self.heap) + 1))

    def play(self, move: int) -> None:
        if not 1 <= move <= min(self.max_take, self.heap):
            raise ValueError(f"illegal take {move}")
        self.heap -= move
        self.to_move ^= 1

    def clone(self) -> Nim:
        c = Nim(self.heap, self.max_take)
        c.to_move = self.to_move
        return c

    def is_terminal(self) -> bool:
        return self.heap == 0

    def returns(self) -> list[float]:
        winner = self.to_move ^ 1  # the player who took the last object
        return [1.0 if s == winner else 0.0 for s in range(2)]

    def key(self) -> int:
        return self.heap * 2 + self.to_move

    def diagram(self) -> str:
        return "|" * self.heap

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        return _random_playout(self, rng, seat)


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    num_players = 2

    def __init__(self) -> None:
        self.board = [-1] * 9
        self.to_move = 0
        self.history: list[int] = []

    def winner(self) -> int:
        b = self.board
        for x, y, z in LINES:
            if b[x] >= 0 and b[x] == b[y] == b[z]:
                return b[x]
        return -1

    def legal_moves(self) -> list[int]:
        if self.winner() >= 0:
            return []
        return [i for i in range(9) if self.board[i] < 0]

    def play(self, move: int) -> None:
        if self.board[move] >= 0:
            raise ValueError("occupied")
        self.board[move] = self.to_move
        self.history.append(move)
        self.to_move ^= 1

    def undo(self) -> None:
        self.board[self.history.pop()] = -1
        self.to_move ^= 1

    def clone(self) -> TicTacToe:
        c = TicTacToe()
        c.board = self.board[:]
        c.to_move = self.to_move
        c.history = self.history[:]
        return c

    def is_terminal(self) -> bool:
        return self.winner() >= 0 or all(x >= 0 for x in self.board)

    def returns(self) -> list[float]:
        w = self.winner()
        if w < 0:
            return [0.5, 0.5]
        return [1.0 if s == w else 0.0 for s in range(2)]

    def key(self) -> int:
        k = self.to_move
        for x in self.board:
            k = k * 3 + (x + 1)
        return k

    def diagram(self) -> str:
        ch = {-1: ".", 0: "X", 1: "O"}
        return "\n".join("".join(ch[self.board[3 * r + c]] for c in range(3)) for r in range(3))

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        return _random_playout(self, rng, seat)


class HighCard:
    """A small hidden-card game for determinisation.

    Cards 0..n-1, each of two players holds `hand` of them, the rest are unseen. Each player
    in turn plays one card face up (seat 0 first, three tricks); a trick goes to the higher
    card; the winner of more tricks wins. Seat 1 sees seat 0's played card before answering.
    A seat knows its own hand, the cards played and how many the other holds.
    """

    num_players = 2

    def __init__(self, hands: tuple[list[int], list[int]], n_cards: int = 9) -> None:
        self.hands = (sorted(hands[0]), sorted(hands[1]))
        self.n_cards = n_cards
        self.played: list[tuple[int, int]] = []  # (seat, card)
        self.tricks = [0, 0]

    @classmethod
    def deal(cls, rng: np.random.Generator, hand: int = 3, n_cards: int = 9) -> HighCard:
        perm = rng.permutation(n_cards)
        return cls(([int(x) for x in perm[:hand]], [int(x) for x in perm[hand:2 * hand]]),
                   n_cards)

    @property
    def to_move(self) -> int:
        return len(self.played) % 2

    def legal_moves(self) -> list[int]:
        return list(self.hands[self.to_move]) if not self.is_terminal() else []

    def play(self, move: int) -> None:
        seat = self.to_move
        self.hands[seat].remove(move)
        self.played.append((seat, move))
        if len(self.played) % 2 == 0:
            (_, a), (_, b) = self.played[-2:]
            self.tricks[0 if a > b else 1] += 1

    def clone(self) -> HighCard:
        c = HighCard((self.hands[0][:], self.hands[1][:]), self.n_cards)
        c.played = self.played[:]
        c.tricks = self.tricks[:]
        return c

    def is_terminal(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def returns(self) -> list[float]:
        if self.tricks[0] == self.tricks[1]:
            return [0.5, 0.5]
        w = 0 if self.tricks[0] > self.tricks[1] else 1
        return [1.0 if s == w else 0.0 for s in range(2)]

    def key(self) -> int:
        return hash((tuple(self.hands[0]), tuple(self.hands[1]), tuple(self.played)))

    def diagram(self) -> str:
        return f"hands={self.hands} played={self.played} tricks={self.tricks}"

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        return _random_playout(self, rng, seat)

    def info_set(self, seat: int) -> HighCardInfo:
        return HighCardInfo(seat, tuple(self.hands[seat]), tuple(self.played),
                            len(self.hands[1 - seat]), self.n_cards)


class HighCardInfo:
    def __init__(self, seat: int, hand: tuple[int, ...], played: tuple[tuple[int, int], ...],
                 other_count: int, n_cards: int) -> None:
        self.seat = seat
        self.hand = hand
        self.played = played
        self.other_count = other_count
        self.n_cards = n_cards

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HighCardInfo) and vars(self) == vars(other)

    def legal_moves(self) -> list[int]:
        return list(self.hand)

    def sample_world(self, rng: np.random.Generator) -> HighCard:
        seen = set(self.hand) | {c for _, c in self.played}
        unseen = [c for c in range(self.n_cards) if c not in seen]
        other = [int(x) for x in rng.choice(unseen, size=self.other_count, replace=False)]
        hands = (list(self.hand), other) if self.seat == 0 else (other, list(self.hand))
        w = HighCard(hands, self.n_cards)
        for seat, card in self.played:
            w.hands[seat].append(card)
        for _, card in self.played:
            w.play(card)
        return w


# -- a game with compiled kernels for search.ctree ------------------------------------------
# NimN: n players take 1..max_take objects in turn from one heap; whoever takes the last one
# wins (return 1), the others get 0. Kernel state: int64 [heap, to_move, last taker];
# ctx: int64 [max_take, players]. Priors: taking the whole heap looks good.

@njit(cache=True)
def _nim_copy(ctx, src, dst):  # type: ignore[no-untyped-def]
    dst[0][:] = src[0]


@njit(cache=True)
def _nim_to_move(ctx, st):  # type: ignore[no-untyped-def]
    return -1 if st[0][0] == 0 else st[0][1]


@njit(cache=True)
def _nim_key(ctx, st):  # type: ignore[no-untyped-def]
    return st[0][0] * ctx[0][1] + st[0][1]


@njit(cache=True)
def _nim_legal(ctx, st, moves, values, counts, priors):  # type: ignore[no-untyped-def]
    heap = st[0][0]
    n = min(ctx[0][0], heap)
    for i in range(n):
        moves[i] = i + 1
        if priors:
            values[i] = 0.9 if i + 1 == heap else 0.4
            counts[i] = 3.0
    return n


@njit(cache=True)
def _nim_play(ctx, st, move):  # type: ignore[no-untyped-def]
    s = st[0]
    s[0] -= move
    s[2] = s[1]
    s[1] = (s[1] + 1) % ctx[0][1]


@njit(cache=True)
def _nim_playout(ctx, st, rng, moves, players, returns):  # type: ignore[no-untyped-def]
    s = st[0]
    n = 0
    while s[0] > 0:
        k = min(ctx[0][0], s[0])
        m = 1 + np.int64(rng_next(rng) % np.uint64(k))
        moves[n] = m
        players[n] = s[1]
        n += 1
        _nim_play(ctx, st, m)
    for p in range(ctx[0][1]):
        returns[p] = 1.0 if p == s[2] else 0.0
    return n


class NimN:
    """Nim for ``players`` seats with compiled kernels (``tree_game``); its Python playout
    draws what the kernel draws (``rng.integers(k)``), so both searches can be compared."""

    def __init__(self, heap: int = 12, max_take: int = 3, players: int = 3) -> None:
        self.heap = heap
        self.max_take = max_take
        self.num_players = players
        self.to_move = 0
        self.last = -1

    def legal_moves(self) -> list[int]:
        return list(range(1, min(self.max_take, self.heap) + 1))

    def play(self, move: int) -> None:
        if not 1 <= move <= min(self.max_take, self.heap):
            raise ValueError(f"illegal take {move}")
        self.heap -= move
        self.last = self.to_move
        self.to_move = (self.to_move + 1) % self.num_players

    def clone(self) -> NimN:
        c = NimN(self.heap, self.max_take, self.num_players)
        c.to_move, c.last = self.to_move, self.last
        return c

    def is_terminal(self) -> bool:
        return self.heap == 0

    def returns(self) -> list[float]:
        return [1.0 if s == self.last else 0.0 for s in range(self.num_players)]

    def key(self) -> int:
        return self.heap * self.num_players + self.to_move

    def diagram(self) -> str:
        return "|" * self.heap

    def priors(self) -> Priors:
        moves = self.legal_moves()
        return Priors(moves, np.array([0.9 if m == self.heap else 0.4 for m in moves]),
                      np.full(len(moves), 3.0))

    def playout(self, rng: np.random.Generator, seat: int) -> Playout:
        return _random_playout(self, rng, seat)

    def tree_game(self) -> TreeGame:
        st = (np.array([self.heap, self.to_move, self.last], dtype=np.int64),)
        ctx = (np.array([self.max_take, self.num_players], dtype=np.int64),)
        kernels = (_nim_copy, _nim_to_move, _nim_key, _nim_legal, _nim_play, _nim_playout)
        return TreeGame(kernels, ctx, st, self.num_players, self.max_take,
                        self.max_take + 1, self.heap + 1)
