"""The compiled UCT (search.ctree) against the reference (search.uct): both grown from one
random stream (SplitMix), they must build the same tree, so every root statistic agrees to
the last bit; and the compiled tree's own parts: lazy expansion, tree reuse, full pools,
time budgets, errors."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from games.blokus_duo import BlokusState
from games.go import GoState
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.settings import BlokusConfig
from knowledge.go.position import GoPosition
from search.budget import Budget
from search.ctree import C_EDGES, C_ITER, C_NODES, CompiledUCT, SplitMix, tree_bytes
from search.result import SearchResult
from search.uct import UCT, UCTConfig
from tests.toygames import Nim, NimN

CONFIGS = {
    "rave": UCTConfig(rave=True, c=0.0),
    "rave-mse": UCTConfig(rave=True, c=0.0, rave_mse=True, rave_k=300.0),
    "rave-child": UCTConfig(rave=True, c=0.0, rave_child=True, rave_k=300.0, grandfather=10.0),
    "rave-weighted": UCTConfig(rave=True, c=0.0, rave_weighted=True, grandfather=10.0),
    "rave-first-player": UCTConfig(rave=True, c=0.0, rave_first_player=True),
    "ucb": UCTConfig(rave=False, c=1.0),
    "widening": UCTConfig(rave=True, c=0.3, widening=True, widening_a=5.0),
    "no-priors": UCTConfig(rave=True, c=0.0, priors=False, prior_count=2.0, prior_value=0.4),
    "grandfather": UCTConfig(rave=True, c=0.0, grandfather=10.0),
    "mean": UCTConfig(rave=True, c=0.2, final="mean", rave_k=50.0),
    "lcb": UCTConfig(rave=True, c=0.2, final="lcb", rave_k=50.0),
    "expand-later": UCTConfig(rave=True, c=0.0, expand_visits=3),
}


def stats(r: SearchResult) -> dict[Any, tuple[int, float]]:
    return {m: (n, v) for m, n, v in zip(r.moves, r.visits, r.values, strict=True)}


def assert_same(a: SearchResult, b: SearchResult) -> None:
    sa, sb = stats(a), stats(b)
    assert sa.keys() == sb.keys()
    for m in sa:
        assert sa[m][0] == sb[m][0], (m, sa[m], sb[m])
        assert sa[m][1] == pytest.approx(sb[m][1], rel=1e-12, nan_ok=True), (m, sa[m], sb[m])
    assert a.move == b.move
    assert a.playouts == b.playouts
    assert a.info["max_depth"] == b.info["max_depth"]


def both(state: Any, cfg: UCTConfig, playouts: int, seed: int, eager: bool = True
         ) -> tuple[SearchResult, SearchResult]:
    a = UCT(cfg).search(state.clone(), None, Budget(playouts=playouts), SplitMix(seed))
    b = CompiledUCT(cfg, eager=eager).search(state.clone(), None, Budget(playouts=playouts),
                                             SplitMix(seed))
    return a, b


def go_position(size: int, moves: list[str]) -> GoPosition:
    from games.go.coords import vertex_to_point

    s = GoPosition(GoState(size, 7.0))
    for v in moves:
        s.play(vertex_to_point(v, size))
    return s


GO_POSITIONS = {
    "5x5 empty": go_position(5, []),
    "7x7 opening": go_position(7, ["D4", "C3", "E5", "C5"]),
    "9x9 fight": go_position(9, ["E5", "E4", "D4", "D5", "C5", "F5", "E6", "F6", "D3",
                                 "E3", "F4", "C4"]),
}


@pytest.mark.parametrize("name,cfg", CONFIGS.items())
@pytest.mark.parametrize("pos", GO_POSITIONS)
def test_go_same_tree_as_the_reference(pos: str, name: str, cfg: UCTConfig) -> None:
    a, b = both(GO_POSITIONS[pos], cfg, 400, 7)
    assert_same(a, b)


def test_go_rave_mse_changes_the_tree() -> None:
    """The per-child schedule reaches the compiled tree: the same search with the
    hand-selected schedule (same k) visits the moves differently."""
    s = GO_POSITIONS["9x9 fight"]
    hand = both(s, UCTConfig(rave=True, c=0.0, rave_k=300.0), 400, 7)[1]
    assert stats(both(s, CONFIGS["rave-mse"], 400, 7)[1]) != stats(hand)


def test_go_rave_child_changes_the_tree() -> None:
    """β from each child's own visits reaches the compiled tree: the same search with the
    node's visits visits the moves differently."""
    s = GO_POSITIONS["9x9 fight"]
    node = both(s, UCTConfig(rave=True, c=0.0, rave_k=300.0, grandfather=10.0), 400, 7)[1]
    assert stats(both(s, CONFIGS["rave-child"], 400, 7)[1]) != stats(node)


