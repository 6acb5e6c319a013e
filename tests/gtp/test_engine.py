"""The GTP engine's commands, exact bytes, with a scripted move generator (no search)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.gtp.analysis import Candidate
from clients.gtp.config import GtpConfig
from clients.gtp.engine import Decision, GtpEngine, MoveRequest
from protocols.gtp import Vertex


class Scripted:
    """A move generator that plays the given vertices in turn (then passes)."""

    def __init__(self, moves: list[Vertex | str] | None = None) -> None:
        self.moves = list(moves or [])
        self.requests: list[MoveRequest] = []
        self.resets = 0
        self.config: GtpConfig | None = None

    def __call__(self, request: MoveRequest) -> Decision:
        self.requests.append(request)
        if not self.moves:
            return Decision(None)
        m = self.moves.pop(0)
        if m == "resign":
            return Decision(None, resign=True)
        assert not isinstance(m, str)
        return Decision(m, stats={"moves": [m], "visits": [10], "values": [0.75],
                                  "value": 0.75, "playouts": 10})

    def reset(self) -> None:
        self.resets += 1

    def configure(self, config: GtpConfig) -> None:
        self.config = config

    def analysis(self, request: MoveRequest, bounded: bool) -> OneStep:
        self.requests.append(request)
        return OneStep([Candidate((2, 2), 10, 0.75, 0.5, [(2, 2), (3, 3)])])


class OneStep:
    """An analysis done after one slice, its candidates scripted."""

    def __init__(self, candidates: list[Candidate]) -> None:
        self.candidates = candidates
        self.steps = 0

    @property
    def done(self) -> bool:
        return self.steps > 0

    def step(self, seconds: float) -> list[Candidate]:
        self.steps += 1
        return self.candidates


def make(moves: list[Vertex | str] | None = None, **cfg: object) -> tuple[GtpEngine, Scripted]:
    gen = Scripted(moves)
    config = GtpConfig(default_size=9, default_komi=7.0, warmup=False, **cfg)  # type: ignore[arg-type]
    return GtpEngine(config, gen), gen


def talk(engine: GtpEngine, script: str) -> bytes:
    out = b""
    for line in script.strip("\n").split("\n"):
        out += engine.handle_line(line)[0]
    return out


def test_required_commands_and_cgos_list() -> None:
    e, _ = make()
    assert talk(e, "protocol_version\nname\nversion") == b"= 2\n\n= corvid\n\n= 0.1.0\n\n"
    listed = talk(e, "list_commands").decode()[2:-2].split("\n")
    required = {"protocol_version", "name", "version", "known_command", "list_commands",
                "quit", "boardsize", "clear_board", "komi", "play", "genmove", "undo",
                "time_settings", "time_left", "kgs-time_settings", "kgs-genmove_cleanup",
                "kgs-game_over", "kgs-rules", "final_score", "final_status_list",
                "fixed_handicap", "place_free_handicap", "set_free_handicap", "loadsgf",
                "reg_genmove", "showboard", "printsgf", "cgos-opponent_name", "cgos-gameover",
                "gogui-analyze_commands", "corvid-param"}
    assert required <= set(listed)
    assert talk(e, "known_command genmove\nknown_command foo") == b"= true\n\n= false\n\n"


def test_boardsize() -> None:
    e, _ = make()
    assert talk(e, "boardsize 4\nboardsize 20\nboardsize x\nboardsize 13") == (
        b"? unacceptable size\n\n? unacceptable size\n\n? syntax error\n\n= \n\n")
    assert e.board.size == 13
    assert talk(e, "boardsize 5\nplay b e5") == b"= \n\n= \n\n"


def test_play_legal_and_illegal() -> None:
    e, _ = make()
    script = """
