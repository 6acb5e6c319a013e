"""Arena runs in process, on real loopback sockets and pipes: the servers' own opponents,
a scripted GTP engine, failures, resume, sweep and plot."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from sgfmill import sgf

from games.blokus_duo import BlokusState
from games.daihinmin.replay import replay_log
from servers.arena import ArenaError, run
from servers.blokus.sgf import read_moves

pytestmark = pytest.mark.integration
PASSER = f"cmd:{sys.executable} {Path(__file__).with_name('passer.py')}"
FAKE = Path(__file__).parents[1] / "gtp" / "data" / "fake_engine.py"


def test_uecda_tables_of_stand_ins(tmp_path: Path) -> None:
    seen = []
    res = run("uecda", ["standin"] * 5, games=6, chunk=3, seed=5, parallel=2,
              out=tmp_path / "run", on_game=seen.append)
    assert len(res.ok) == 6 == len(seen) and res.directory == tmp_path / "run"
    for rec in res.ok:
        assert sorted(rec.result) == [1.0, 2.0, 3.0, 4.0, 5.0]
        assert [rec.result[p] for p in sorted(range(5), key=lambda p: rec.ranks[p])] == \
            [5.0, 4.0, 3.0, 2.0, 1.0]
        assert rec.standin == [True] * 5 and rec.faults == [""] * 5
        assert rec.players == [f"standin#{p + 1}" for p in range(5)]
    logs = sorted((tmp_path / "run" / "uecda").glob("*.log"))
    assert [p.name for p in logs] == ["p000-g0001-0003.log", "p000-g0004-0006.log"]
    for log in logs:
        assert replay_log(log).ok and replay_log(log).games == 3
    lines = [json.loads(ln) for ln in (tmp_path / "run" / "games.jsonl").read_text().splitlines()]
    assert len(lines) == 6 and "text" not in lines[0]
    assert sorted(ln.get("task", 0) for ln in lines) == [0, 0, 0, 1, 1, 1]
    st = res.standings()
    assert sum(r.result * r.games for r in st.rows) == pytest.approx(15 * 6)


def test_blokus_built_in_opponents_alternate_seats_and_first_moves(tmp_path: Path) -> None:
    res = run("blokus", ["first-legal", "biggest"], games=4, seed=2, out=tmp_path / "run")
    recs = res.ok
    assert [r.players[0] for r in recs] == ["first-legal", "biggest"] * 2
    assert [r.first for r in recs] == [0, 0, 1, 1]
    for r in recs:
        assert r.reason == "end" and r.faults == ["", ""] and len(r.moves) > 10
        root, moves = read_moves(r.text)
        assert (root["PB"], root["PW"]) == tuple(r.players)
        state = BlokusState(first=r.first)
        for colour, move in moves:
            while state.to_move_colour != colour:  # passes are not in Pentobi's SGF
                state.play(state.legal_moves()[0])
            state.play(move)
    st = res.standings()
    assert st.rows[1].result > st.rows[0].result  # biggest-piece-first beats first-legal


def test_gtp_engines_and_sgf(tmp_path: Path) -> None:
    res = run("gtp", [f"a={PASSER}", f"b={PASSER}"], games=2, seed=1,
              options={"size": 5, "komi": 2.5}, out=tmp_path / "run")
    a, b = res.ok
    assert (a.players, b.players) == (["a", "b"], ["b", "a"])
    for r in (a, b):  # two passes: white wins on komi
        assert (r.reason, r.result, r.score, r.moves) == ("score", [0.0, 1.0], -2.5,
                                                          ["pass", "pass"])
        game = sgf.Sgf_game.from_bytes((tmp_path / "run" / r.record).read_bytes())
        assert game.get_size() == 5 and game.get_komi() == 2.5
        assert game.get_root().get("RE") == "W+2.5"
    (pair,) = res.standings().pairs
    assert (pair.wins, pair.losses) == (1, 1)


def test_a_failing_task_is_retried_once_then_recorded(tmp_path: Path) -> None:
    res = run("gtp", [f"{PASSER} --exit 1", PASSER], games=3, chunk=2, seed=1,
              options={"size": 5}, out=tmp_path / "run")
    assert [r.status for r in res.records] == ["failed"] * 3
    assert all(r.attempt == 2 and "exit code 1" in r.error for r in res.records)
    lines = (tmp_path / "run" / "games.jsonl").read_text().splitlines()
    assert all(json.loads(ln)["attempt"] == 2 for ln in lines)
    assert res.standings().failed == 3
    # a player that cannot start at all (usage error, exit code 2) stops the run at once
    with pytest.raises(ArenaError, match="exit code 2"):
        run("gtp", [f"{PASSER} --exit 2", PASSER], games=1, options={"size": 5})


def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run("gtp", [PASSER, f"p2={PASSER}"], games=4, chunk=2, seed=7, options={"size": 5},
        out=out)
    games = out / "games.jsonl"
    lines = games.read_text().splitlines()
    games.write_text("\n".join(lines[:2]) + "\n" + lines[2][:20])  # killed mid-line
    played = []
    res = run(resume=out, on_game=played.append)
    assert sorted(r.index for r in played) == [2, 3]
    assert [r.index for r in res.ok] == [0, 1, 2, 3]
    names = sorted(p.name for p in (out / "sgf").iterdir())
    assert names == ["p000-g0001.sgf", "p000-g0002.sgf", "p000-g0003.sgf",
                     "p000-g0003.sgf.interrupted1", "p000-g0004.sgf",
                     "p000-g0004.sgf.interrupted1"]  # the first run's, kept aside
    with pytest.raises(ArenaError, match="games 5"):
        run(resume=out, games=5)
    with pytest.raises(ArenaError, match="already holds a run"):
        run("gtp", [PASSER, PASSER], out=out)


def test_an_untimed_player_plays_off_the_clock() -> None:
    """The slow fake engine takes 0.3 s a move and resigns once told of a clock: off the
    clock it passes its way to a scored game, on it it resigns."""
    slow = f"slow=cmd:{sys.executable} {FAKE} slow"
    res = run("gtp", [slow, PASSER], games=2, seed=3,
              options={"size": 5, "main_time": 0.5, "untimed": ["slow"]})
    assert [r.reason for r in res.ok] == ["score", "score"]
    res = run("gtp", [slow, PASSER], games=1, seed=3, options={"size": 5, "main_time": 5})
    assert [r.reason for r in res.ok] == ["resign"]


def test_bad_runs_are_refused_before_anything_starts() -> None:
    with pytest.raises(ArenaError, match="unknown player"):
        run("gtp", ["corvid", "magic"])
    with pytest.raises(ArenaError, match="unknown gtp option"):
        run("gtp", ["corvid", "gnugo"], options={"boardsize": 9})
    with pytest.raises(ArenaError, match="no player labelled pachi"):
        run("gtp", ["corvid", "gnugo"], options={"main_time": 10, "untimed": ["pachi"]})
    with pytest.raises(ArenaError, match="need a clock"):
        run("gtp", ["corvid", "gnugo"], options={"untimed": ["gnugo"]})
    with pytest.raises(ArenaError, match="unknown game"):
        run("chess", ["corvid", "corvid"])
    with pytest.raises(ArenaError, match="round robin needs at least 5"):
        run("uecda", ["corvid", "baseline"])
    with pytest.raises(ArenaError, match="backend"):
        run("gtp", ["corvid", "gnugo"], backend="slurm")
