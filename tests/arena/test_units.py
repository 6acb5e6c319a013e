"""The arena's parts without games: player specs, schedules, seeds, standings, run dirs."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from servers.arena import blokus, gtp, uecda
from servers.arena.players import Player, SpecError, parse_sweep, unique_labels
from servers.arena.records import GameRecord, Piece, RunConfig, RunDir, RunDirError, latest
from servers.arena.schedule import Task, chunks, derive_seed, pairings, sweep_participants
from servers.arena.standings import Tally, elo, format_table, standings
from servers.arena.stats import batch_mean_ci95, mean_ci95


def test_corvid_specs_become_set_options() -> None:
    p = uecda.parse("corvid:playouts=3000,alpha=0.9")
    assert (p.kind, p.settings, p.label) == ("corvid", ("playouts=3000", "alpha=0.9"),
                                             "corvid:playouts=3000,alpha=0.9")
    argv = p.argv(["uecda", "--port", "4000"], seed=7)
    assert argv[-6:] == ["--set", "seed=7", "--set", "playouts=3000", "--set", "alpha=0.9"]
    assert argv[argv.index("--log-level") + 2:][:3] == ["uecda", "--port", "4000"]
    # a seed in the spec wins over the task's; extra settings yield to the spec's own
    q = blokus.GAME.parse("corvid:seed=3,seconds=0.5")
    argv = q.argv(["blokus"], seed=9, extra=["seconds=1", "margin=0.1"])
    assert "seed=9" not in argv and "seconds=1" not in argv and "margin=0.1" in argv
    assert uecda.parse("baseline").settings == ("core=baseline",)
    assert uecda.parse("standin").kind == "server"
    # a list value keeps its commas
    r = blokus.GAME.parse("corvid:size_weights=[0.1, 0.3,1],playout=weighted")
    assert r.settings == ("size_weights=[0.1, 0.3,1]", "playout=weighted")
    assert r.argv(["blokus"])[-4:] == ["--set", "size_weights=[0.1, 0.3,1]",
                                       "--set", "playout=weighted"]


def test_commands_labels_and_aliases() -> None:
    p = uecda.parse("cmd:./client -h {host} -p {port} -n {name}")
    assert p.argv([], "127.0.0.1", 5, "me") == ["./client", "-h", "127.0.0.1", "-p", "5",
                                                "-n", "me"]
    named = gtp.GAME.parse("weak=gnugo:level=0")
    assert named.label == "weak" and named.spec == "gnugo:level=0" and named.kind == "cmd"
    assert "--level 0" in named.command and "--chinese-rules" in named.command
    assert "--level 10" in gtp.GAME.parse("gnugo").command
    assert gtp.GAME.parse("cmd:prog --x=1").kind == "cmd"  # '=' inside a command: no label
    for bad in ("gnugo", "corvid:playouts", "cmd:", "", "baseline:x=1"):
        with pytest.raises(SpecError):
            uecda.parse(bad)
    for bad in ("gnugo:level=11", "gnugo:colour=b", "standin"):
        with pytest.raises(SpecError):
            gtp.GAME.parse(bad)
    with pytest.raises(SpecError):
        blokus.GAME.parse("biggest:x=1")
    players = unique_labels([uecda.parse("corvid")] * 3 + [uecda.parse("baseline")])
    assert [p.label for p in players] == ["corvid#1", "corvid#2", "corvid#3", "baseline"]


def test_sweep_variants() -> None:
    assert parse_sweep("playouts=100, 300,1000") == ("playouts", ["100", "300", "1000"])
    for bad in ("playouts", "playouts=", "=1,2", "a=1,1"):
        with pytest.raises(SpecError):
            parse_sweep(bad)
    base, opp = gtp.GAME.parse("corvid:playouts=50,seed=2"), gtp.GAME.parse("gnugo")
    out = sweep_participants([base, opp], "playouts", ["10", "20"])
    assert [p.spec for p in out] == ["corvid:seed=2,playouts=10", "corvid:seed=2,playouts=20",
                                     "gnugo"]
    assert out[0].setting("playouts") == "10"
    with pytest.raises(SpecError):
        sweep_participants([opp, base], "playouts", ["10"])
    with pytest.raises(SpecError):
        sweep_participants([base], "playouts", ["10"])


def test_pairings() -> None:
    assert [p.seats for p in pairings(3, 2, "roundrobin")] == [(0, 1), (0, 2), (1, 2)]
    assert [p.seats for p in pairings(3, 2, "gauntlet")] == [(0, 1), (0, 2)]
    assert [p.seats for p in pairings(5, 5, "roundrobin")] == [(0, 1, 2, 3, 4)]
    assert len(pairings(6, 5, "roundrobin")) == 6
    assert [p.seats for p in pairings(3, 5, "gauntlet")] == [(0, 1, 1, 1, 1), (0, 2, 2, 2, 2)]
    # a sweep of two variants (0, 1) against the field (2, 3)
    assert [p.seats for p in pairings(4, 5, "roundrobin", 2)] == [(0, 2, 3, 2, 3),
                                                                 (1, 2, 3, 2, 3)]
    assert [p.seats for p in pairings(3, 2, "roundrobin", 2)] == [(0, 2), (1, 2)]
    for args in ((4, 5, "roundrobin"), (1, 2, "roundrobin"), (3, 2, "swiss"),
                 (20, 5, "roundrobin")):
        with pytest.raises(SpecError):
            pairings(*args)


def test_chunks_and_seeds() -> None:
    assert chunks([0, 1, 2, 3, 4], 2) == [(0, 1), (2, 3), (4,)]
    assert chunks([5, 0, 1, 3, 4], 10) == [(0, 1), (3, 4, 5)]  # a resume fills the gaps
    seeds = {derive_seed(1, p, g) for p in range(10) for g in range(10)}
    assert len(seeds) == 100 and all(0 <= s < 1 << 31 for s in seeds)
    assert derive_seed(1, 2, 3) == derive_seed(1, 2, 3) != derive_seed(2, 2, 3)


def _rec(pairing: int, index: int, players: list[str], result: list[float],
         **kw: object) -> GameRecord:
    order = sorted(range(len(result)), key=lambda s: -result[s])
    ranks = [0] * len(result)
    for s in range(len(result)):
        ranks[s] = sum(1 for t in order if result[t] > result[s])
    return GameRecord(pairing=pairing, index=index, players=players, result=result,
                      ranks=ranks, **kw)  # type: ignore[arg-type]


def test_two_player_standings() -> None:
    recs = []
    for i in range(10):  # A beats B 7-1 with 2 draws, colours alternating
        ab = ["A", "B"] if i % 2 == 0 else ["B", "A"]
        res = [1.0, 0.0] if i < 7 else [0.5, 0.5] if i < 9 else [0.0, 1.0]
        if ab[0] == "B":
            res = res[::-1]
        recs.append(_rec(0, i, ab, res, faults=["", "timeout"] if i == 9 else []))
    recs.append(GameRecord(pairing=0, index=10, status="failed", players=["A", "B"]))
    st = standings(recs, ["A", "B"], ["a", "b"], 2)
    a, b = st.rows
    assert (a.games, st.games, st.failed) == (10, 10, 1)
    assert a.result == pytest.approx(0.8) and b.result == pytest.approx(0.2)
    lo, hi = a.ci95
    assert lo == pytest.approx(0.4902, abs=1e-3) and hi == pytest.approx(0.9433, abs=1e-3)
    assert a.rating > 25 > b.rating and a.sigma < 25 / 3
    assert a.rating + b.rating == pytest.approx(50.0)  # zero-sum updates between two
    assert (a.timeouts, b.timeouts) == (1, 0)  # game 9: A, white, lost on time
    (pair,) = st.pairs
    assert (pair.first, pair.wins, pair.draws, pair.losses) == ("A", 7, 2, 1)
    assert pair.elo == pytest.approx(400 * math.log10(4))
    text = format_table(st)
    assert "A vs B" in text and "1 game(s) could not be played" in text
    assert st.to_json()["players"][0]["ci95"] == [round(lo, 4), round(hi, 4)]


def test_mean_interval() -> None:
    m, (lo, hi) = mean_ci95([1.0, 5.0, 3.0, 3.0], 1, 5)
    assert m == 3.0 and lo == pytest.approx(3 - 1.96 * (8 / 3 / 4) ** 0.5)
    assert hi == pytest.approx(6 - lo)
    assert mean_ci95([4.0], 1, 5) == (4.0, (1, 5))
    assert mean_ci95([5.0, 1.0], 1, 5) == (3.0, (1, 5))  # clipped to the possible points


def test_batch_mean_interval() -> None:
    xs = [1.0, 5.0, 3.0, 3.0, 2.0, 4.0, 5.0]
    # blocks of one value: the per-value interval, whatever the runs' lengths
    m, ci = batch_mean_ci95([xs[:3], xs[3:]], 1, 1, 5)
    assert m == pytest.approx(mean_ci95(xs, 1, 5)[0])
    assert ci == pytest.approx(mean_ci95(xs, 1, 5)[1])
    # by hand: blocks [1, 3] and [5, 5], means 2 and 5, mean 3.5, var = 2 (1/4 2.25 + 1/4 2.25)
    m, (lo, hi) = batch_mean_ci95([[1.0, 3.0, 5.0, 5.0]], 2, 0, 10)
    assert m == 3.5 and (lo, hi) == pytest.approx((3.5 - 1.96 * 1.5, 3.5 + 1.96 * 1.5))
    assert batch_mean_ci95([[4.0, 4.0]], 5, 1, 5) == (4.0, (1, 5))  # one block: no interval
    with pytest.raises(ValueError, match="block=0"):
        batch_mean_ci95([xs], 0, 1, 5)
    # runs of positively correlated values: wider than the per-value interval
    rng = np.random.default_rng(3)
    runs = []
    for _ in range(20):
        x, run = 0.0, []
        for _ in range(50):
            x = 0.7 * x + float(rng.normal())
            run.append(x)
        runs.append(run)
    flat = [x for r in runs for x in r]
    naive = mean_ci95(flat, -100, 100)[1]
    batched = batch_mean_ci95(runs, 10, -100, 100)[1]
    assert batched[1] - batched[0] > 1.5 * (naive[1] - naive[0])


def test_tally_for_progress_lines() -> None:
    t = Tally([_rec(0, 0, ["H", "X", "X", "X", "X"], [5.0, 4.0, 3.0, 2.0, 1.0])])
    t.add(_rec(0, 1, ["H", "X", "X", "X", "X"], [3.0, 5.0, 4.0, 2.0, 1.0]))
    t.add(GameRecord(pairing=0, index=2, status="failed"))
    assert (t.games, t.failed) == (2, 1)
    assert t.brief() == "1 failed  H 4.00  X 2.75"


def test_elo() -> None:
    assert elo(0.5) == 0.0 and elo(0.0) is None and elo(1.0) is None
    assert elo(10 / 11) == pytest.approx(400.0)


def test_table_standings_count_a_player_on_many_seats_once() -> None:
    # hero + 4 copies of X: hero's points per game, X's mean over its seats (= 15 - hero) / 4
    recs = [_rec(0, 0, ["H", "X", "X", "X", "X"], [5.0, 4.0, 3.0, 2.0, 1.0]),
            _rec(0, 1, ["H", "X", "X", "X", "X"], [1.0, 5.0, 4.0, 3.0, 2.0])]
    st = standings(recs, ["H", "X"], ["h", "x"], 5)
    h, x = st.rows
    assert (h.games, x.games) == (2, 2)
    assert h.result == 3.0 and x.result == 3.0
    assert h.ci95 == mean_ci95([5.0, 1.0], 1.0, 5.0)[1]
    assert st.pairs == [] and st.metric == "points/game"
    # the first player ahead in both games rates above the one behind in both
    recs = [_rec(0, g, ["A", "B", "C", "D", "E"], [5.0, 4.0, 3.0, 2.0, 1.0])
            for g in range(5)]
    st = standings(recs, list("ABCDE"), list("abcde"), 5)
    ratings = [r.rating for r in st.rows]
    assert ratings == sorted(ratings, reverse=True)


def test_run_dir_round_trip(tmp_path: Path) -> None:
    cfg = RunConfig(game="gtp", players=["corvid", "gnugo"], games=4, seed=1, chunk=2)
    rd = RunDir(tmp_path / "run")
    rd.create(cfg)
    with pytest.raises(RunDirError):
        RunDir(tmp_path / "run").create(cfg)
    assert rd.load_config() == cfg
    rec = _rec(0, 0, ["corvid", "gnugo"], [1.0, 0.0], text="(;FF[4])", record="sgf/a.sgf")
    rd.add(Piece(rec, {"sgf/a.sgf": "(;FF[4])"}))
    rd.add(Piece(GameRecord(pairing=0, index=1, status="failed", error="boom")))
    rd.close()
    with open(tmp_path / "run" / "games.jsonl", "a") as f:
        f.write('{"pairing": 0, "ind')  # a run killed in the middle of a line
    rd2 = RunDir(tmp_path / "run")
    got = rd2.load_games()
    assert [g.key for g in got] == [(0, 0), (0, 1)]
    assert got[0].text == "" and (tmp_path / "run" / "sgf" / "a.sgf").read_text() == "(;FF[4])"
    rd2.add(Piece(_rec(0, 1, ["gnugo", "corvid"], [0.0, 1.0])))
    rd2.close()
    games = rd2.load_games()
    assert len(games) == 3
    assert latest(games)[(0, 1)].status == "ok"
    with pytest.raises(RunDirError):
        RunDir(tmp_path / "nothing").load_config()


def test_task_cores() -> None:
    players = (gtp.GAME.parse("corvid:workers=4"), gtp.GAME.parse("gnugo"))
    assert Task(0, "gtp", 0, players, (0,), 1, {}).cpus == 4
    assert Task(0, "gtp", 0, players[1:], (0,), 1, {}).cpus == 1


def test_player_dataclass_is_plain() -> None:
    # tasks carry players to Ray workers: they must pickle
    import pickle

    p = Player("x", "corvid", "corvid", ("a=1",))
    assert pickle.loads(pickle.dumps(p)) == p
