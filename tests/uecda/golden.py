"""The recorded transcript of the real server (player 0's side of a 5-game match)."""

from __future__ import annotations

import json

from tests.paths import DATA

WIRE = DATA / "uecda" / "wire-5games-player0.jsonl"


def load_wire() -> list[tuple[str, str, bytes]]:
    out = []
    for line in WIRE.read_text().splitlines():
        d = json.loads(line)
        out.append((d["dir"], d["kind"], bytes.fromhex(d["hex"])))
    return out