def test_go_weighted_rave_changes_the_tree() -> None:
    """Weighted AMAF credits reach the compiled tree: the same search with the credit 1
    visits the moves differently."""
    s = GO_POSITIONS["9x9 fight"]
    plain = both(s, UCTConfig(rave=True, c=0.0, grandfather=10.0), 400, 7)[1]
    assert stats(both(s, CONFIGS["rave-weighted"], 400, 7)[1]) != stats(plain)


def test_go_rave_by_the_first_player_changes_the_tree() -> None:
    """Crediting a point only to the player who played it first reaches the compiled tree:
    on a small board, where the playouts capture and play points again, the visits differ."""
    s = GO_POSITIONS["5x5 empty"]
    plain = both(s, CONFIGS["rave"], 400, 7)[1]
    assert stats(both(s, CONFIGS["rave-first-player"], 400, 7)[1]) != stats(plain)


@pytest.mark.parametrize("first_player", [False, True])
def test_go_rave_table_matches_the_set_based_update(monkeypatch: pytest.MonkeyPatch,
                                                    first_player: bool) -> None:
    """The AMAF update by the table of first plies (int moves) and by sets (the plain
    reference, any moves) credit the same, with and without the first-player rule."""
    import search.uct as uct_mod

    cfg = UCTConfig(rave=True, c=0.0, rave_k=50.0, rave_first_player=first_player)

    def run() -> tuple[list[float], list[float]]:
        u = UCT(cfg)
        u.search(GO_POSITIONS["5x5 empty"].clone(), None, Budget(playouts=300), SplitMix(5))
        assert u.root is not None
        return u.root.RN.tolist(), u.root.RW.tolist()

    fast = run()
    monkeypatch.setattr(uct_mod, "_RAVE_TABLE_LIMIT", 0)  # every move falls back to sets
    assert run() == fast


def test_first_player_marks() -> None:
    """The first-player rule: a point the other seat played first is not marked for the
    seat that plays it again, and a tree move takes the later marks of the other seat off."""
    from search.uct import mark_first_plies, rave_credit

    moves = np.array([2, 2, 3], dtype=np.int64)
    seats = np.array([1, 0, 1], dtype=np.int64)
    every = np.zeros((2, 6), dtype=np.int64)
    mark_first_plies(every, seats, moves, 1, False)
    assert every[0].tolist() == [0, 0, 0, 3, 0, 0]
    assert every[1].tolist() == [0, 0, 0, 2, 4, 0]
    first = np.zeros((2, 6), dtype=np.int64)
    mark_first_plies(first, seats, moves, 1, True)
    assert first[0].tolist() == [0] * 6  # seat 1 played point 2 first
    assert first[1].tolist() == [0, 0, 0, 2, 4, 0]
    # a node at depth 0, seat 0 to move, whose edge is point 2: seat 0 played it first now
    RN, RW = np.zeros(3), np.zeros(3)
    rave_credit(first, 0, np.array([2, 3, 4], dtype=np.int64), 0, 0, 4, False, True, RN, RW,
                1.0)
    assert first[1].tolist() == [0, 0, 0, 0, 4, 0]
    assert RN.tolist() == [1.0, 0.0, 0.0]  # point 3 is seat 1's, point 4 nobody's
    assert RW.tolist() == [1.0, 0.0, 0.0]