boardsize 9
1 play b E5
2 play w e5
3 play b K9
4 play b I5
5 play red e4
6 play b
7 play w pass
8 play white D5
9 play black f5
"""
    assert talk(e, script) == (
        b"= \n\n=1 \n\n?2 illegal move\n\n?3 illegal move\n\n?4 syntax error\n\n"
        b"?5 syntax error\n\n?6 syntax error\n\n=7 \n\n=8 \n\n=9 \n\n")
    assert e.board.moves == [(0, (4, 4)), (1, None), (1, (3, 4)), (0, (5, 4))]


def test_suicide_and_superko_are_illegal() -> None:
    e, _ = make()
    # white A1 surrounded by black A2, B1: suicide. Then a simple ko.
    assert talk(e, "play b a2\nplay b b1\nplay w a1") == b"= \n\n= \n\n? illegal move\n\n"
    e2, _ = make()
    ko = "play b d5\nplay b e4\nplay b e6\nplay w e5\nplay w f4\nplay w f6\nplay w g5"
    assert talk(e2, ko) == b"= \n\n" * 7
    # black takes the ko at f5, white may not retake at e5 at once (superko)
    assert talk(e2, "play b f5\nplay w e5") == b"= \n\n? illegal move\n\n"


def test_undo_and_clear_board() -> None:
    e, gen = make()
    assert talk(e, "undo\nplay b c3\nplay w d4\nundo\nundo\nundo") == (
        b"? cannot undo\n\n= \n\n= \n\n= \n\n= \n\n? cannot undo\n\n")
    assert e.board.moves == []
    talk(e, "play b c3\nclear_board")
    assert e.board.moves == [] and gen.resets >= 1


def test_komi_reaches_the_board() -> None:
    e, _ = make()
    assert talk(e, "komi 6.5\nkomi -3\nkomi x") == b"= \n\n= \n\n? syntax error\n\n"
    assert e.board.komi == -3.0
    talk(e, "boardsize 9")
    assert e.board.komi == -3.0  # boardsize keeps the komi


def test_genmove_plays_the_generated_move_for_the_asked_colour() -> None:
    e, gen = make([(2, 2), (6, 6), "resign"])
    out = talk(e, "genmove w\n4 genmove W\ngenmove b\ngenmove b")
    assert out == b"= C3\n\n=4 G7\n\n= resign\n\n= pass\n\n"
    assert e.board.moves == [(1, (2, 2)), (1, (6, 6)), (0, None)]
    assert [r.colour for r in gen.requests] == [1, 1, 0, 0]
    assert gen.requests[0].seconds is None and not gen.requests[0].deterministic


def test_genmove_never_sends_an_illegal_move() -> None:
    e, _ = make([(2, 2)])
    assert talk(e, "play b c3\ngenmove w") == b"= \n\n= pass\n\n"


def test_a_failing_generator_still_answers_a_legal_move() -> None:
    e, gen = make()

    def broken(request: MoveRequest) -> Decision:
        raise RuntimeError("search bug")

    talk(e, "boardsize 5")
    e.generator = broken  # type: ignore[assignment]
    out = talk(e, "genmove b").decode()
    assert out.startswith("= ") and out != "= pass\n\n"
    assert len(e.board.moves) == 1 and e.board.moves[0][1] is not None


def test_reg_genmove_does_not_play_and_cleanup_flag() -> None:
    e, gen = make([(2, 2), (3, 3)], cleanup=False)
    assert talk(e, "reg_genmove b\nkgs-genmove_cleanup b") == b"= C3\n\n= D4\n\n"
    assert e.board.moves == [(0, (3, 3))]
    assert gen.requests[0].deterministic and not gen.requests[0].cleanup
    assert gen.requests[1].cleanup and not gen.requests[1].deterministic


def test_time_commands_reach_the_generator() -> None:
    e, gen = make([(2, 2), (3, 3), (4, 4)], time_reserve=0.0, time_reserve_fraction=0.0,
                  time_overhead=0.0,
                  time_min_moves_left=10)
    script = "time_settings 300 0 0\ntime_left b 100 0\ngenmove b"
    assert talk(e, script) == b"= \n\n= \n\n= C3\n\n"
    assert gen.requests[0].seconds == pytest.approx(100 / 36)
    assert talk(e, "time_settings 0 10 0\ngenmove b") == b"= \n\n= D4\n\n"
    assert gen.requests[0].clock and gen.requests[0].extension == 0.0  # time_extend 0
    assert gen.requests[1].seconds is None  # byo-yomi without stones: no limit
    assert not gen.requests[1].clock
    bad = "time_settings 1 2\ntime_left b x 0\nkgs-time_settings\nkgs-time_settings foo 1"
    assert talk(e, bad) == b"? syntax error\n\n" * 4
    ok = ("kgs-time_settings none\nkgs-time_settings absolute 60\n"
          "kgs-time_settings byoyomi 60 10 5\nkgs-time_settings canadian 60 30 10")
    assert talk(e, ok) == b"= \n\n" * 4
    assert talk(e, "time_left w 20 5\ngenmove w") == b"= \n\n= E5\n\n"
    assert gen.requests[2].seconds == pytest.approx(0.7 * 20 / 5)


def test_the_wait_for_the_warm_up_is_on_the_moves_clock() -> None:
    """A move that waits for the kernels searches that much less: under a clock, and with
    the setting's time per move (``seconds``) in an untimed game."""
    now = [0.0]

    def ready() -> None:
        now[0] += 0.7  # the warm-up ends 0.7 s into the move

    for cfg, script, want in [({"seconds": 2.0}, "genmove b", 1.3),
                              ({}, "time_settings 0 2 1\ngenmove b", 0.7 * 2 - 0.7),
                              ({}, "genmove b", None)]:
        e, gen = make([(2, 2)], time_reserve=0.0, time_reserve_fraction=0.0,
                      time_overhead=0.0, **cfg)
        e.clock, e.ready = (lambda: now[0]), ready
        assert talk(e, script).endswith(b"= C3\n\n")
        got = gen.requests[0].seconds
        assert got == (None if want is None else pytest.approx(want)), (cfg, script)


