"""The kernels' source run as plain Python (NUMBA_DISABLE_JIT=1, in a subprocess) plays the
same playouts as the compiled kernels: no compiled-only integer or unsigned behaviour."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from games.go import board as K
from knowledge.go.patterns import pattern_table
from knowledge.go.playout import k_playout, no_replies
from knowledge.go.tactics import NG

SCRIPT = """
import json, sys
import numpy as np
from games.go import board as K
from knowledge.go.playout import k_playout, no_replies
from knowledge.go.tactics import NG
from knowledge.go.patterns import pattern_table
out = []
rng = np.random.default_rng(0)
ptab = np.exp(rng.normal(0.0, 1.5, 1 << 20)).astype(np.float32)
plv = np.exp(rng.normal(0.0, 1.0, (NG + 1, 11)))
for size, seed, policy in json.loads(sys.argv[1]):
    b = K.new_board(size)
    cap = 3 * size * size
    moves = np.empty(cap + 1, dtype=np.int32)
    owner = np.empty(b.shape[1], dtype=np.int32)
    buf = np.empty(4 * b.shape[1] + 8, dtype=np.int32)
    sc, nm, s = k_playout(b, np.uint64(seed), policy, pattern_table(), ptab, plv, 2, cap,
                          moves, owner, buf, no_replies(), 0, 0.0)
    out.append([int(sc), moves[:nm].tolist(), int(s)])
print(json.dumps(out))
"""

CASES = [(5, 12345, 1), (5, 999, 0), (7, 2**61 + 7, 1), (7, 4321, 3)]


def compiled(size: int, seed: int, policy: int) -> list[object]:
    rng = np.random.default_rng(0)
    ptab = np.exp(rng.normal(0.0, 1.5, 1 << 20)).astype(np.float32)
    plv = np.exp(rng.normal(0.0, 1.0, (NG + 1, 11)))
    b = K.new_board(size)
    cap = 3 * size * size
    moves = np.empty(cap + 1, dtype=np.int32)
    owner = np.empty(b.shape[1], dtype=np.int32)
    buf = np.empty(4 * b.shape[1] + 8, dtype=np.int32)
    sc, nm, s = k_playout(b, np.uint64(seed), policy, pattern_table(), ptab, plv, 2, cap,
                          moves, owner, buf, no_replies(), 0, 0.0)
    return [int(sc), moves[:nm].tolist(), int(s)]


def test_kernels_as_plain_python_match_compiled() -> None:
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    res = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(CASES)], cwd=root, env=env,
                         capture_output=True, text=True, timeout=300, check=True)
    plain = json.loads(res.stdout.strip().splitlines()[-1])
    assert plain == [compiled(*c) for c in CASES]
