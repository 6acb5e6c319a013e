"""The judge benches (``bench/go_judge.py``, ``bench/blokus_judge.py``) run against a stand-in
judge: a small GTP engine on corvid's own rules, given as Python source."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.paths import REPO


def stand_in(tmp: Path, source: str) -> Path:
    """The stand-in judge's script in ``tmp`` (``{repo}`` in ``source`` is the repository)."""
    judge = tmp / "judge.py"
    judge.write_text(source.format(repo=str(REPO)))
    return judge


def run_judge_bench(bench: str, source: str, tmp: Path, *args: str
                    ) -> subprocess.CompletedProcess[str]:
    """``python bench/BENCH.py --judge STAND_IN ARGS`` from the repository."""
    judge = stand_in(tmp, source)
    return subprocess.run([sys.executable, str(REPO / "bench" / f"{bench}.py"), "--judge",
                           f"{sys.executable} {judge}", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=600)