def test_go_after_a_capture_and_a_ko() -> None:
    # white captures at C2 (a ko shape): superko and the atari list are exercised
    s = go_position(5, ["B2", "C2", "C1", "D1", "D2", "B1", "C3", "A2", "pass", "C1"])
    for cfg in (CONFIGS["rave"], CONFIGS["grandfather"]):
        assert_same(*both(s, cfg, 300, 3))


def test_go_score_reward_same_tree_as_the_reference() -> None:
    """With a share of the reward on the score margin, both trees still agree to the bit,
    and the values differ from the win/loss reward's."""
    s = GO_POSITIONS["9x9 fight"].clone()
    plain = both(s, CONFIGS["rave"], 300, 5)[1]
    s.settings = s.settings._replace(score_weight=0.1)
    a, b = both(s, CONFIGS["rave"], 300, 5)
    assert_same(a, b)
    assert stats(b) != stats(plain)


def test_go_jigo_value_same_tree_as_the_reference() -> None:
    """A jigo valued below 1/2 for black reaches both trees alike (integer komi: the playouts
    end in jigos), and moves the values."""
    s = GO_POSITIONS["9x9 fight"].clone()
    s.komi = 7.0
    plain = both(s, CONFIGS["rave"], 300, 5)[1]
    s.settings = s.settings._replace(jigo=0.2)
    a, b = both(s, CONFIGS["rave"], 300, 5)
    assert_same(a, b)
    assert stats(b) != stats(plain)


def blokus_position(seed: int, plies: int, first: int = 0,
                    seats: tuple[int, int] = (0, 1),
                    config: BlokusConfig | None = None) -> BlokusPosition:
    s = BlokusPosition(BlokusState(first=first, seat_colours=seats), config or BlokusConfig())
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves)))])
    return s


@pytest.mark.parametrize("name", ["rave", "rave-mse", "rave-weighted", "ucb", "widening",
                                  "grandfather"])
@pytest.mark.parametrize("first,seats,plies", [(0, (0, 1), 6), (1, (1, 0), 0), (1, (0, 1), 13)])
def test_blokus_same_tree_as_the_reference(name: str, first: int, seats: tuple[int, int],
                                           plies: int) -> None:
    s = blokus_position(5, plies, first, seats)
    assert_same(*both(s, CONFIGS[name], 150, 11))


# the Blokus knowledge: priors from size, attach points and distance, opening pruning,
# weighted playouts with every term, the score-margin reward blended with the reachable space
BLOKUS_KNOWLEDGE = BlokusConfig(
    playout="weighted", gain_factor=0.8, notake_factor=0.6, open_playout=5, open_factor=0.2,
    priors="knowledge", prior_count=30.0, open_pieces=3, score_weight=0.15, score_scale=25.0,
    space_weight=0.3, space_scale=6.0)


@pytest.mark.parametrize("name", ["rave", "ucb", "widening", "grandfather", "expand-later"])
@pytest.mark.parametrize("first,seats,plies", [(0, (0, 1), 0), (1, (1, 0), 5), (0, (1, 0), 24)])
def test_blokus_knowledge_same_tree_as_the_reference(name: str, first: int,
                                                     seats: tuple[int, int],
                                                     plies: int) -> None:
    s = blokus_position(6, plies, first, seats, BLOKUS_KNOWLEDGE)
    assert_same(*both(s, CONFIGS[name], 150, 12))


def test_blokus_end_of_game_with_passes() -> None:
    s = blokus_position(2, 0)
    rng = np.random.default_rng(4)
    while s.state.legal_count(0) + s.state.legal_count(1) > 12 and not s.is_terminal():
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves)))])
    assert not s.is_terminal()
    assert_same(*both(s, CONFIGS["rave"], 200, 5))
    s.config = BLOKUS_KNOWLEDGE  # terminal nodes in the tree: the score-margin reward
    assert_same(*both(s, CONFIGS["rave"], 200, 5))


