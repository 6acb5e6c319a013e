"""The UCT move generator's Go decisions: passing only when Tromp–Taylor-safe, cleanup of
dead stones, resignation, determinism of reg_genmove."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec
import numpy as np
import pytest

from clients.config import ConfigError, load_config
from clients.gtp.board import Board
from clients.gtp.config import GtpConfig, load_gtp_config
from clients.gtp.dynkomi import DynamicKomi, Side
from clients.gtp.engine import GtpEngine, MoveRequest
from clients.gtp.player import (
    SearchPlayer,
    make_core,
    search_position,
    uct_config,
    unclear,
)
from games.go import PASS, GoState, vertex_to_point
from protocols.gtp import format_vertex
from search.budget import Budget
from search.result import SearchResult


def engine(**cfg: object) -> GtpEngine:
    settings: dict[str, object] = {"default_size": 5, "default_komi": 0.5, "warmup": False,
                                   "playouts": 200, **cfg}
    config = GtpConfig(**settings)  # type: ignore[arg-type]
    return GtpEngine(config, SearchPlayer(config))


def talk(e: GtpEngine, script: str) -> bytes:
    return b"".join(e.handle_line(ln)[0] for ln in script.strip().split("\n"))


WALLS = "\n".join(f"play b b{r}\nplay w d{r}" for r in range(1, 6))


def test_pass_at_once_when_the_opponent_passed_and_we_win_as_is() -> None:
    e = engine()
    talk(e, WALLS + "\nplay b pass")
    assert talk(e, "genmove w") == b"= pass\n\n"  # W+0.5 by Tromp-Taylor


def test_no_pass_while_losing_as_the_board_stands() -> None:
    e = engine()
    talk(e, WALLS + "\nplay w pass")
    assert e.board.tt_margin(0) < 0
    assert talk(e, "genmove b") != b"= pass\n\n"


DEAD_WHITE = "\n".join(f"play b c{r}" for r in range(1, 6)) + "\nplay w a3"


def test_instead_of_pass_in_cleanup_mode() -> None:
    e = engine()
    talk(e, DEAD_WHITE)
    board = e.board.copy()
    player = SearchPlayer(e.config)
    req = MoveRequest(board, 0, None, cleanup=True, deterministic=False)
    pass_pt, a4, a3 = -1, board.point_of((0, 3)), board.point_of((0, 2))
    # the dead white stone at A3 keeps black from passing even though black wins as is
    assert board.tt_margin(0) > 0 and board.dead_opponent_stones(0) == [(0, 2)]
    assert player._instead_of_pass(req, [pass_pt, a4], [50, 3], board.tt_margin(0)) == (0, 3)
    relaxed = MoveRequest(board, 0, None, cleanup=False, deterministic=False)
    assert player._instead_of_pass(relaxed, [pass_pt, a4], [50, 3],
                                   board.tt_margin(0)) is None
    assert a3 != a4


@pytest.mark.parametrize("command", ["kgs-genmove_cleanup", "genmove"])
def test_cleanup_captures_the_dead_stone_before_passing(command: str) -> None:
    e = engine(seed=3)  # cleanup=true: genmove too must not pass past the dead stone
    talk(e, DEAD_WHITE)
    for _ in range(8):
        answer = talk(e, f"{command} b")
        if answer == b"= pass\n\n":
            break
        talk(e, "play w pass")
    assert (0, 2) not in e.board.stones()  # the white stone was captured
    assert e.board.tt_margin(0) > 0


# A game of the engine against GNU Go level 10 (bench/go_strength.py, 27 November), up to
# white's move 42: the capturing race turns on F3, which a fresh search gives almost all its
# visits (and about 0.97); the three black stones at D7, E7 and D8 look dead, and the engine
# used to capture them at D6 instead, never searched, because it was "clearly winning". Black
# then took F3 and won.
RACE = ("G7 D5 C3 G5 D7 D3 D2 C4 E3 D4 C2 G3 B4 B5 A3 B7 F2 C8 D8 H6 H7 G2 E4 E5 H9 D9 J8 E8 "
        "E7 F8 G8 F7 G6 F6 H5 F4 H4 E6 H3 C7 G4")


def test_the_search_move_stands_before_dead_stones_in_play() -> None:
    e = engine(default_size=9, default_komi=7.0, playouts=2000, seed=1)
    talk(e, "\n".join(f"play {'bw'[i % 2]} {m}" for i, m in enumerate(RACE.split())))
    assert e.board.dead_opponent_stones(1)  # the stones the old rule went for
    assert talk(e, "genmove w") == b"= F3\n\n"


def test_resigns_only_when_lost_and_late_enough() -> None:
    e = engine(resign_threshold=0.5, resign_min_playouts=10, resign_after=0.0)
    # black has almost nothing: white walls on B and D, black one stone
    talk(e, "\n".join(f"play w b{r}\nplay w d{r}" for r in range(1, 6)) + "\nplay b e3")
    assert talk(e, "genmove b") == b"= resign\n\n"
    e2 = engine(resign_threshold=0.5, resign_min_playouts=10, resign_after=0.9)
    talk(e2, "\n".join(f"play w b{r}\nplay w d{r}" for r in range(1, 6)) + "\nplay b e3")
    assert talk(e2, "genmove b") != b"= resign\n\n"  # too early in the game


def test_reg_genmove_is_deterministic_and_does_not_play() -> None:
    outs = []
    for _ in range(2):
        e = engine(default_size=9)
        talk(e, "boardsize 9\nplay b e5\nplay w c3")
        outs.append(talk(e, "reg_genmove b\nreg_genmove b"))
        assert len(e.board.moves) == 2
    assert outs[0] == outs[1]
    first, second = outs[0].split(b"\n\n")[:2]
    assert first == second  # no tree reuse between reg_genmove calls


def test_tree_reuse_across_moves() -> None:
    e = engine(default_size=9)
    talk(e, "boardsize 9\ngenmove b\ngenmove w")  # black's chosen move has the most visits
    player = e.generator
    assert isinstance(player, SearchPlayer)
    assert e.last_stats["playouts"] == 200
    assert sum(e.last_stats["visits"]) > 200  # the visits below black's move were kept
    talk(e, "genmove b")
    assert sum(e.last_stats["visits"]) > 200  # and those below white's


def test_prior_scale_reaches_the_search() -> None:
    counts = []
    for scale in (1.0, 4.0):
        e = engine(default_size=9, prior_scale=scale, reuse=False, learned_priors=False)
        talk(e, "boardsize 9\nplay b e5\ngenmove w")
        player = e.generator
        assert isinstance(player, SearchPlayer)
        counts.append(player.core.root_edges()["N0"])
    assert np.allclose(counts[1], 4.0 * counts[0])
    with pytest.raises(ConfigError, match="prior_scale"):
        load_config(GtpConfig, overrides=["prior_scale=0"])


def test_ladder_priors_reach_the_search() -> None:
    """With ladder_priors, white's escape at E4 into a ladder starts with 30 pseudo-visits
    more (the penalty) at the root under the heuristic priors; v1 has it off."""
    script = ("boardsize 9\nplay b d5\nplay w e5\nplay b e6\nplay w pass\nplay b f4\n"
              "play w pass\nplay b f5\ngenmove w")
    n0 = []
    for on in (False, True):
        e = engine(default_size=9, ladder_priors=on, reuse=False, playouts=50,
                   learned_priors=False)
        talk(e, script)
        player = e.generator
        assert isinstance(player, SearchPlayer)
        edges = player.core.root_edges()
        n0.append(float(edges["N0"][list(edges["move"]).index(vertex_to_point("E4", 9))]))
    assert n0[1] == n0[0] + 30.0
    assert load_gtp_config(overrides=["preset=v1", "ladder_priors=true"]).ladder_priors
    assert not load_gtp_config(overrides=["preset=v1"]).ladder_priors


def test_learned_priors_are_the_default_and_v1_has_the_heuristic_ones() -> None:
    """By default every point at the root starts with the prior_visits pseudo-visits of the
    bundled learned priors; preset=v1 (and learned_priors=false) keeps the heuristic
    priors, whose pseudo-visits differ from move to move."""
    assert load_gtp_config().learned_priors
    assert not load_gtp_config(overrides=["preset=v1"]).learned_priors
    e = engine(default_size=9, reuse=False, playouts=50)
    talk(e, "boardsize 9\nplay b e5\ngenmove w")
    player = e.generator
    assert isinstance(player, SearchPlayer)
    edges = player.core.root_edges()
    points = np.asarray(edges["move"]) != PASS
    visits = load_gtp_config().prior_visits
    assert np.allclose(np.asarray(edges["N0"])[points], visits)
    heuristic = engine(default_size=9, reuse=False, playouts=50, learned_priors=False)
    talk(heuristic, "boardsize 9\nplay b e5\ngenmove w")
    assert isinstance(heuristic.generator, SearchPlayer)
    assert not np.allclose(np.asarray(heuristic.generator.core.root_edges()["N0"])[points],
                           visits)


def test_board_copy_is_independent() -> None:
    b = Board(9, 7.0)
    c = b.copy()
    c.play(0, (4, 4))
    assert b.moves == [] and c.moves == [(0, (4, 4))]


def test_13x13_and_19x19_games_work() -> None:
    for size in (13, 19):
        e = engine(default_size=size, playouts=30)
        out = talk(e, f"boardsize {size}\nkomi 7.5\nfixed_handicap 4\ngenmove w\ngenmove b")
        answers = out.decode().split("\n\n")[:5]
        assert answers[:2] == ["= ", "= "] and len(answers[2].split()) == 5
        assert all(a.startswith("= ") and a != "= pass" for a in answers[3:])
        assert len(e.board.moves) == 2


@pytest.fixture
def two_workers() -> Iterator[tuple[GtpEngine, SearchPlayer]]:
    e = engine(default_size=9, workers=2)
    player = e.generator
    assert isinstance(player, SearchPlayer)
    try:
        yield e, player
    finally:
        player.close()


@pytest.mark.integration
def test_root_parallel_workers_search_and_stop(two_workers: tuple[GtpEngine, SearchPlayer]
                                               ) -> None:
    e, player = two_workers
    first = talk(e, "boardsize 9\ngenmove b").decode()
    assert first.startswith("= \n\n= ") and first.strip() != "= pass"
    assert e.last_stats["playouts"] == 200  # 100 in each of the two workers
    assert player.pool is not None and len(player.pool.procs) == 2
    game = player.game
    talk(e, "clear_board")
    assert player.game == game + 1  # the workers start new trees for the new game
    assert talk(e, "genmove w").startswith(b"= ")
    # reg_genmove stays in this process and deterministic
    assert talk(e, "reg_genmove b") == talk(e, "reg_genmove b")
    procs = player.pool.procs
    talk(e, "corvid-param workers 1")
    assert player.pool is None and not any(p.is_alive() for p in procs)
    assert talk(e, "genmove b").startswith(b"= ")
    assert e.last_stats["playouts"] == 200


@pytest.mark.integration
def test_the_engine_searches_alone_when_its_workers_die(
        two_workers: tuple[GtpEngine, SearchPlayer]) -> None:
    e, player = two_workers
    talk(e, "boardsize 9\ngenmove b")
    assert player.pool is not None
    for p in player.pool.procs:
        p.kill()
        p.join(timeout=5)
    answer = talk(e, "genmove w")
    assert answer.startswith(b"= ") and answer != b"= pass\n\n"
    assert player.workers_failed and player.pool is None
    assert e.last_stats["playouts"] == 200  # the whole budget, searched here
    talk(e, "corvid-param workers 3")  # setting workers again tries again
    assert not player.workers_failed


@pytest.mark.parametrize("settings", [{"core": "flat"}, {"core": "abucb", "abucb_width": 4},
                                      {"compiled": False}])
def test_every_go_core_plays(settings: dict[str, object]) -> None:
    from search.abucb import ABUCB
    from search.flat import FlatMC
    from search.uct import UCT

    e = engine(default_size=7, playouts=120, **settings)
    out = talk(e, "boardsize 7\nclear_board\ngenmove b\ngenmove w").decode()
    answers = out.split("\n\n")
    assert answers[2].startswith("= ") and answers[3].startswith("= ")
    assert len(e.board.moves) == 2
    want = {"flat": FlatMC, "abucb": ABUCB}.get(str(settings.get("core")), UCT)
    assert isinstance(e.generator, SearchPlayer) and isinstance(e.generator.core, want)


def test_the_compiled_tree_is_the_default() -> None:
    from search.ctree import CompiledUCT

    player = engine().generator
    assert isinstance(player, SearchPlayer) and isinstance(player.core, CompiledUCT)


def test_a_core_that_cannot_play_go_is_refused() -> None:
    with pytest.raises(ConfigError, match="'alphabeta' cannot play Go.*uct, flat, abucb"):
        load_config(GtpConfig, overrides=["core=alphabeta"])
    e = engine()
    assert talk(e, "corvid-param core greedy").startswith(b"? ")
    assert e.config.core == "uct"


def test_last_good_reply_plays_and_needs_the_compiled_tree() -> None:
    e = engine(default_size=7, playouts=120, lgrf=2)
    out = talk(e, "boardsize 7\nclear_board\ngenmove b\ngenmove w").decode()
    assert [a[:2] for a in out.split("\n\n")[2:4]] == ["= ", "= "]
    for bad in (["lgrf=1", "compiled=false"], ["lgrf=2", "core=flat"]):
        with pytest.raises(ConfigError, match="needs the compiled tree"):
            load_config(GtpConfig, overrides=bad)


def test_last_good_reply_is_on_by_default_where_it_can_run() -> None:
    assert load_gtp_config().lgrf_level == 2
    for other in (["core=flat"], ["compiled=false"], ["core=abucb"]):
        cfg = load_gtp_config(overrides=other)  # auto: off there, not an error
        assert cfg.lgrf == "auto" and cfg.lgrf_level == 0
    assert load_gtp_config(overrides=["lgrf=3"]).lgrf_level == 3
    assert load_gtp_config(overrides=["lgrf=0"]).lgrf_level == 0


def test_preset_v1_is_the_first_release_engine_beneath_the_settings_given() -> None:
    v1 = load_gtp_config(overrides=["preset=v1"])
    assert (v1.compiled, v1.lgrf_level, v1.score_weight, v1.playout_policy) == (False, 0, 0, 2)
    assert not uct_config(v1).rave_mse
    assert uct_config(load_gtp_config(overrides=["rave_mse=true"])).rave_mse
    assert not uct_config(v1).rave_child
    assert uct_config(load_gtp_config(overrides=["rave_child=true"])).rave_child
    with pytest.raises(ConfigError, match="rave_child"):
        load_gtp_config(overrides=["rave_child=true", "rave_mse=true"])
    assert not uct_config(v1).widening
    pw = uct_config(load_gtp_config(overrides=["widening=true", "widening_initial=3",
                                               "widening_a=20", "widening_b=1.2"]))
    assert (pw.widening, pw.widening_initial, pw.widening_a, pw.widening_b) == (True, 3, 20, 1.2)
    with pytest.raises(ConfigError, match="widening_a"):
        load_gtp_config(overrides=["widening_a=0"])
    mine = load_gtp_config(overrides=["preset=v1", "compiled=true", "playouts=500"])
    assert (mine.compiled, mine.lgrf_level, mine.playouts) == (True, 0, 500)
    with pytest.raises(ConfigError, match="preset=v9: unknown preset; known: v1, v2, v3, v4"):
        load_gtp_config(overrides=["preset=v9"])
    e = engine()
    assert talk(e, "corvid-param preset v1").startswith(b"? invalid parameter: a preset")


def test_seconds_is_the_time_per_move_and_a_clock_takes_over() -> None:
    """``seconds`` alone: that time per move and no playout cap; a clock's time for the
    move (time_settings, time_left) takes over from it; ``playouts`` caps either."""
    timed = SearchPlayer(load_gtp_config(overrides=["seconds=2"]))
    assert (timed._budget(None).playouts, timed._budget(None).seconds) == (None, 2.0)
    assert timed._budget(0.5).seconds == 0.5 and timed._budget(5.0).seconds == 5.0
    capped = SearchPlayer(load_gtp_config(overrides=["seconds=2", "playouts=400"]))
    assert (capped._budget(None).playouts, capped._budget(None).seconds) == (400, 2.0)
    default = SearchPlayer(load_gtp_config())
    assert (default._budget(None).playouts, default._budget(None).seconds) == (3000, None)
    assert (default._budget(1.0).playouts, default._budget(1.0).seconds) == (3000, 1.0)


def test_visits_alone_cap_the_root_visits_with_the_kept_subtree() -> None:
    """``visits`` alone: no playout cap beside it (as ``seconds`` alone); the search after
    the expected reply keeps that subtree and tops the root up to the visits."""
    player = SearchPlayer(load_gtp_config(overrides=["visits=600"]))
    assert player.config.playouts == 0
    b = player._budget(None)
    assert (b.visits, b.playouts, b.seconds) == (600, 600, None)
    both = SearchPlayer(load_gtp_config(overrides=["visits=600", "playouts=100"]))
    assert (both._budget(None).visits, both._budget(None).playouts) == (600, 100)
    core = make_core(player.config, 9)
    board = GoState(9, komi=7.0)
    first = core.search(search_position(board, player.config), 0, b, np.random.default_rng(1))
    assert first.playouts == 600
    for move in core.principal_variation(first.move, 2):
        board.play(move)
    second = core.search(search_position(board, player.config), 0, b,
                         np.random.default_rng(2))
    kept = second.info["reused_visits"]
    assert 0 < kept < 600 and second.playouts == 600 - kept


def test_a_setting_of_another_core_is_refused() -> None:
    with pytest.raises(ConfigError, match="^abucb_depth=3 with core=uct: abucb_depth is a "
                                          "setting of core abucb$"):
        load_gtp_config(overrides=["abucb_depth=3"])
    with pytest.raises(ConfigError, match="^rave=false with core=flat: rave is a setting of "
                                          "core uct$"):
        load_gtp_config(overrides=["core=flat", "rave=false"])
    assert load_gtp_config(overrides=["core=abucb", "abucb_depth=3"]).abucb_depth == 3
    with pytest.raises(ConfigError, match="^abucb_depth=5: abucb_depth must be an integer "
                                          ">= 1 and <= 4$"):
        load_gtp_config(overrides=["core=abucb", "abucb_depth=5"])


# black walls on C, white on D: black's area is columns A-C (15), white's D-E (10)
LEAD_5 = "\n".join(f"play b c{r}\nplay w d{r}" for r in range(1, 6))


def test_komi_margin_searches_for_a_lead_while_it_is_within_reach() -> None:
    e = engine(komi_margin=2)
    talk(e, LEAD_5)
    assert e.board.tt_margin(0) == 4.5
    talk(e, "genmove b")
    assert e.last_stats["komi_margin"] == 2  # a lead of 2.5 more is still there
    assert e.last_stats["value"] > 0.8


def test_komi_margin_out_of_reach_searches_for_the_game_itself() -> None:
    # a lead of 10 more is out of reach: every playout of the first search loses, so the
    # engine would resign on it; the second search, at the game's komi, wins
    e = engine(komi_margin=10, resign_threshold=0.5, resign_min_playouts=10, resign_after=0.0)
    talk(e, LEAD_5)
    assert talk(e, "genmove b") != b"= resign\n\n"
    assert e.last_stats["komi_margin"] == 0
    assert e.last_stats["value"] > 0.75
    plain = engine()
    talk(plain, LEAD_5 + "\ngenmove b")
    assert plain.last_stats["komi_margin"] == 0
    with pytest.raises(ConfigError, match="komi_margin"):
        load_config(GtpConfig, overrides=["komi_margin=-1"])


def test_dynamic_komi_steps_up_while_winning_and_the_ratchet_holds_it_down() -> None:
    dk = DynamicKomi(step=2, high=0.8, low=0.6, cap=5)
    assert dk.for_move(0, 10) == 0
    for moves, value, extra in [(10, 0.9, 2), (12, 0.85, 4), (14, 0.95, 5), (16, 0.7, 5),
                                (18, 0.5, 3), (20, 0.9, 3), (22, 0.55, 1), (24, 0.3, 0),
                                (26, 0.2, 0), (28, 0.99, 0)]:
        dk.update(0, value, moves)
        assert dk.for_move(0, moves + 2) == extra, (moves, value)
        assert dk.for_move(1, moves + 2) == 0  # the other colour's is its own
    assert dk.for_move(0, 3) == 0  # fewer moves than before: a new game
    dk.update(0, 0.9, 3)
    assert dk.for_move(0, 5) == 2
    assert dk.may_resign(0) and not dk.may_resign(2)


def test_dynamic_komi_asks_less_of_a_clear_loser_and_comes_back() -> None:
    dk = DynamicKomi(step=2, high=0.8, low=0.6, cap=5, red=0.3)
    for moves, value, extra in [(10, 0.4, 0), (12, 0.2, -2), (14, 0.1, -4), (16, 0.05, -5),
                                (18, 0.4, -5), (20, 0.55, -3), (22, 0.6, -1), (24, 0.7, 0),
                                (26, 0.85, 2), (28, 0.2, 0), (30, 0.2, -2)]:
        dk.update(0, value, moves)
        assert dk.for_move(0, moves + 2) == extra, (moves, value)
    assert not dk.may_resign(-2) and dk.may_resign(-5)
    plain = DynamicKomi(step=2, high=0.8, low=0.6, cap=5)  # red 0: never below the komi
    plain.update(0, 0.01, 10)
    assert plain.for_move(0, 12) == 0


def test_dynamic_komi_asks_a_lead_of_the_search_and_not_of_the_game() -> None:
    settings = {"dynamic_komi": 2, "resign_threshold": 0.5, "resign_min_playouts": 10,
                "resign_after": 0.0, "pass_when_won": False}
    e = engine(**settings)
    talk(e, LEAD_5)  # black leads by 4.5
    talk(e, "genmove b")
    assert e.last_stats["dynamic_komi"] == 0 and e.last_stats["value"] > 0.8
    talk(e, "play w pass\ngenmove b")
    assert e.last_stats["dynamic_komi"] == 2  # the next search asks 2 points more
    talk(e, "clear_board")
    assert not e.generator.dynkomi.sides  # type: ignore[attr-defined]
    # a lead of 10 more is out of reach, so that search's value is below the resigning
    # threshold: it must not resign a game it wins at the game's komi (before black's own
    # moves, which the opponent's passes let grow its lead, could bring 10 more within reach)
    e = engine(**settings)
    talk(e, LEAD_5)
    e.generator.dynkomi.sides[0] = Side(extra=10)  # type: ignore[attr-defined]
    assert talk(e, "genmove b") != b"= resign\n\n"
    assert e.last_stats["dynamic_komi"] == 10 and e.last_stats["value"] < 0.5
    assert e.generator.dynkomi.sides[0].extra == 8  # type: ignore[attr-defined]
    for bad in [["dynamic_komi_low=0.9"], ["dynamic_komi_red=0.45", "dynamic_komi_low=0.4"],
                ["dynamic_komi_red=0.7"]]:
        with pytest.raises(ConfigError, match="dynamic_komi_red|dynamic_komi_low"):
            load_gtp_config(overrides=["dynamic_komi=1", *bad])


def test_board_images_of_a_point() -> None:
    from knowledge.go.patterns import board_images

    assert board_images(4, 4, 9) == {(4, 4)}
    assert board_images(3, 4, 9) == {(3, 4), (5, 4), (4, 3), (4, 5)}
    assert board_images(2, 2, 9) == {(2, 2), (6, 2), (2, 6), (6, 6)}
    assert len(board_images(2, 3, 9)) == 8
    assert board_images(0, 1, 5) == {(0, 1), (1, 0), (4, 1), (1, 4), (0, 3), (3, 0), (4, 3),
                                     (3, 4)}
    assert board_images(0, 1, 4) == {(0, 1), (1, 0), (3, 1), (1, 3), (0, 2), (2, 0), (3, 2),
                                     (2, 3)}  # an even size


def test_black_opens_9x9_from_the_opening_class_only_on_an_empty_board() -> None:
    """opening_9x9: black's first move on an empty 9x9 board is of that point's class; the
    search alone opens at the centre with seed 7 (300 playouts, the priors fitted to GNU Go's
    moves), so the rule overrides it there. Other moves, colours, sizes and handicap boards
    are the search's."""
    beside = {b"= D5\n\n", b"= F5\n\n", b"= E4\n\n", b"= E6\n\n"}
    new_game = "boardsize 9\nkomi 7\nclear_board"
    assert talk(engine(seed=7, playouts=300, opening_9x9="", weights=""),
                new_game + "\ngenmove b").endswith(b"= E5\n\n")
    e = engine(seed=7, playouts=300, weights="")  # the default: D5
    assert talk(e, new_game) == b"= \n\n" * 3 and talk(e, "genmove b") in beside
    assert talk(engine(seed=7, playouts=300, opening_9x9="C3"), new_game + "\ngenmove b"
                ).endswith((b"= C3\n\n", b"= G3\n\n", b"= C7\n\n", b"= G7\n\n"))
    assert talk(engine(seed=7, playouts=300, opening_9x9="E5"), new_game + "\ngenmove b"
                ).endswith(b"= E5\n\n")
    # the search's own: white's first move, black's second, a handicap board, 7x7
    player = SearchPlayer(GtpConfig(opening_9x9="C3"))  # none of the class tried: the lowest
    assert player._opening((4, 4), {"moves": [(4, 4)], "visits": [300]}) == (2, 2)
    assert player._opening((4, 4), {"moves": [(4, 4), (6, 6), (2, 6)],
                                    "visits": [250, 30, 20]}) == (6, 6)
    for script in (new_game + "\nplay b E5\ngenmove w", new_game + "\nplay b E5\nplay w C3\n"
                   "genmove b", new_game + "\nfixed_handicap 2\ngenmove w",
                   "boardsize 7\nclear_board\ngenmove b"):
        a, b = (talk(engine(seed=1, playouts=300, opening_9x9=o), script) for o in ("", "C3"))
        assert a == b