def test_fixed_and_free_handicap() -> None:
    e, _ = make()
    assert talk(e, "fixed_handicap 2") == b"= C3 G7\n\n"
    assert e.board.to_move == 1
    assert talk(e, "fixed_handicap 2") == b"? board not empty\n\n"
    assert talk(e, "clear_board\nfixed_handicap 10\nfixed_handicap 1") == (
        b"= \n\n? invalid number of stones\n\n? invalid number of stones\n\n")
    assert talk(e, "fixed_handicap 9") == b"= C3 G7 C7 G3 C5 G5 E3 E7 E5\n\n"
    assert talk(e, "clear_board\nset_free_handicap a1 b2 c3") == b"= \n\n= \n\n"
    assert sorted(e.board.stones()) == [(0, 0), (1, 1), (2, 2)]
    assert talk(e, "clear_board\nset_free_handicap a1 a1\nset_free_handicap a1") == (
        b"= \n\n? bad vertex list\n\n? syntax error\n\n")
    out = talk(e, "clear_board\nplace_free_handicap 12").decode()
    assert out.startswith("= \n\n= ")
    assert len(set(out.split("\n\n")[1][2:].split())) == 12
    assert len(e.board.stones()) == 12


def test_final_score_and_status_on_a_settled_board() -> None:
    e, _ = make()
    # 5x5: black owns columns A-B (wall on B), white owns D-E (wall on D), C neutral dame
    script = ["boardsize 5", "komi 0.5"]
    for r in range(1, 6):
        script += [f"play b b{r}", f"play w d{r}"]
    assert talk(e, "\n".join(script)) == b"= \n\n" * 12
    assert talk(e, "final_score") == b"= W+0.5\n\n"
    assert talk(e, "final_status_list dead\nfinal_status_list seki") == b"= \n\n= \n\n"
    alive = talk(e, "final_status_list alive").decode()
    assert sorted(alive[2:-2].split()) == sorted(
        [f"B{r}" for r in range(1, 6)] + [f"D{r}" for r in range(1, 6)])
    assert talk(e, "final_status_list foo") == b"? syntax error\n\n"


