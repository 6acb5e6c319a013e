"""The recorded transcript of the real server (player 0's side of a 5-game match)."""

from __future__ import annotations

import json

import pytest

from tests.paths import SHARED_DATA

DATA = SHARED_DATA / "uecda"
WIRE = DATA / "wire-5games-player0.jsonl"


def load_wire() -> list[tuple[str, str, bytes]]:
    if not WIRE.exists():
        pytest.skip(f"recording {WIRE} not available")
    out = []
    for line in WIRE.read_text().splitlines():
        d = json.loads(line)
        out.append((d["dir"], d["kind"], bytes.fromhex(d["hex"])))
    return out