def test_empty_corners_and_their_points() -> None:
    """A corner is empty while no stone lies within size // 3 lines of both its edges; its
    points are the 3-3, 3-4, 4-3 and 4-4 points; small boards have none apart from the
    sides."""
    from knowledge.go.opening import empty_corner_points

    grid = np.zeros((19, 19), dtype=np.int8)
    points = empty_corner_points(grid)
    assert len(points) == 16 and points[:4] == [(2, 2), (2, 3), (3, 2), (3, 3)]
    assert (15, 15) in points and (16, 16) in points and (18 - 3, 3) in points
    grid[3, 15] = 1  # Q4 (row 4, column Q): the lower right corner is taken
    assert (15, 3) not in empty_corner_points(grid) and len(empty_corner_points(grid)) == 12
    grid[12, 12] = 2  # a stone on the seventh line of both edges: no corner's
    assert len(empty_corner_points(grid)) == 12
    grid[13, 2] = 2  # C14: within six lines of the top and the left edge
    assert len(empty_corner_points(grid)) == 8
    assert empty_corner_points(np.zeros((9, 9), dtype=np.int8)) == []


def test_large_boards_open_in_the_empty_corners() -> None:
    """opening_corners=N: on boards from 15x15 up, in the game's first N moves, while a
    corner is empty, the move is one of the empty corners' points (the search's most visited
    of them); off by default, after N moves and on smaller boards the search's own move."""
    new_game = "boardsize 19\nkomi 7\nclear_board"
    corner = {f"{c}{r}" for c in "CDQR" for r in (3, 4, 16, 17)}
    out = talk(engine(seed=3, playouts=300, opening_corners=16),
               new_game + "\nplay b D4\nplay w Q16\nplay b Q4\ngenmove w").decode()
    move = out.split()[-1]
    assert move in {"C16", "C17", "D16", "D17"}, out  # the one empty corner, upper left
    searched = talk(engine(seed=3, playouts=300), new_game + "\ngenmove b").decode()
    assert searched.split()[-1] not in corner  # the search alone opens on a side
    ruled = talk(engine(seed=3, playouts=300, opening_corners=16),
                 new_game + "\ngenmove b").decode()
    assert ruled.split()[-1] in corner
    for script in (new_game + "\nplay b D4\nplay w Q16\ngenmove b",
                   "boardsize 13\nclear_board\ngenmove b"):
        a, b = (talk(engine(seed=1, playouts=300, opening_corners=n), script) for n in (0, 2))
        assert a == b  # the second move of a game with N=2, and 13x13: the search's
    player = SearchPlayer(GtpConfig(opening_corners=16))
    board = Board(19, 7.0)
    assert player._corner(board, (9, 9), {"moves": [(9, 9), (15, 16)],
                                          "visits": [200, 10]}) == (15, 16)
    assert player._corner(board, (9, 9), {"moves": [(9, 9)], "visits": [200]}) == (3, 3)
    assert player._corner(board, (2, 3), {"moves": [(2, 3)], "visits": [200]}) == (2, 3)