def test_final_status_finds_a_dead_stone() -> None:
    e, _ = make()
    script = ["boardsize 5", "komi 0.5"]
    for r in range(1, 6):
        script += [f"play b c{r}"]
    script += ["play w a3"]  # a lone white stone inside black's area
    talk(e, "\n".join(script))
    assert talk(e, "final_status_list dead") == b"= A3\n\n"
    assert talk(e, "final_score") == b"= B+24.5\n\n"


def test_sgf_round_trip(tmp_path: Path) -> None:
    e, _ = make()
    talk(e, "komi 6.5\nfixed_handicap 2\nplay w e5\nplay b d4\nplay w pass")
    sgf = talk(e, "printsgf").decode()
    assert sgf.startswith("= (;") and "AB[" in sgf and "KM[6.5]" in sgf and "W[ee]" in sgf
    f = tmp_path / "g.sgf"
    assert talk(e, f"printsgf {f}") == b"= \n\n"
    e2, _ = make()
    assert talk(e2, f"loadsgf {f}") == b"= \n\n"
    assert e2.board.moves == e.board.moves and e2.board.komi == 6.5
    assert sorted(e2.board.stones()) == sorted(e.board.stones())
    assert talk(e2, f"loadsgf {f} 2") == b"= \n\n"
    assert e2.board.moves == [(1, (4, 4))]
    assert talk(e2, f"loadsgf {tmp_path / 'nope.sgf'}") == b"? cannot load file\n\n"


def test_showboard_is_one_answer() -> None:
    e, _ = make()
    out = talk(e, "boardsize 5\nplay b c3\nshowboard")
    assert out == (b"= \n\n= \n\n= \n 5 . . . . .\n 4 . . . . .\n 3 . . X . .\n 2 . . . . .\n"
                   b" 1 . . . . .\n   A B C D E\n\n")


def test_kgs_and_cgos_extras() -> None:
    e, _ = make()
    out = talk(e, "kgs-rules chinese\nkgs-rules japanese\nkgs-rules foo\nkgs-game_over\n"
               "cgos-opponent_name Bob 1800\ncgos-gameover W+R")
    refused = b"? unsupported rules: foo (corvid plays chinese, aga, new_zealand, " \
        b"tromp-taylor, japanese)\n\n"
    assert out == b"= \n\n= \n\n" + refused + b"= \n\n= \n\n= \n\n"
    assert e.opponent_name == "Bob 1800"
    assert e.board.territory


# 5x5, black's wall on C, white's on D; black plays A1 and A3 inside its area, white a dead
# stone at B4 and one pass: black placed 7 stones, white 6
WALLS = "\n".join(f"play b c{i}\nplay w d{i}" for i in range(1, 6))
TERRITORY_GAME = f"boardsize 5\nkomi 0\n{WALLS}\nplay b a1\nplay w b4\nplay b a3\nplay w pass"


def test_japanese_rules_score_by_territory() -> None:
    """Area: black 15 points (B4 is dead), white 10: B+5. Territory: black 8 empty points
    and 1 prisoner, white 5: B+4, the area score less black's surplus of placed stones."""
    e, _ = make()
    out = talk(e, f"{TERRITORY_GAME}\nfinal_score\nkgs-rules japanese\nfinal_score\n"
               "final_status_list dead\nclear_board\nkgs-rules aga\nfinal_score")
    assert out == b"= \n\n" * 16 + b"= B+5\n\n= \n\n= B+4\n\n= B4\n\n= \n\n= \n\n= 0\n\n"