@pytest.mark.parametrize("name,cfg", CONFIGS.items())
@pytest.mark.parametrize("players", [2, 3])
def test_nim_same_tree_as_the_reference(players: int, name: str, cfg: UCTConfig) -> None:
    assert_same(*both(NimN(13, 3, players), cfg, 600, 1))


def test_lazy_expansion_changes_nothing_without_the_grandfather_prior() -> None:
    s = GO_POSITIONS["9x9 fight"]
    for name in ("rave", "widening", "no-priors"):
        a, b = both(s, CONFIGS[name], 400, 9, eager=False)
        assert_same(a, b)


def test_lazy_expansion_needs_fewer_edges() -> None:
    s = GO_POSITIONS["9x9 fight"]
    eager = CompiledUCT(CONFIGS["rave"], eager=True)
    lazy = CompiledUCT(CONFIGS["rave"])
    for u in (eager, lazy):
        u.search(s.clone(), None, Budget(playouts=400), SplitMix(9))
    assert lazy.counters[C_NODES] == eager.counters[C_NODES]
    assert lazy.counters[C_EDGES] < 0.7 * eager.counters[C_EDGES]


def test_a_leaf_is_expanded_after_expand_visits() -> None:
    s = GO_POSITIONS["9x9 fight"]
    trees = {}
    for e in (1, 3):
        u = CompiledUCT(UCTConfig(rave=True, c=0.0, expand_visits=e))
        u.search(s.clone(), None, Budget(playouts=600), SplitMix(4))
        trees[e] = u
    assert trees[3].counters[C_EDGES] < 0.6 * trees[1].counters[C_EDGES]
    T = trees[3]._T
    assert T is not None
    count, e_N, e_N0, e_child = T[1], T[6], T[8], T[11]
    ne = int(trees[3].counters[C_EDGES])
    into = {int(e_child[e]): e for e in range(ne) if e_child[e] >= 0}
    expanded = [v for v in into if count[v] >= 0]
    assert expanded  # the tree grew below the root ...
    for v in expanded:  # ... and only below moves with three visits
        assert e_N[into[v]] - e_N0[into[v]] >= 3


def test_grandfather_prior_in_the_lazy_tree() -> None:
    # without priors the only pseudo-visits are the grandfather's: some edge below the root
    # has some, and never more than the cap
    cfg = UCTConfig(rave=True, c=0.0, priors=False, grandfather=4.0)
    u = CompiledUCT(cfg)
    u.search(NimN(15, 3, 2), None, Budget(playouts=500), SplitMix(2))
    T = u._T
    assert T is not None
    ne = int(u.counters[C_EDGES])
    N0 = T[8][:ne]
    assert N0.max() > 0
    assert N0.max() <= 4.0
    root_edges = slice(int(T[0][0]), int(T[0][0]) + int(T[1][0]))
    assert not N0[root_edges].any()


def test_tree_reuse_matches_the_reference() -> None:
    s = GO_POSITIONS["7x7 opening"]
    cfg = CONFIGS["rave"]
    py, cu = UCT(cfg), CompiledUCT(cfg, eager=True)
    ra, rb = SplitMix(5), SplitMix(5)
    a = py.search(s.clone(), None, Budget(playouts=500), ra)
    b = cu.search(s.clone(), None, Budget(playouts=500), rb)
    assert_same(a, b)
    s2 = s.clone()
    s2.play(a.move)
    reply = max(stats(a), key=lambda m: stats(a)[m][0])  # any move below the root works
    s2.play(s2.legal_moves()[0] if reply == a.move else s2.legal_moves()[1])
    a2 = py.search(s2.clone(), None, Budget(playouts=300), ra)
    b2 = cu.search(s2.clone(), None, Budget(playouts=300), rb)
    assert a2.info["reused_visits"] == b2.info["reused_visits"]
    assert_same(a2, b2)


