"""bench/go_strength.py on the arena: corvid's figures from the game records, a short run
against GNU Go split over two tasks at once, and one against another GTP engine."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

from servers.arena import GameRecord
from servers.arena.records import RunConfig, RunDir
from tests.paths import REPO, load_bench

BENCH = REPO / "bench" / "go_strength.py"


def _bench() -> ModuleType:
    return load_bench("go_strength")


# a GTP engine that passes at every turn
PASSER = f"{sys.executable} {REPO / 'tests' / 'gtp' / 'data' / 'fake_engine.py'} pass"


def _run(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """The bench run with ``args``."""
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True,
                          text=True, timeout=timeout, check=False)


def test_figures_count_corvid_results_and_draws_half() -> None:
    bench = _bench()

    def game(i: int, corvid_result: float) -> GameRecord:
        players = ["corvid", "gnugo"] if i % 2 == 0 else ["gnugo", "corvid"]
        result = [corvid_result, 1 - corvid_result]
        times = [[0.5, 1.5], [0.1]]  # corvid's when it is black (even games)
        return GameRecord(pairing=0, index=i, players=players,
                          result=result if i % 2 == 0 else result[::-1], reason="score",
                          score=1.5, answer_times=times if i % 2 == 0 else times[::-1])

    results = [1.0] * 53 + [0.5] * 12 + [0.0] * 35
    records = [game(i, x) for i, x in enumerate(results)]
    records.append(GameRecord(pairing=0, index=100, status="failed"))
    got = bench.figures(records)
    assert (got["games"], got["wins"], got["draws"], got["losses"]) == (100, 53, 12, 35)
    assert got["win_rate"] == 0.59 and got["failed"] == 1
    lo, hi = got["ci95"]
    assert 0.49 < lo < 0.5 and 0.68 < hi < 0.69
    assert got["games_as_black"] == 50
    assert (got["corvid_move_mean"], got["corvid_move_max"]) == (1.0, 1.5)
    assert (got["opponent_move_mean"], got["opponent_move_max"]) == (0.1, 0.1)
    assert bench.result_text(records[0]) == "B+1.5"
    assert bench.result_text(records[1]) == "W+1.5"  # corvid white, winning
    assert bench.game_line(records[0]).startswith("game    1  corvid as B")


def test_move_times_by_phase_of_each_side() -> None:
    bench = _bench()
    # corvid black in game 0 (12 moves: ten of 1 s, then two of 3 s), white in game 1
    # (one move of 2 s); the opponent 0.5 s a move throughout
    records = [GameRecord(pairing=0, index=0, players=["corvid", "pachi"], result=[1.0, 0.0],
                          answer_times=[[1.0] * 10 + [3.0] * 2, [0.5] * 12]),
               GameRecord(pairing=0, index=1, players=["pachi", "corvid"], result=[1.0, 0.0],
                          answer_times=[[0.5], [2.0]])]
    got = bench.move_times(records)
    assert got["corvid_move_mean_by_phase"] == [round(12 / 11, 4), 3.0, 0.0, 0.0]
    assert got["opponent_move_mean_by_phase"] == [0.5, 0.5, 0.0, 0.0]
    assert got["corvid_move_max"] == 3.0
    line = bench.phase_line(got)
    assert "(1-10, 11-20, 21-30, 31-)" in line
    assert line.endswith("corvid 1.09 3.00 0.00 0.00; opponent 0.50 0.50 0.00 0.00")


def test_summary_of_a_run_so_far_plays_nothing(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    run = tmp_path / "run"
    rundir = RunDir(run)
    rundir.create(RunConfig(game="gtp", players=["corvid=corvid:playouts=0,seconds=1",
                                                 f"opponent=cmd:{PASSER}"],
                            games=10, seed=1, chunk=1))
    assert bench.main(["--resume", str(run), "--summary"]) == 2  # nothing played yet
    assert "no game played yet" in capsys.readouterr().err
    games = [GameRecord(pairing=0, index=0, players=["corvid", "opponent"], result=[1.0, 0.0],
                        reason="resign", answer_times=[[1.0, 1.0], [2.0]]),
             GameRecord(pairing=0, index=1, status="failed"),  # then played on a resume:
             GameRecord(pairing=0, index=1, players=["opponent", "corvid"], result=[1.0, 0.0],
                        reason="resign", answer_times=[[0.5], [1.0]])]
    (run / "games.jsonl").write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in games)
                                      + b'{"pairing": 0, "ind')  # a killed run's torn line
    assert bench.main(["--resume", str(run), "--summary", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    fig = json.loads(out[-1])
    assert (fig["games"], fig["wins"], fig["losses"], fig["failed"]) == (2, 1, 1, 0)
    assert fig["corvid"] == "corvid:playouts=0,seconds=1"
    assert fig["opponent_move_mean_by_phase"] == [1.25, 0.0, 0.0, 0.0]
    assert (run / "games.jsonl").read_bytes().count(b"\n") == 3  # nothing written
    with pytest.raises(SystemExit):
        bench.main(["--summary"])
    assert "give --resume DIR" in capsys.readouterr().err
    assert bench.main(["--resume", str(tmp_path / "none"), "--summary"]) == 2
    assert "holds no arena run" in capsys.readouterr().err


def _recorded_run(run: Path, spec: str, results: dict[int, float]) -> None:
    """A run of corvid ``spec`` against the passer whose game ``i`` corvid scored
    ``results[i]`` (colours alternating, corvid black in even games)."""
    RunDir(run).create(RunConfig(game="gtp", players=[f"corvid={spec}", f"opponent=cmd:{PASSER}"],
                                 games=10, seed=1, chunk=1))
    games = []
    for i, mine in results.items():
        order = ["corvid", "opponent"] if i % 2 == 0 else ["opponent", "corvid"]
        result = [mine, 1.0 - mine] if i % 2 == 0 else [1.0 - mine, mine]
        games.append(GameRecord(pairing=0, index=i, players=order, result=result,
                                reason="resign" if mine != 0.5 else "score"))
    (run / "games.jsonl").write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in games))


def test_summary_against_another_run_pairs_games_by_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    new, old = tmp_path / "new", tmp_path / "old"
    _recorded_run(new, "corvid:playouts=30,lgrf=0", {0: 1.0, 1: 1.0, 2: 0.5, 3: 0.0, 4: 1.0})
    _recorded_run(old, "corvid:playouts=30", {0: 0.0, 1: 1.0, 2: 0.0, 3: 0.0})  # no game 4
    assert bench.main(["--resume", str(new), "--summary", "--against", str(old),
                       "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    fig = json.loads(out[-1])
    assert fig["games"] == 5  # this run's own figures are over all its games
    d = fig["against"]
    # games 0-3: differences +1, 0, +0.5, 0 -> mean 0.375, sample sd 0.4787, n 4
    assert (d["games"], d["score"], d["their_score"], d["difference"]) == (4, 0.625, 0.25,
                                                                            0.375)
    assert d["ci95"] == pytest.approx([0.375 - 1.96 * 0.47871 / 2, 0.375 + 1.96 * 0.47871 / 2],
                                      abs=1e-3)
    assert d["run"] == str(old)
    assert "difference game by game +0.375" in out[-2]
    # errors: --against without a summary, a run with no game played, no common game
    with pytest.raises(SystemExit):
        bench.main(["--against", str(old)])
    assert "give --resume DIR --summary" in capsys.readouterr().err
    _recorded_run(tmp_path / "empty", "corvid:playouts=30", {})
    assert bench.main(["--resume", str(new), "--summary", "--against",
                       str(tmp_path / "empty")]) == 2
    assert "no game played yet" in capsys.readouterr().err
    _recorded_run(tmp_path / "late", "corvid:playouts=30", {7: 1.0})
    assert bench.main(["--resume", str(new), "--summary", "--against",
                       str(tmp_path / "late")]) == 2
    assert "no game number in common" in capsys.readouterr().err


def _gnugo() -> str | None:
    return shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games:/usr/local/games")


@pytest.mark.integration
@pytest.mark.skipif(_gnugo() is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_parallel_run_on_the_arena(tmp_path: Path) -> None:
    proc = _run("--games", "3", "--parallel", "2", "--playouts", "30", "--size", "5",
                "--komi", "0.5", "--level", "0", "--sgf-dir", str(tmp_path / "sgf"),
                "--out", str(tmp_path / "run"), "--json")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    played = [ln for ln in lines if ln.startswith("game ")]
    assert len(played) == 3
    fig = json.loads(lines[-1])
    assert fig["games"] == 3 == fig["wins"] + fig["draws"] + fig["losses"]
    assert fig["games_as_black"] == 2 and fig["failed"] == 0
    assert sorted(p.name for p in (tmp_path / "sgf").iterdir()) == [
        "game-0001.sgf", "game-0002.sgf", "game-0003.sgf"]
    assert len((tmp_path / "run" / "games.jsonl").read_text().splitlines()) == 3


@pytest.mark.integration
def test_any_gtp_engine_as_the_opponent(tmp_path: Path) -> None:
    proc = _run("--games", "2", "--visits", "30", "--size", "5", "--komi", "0.5",
                "--opponent", PASSER, "--out", str(tmp_path / "run"), "--json")
    assert proc.returncode == 0, proc.stderr
    fig = json.loads(proc.stdout.strip().splitlines()[-1])
    assert fig["games"] == 2 and fig["failed"] == 0 and fig["opponent"] == f"cmd:{PASSER}"
    assert fig["corvid"] == "corvid:playouts=0,visits=30"  # as Pachi's -t =30 counts
    assert 0 < fig["corvid_move_mean"] <= fig["corvid_move_max"]
    assert 0 <= fig["opponent_move_mean"] <= fig["opponent_move_max"]  # the passer: µs
    for line in (tmp_path / "run" / "games.jsonl").read_text().splitlines():
        game = json.loads(line)  # every move timed, on its colour's list
        assert [len(t) for t in game["answer_times"]] == [
            (len(game["moves"]) + 1) // 2, len(game["moves"]) // 2]
    clash = _run("--opponent", PASSER, "--level", "3", timeout=120)
    assert clash.returncode == 2 and "--level is GNU Go's" in clash.stderr
    both = _run("--opponent", PASSER, "--seconds", "1", "--main-time", "10", timeout=120)
    assert both.returncode == 2 and "three budgets" in both.stderr
    both = _run("--opponent", PASSER, "--visits", "30", "--seconds", "1", timeout=120)
    assert both.returncode == 2 and "three budgets" in both.stderr
    free = _run("--opponent", PASSER, "--seconds", "1", "--opponent-untimed", timeout=120)
    assert free.returncode == 2 and "give --main-time" in free.stderr


@pytest.mark.integration
def test_a_sudden_death_clock_for_both_engines(tmp_path: Path) -> None:
    proc = _run("--games", "1", "--main-time", "6", "--size", "5", "--komi", "0.5",
                "--opponent", PASSER, "--out", str(tmp_path / "run"), "--json")
    assert proc.returncode == 0, proc.stderr
    fig = json.loads(proc.stdout.strip().splitlines()[-1])
    assert fig["games"] == 1 and fig["corvid"] == "corvid:playouts=0"  # the clock alone
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["options"]["main_time"] == 6
    game = json.loads((tmp_path / "run" / "games.jsonl").read_text())
    assert game["reason"] != "timeout"
    assert 0 < sum(game["answer_times"][0]) < 6  # corvid (black) spent its clock, not more
    proc = _run("--games", "1", "--main-time", "6", "--size", "5", "--komi", "0.5",
                "--opponent", PASSER, "--opponent-untimed", "--out", str(tmp_path / "free"))
    assert proc.returncode == 0, proc.stderr
    assert "6 s a game (the opponent untimed)" in proc.stdout
    run = json.loads((tmp_path / "free" / "run.json").read_text())
    assert run["options"]["main_time"] == 6 and run["options"]["untimed"] == ["opponent"]
