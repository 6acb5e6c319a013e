"""bench/go_judge.py with a stand-in judge (a GTP engine on corvid's own rules that reports
its value the way Pachi does): every player's move judged, paired differences, the judge's
own move, resuming, and clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from games.go.coords import point_to_vertex
from games.go.state import GoState
from tests.judges import run_judge_bench, stand_in

# the stand-in judge: its move is the first legal point, its value (written to standard
# error as Pachi's search report does) the share of the stones on the board that are the
# searched colour's, so a capture is worth more
JUDGE = """
import sys
sys.path.insert(0, {repo!r})
from games.go.coords import parse_colour, point_to_vertex, vertex_to_point
from games.go.state import GoState
s = GoState(9, 7.0)
for line in sys.stdin:
    words = line.split()
    out = ""
    if words[0] == "boardsize":
        size = int(words[1])
    elif words[0] == "clear_board":
        s = GoState(size, 7.0)
    elif words[0] == "play":
        s.play_colour(parse_colour(words[1]), vertex_to_point(words[2], s.size))
    elif words[0] == "genmove":
        colour = parse_colour(words[1])
        mine, theirs = len(s.stones(colour)), len(s.stones(3 - colour))
        print(f"[100] best {{33.3:.1f}}% xkomi 0.0 | seq", file=sys.stderr, flush=True)
        print(f"*** WINNER is X with score {{100 * (mine + 1) / (mine + theirs + 2):.1f}}%",
              file=sys.stderr, flush=True)
        p = s.legal_points(colour, include_eyes=False)[0]
        s.play_colour(colour, p)
        out = point_to_vertex(p, s.size)
    elif words[0] == "quit":
        print("= \\n", flush=True)
        break
    print(f"= {{out}}\\n", flush=True)
"""


def _records(tmp: Path, games: int) -> Path:
    rng = np.random.default_rng(3)
    out = tmp / "records"
    out.mkdir()
    for g in range(games):
        s = GoState(9, 7.0)
        moves = []
        for _ in range(30):
            colour = s.to_play
            legal = s.legal_points(colour, include_eyes=False)
            p = legal[int(rng.integers(len(legal)))]
            s.play_colour(colour, p)
            v = point_to_vertex(p, 9)
            sgf = chr(ord("a") + "ABCDEFGHJ".index(v[0])) + chr(ord("a") + 9 - int(v[1:]))
            moves.append(f";{'BW'[colour - 1]}[{sgf}]")
        (out / f"g{g}.sgf").write_text(f"(;GM[1]FF[4]SZ[9]KM[7]{''.join(moves)})")
    return out


def _bench(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_judge_bench("go_judge", JUDGE, tmp, *args)


def test_moves_judged_and_paired(tmp_path: Path) -> None:
    records = _records(tmp_path, 2)
    out = tmp_path / "judged.jsonl"
    args = ["--records", str(records), "--positions", "4", "--plies", "4-20", "--out",
            str(out), "--json", "--player", "a=@60", "--player", "same=@60",
            "--player", "judge"]
    r = _bench(tmp_path, *args)
    assert r.returncode == 0, r.stderr
    fig = json.loads(r.stdout.splitlines()[-1])
    assert fig["positions"] == 4
    a, same, judge = fig["players"]
    assert 0 < a["value"] < 1 and a["playouts"] == 60
    # the same settings and seed choose the same moves: judged once, no difference
    assert same["same_move"] == 1.0 and same["diff"] == 0.0 and same["paired"] == 4
    assert judge["playouts"] == 0 and judge["label"] == "judge"
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 12 and {r["label"] for r in rows} == {"a", "same", "judge"}
    # the value is the WINNER line's, not the progress line's 33.3 % before it
    assert all(r["value"] != round(1 - 0.333, 4) for r in rows)
    # each player's own value of its move beside the judge's: corvid's search's, and the
    # judge's as its WINNER line reports it
    mine = [r for r in rows if r["label"] == "a"]
    assert all(0 <= r["own"] <= 1 for r in rows)
    err = np.array([r["own"] - r["value"] for r in mine])
    assert a["own_error"] == round(float(err.mean()), 4)
    assert a["own_ci95"][0] < a["own_error"] < a["own_ci95"][1]
    assert a["own_mae"] == round(float(np.abs(err).mean()), 4)
    assert a["own_corr"] is None or -1 <= a["own_corr"] <= 1
    assert judge["own"] == round(float(np.mean([r["own"] for r in rows
                                                 if r["label"] == "judge"])), 4)
    # a rerun resumes: nothing judged again
    r = _bench(tmp_path, *args)
    assert r.returncode == 0, r.stderr
    assert len(out.read_text().splitlines()) == 12
    assert json.loads(r.stdout.splitlines()[-1])["players"][0]["value"] == a["value"]


def test_playout_values_against_the_judges_value_of_the_position(tmp_path: Path) -> None:
    """--playout-values: each corvid player's playouts' share of wins from the position, set
    beside the judge's own value of the position (its report before its move)."""
    records = _records(tmp_path, 2)
    out = tmp_path / "judged.jsonl"
    r = _bench(tmp_path, "--records", str(records), "--positions", "4", "--plies", "4-20",
               "--out", str(out), "--json", "--player", "a=@60",
               "--player", "p7=playout_policy=7@60", "--player", "judge",
               "--playout-values", "50")
    assert r.returncode == 0, r.stderr
    a, p7, judge = json.loads(r.stdout.splitlines()[-1])["players"]
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    ref = {(x["record"], x["ply"]): x["own"] for x in rows if x["label"] == "judge"}
    mine = [x for x in rows if x["label"] == "a"]
    assert len(mine) == 4 and all(0 <= x["playout_value"] <= 1 for x in mine)
    err = [x["playout_value"] - ref[(x["record"], x["ply"])] for x in mine]
    assert a["playout_error"] == round(float(np.mean(err)), 4)
    assert a["playout_mae"] == round(float(np.mean(np.abs(err))), 4)
    assert "playout_error" in p7 and "playout_error" not in judge
    assert all("playout_value" not in x for x in rows if x["label"] == "judge")
    # the judge's value of the position is the reference: without it, a clear error
    r = _bench(tmp_path, "--records", str(records), "--positions", "1", "--player", "a=@60",
               "--playout-values", "50")
    assert r.returncode == 2 and "--player judge" in r.stderr