def test_opening_9x9_must_be_a_point_of_the_9x9_board() -> None:
    assert load_gtp_config(overrides=["opening_9x9=c4"]).opening_9x9 == "c4"
    assert load_gtp_config(overrides=["opening_9x9="]).opening_9x9 == ""
    for bad in ("K10", "pass", "Z1", "5"):
        with pytest.raises(ConfigError, match="opening_9x9"):
            load_gtp_config(overrides=[f"opening_9x9={bad}"])
    assert load_gtp_config(overrides=["preset=v1"]).opening_9x9 == ""
    assert load_gtp_config().opening_9x9 == "D5"


def test_preset_v8_is_the_default_engine_written_out() -> None:
    """v8, the newest preset, loads to exactly the default settings and names every setting
    of how the engine plays (all but the budget, the time management, the board, the name and
    the start-up), so that a later change of a default leaves it as it is; v7 is the same
    engine with AMAF for every player who made a move; v6 that engine resigning below 0.08;
    v5 that engine with the priors fitted to GNU Go's moves on every board (the files ""
    stands for); v4 that engine without capture reading, expanding every leaf below 15x15 on
    its second visit; v3 that engine expanding every leaf on its second visit, v2 that with
    the 9x9 weights on every board (on 9x9, the file "" stands for)."""
    from clients.gtp.config import PRESETS
    from knowledge.go.weights import weights_path

    assert list(PRESETS)[-1] == "v8"
    v8 = load_gtp_config(overrides=["preset=v8"])
    assert v8 == msgspec.structs.replace(GtpConfig(), preset="v8")
    amaf = {"rave_first_player": False}
    v7 = load_gtp_config(overrides=["preset=v7"])
    assert v7 == msgspec.structs.replace(GtpConfig(), preset="v7", **amaf)
    resigning = {"resign_threshold": 0.08, **amaf}
    v6 = load_gtp_config(overrides=["preset=v6"])
    assert v6 == msgspec.structs.replace(GtpConfig(), preset="v6", **resigning)
    v5 = load_gtp_config(overrides=["preset=v5"])
    assert v5 == msgspec.structs.replace(GtpConfig(), preset="v5", weights="", **resigning)
    v4 = load_gtp_config(overrides=["preset=v4"])
    assert v4 == msgspec.structs.replace(GtpConfig(), preset="v4", read_visits=0.0,
                                         expand_visits_small=1, weights="", **resigning)
    v3 = load_gtp_config(overrides=["preset=v3"])
    assert v3 == msgspec.structs.replace(GtpConfig(), preset="v3", read_visits=0.0,
                                         expand_visits_small=1, expand_visits=1, weights="",
                                         **resigning)
    v2 = load_gtp_config(overrides=["preset=v2"])
    assert v2 == msgspec.structs.replace(GtpConfig(), preset="v2", read_visits=0.0,
                                         expand_visits_small=1, weights="9x9",
                                         expand_visits=1, **resigning)
    assert weights_path("9x9") == weights_path("", 9) != weights_path("", 19)
    # the default's weights: the fit to Pachi's moves below 15x15, the 19x19 file from there
    assert weights_path(v8.weights, 9).name == weights_path(v8.weights, 14).name \
        == "weights-9x9-pachi.npz"
    assert weights_path(v8.weights, 15) == weights_path(v8.weights, 19) == weights_path("", 19)
    not_a_player = {"name", "preset", "playouts", "visits", "seconds", "min_playouts", "seed",
                    "workers", "default_size", "default_komi", "min_size", "max_size",
                    "warmup", "idle_timeout", "analyze_playouts", "ponder"}
    fields = {f.name for f in msgspec.structs.fields(GtpConfig)}
    assert set(PRESETS["v8"]) == set(PRESETS["v2"]) == {k for k in fields - not_a_player
                                  if not k.startswith("time_")}