def test_tree_reuse_keeps_the_subtree() -> None:
    s = NimN(15, 3, 2)
    u = CompiledUCT(CONFIGS["rave"])
    r1 = u.search(s.clone(), None, Budget(playouts=800), SplitMix(1))
    s.play(r1.move)
    s.play(1)
    r2 = u.search(s.clone(), None, Budget(playouts=10), SplitMix(2))
    assert r2.info["reused_visits"] > 10
    # what was kept is exactly the subtree: its visits are in the root's edges
    assert sum(r2.visits) == r2.info["reused_visits"] + 10
    fresh = CompiledUCT(CONFIGS["rave"]).search(s.clone(), None, Budget(playouts=10),
                                                SplitMix(2))
    assert fresh.info["reused_visits"] == 0 and sum(fresh.visits) == 10
    # no reuse when it is off
    off = CompiledUCT(UCTConfig(rave=True, c=0.0, reuse=False))
    off.search(NimN(15, 3, 2), None, Budget(playouts=300), SplitMix(1))
    r3 = off.search(s.clone(), None, Budget(playouts=10), SplitMix(2))
    assert r3.info["reused_visits"] == 0


def test_a_visits_budget_counts_the_kept_subtree() -> None:
    """Budget(visits=V): in both trees the root's visits, the kept subtree's included, reach
    V (as Pachi's `-t =V` counts), and a playout budget beside it is still a cap."""
    for make in (lambda: UCT(CONFIGS["rave"]), lambda: CompiledUCT(CONFIGS["rave"])):
        u = make()
        s = NimN(15, 3, 2)
        r1 = u.search(s.clone(), None, Budget(visits=800), SplitMix(1))
        assert r1.playouts == 800 and r1.info["reused_visits"] == 0
        s.play(r1.move)
        s.play(1)
        r2 = u.search(s.clone(), None, Budget(visits=800), SplitMix(2))
        kept = r2.info["reused_visits"]
        assert 10 < kept < 790
        assert r2.playouts == 800 - kept and sum(r2.visits) == 800
        r3 = u.search(s.clone(), None, Budget(visits=10**6, playouts=50), SplitMix(3))
        assert r3.playouts == 50
        # a kept subtree of more than the visits: one playout still runs
        r4 = u.search(s.clone(), None, Budget(visits=5), SplitMix(4))
        assert r4.playouts == 1 and r4.info["reused_visits"] > 5


def test_reuse_compacts_the_pools() -> None:
    s = GoPosition(GoState(7, 7.0))
    u = CompiledUCT(CONFIGS["rave"])
    for _ in range(6):
        r = u.search(s.clone(), None, Budget(playouts=300), SplitMix(len(s.state.history)))
        s.play(r.move)
        before = int(u.counters[C_NODES])
        r = u.search(s.clone(), None, Budget(playouts=1), SplitMix(99))
        # the reroot kept only the subtree below the move (and the one playout added a node)
        assert r.info["reused_visits"] > 0
        assert int(u.counters[C_NODES]) <= before - 300 // 4


def test_full_pools_go_on_without_expanding() -> None:
    s = GO_POSITIONS["9x9 fight"]
    small = UCTConfig(rave=True, c=0.0, tree_mb=tree_bytes(1024, 70_000) / 1e6)
    r = CompiledUCT(small).search(s.clone(), None, Budget(playouts=3000), SplitMix(1))
    assert r.playouts == 3000
    assert sum(r.visits) == 3000
    assert r.info["pool_full"] > 0
    assert r.move in s.legal_moves()
    with pytest.raises(MemoryError, match="tree_mb"):
        CompiledUCT(UCTConfig(tree_mb=1e-4)).search(s.clone(), None, Budget(playouts=5),
                                                    SplitMix(1))


def test_the_pools_grow() -> None:
    u = CompiledUCT(CONFIGS["rave"])
    r = u.search(GoPosition(GoState(9, 7.0)), None, Budget(playouts=3000), SplitMix(3))
    assert r.info["nodes"] == 3001 and r.info["pool_full"] == 0
    assert u._T is not None and len(u._T[0]) >= 3001