def test_another_gtp_engine_as_a_player(tmp_path: Path) -> None:
    """``LABEL=gtp:CMD``: another engine's genmove is a player; the stand-in, asked as the
    judge's own move too, chooses the same moves."""
    records = _records(tmp_path, 1)
    judge = stand_in(tmp_path, JUDGE)
    r = _bench(tmp_path, "--records", str(records), "--positions", "3", "--plies", "4-20",
               "--json", "--player", "judge", "--player",
               f"other=gtp:{sys.executable} {judge}")
    assert r.returncode == 0, r.stderr
    _, other = json.loads(r.stdout.splitlines()[-1])["players"]
    assert other["spec"].startswith("gtp:") and other["same_move"] == 1.0
    assert other["diff"] == 0.0 and other["paired"] == 3


def test_clear_errors(tmp_path: Path) -> None:
    r = _bench(tmp_path, "--records", str(tmp_path), "--player", "a=")
    assert r.returncode == 2 and "no .sgf records" in r.stderr
    records = _records(tmp_path, 1)
    r = _bench(tmp_path, "--records", str(records), "--player", "@300")
    assert r.returncode == 2 and "LABEL=SETTINGS" in r.stderr
    r = _bench(tmp_path, "--records", str(records), "--player", "a=gtp: ")
    assert r.returncode == 2 and "command line" in r.stderr
    r = _bench(tmp_path, "--records", str(records), "--player", "a=nosuch=1")
    assert r.returncode == 2 and "nosuch" in r.stderr
    r = _bench(tmp_path, "--records", str(records), "--player", "a=",
               "--player", "a=rave_k=300")
    assert r.returncode == 2 and "labels must differ" in r.stderr
    for plies in ("4", "x-9", "9-4"):
        r = _bench(tmp_path, "--records", str(records), "--player", "a=", "--plies", plies)
        assert r.returncode == 2 and "--plies" in r.stderr
