"""bench/go_speed.py: Pachi's rate read from its own report, through a stand-in engine that
answers GTP and reports on stderr as Pachi does."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.paths import load_bench

# answers every GTP command; after genmove, reports its search on stderr as Pachi 12.90 does
_ENGINE = """
import sys
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "genmove":
        print("*** WINNER is D4 with score 52.0% (3000/3041 games)", file=sys.stderr)
        print("genmove in 0.21s, mcts 0.19s (15789 games/s, 15789 games/s/thread)",
              file=sys.stderr)
        print("= D4\\n", flush=True)
    else:
        print("= \\n", flush=True)
    if cmd[0] == "quit":
        break
"""


def test_pachi_rate_from_its_report(tmp_path: Path) -> None:
    bench = load_bench("go_speed")
    assert bench.pachi_rate("x\ngenmove in 2.64s, mcts 2.57s (7843 games/s, 7843 "
                            "games/s/thread)\n") == 7843
    with pytest.raises(ValueError, match="games/s"):
        bench.pachi_rate("genmove in 2.64s\n")
    engine = tmp_path / "engine.py"
    engine.write_text(_ENGINE)
    command = shlex.join([sys.executable, str(engine)])
    assert bench.measure_pachi(command, 9) == 15789


def test_a_failing_or_silent_engine_is_a_clear_error(tmp_path: Path) -> None:
    bench = load_bench("go_speed")
    silent = tmp_path / "silent.py"
    silent.write_text("import sys\nfor line in sys.stdin:\n    print('= \\n', flush=True)\n")
    with pytest.raises(SystemExit, match="games/s"):
        bench.measure_pachi(shlex.join([sys.executable, str(silent)]), 9)
    with pytest.raises(SystemExit, match="failed"):
        bench.measure_pachi(shlex.join([sys.executable, "-c", "raise SystemExit(3)"]), 9)
    with pytest.raises(SystemExit, match="failed"):  # no such program
        bench.measure_pachi(str(tmp_path / "no-such-engine"), 9)
    with pytest.raises(SystemExit, match="failed.*timed out"):
        bench.measure_pachi(shlex.join([sys.executable, "-c", "import time; time.sleep(5)"]),
                            9, timeout=0.5)


def test_search_rate_over_recorded_positions(tmp_path: Path) -> None:
    bench = load_bench("go_speed")
    moves = "".join(f";{'BW'[i % 2]}[{m}]" for i, m in enumerate(
        ["ee", "cc", "gg", "cg", "gc", "dd", "ff", "fd", "df", "ce", "ec", "eg", "ge", "hh",
         "bb", "hb", "bh"]))
    (tmp_path / "a.sgf").write_text(f"(;GM[1]FF[4]SZ[9]KM[7]{moves})")
    (tmp_path / "short.sgf").write_text("(;GM[1]FF[4]SZ[9]KM[7];B[ee])")  # no position
    rate, positions = bench.measure_records(str(tmp_path), 40, 1, ["read_visits=2"])
    assert positions == 1 and rate > 0
    with pytest.raises(SystemExit, match="no .sgf"):
        bench.measure_records(str(tmp_path / "none"), 40, 1, [])
    with pytest.raises(SystemExit, match="reaches move"):
        bench.measure_records(str(tmp_path), 40, 1, [], plies=(30,))