def test_no_growth_that_the_time_left_cannot_pay_for() -> None:
    # doubling a large pool took 100-300 ms on a loaded machine: done in a search's last
    # moments it overran a 1 s move by that much, so with too little time left the search
    # goes on without expanding and the next search grows
    s = GoPosition(GoState(9, 7.0))
    u = CompiledUCT(CONFIGS["rave"])
    u.grow_seconds_per_mb = 1e6  # growing would take longer than the 1e4 s budget
    r = u.search(s.clone(), None, Budget(playouts=3000, seconds=1e4), SplitMix(3))
    assert r.playouts == 3000 and r.info["grows_deferred"] == 1 and r.info["pool_full"] > 0
    size = u.pool_bytes()
    u.grow_seconds_per_mb = 0.0
    r = u.search(s.clone(), None, Budget(playouts=3000, seconds=1e4), SplitMix(4))
    assert r.info["grows_deferred"] == 0 and u.pool_bytes() > size
    assert u.grow_seconds_per_mb > 0.0  # measured on the way
    # a playout budget has no deadline: the pools grow whatever the rate
    u = CompiledUCT(CONFIGS["rave"])
    u.grow_seconds_per_mb = 1e6
    r = u.search(s.clone(), None, Budget(playouts=3000), SplitMix(3))
    assert r.info["grows_deferred"] == 0 and r.info["pool_full"] == 0


class FakeClock:
    def __init__(self, step: float) -> None:
        self.t = 0.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def test_time_budget_is_checked_between_batches() -> None:
    # a clock that moves 10 ms per reading: batch sizes follow the measured rate and the
    # search stops at the first check past the deadline, long before the playout cap
    clock = FakeClock(0.01)
    r = CompiledUCT(CONFIGS["rave"]).search(
        GoPosition(GoState(9, 7.0)), None, Budget(playouts=20_000, seconds=0.05, clock=clock),
        SplitMix(1))
    assert r.playouts == 8 + 8  # 8 first, then what half the time left allows at that rate
    assert clock.t == pytest.approx(0.07)


class WorkClock:
    """A clock on which a search's iterations take ``1 / rate`` s each (and nothing else takes
    time): a time budget then holds a fixed number of iterations, whatever the machine."""

    def __init__(self, search: CompiledUCT, rate: float) -> None:
        self.search = search
        self.rate = rate
        self.t = 0.0
        self.seen = 0

    def __call__(self) -> float:
        n = int(self.search.counters[C_ITER])  # this search's iterations so far
        if n < self.seen:  # a new search started counting
            self.seen = 0
        self.t += (n - self.seen) / self.rate
        self.seen = n
        return self.t


# growing copies the pools: at 10 ms per MB (a slow machine), doubling a pool that holds 25 MB
# needs half a second left, so a pool that grows by doubling stops growing half-way
SLOW_GROWTH = 0.01


def timed_moves(u: CompiledUCT, s: Any, rate: float, seconds: float, moves: int,
                seed: int) -> list[SearchResult]:
    """``moves`` searches of ``seconds`` on a WorkClock, each followed by its move and the
    opponent's most visited reply in the tree (so the tree is reused)."""
    clock = WorkClock(u, rate)
    out = []
    for i in range(moves):
        r = u.search(s.clone(), None, Budget(seconds=seconds, clock=clock), SplitMix(seed + i))
        out.append(r)
        s.play(r.move)
        if s.is_terminal():
            break
        s.play(s.legal_moves()[0])
    return out


def test_a_timed_go_move_never_finds_the_pool_full() -> None:
    u = CompiledUCT(CONFIGS["rave"])
    u.grow_seconds_per_mb = SLOW_GROWTH
    (r,) = timed_moves(u, GoPosition(GoState(9, 7.0)), 10_000, 1.0, 1, 1)
    assert 9_900 <= r.playouts <= 10_100
    assert r.info["nodes"] > 1024 * 8  # far past the first pool
    assert r.info["pool_full"] == 0 and r.info["grows_deferred"] == 0
    # the pools were sized once from the rate of the first batch, not doubled on the way
    assert u._T is not None and len(u._T[0]) >= 1.4 * r.playouts


