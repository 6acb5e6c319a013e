from __future__ import annotations

import functools

import numpy as np
import pytest

from games.contract import Priors
from search.budget import Budget
from search.flat import FlatConfig, FlatMC
from search.uct import UCT, UCTConfig
from tests.toygames import HighCard, Nim, TicTacToe


@pytest.mark.parametrize("heap,max_take", [(10, 3), (13, 3), (7, 2), (14, 4)])
def test_uct_finds_the_nim_win(heap: int, max_take: int) -> None:
    # (no RAVE here: "take k" means something different at every heap size)
    winning = heap % (max_take + 1)
    res = UCT(UCTConfig()).search(Nim(heap, max_take), None, Budget(playouts=3000),
                                           np.random.default_rng(heap))
    assert res.move == winning, res.summary()
    assert res.value > 0.8


@functools.cache
def _minimax(key: tuple[int, ...], to_move: int) -> tuple[float, int]:
    """(value for the player to move, best move) by exhaustive search."""
    g = TicTacToe()
    g.board = list(key)
    g.to_move = to_move
    if g.is_terminal():
        return g.returns()[to_move], -1
    best = (-1.0, -1)
    for m in g.legal_moves():
        g.play(m)
        v = 1.0 - _minimax(tuple(g.board), g.to_move)[0]
        g.undo()
        if v > best[0]:
            best = (v, m)
    return best


@pytest.mark.parametrize("uct_seat", [0, 1])
@pytest.mark.parametrize("rave", [False, True])
def test_uct_never_loses_tictactoe_to_perfect_play(uct_seat: int, rave: bool) -> None:
    for game_no in range(3):
        rng = np.random.default_rng(100 * game_no + uct_seat)
        uct = UCT(UCTConfig(rave=rave, c=0.7))
        g = TicTacToe()
        while not g.is_terminal():
            if g.to_move == uct_seat:
                move = uct.search(g, None, Budget(playouts=1500), rng).move
            else:  # a perfect opponent, randomised among its best moves
                vals = []
                for m in g.legal_moves():
                    g.play(m)
                    vals.append((1.0 - _minimax(tuple(g.board), g.to_move)[0], m))
                    g.undo()
                top = max(v for v, _ in vals)
                best = [m for v, m in vals if v == top]
                move = best[int(rng.integers(len(best)))]
            g.play(move)
        assert g.returns()[uct_seat] >= 0.5, g.diagram()


# (moves so far, the one move that does not lose): an immediate win, and forced blocks
TACTICS = [
    ((0, 3, 1, 4), 2),  # X on 0, 1 and O on 3, 4: X wins at 2 (blocking 5 would not)
    ((0, 4, 1), 2),  # X threatens 0-1-2: O must block at 2
    ((4, 0, 8, 2), 1),  # X 4, 8; O 0, 2 threatens 0-1-2: X must block at 1
    ((0, 4, 3), 6),  # X threatens the column 0-3-6: O must block at 6
]


@pytest.mark.parametrize("moves,only", TACTICS)
def test_uct_wins_at_once_and_blocks_at_tictactoe(moves: tuple[int, ...], only: int) -> None:
    g = TicTacToe()
    for m in moves:
        g.play(m)
    # the table is right: exhaustive search says ``only`` is the best move and the sole one
    # keeping the mover's value
    best = _minimax(tuple(g.board), g.to_move)
    keeps = []
    for m in g.legal_moves():
        g.play(m)
        if 1.0 - _minimax(tuple(g.board), g.to_move)[0] >= best[0]:
            keeps.append(m)
        g.undo()
    assert keeps == [only]
    res = UCT().search(g, None, Budget(playouts=800), np.random.default_rng(len(moves)))
    assert res.move == only, res.summary()


class PriorNim(Nim):
    """Nim whose priors favour taking one object (a wrong move from 10)."""

    def clone(self) -> PriorNim:
        c = PriorNim(self.heap, self.max_take)
        c.to_move = self.to_move
        return c

    def priors(self) -> Priors:
        moves = self.legal_moves()
        values = np.array([0.9 if m == 1 else 0.3 for m in moves])
        return Priors(moves, values, np.full(len(moves), 20.0))


def test_priors_are_pseudo_counts_not_visits() -> None:
    uct = UCT(UCTConfig(priors=True))
    res = uct.search(PriorNim(10, 3), None, Budget(playouts=60), np.random.default_rng(0))
    assert sum(res.visits) == 60  # visits reported exclude the prior's pseudo-counts
    root = uct.root
    assert root is not None
    assert root.N0.tolist() == [20.0, 20.0, 20.0]
    # a wrong optimistic prior is overcome by enough search
    res = UCT(UCTConfig(priors=True)).search(PriorNim(10, 3), None, Budget(playouts=4000),
                                             np.random.default_rng(0))
    assert res.move == 2
    # and ignored when priors are off
    uct_off = UCT(UCTConfig(priors=False))
    uct_off.search(PriorNim(10, 3), None, Budget(playouts=10), np.random.default_rng(0))
    assert uct_off.root is not None and uct_off.root.N0.tolist() == [0.0, 0.0, 0.0]


def test_progressive_widening_unlocks_children_in_prior_order() -> None:
    # (the thresholds themselves are pinned in test_numbers.py)
    cfg = UCTConfig(widening=True, widening_initial=1, widening_a=40, widening_b=1.4)
    uct = UCT(cfg)
    res = uct.search(PriorNim(20, 4), None, Budget(playouts=60), np.random.default_rng(0))
    # thresholds: 40, 96, ... so after 60 visits only the first two in prior order were open
    visited = {m for m, v in zip(res.moves, res.visits, strict=True) if v > 0}
    assert visited == {1, 2} or visited == {1, 3} or visited == {1, 4}
    assert 1 in visited  # the prior favourite is first
    res = uct.search(PriorNim(20, 4), None, Budget(playouts=2000), np.random.default_rng(0))
    assert all(v > 0 for v in res.visits)


