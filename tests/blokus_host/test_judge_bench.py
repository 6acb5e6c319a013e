"""bench/blokus_judge.py with a stand-in judge (a GTP engine on corvid's own rules that
reports a value the way Pentobi does): every player's move judged, paired differences,
the judge's own move, resuming, and clear errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np

from games.blokus_duo import PASS, BlokusState
from servers.blokus.sgf import GameRecord, read_moves, write_sgf
from tests.judges import run_judge_bench

# the stand-in judge: its move is the mover's first legal placement, its value (written to
# standard error as Pentobi's search report does) the share of the squares on the board
# that are the searched colour's, so a bigger piece is worth more
JUDGE = """
import sys
sys.path.insert(0, {repo!r})
from games.blokus_duo import PASS, BlokusState
from servers.blokus.sgf import read_moves
s = BlokusState()
for line in sys.stdin:
    words = line.split()
    out = ""
    if words[0] == "loadsgf":
        _, moves = read_moves(open(words[1]).read())
        s = BlokusState(first=moves[0][0])
        for colour, m in moves[:int(words[2]) - 1]:
            while s.to_move_colour != colour:
                s.play(PASS)
            s.play(m)
    elif words[0] == "play":
        colour = "bw".index(words[1])
        while s.to_move_colour != colour:
            s.play(PASS)
        s.play(s.geo.parse_pentobi(words[2]))
    elif words[0] == "reg_genmove":
        colour = "bw".index(words[1])
        while s.to_move_colour != colour and not s.is_terminal():
            s.play(PASS)
        if not s.legal_placements(colour):  # as Pentobi, no search for a colour that cannot move
            print("? player failed to generate a move\\n", flush=True)
            continue
        mine = int((s.board == colour).sum())
        theirs = int((s.board == 1 - colour).sum())
        print(f"Val {{(mine + 1) / (mine + theirs + 2):.4f}}", file=sys.stderr, flush=True)
        out = s.geo.pentobi(s.legal_placements()[0])
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
        s = BlokusState(first=g % 2)
        rec = GameRecord(first=g % 2, names=("a", "b"))
        while not s.is_terminal():
            legal = s.legal_placements()
            m = legal[int(rng.integers(len(legal)))] if legal else PASS
            rec.moves.append((s.to_move_colour, m))
            s.play(m)
        rec.scores = s.scores()
        (out / f"g{g}.blksgf").write_text(write_sgf(rec))
    return out


def _bench(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_judge_bench("blokus_judge", JUDGE, tmp, *args)


def test_moves_judged_and_paired(tmp_path: Path) -> None:
    records = _records(tmp_path, 2)
    out = tmp_path / "judged.jsonl"
    args = ["--records", str(records), "--positions", "4", "--plies", "2-6", "--out",
            str(out), "--json", "--player", "a=preset=v3@60", "--player",
            "same=preset=v3@60", "--player", "judge"]
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
    # each player's own value of its move beside the judge's (the judge's from its report)
    err = [r["own"] - r["value"] for r in rows if r["label"] == "a"]
    assert a["own_error"] == round(float(np.mean(err)), 4)
    assert all(0 <= r["own"] <= 1 for r in rows if r["label"] == "judge")
    # a rerun resumes: nothing judged again
    r = _bench(tmp_path, *args)
    assert r.returncode == 0, r.stderr
    assert len(out.read_text().splitlines()) == 12
    assert json.loads(r.stdout.splitlines()[-1])["players"][0]["value"] == a["value"]


def test_a_side_with_no_placement_left(tmp_path: Path) -> None:
    """Every position to the games' ends: after a move that leaves the other colour no
    placement the judge (which, as Pentobi, refuses to search for it) values the position for
    the mover, and after the last placement of all the result counts."""
    records = _records(tmp_path, 2)
    moves = [read_moves(f.read_text())[1] for f in sorted(records.glob("*.blksgf"))]
    # the games do reach such positions: a colour placing twice in a row
    assert any(m[k][0] == m[k + 1][0] for m in moves for k in range(len(m) - 1))
    total = sum(len(m) - 2 for m in moves)  # every ply from 2 on but the last has a move after it
    out = tmp_path / "judged.jsonl"
    r = _bench(tmp_path, "--records", str(records), "--positions", "500", "--plies", "2-99",
               "--out", str(out), "--json", "--player", "a=preset=v3@20", "--player", "judge")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    judged = {(x["record"], x["ply"]) for x in rows}
    assert 0 < len(judged) <= total
    assert all(x["value"] is not None and 0 <= x["value"] <= 1 for x in rows)


def test_a_book_move_has_no_own_value(tmp_path: Path) -> None:
    """The book's moves (no search, a value of NaN) are judged; their own value is left out
    (null in the file), and the --json line stays JSON."""
    records = _records(tmp_path, 2)
    out = tmp_path / "judged.jsonl"
    r = _bench(tmp_path, "--records", str(records), "--positions", "2", "--plies", "0-0",
               "--out", str(out), "--json", "--player", "a=preset=v3@20", "--player", "judge")
    assert r.returncode == 0, r.stderr
    a, _ = json.loads(r.stdout.splitlines()[-1])["players"]
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    book = [x for x in rows if x["label"] == "a"]
    assert len(book) == 2 and all(x["playouts"] == 0 and x["own"] is None for x in book)
    assert "own_error" not in a and 0 <= a["value"] <= 1


def test_clear_errors(tmp_path: Path) -> None:
    r = _bench(tmp_path, "--records", str(tmp_path), "--player", "a=preset=v3")
    assert r.returncode == 2 and "no .blksgf records" in r.stderr
    records = _records(tmp_path, 1)
    r = _bench(tmp_path, "--records", str(records), "--player", "preset=v3")
    assert r.returncode == 2 and "LABEL=SETTINGS" in r.stderr
    r = _bench(tmp_path, "--records", str(records), "--player", "a=preset=v3",
               "--player", "a=preset=v2")
    assert r.returncode == 2 and "labels must differ" in r.stderr
    for plies in ("4", "x-9", "9-4"):
        r = _bench(tmp_path, "--records", str(records), "--player", "a=", "--plies", plies)
        assert r.returncode == 2 and "--plies" in r.stderr