def test_a_timed_blokus_move_never_finds_the_pool_full() -> None:
    u = CompiledUCT(CONFIGS["rave"])
    u.grow_seconds_per_mb = SLOW_GROWTH
    (r,) = timed_moves(u, blokus_position(3, 4), 4_000, 1.0, 1, 2)
    assert r.info["nodes"] > 1024 * 2
    assert r.info["pool_full"] == 0 and r.info["grows_deferred"] == 0


def test_timed_moves_with_tree_reuse_never_find_the_pool_full() -> None:
    u = CompiledUCT(CONFIGS["rave"])
    u.grow_seconds_per_mb = SLOW_GROWTH
    sizes = []
    for r in timed_moves(u, GoPosition(GoState(9, 7.0)), 5_000, 1.0, 5, 3):
        assert r.info["pool_full"] == 0 and r.info["grows_deferred"] == 0
        sizes.append(r.info["tree_mb"])
    assert sizes[0] > 0 and all(a <= b for a, b in zip(sizes, sizes[1:], strict=False))
    assert u.seconds_per_iter == pytest.approx(1 / 5_000, rel=0.01)


def test_the_pools_are_sized_before_the_search_from_the_measured_rate() -> None:
    s = GoPosition(GoState(9, 7.0))
    u = CompiledUCT(CONFIGS["rave"])
    timed_moves(u, s.clone(), 5_000, 0.2, 1, 4)
    assert u.seconds_per_iter == pytest.approx(1 / 5_000, rel=0.01)
    assert u.edges_per_iter is not None and u.edges_per_iter > 10
    u.reset()  # a new game: nothing kept, the rates stay
    clock = WorkClock(u, 5_000)
    before_any_iteration = []

    def reading() -> float:
        if u.counters[C_ITER] == 0 and u._T is not None:
            before_any_iteration.append(len(u._T[0]))
        return clock()

    r = u.search(s.clone(), None, Budget(seconds=2.0, clock=reading), SplitMix(5))
    assert 9_900 <= r.playouts <= 10_100 and r.info["pool_full"] == 0
    assert max(before_any_iteration) >= 1.5 * 10_000  # room for 2 s at the measured rate


def test_a_timed_search_at_a_small_cap_degrades_without_failing() -> None:
    s = GO_POSITIONS["9x9 fight"]
    cap = tree_bytes(2048, 100_000)
    u = CompiledUCT(UCTConfig(rave=True, c=0.0, tree_mb=cap / 1e6))
    rs = timed_moves(u, s.clone(), 5_000, 1.0, 2, 6)
    for r in rs:
        assert 4_900 <= r.playouts <= 5_100 and sum(r.visits) >= r.playouts
        assert r.info["pool_full"] > 0 and r.info["grows_deferred"] == 0
        assert u.pool_bytes() <= cap
    assert u.pool_bytes() > 0.95 * cap  # the pools take all the cap allows


def test_errors() -> None:
    with pytest.raises(TypeError, match="tree_game"):
        CompiledUCT().search(Nim(5), None, Budget(playouts=5), SplitMix(1))
    with pytest.raises(ValueError, match="over"):
        CompiledUCT().search(NimN(0), None, Budget(playouts=5), SplitMix(1))


def test_generator_seeds_are_reproducible() -> None:
    s = GO_POSITIONS["7x7 opening"]
    a = CompiledUCT(CONFIGS["rave"]).search(s, None, Budget(playouts=200),
                                            np.random.default_rng(3))
    b = CompiledUCT(CONFIGS["rave"]).search(s, None, Budget(playouts=200),
                                            np.random.default_rng(3))
    assert stats(a) == stats(b)


def test_many_seeds_on_nim() -> None:
    # the losing heaps (multiples of max_take + 1) for two players: the search finds the win
    for heap, seed in itertools.product((5, 6, 7, 9, 10, 11), range(2)):
        r = CompiledUCT(CONFIGS["ucb"]).search(NimN(heap, 3, 2), None,
                                               Budget(playouts=2000), SplitMix(seed))
        assert (heap - r.move) % 4 == 0