def test_pondering_grows_the_tree_the_reply_reuses() -> None:
    """The search on the opponent's time is on the tree the reply's search starts from:
    after white's reply, black's search finds far more of its visits already there."""
    reused: dict[bool, int] = {}
    reply = ""
    for ponder in (True, False):
        config = GtpConfig(default_size=9, default_komi=7.0, warmup=False, seed=3,
                           playouts=200, analyze_playouts=200, ponder=ponder)
        e = GtpEngine(config, SearchPlayer(config))
        first = e.handle_line("genmove b")[0]
        if ponder:
            assert e.ponder is not None
            candidates = []
            for _ in range(3):
                candidates = e.ponder.step(0.05)
            reply = format_vertex(candidates[0].vertex)  # the most visited answer
        assert e.handle_line(f"play w {reply}")[0] == b"= \n\n"
        e.handle_line("genmove b")
        reused[ponder] = e.last_stats["reused_visits"]
        assert first.startswith(b"= ")
    assert reused[True] > reused[False] + 100, reused


def test_leaves_are_expanded_later_on_large_boards() -> None:
    """expand_visits=0 (the default) is expand_visits_small (2 by default) below 15x15 and 4
    from 15x15 up, in the core that searches each board; a number given is used on every
    board."""
    from clients.gtp.config import board_expand_visits

    assert [board_expand_visits(n) for n in (9, 13, 14, 15, 19, 25)] == [1, 1, 1, 4, 4, 4]
    assert [board_expand_visits(n, 2) for n in (9, 14, 15)] == [2, 2, 4]
    p = SearchPlayer(GtpConfig())
    assert p.core_for(9).config.expand_visits == 2
    assert SearchPlayer(GtpConfig(expand_visits_small=1)).core_for(9).config.expand_visits == 1
    big = p.core_for(19)
    assert big.config.expand_visits == 4
    assert p.core_for(19) is big  # the same board: the same core and tree
    assert p.core_for(17) is big  # the same settings
    assert p.core_for(13).config.expand_visits == 2
    fixed = SearchPlayer(GtpConfig(expand_visits=2))
    assert fixed.core_for(9) is fixed.core_for(19)
    assert fixed.core.config.expand_visits == 2
    assert uct_config(load_gtp_config(overrides=["preset=v3"]), 19).expand_visits == 1


