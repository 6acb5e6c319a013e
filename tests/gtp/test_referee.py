"""The GTP referee against misbehaving fake engines and against corvid itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sgfmill import sgf

from servers.arena.stats import wilson
from servers.gtp.match import (
    BLACK,
    WHITE,
    GameResult,
    MatchConfig,
    play_game,
    run_match,
    write_sgf,
)
from servers.gtp.process import EngineProcess

DATA = Path(__file__).parent / "data"


def fake(mode: str) -> EngineProcess:
    return EngineProcess(f"{sys.executable} {DATA / 'fake_engine.py'} {mode}", mode)


def game(black: str, white: str, **cfg: Any) -> GameResult:
    b, w = fake(black), fake(white)
    try:
        return play_game(b, w, MatchConfig(size=9, komi=7.0, **cfg))
    finally:
        b.close(0.5)
        w.close(0.5)


def test_two_passes_end_the_game_scored_by_tromp_taylor() -> None:
    r = game("pass", "pass")
    assert (r.winner, r.reason, r.score, r.result_text) == (WHITE, "score", -7.0, "W+7")
    assert r.moves == [(BLACK, None), (WHITE, None)]
    assert [c for c, _ in r.times] == [BLACK, WHITE]  # each genmove timed, in order
    assert all(t > 0 for _, t in r.times)


def test_external_scorer_decides_a_finished_game() -> None:
    b, w, scorer = fake("pass"), fake("pass"), fake("scorer")
    try:
        r = play_game(b, w, MatchConfig(size=9, komi=7.0), scorer)
    finally:
        for e in (b, w, scorer):
            e.close(0.5)
    assert (r.winner, r.score, r.result_text) == (BLACK, 3.5, "B+3.5")


def test_a_game_played_on_from_an_opening() -> None:
    """The opening's moves are told to both engines and kept; play goes on with the colour
    after its last move (white here), and the board after them is scored."""
    b, w = fake("pass"), fake("pass")
    try:
        r = play_game(b, w, MatchConfig(size=9, komi=7.0), opening=[(BLACK, (4, 4))])
    finally:
        b.close(0.5)
        w.close(0.5)
    assert r.moves == [(BLACK, (4, 4)), (WHITE, None), (BLACK, None)]
    assert (r.winner, r.reason, r.score) == (BLACK, "score", 74.0)  # 81 points - komi 7
    b, w = fake("pass"), fake("refuse")
    try:
        r = play_game(b, w, MatchConfig(size=9, komi=7.0), opening=[(BLACK, (4, 4))])
        assert (r.winner, r.reason) == (BLACK, "protocol")
        assert "refused the opening move E5" in r.detail
        with pytest.raises(ValueError, match="illegal opening move w E5"):
            play_game(b, w, MatchConfig(size=9, komi=7.0),
                      opening=[(BLACK, (4, 4)), (WHITE, (4, 4))])
    finally:
        b.close(0.5)
        w.close(0.5)


def test_illegal_move_loses() -> None:
    r = game("a1", "pass")
    assert (r.winner, r.reason, r.result_text) == (WHITE, "illegal", "W+F")
    assert len(r.moves) == 2  # A1, pass; then A1 again is refused
    r2 = game("pass", "badvertex")
    assert (r2.winner, r2.reason) == (BLACK, "illegal")


def test_resignation_crash_garbage_refusal() -> None:
    assert game("resign", "pass").result_text == "W+R"
    crash = game("pass", "crash")
    assert (crash.winner, crash.reason) == (BLACK, "crash")
    garbage = game("garbage", "pass")
    assert (garbage.winner, garbage.reason) == (WHITE, "protocol")
    refuse = game("a1", "refuse")  # white refuses black's legal A1
    assert (refuse.winner, refuse.reason) == (BLACK, "protocol")


def test_timeout_loses() -> None:
    r = game("silent", "pass", timeout=0.5)
    assert (r.winner, r.reason, r.result_text) == (WHITE, "timeout", "W+T")


def test_main_time_clock() -> None:
    r = game("pass", "pass", main_time=30.0)
    assert (r.reason, r.result_text) == ("score", "W+7")  # time_settings/time_left accepted
    slow = game("silent", "pass", main_time=0.2, timeout=120.0)
    assert (slow.winner, slow.reason) == (WHITE, "timeout")  # the clock, not the 120 s


def test_an_untimed_engine_plays_off_the_clock() -> None:
    """An engine labelled untimed is sent no clock and may take longer than the clock holds;
    the other still plays on it."""
    timed = game("slow", "pass", main_time=5.0)
    assert (timed.winner, timed.reason) == (WHITE, "resign")  # it was told of the clock
    r = game("slow", "pass", untimed=frozenset({"slow"}), main_time=0.2)
    assert (r.reason, r.result_text) == ("score", "W+7")
    assert sum(t for c, t in r.times if c == BLACK) > 0.2
    r = game("pass", "slow", untimed=frozenset({"slow"}), main_time=0.2)
    assert (r.reason, r.result_text) == ("score", "W+7")
    r = game("slow", "silent", untimed=frozenset({"slow"}), main_time=0.5, timeout=120.0)
    assert (r.winner, r.reason) == (BLACK, "timeout")  # the timed one still loses on time


def test_an_engine_that_timed_out_is_restarted() -> None:
    first, second = fake("silent"), fake("pass")
    pids = []
    try:
        assert first.proc is not None
        pids.append(first.proc.pid)
        stats = run_match(first, second, 2, MatchConfig(size=9, komi=7.0, timeout=0.5),
                          on_game=lambda g, r, c: pids.append(first.proc.pid if first.proc
                                                              else -1))
    finally:
        first.close(0.5)
        second.close(0.5)
    assert stats.reasons == {"timeout": 2} and stats.losses == 2
    assert len(set(pids)) == 3  # a fresh process after each timeout


def test_match_restarts_a_crashed_engine_and_alternates(tmp_path: Path) -> None:
    first, second = fake("crash"), fake("pass")
    try:
        stats = run_match(first, second, 3, MatchConfig(size=9, komi=7.0), alternate=True,
                          sgf_dir=tmp_path)
    finally:
        first.close(0.5)
        second.close(0.5)
    assert (stats.games, stats.wins, stats.losses, stats.games_as_black) == (3, 0, 3, 2)
    assert stats.reasons == {"crash": 3}
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "game-0001.sgf", "game-0002.sgf", "game-0003.sgf"]


def test_wilson_interval() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)


def test_sgf_record(tmp_path: Path) -> None:
    r = GameResult("x", "y", BLACK, "resign", None, [(BLACK, (2, 3)), (WHITE, None)],
                   "y resigned")
    path = tmp_path / "g.sgf"
    write_sgf(r, MatchConfig(size=9, komi=7.0), path)
    g = sgf.Sgf_game.from_bytes(path.read_bytes())
    root = g.get_root()
    assert (root.get("PB"), root.get("PW"), root.get("RE"), g.get_komi()) == (
        "x", "y", "B+R", 7.0)
    assert [n.get_move() for n in g.get_main_sequence()[1:]] == [("b", (3, 2)), ("w", None)]


@pytest.mark.integration
def test_cli_match_corvid_against_a_passer(tmp_path: Path) -> None:
    corvid = f"{sys.executable} -m clients.cli --log-level warning gtp --set playouts=50"
    passer = f"{sys.executable} {DATA / 'fake_engine.py'} pass"
    proc = subprocess.run(
        [sys.executable, "-m", "clients.cli", "--log-level", "warning", "serve", "gtp",
         "--black", corvid, "--white", passer, "--games", "2", "--alternate", "--size", "9",
         "--komi", "7", "--sgf-dir", str(tmp_path), "--json"],
        capture_output=True, text=True, timeout=300, check=True)
    lines = proc.stdout.strip().split("\n")
    summary = json.loads(lines[-1])
    assert summary == {"games": 2, "wins": 2, "draws": 0, "losses": 0, "win_rate": 1.0,
                       "ci95": [0.3424, 1.0]}
    assert "corvid" in proc.stdout and "fake-pass" in proc.stdout
    for name in ("game-0001.sgf", "game-0002.sgf"):
        g = sgf.Sgf_game.from_bytes((tmp_path / name).read_bytes())
        assert g.get_size() == 9 and g.get_root().get("RE") in ("B+74", "W+7")


def _gnugo() -> str | None:
    import shutil

    return shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games:/usr/local/games")


@pytest.mark.slow
@pytest.mark.integration
@pytest.mark.skipif(_gnugo() is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_a_game_against_gnugo_level_0(tmp_path: Path) -> None:
    corvid = f"{sys.executable} -m clients.cli --log-level warning gtp " \
        "--set playouts=100"
    gnugo = f"{_gnugo()} --mode gtp --level 0 --chinese-rules"
    first, second = EngineProcess(corvid, "corvid"), EngineProcess(gnugo, "gnugo")
    try:
        stats = run_match(first, second, 1, MatchConfig(size=9, komi=7.0, timeout=120),
                          sgf_dir=tmp_path)
    finally:
        first.close()
        second.close()
    assert stats.games == 1 and stats.reasons.keys() <= {"score", "resign"}
    g = sgf.Sgf_game.from_bytes((tmp_path / "game-0001.sgf").read_bytes())
    assert g.get_size() == 9 and g.get_komi() == 7.0
    moves = [n.get_move() for n in g.get_main_sequence()[1:]]
    assert len(moves) >= 10 and moves[0][0] == "b"
    assert g.get_root().get("RE")[:2] in ("B+", "W+")