def test_japanese_rules_move_requests() -> None:
    """Under territory rules the search counts by area with the komi corrected, and dead
    stones are cleaned up only when kgs-genmove_cleanup asks."""
    e, gen = make([(0, 4), (1, 0)])
    talk(e, f"kgs-rules japanese\n{TERRITORY_GAME}\nundo\ngenmove w\nkgs-genmove_cleanup b")
    plain, cleanup = gen.requests
    assert plain.board.search_state(1).komi == 1.0  # black placed 7 stones, white 6
    assert not plain.cleanup and cleanup.cleanup and cleanup.capture_dead
    assert cleanup.board.search_state(0).komi == 0.0  # white's A5 evened the stones
    e2, gen2 = make([(0, 4)])
    talk(e2, "genmove b")
    assert gen2.requests[0].cleanup  # area rules: as under CGOS (cleanup=true)


def test_gogui_analyze_and_overlays() -> None:
    e, _ = make([(2, 2)])
    assert talk(e, "gogui-analyze_commands") == (
        b"= gfx/Visits/corvid-visits %m\ngfx/Win rate/corvid-winrate %m\n"
        b"var/Principal variation/corvid-pv %c\n"
        b"plist/Dead stones/final_status_list dead\nparam/Parameters/corvid-param\n\n")
    assert talk(e, "corvid-pv w") == b"= W C3 B D4\n\n"
    assert talk(e, "corvid-visits b") == b"= LABEL C3 10\nTEXT playouts 10\n\n"
    assert e.board.moves == []  # analysis does not play
    assert talk(e, "corvid-winrate b") == b"= LABEL C3 75\nTEXT win rate 75.0%\n\n"


def test_streamed_analysis_framing() -> None:
    """A streamed answer: its first line, a line of candidates per interval, and a closing
    blank line when the next command comes (answered after it); genmove_analyze ends with
    the move, played."""
    e, gen = make([(2, 2)])
    ticks = iter(range(1000))
    e.clock = lambda: float(next(ticks))  # 1 s a reading: every slice ends an interval
    assert talk(e, "7 lz-analyze b 50") == b"=7 \n"
    assert e.stream is not None and e.stream.interruptible
    assert e.stream_step() == b"info move C3 visits 10 winrate 7500 prior 5000 order 0 " \
        b"pv C3 D4\n"
    assert talk(e, "8 kata-analyze w interval 100 maxmoves 1") == b"\n=8 \n"
    assert gen.requests[-1].colour == 1
    assert e.stream_step() == b"info move C3 visits 10 winrate 0.750000 prior 0.500000 " \
        b"order 0 pv C3 D4\n"
    assert e.stream_stop() == b"\n" and e.stream is None
    assert talk(e, "9 genmove_analyze b 100") == b"=9 \n"
    assert e.stream is not None and not e.stream.interruptible
    assert e.stream_step() == b"info move C3 visits 10 winrate 7500 prior 5000 order 0 " \
        b"pv C3 D4\nplay C3\n\n"
    assert e.stream is None and e.board.moves == [(0, (2, 2))]
    assert gen.requests[-1].searched
    assert talk(e, "kata-analyze b 10 colour b") == b"? syntax error\n\n"
    assert e.stream is None