def _request(seconds: float, clock: bool, extension: float = 0.0) -> MoveRequest:
    """Black's first move on 9x9 with ``seconds`` (longer than the 100 playouts of the
    players below take, the kernels' first load included)."""
    board = Board(9, 7.0)
    return MoveRequest(board, 0, seconds, False, False, clock=clock, extension=extension)


def test_the_search_may_stop_early_only_under_a_game_clock(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """time_early_stop asks the compiled tree to end a move's search once its move cannot
    change, when the move's time is a share of a game clock (the rest goes back to it)."""
    seen: list[bool] = []
    player = SearchPlayer(GtpConfig(warmup=False, playouts=100, time_early_stop=True))
    search = player.core.search

    def spy(*args: object, early_stop: bool = False) -> object:
        seen.append(early_stop)
        return search(*args, early_stop=early_stop)

    monkeypatch.setattr(player.core, "search", spy)
    player(_request(60.0, clock=True))
    player(_request(60.0, clock=False))  # the setting's seconds per move: the whole budget
    assert seen == [True, False]
    plain = SearchPlayer(GtpConfig(warmup=False, playouts=100))
    monkeypatch.setattr(plain.core, "search", spy)
    plain(_request(60.0, clock=True))
    assert seen == [True, False, False]


def test_an_unclear_search_goes_on_for_the_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move whose search ends unclear searches on, on the same tree, for the extension the
    clock allows; a clear one, or one with no extension, does not."""
    from clients.gtp import player as module

    budgets: list[tuple[int | None, float | None]] = []
    player = SearchPlayer(GtpConfig(warmup=False, playouts=100))
    search = player.core.search

    def spy(state: object, seat: object, budget: Budget, *args: object, **kw: object
            ) -> object:
        budgets.append((budget.playouts, budget.seconds))
        return search(state, seat, budget, *args, **kw)

    monkeypatch.setattr(player.core, "search", spy)
    monkeypatch.setattr(module, "unclear", lambda result: True)
    player(_request(60.0, clock=True, extension=2.5))
    assert budgets == [(100, 60.0), (100, 2.5)]
    player(_request(60.0, clock=True))  # no extension
    monkeypatch.setattr(module, "unclear", lambda result: False)
    player(_request(60.0, clock=True, extension=2.5))
    assert budgets[2:] == [(100, 60.0), (100, 60.0)]


def test_unclear_when_a_well_visited_move_has_the_better_mean() -> None:
    def result(visits: list[int], values: list[float]) -> SearchResult:
        return SearchResult(move=0, value=0.5, moves=list(range(len(visits))),
                            visits=visits, values=values, playouts=sum(visits), elapsed=0.0)

    assert not unclear(result([100, 40, 10], [0.6, 0.7, 0.9]))  # the better ones: too few visits
    assert unclear(result([100, 50, 10], [0.6, 0.61, 0.9]))
    assert not unclear(result([100, 90], [0.6, 0.6]))
    assert unclear(result([10, 100, 60], [0.9, 0.5, 0.55]))  # the most visited need not be first
    assert not unclear(result([], []))
