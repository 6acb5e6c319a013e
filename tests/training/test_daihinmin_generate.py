"""Games for learning Daihinmin: played on the mock server, recorded with their players."""

from __future__ import annotations

import json
from pathlib import Path

from clients.uecda.config import PRESETS
from games.daihinmin.replay import parse_log
from training.daihinmin.generate import generate


def test_generate_records_each_player_as_a_fixed_player(tmp_path: Path) -> None:
    """A corvid player is written out with the newest preset and a seed unless its spec
    names them, so the record names the same player after the defaults change; a finished
    chunk is not played again."""
    players = ["corvid:playouts=30", "corvid:preset=v1,playouts=30,seed=99", "baseline",
               "baseline", "baseline"]
    logs = generate(tmp_path, 2, 2, 7, players)
    spec = json.loads((tmp_path / "generate.json").read_text())
    newest = list(PRESETS)[-1]
    assert spec["players"] == [f"corvid:playouts=30,preset={newest},seed=70",
                               "corvid:preset=v1,playouts=30,seed=99", "baseline", "baseline",
                               "baseline"]
    assert len(logs) == 1 and len(parse_log(logs[0].read_text()).games) == 2
    stamp = logs[0].stat().st_mtime_ns
    assert generate(tmp_path, 2, 2, 7, players) == logs
    assert logs[0].stat().st_mtime_ns == stamp