def test_corvid_param() -> None:
    e, gen = make()
    # seconds alone is a time-only budget; a playout cap given after it stays
    assert talk(e, "corvid-param seconds 1.5") == b"= \n\n"
    assert (e.config.seconds, e.config.playouts) == (1.5, 0)
    assert talk(e, "corvid-param playouts 123\ncorvid-param rave 0") == b"= \n\n= \n\n"
    assert e.config.playouts == 123 and e.config.rave is False and e.config.seconds == 1.5
    assert gen.config == e.config
    assert talk(e, "corvid-param nope 1\ncorvid-param playouts many\ncorvid-param playouts") \
        == (b"? unknown parameter nope\n\n? invalid parameter: playouts=many: playouts must be "
            b"an integer >= 0\n\n? syntax error\n\n")
    assert talk(e, "corvid-param abucb_depth 3") == (
        b"? invalid parameter: abucb_depth=3 with core=uct: abucb_depth is a setting of core "
        b"abucb\n\n")
    assert talk(e, "corvid-param core abucb\ncorvid-param abucb_depth 3") == b"= \n\n= \n\n"
    listing = talk(e, "corvid-param").decode()
    assert "[string] playouts 123\n" in listing and "[bool] rave 0\n" in listing
    assert talk(e, "corvid-param time_max_seconds 2") == b"= \n\n"
    assert e.time.policy.max_seconds == 2.0


def test_quit() -> None:
    e, _ = make()
    assert e.handle_line("7 quit") == (b"=7 \n\n", True)


def test_pondering_searches_the_opponents_position_until_the_next_command() -> None:
    e, gen = make([(2, 2), (3, 3)], ponder=True)
    assert talk(e, "genmove b") == b"= C3\n\n"
    assert e.ponder is not None
    asked = gen.requests[-1]
    assert asked.colour == 1 and asked.board.moves == [(0, (2, 2))]
    e.ponder_step()
    assert talk(e, "play w d4") == b"= \n\n" and e.ponder is None
    assert talk(e, "reg_genmove b") == b"= D4\n\n" and e.ponder is None  # nothing played
    e2, _ = make([(2, 2)])
    talk(e2, "genmove b")
    assert e2.ponder is None  # off by default


class Failing(OneStep):
    """An analysis whose search fails."""

    def step(self, seconds: float) -> list[Candidate]:
        raise RuntimeError("a search bug")


def test_a_failing_analysis_ends_its_answer_and_the_engine_goes_on() -> None:
    e, gen = make([(2, 2)])
    gen.analysis = lambda request, bounded: Failing([])  # type: ignore[method-assign,assignment]
    assert talk(e, "lz-analyze 10") == b"= \n"
    assert e.stream_step() == b"\n" and e.stream is None
    assert talk(e, "genmove_analyze b 10") == b"= \n"
    assert e.stream_step() == b"play C3\n\n" and e.board.moves == [(0, (2, 2))]
    assert talk(e, "corvid-pv") == b"? analysis failed\n\n"
    assert talk(e, "name") == b"= corvid\n\n"


def test_a_time_shape_gives_the_first_moves_more_of_main_time() -> None:
    clock = dict(time_reserve=0.0, time_reserve_fraction=0.0, time_overhead=0.0,
                 time_moves_fraction=0.5)
    asked = "time_settings 300 0 0\ntime_left b 100 0\ngenmove b"
    e, gen = make([(2, 2)], **clock)  # 40 expected moves on 9x9: 100 s in equal shares
    talk(e, asked)
    assert gen.requests[0].seconds == pytest.approx(100 / 40)
    e, gen = make([(2, 2)], time_shape=0.5, **clock)
    talk(e, asked)
    weights = [1 + 0.5 * (1 - 2 * k / 40) for k in range(40)]
    assert gen.requests[0].seconds == pytest.approx(100 * 1.5 / sum(weights))


def test_a_move_under_a_clock_may_take_more_when_its_search_is_unclear() -> None:
    e, gen = make([(2, 2), (3, 3)], time_reserve=0.0, time_reserve_fraction=0.0,
                  time_overhead=0.0, time_min_moves_left=10, time_extend=0.5)
    assert talk(e, "time_settings 300 0 0\ntime_left b 100 0\ngenmove b") == (
        b"= \n\n= \n\n= C3\n\n")
    assert gen.requests[0].extension == pytest.approx(0.5 * 100 / 36)
    assert talk(e, "time_settings 0 10 0\ngenmove b") == b"= \n\n= D4\n\n"
    assert gen.requests[1].extension == 0.0  # untimed