def test_n_player_values_are_each_movers_own() -> None:
    # Nim with 2 seats checks negamax; the per-seat returns make the same code max-own-reward
    uct = UCT()
    res = uct.search(Nim(5, 3), None, Budget(playouts=2000), np.random.default_rng(2))
    assert res.move == 1
    assert uct.root is not None
    child = uct.root.children[0]  # after taking 1 (heap 4), the opponent is lost
    assert child is not None and child.to_move == 1
    assert max(child.W / np.maximum(child.N, 1)) < 0.2


def test_seconds_budget_with_an_injected_clock() -> None:
    t = [0.0]

    def clock() -> float:
        t[0] += 0.001
        return t[0]

    res = UCT().search(Nim(10, 3), None, Budget(seconds=0.1, clock=clock),
                       np.random.default_rng(0))
    # start() reads the clock once, each done() once, elapsed() once: deterministic
    assert 95 <= res.playouts <= 100


def test_budget_from_the_remaining_clock() -> None:
    b = Budget.from_clock(62.0, 30, reserve=2.0)
    assert b.seconds == 2.0 and b.playouts is None
    assert Budget.from_clock(1.0, 10, reserve=2.0).seconds == 0.0  # never negative
    assert Budget.from_clock(100.0, 10, playouts=500).playouts == 500
    with pytest.raises(ValueError):
        Budget.from_clock(10.0, 0)
    with pytest.raises(ValueError):
        Budget()  # neither playouts nor seconds


def test_a_visits_budget_is_the_playouts_less_the_kept_visits() -> None:
    b = Budget(visits=3000)
    assert b.playouts == 3000  # a core that keeps no tree runs the visits as playouts
    assert b.after_reuse(1200).playouts == 1800 and b.after_reuse(1200).visits is None
    assert b.after_reuse(5000).playouts == 1  # one playout at least
    assert Budget(visits=3000, playouts=1000).after_reuse(500).playouts == 1000
    assert Budget(visits=3000, seconds=1.0).after_reuse(500).seconds == 1.0
    assert Budget(playouts=100).after_reuse(50).playouts == 100  # no visits: unchanged
    with pytest.raises(ValueError):
        Budget(visits=0)


# -- hidden information --------------------------------------------------------------------

def test_high_card_info_set_property() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        g = HighCard.deal(rng)
        for _ in range(int(rng.integers(0, 5))):
            g.play(g.legal_moves()[int(rng.integers(len(g.legal_moves())))])
        for seat in (0, 1):
            info = g.info_set(seat)
            w = info.sample_world(rng)
            assert w.info_set(seat) == info
            assert sorted(w.legal_moves()) == sorted(g.legal_moves()) or g.to_move != seat


def _dump_position() -> HighCard:
    g = HighCard(([8, 3, 6], [0, 5, 7]))
    g.play(8)  # seat 0 leads its 8: seat 1 cannot beat it and should throw its lowest card
    return g


@pytest.mark.parametrize("core", ["flat", "uct"])
def test_determinised_search_dumps_the_lowest_card(core: str) -> None:
    info = _dump_position().info_set(1)
    rng = np.random.default_rng(7)
    searcher = FlatMC(FlatConfig()) if core == "flat" else UCT(UCTConfig(c=0.7))
    res = searcher.search(info, 1, Budget(playouts=2000), rng)
    assert res.move == 0, res.summary()
    assert set(res.moves) == {0, 5, 7}


@pytest.mark.parametrize("weighted", [False, True])
def test_vectorised_rave_update_matches_the_set_based_one(monkeypatch: pytest.MonkeyPatch,
                                                          weighted: bool) -> None:
    import search.uct as uct_mod

    def run() -> tuple[list[float], list[float], list[float]]:
        u = UCT(UCTConfig(rave=True, rave_k=50, rave_weighted=weighted))
        u.search(TicTacToe(), None, Budget(playouts=400), np.random.default_rng(8))
        assert u.root is not None
        child = next(c for c in u.root.children if c is not None)
        return u.root.RN.tolist(), u.root.RW.tolist(), child.RN.tolist()

    fast = run()
    monkeypatch.setattr(uct_mod, "_RAVE_TABLE_LIMIT", 0)  # every move falls back to sets
    slow = run()
    assert fast == slow
    assert sum(fast[0]) > 400  # AMAF credits more than the visits themselves


def test_weighted_rave_credit_falls_along_the_episode() -> None:
    from search.uct import rave_weight

    assert rave_weight(7, 3, 10, False) == 1.0
    assert rave_weight(3, 3, 13, True) == 2.0  # the node's own move
    assert rave_weight(8, 3, 13, True) == pytest.approx(1.0)  # half way
    assert rave_weight(12, 3, 13, True) == pytest.approx(0.2)  # the last ply
    # the root's AMAF credits in a small game: weighted, a move played late counts less, so
    # the root's RAVE visits differ from the unweighted ones
    plain = UCT(UCTConfig(rave=True, rave_k=50))
    weighted = UCT(UCTConfig(rave=True, rave_k=50, rave_weighted=True))
    for u in (plain, weighted):
        u.search(TicTacToe(), None, Budget(playouts=200), np.random.default_rng(3))
    assert plain.root is not None and weighted.root is not None
    assert plain.root.RN.tolist() != weighted.root.RN.tolist()


def test_searching_a_finished_game_is_a_clear_error() -> None:
    state = Nim(0)
    assert state.is_terminal()
    with pytest.raises(ValueError, match="game is over"):
        UCT().search(state, None, Budget(playouts=10), np.random.default_rng(0))
