from pathlib import Path

import pytest

from games.daihinmin import format_log, parse_log, replay_log
from games.daihinmin.replay import LogFile
from tests.paths import DATA

SMALL = DATA / "uecda" / "server-log-5games-same-match.log"
BIG = DATA / "uecda" / "server-log-100games.log"


def test_replay_5games_clean() -> None:
    r = replay_log(SMALL)
    assert r.ok, r.first_divergence
    assert r.games == 5 and r.plays == 369
    assert r.rejected == []


@pytest.mark.regression
def test_replay_100games_clean() -> None:
    r = replay_log(BIG)
    assert r.ok, r.first_divergence
    assert r.games == 100
    # the sample client submits sequences whose joker at the bottom does not clear the table's
    # top card; the server rejects them (counted as passes) but logs them
    assert r.rejected == [
        "game 49 play 1: player 1 M5D6D7 on D3D4D5",
        "game 77 play 2: player 2 MJDQDK on S9STSJ",
        "game 87 play 16: player 4 KQSKSA on STSJSQ (lock)",
        "game 88 play 3: player 0 L6H7H8 on H4H5H6",
        "game 94 play 3: player 0 N5C6C7 on D3D4D5",
    ]


@pytest.mark.parametrize("path", [SMALL, BIG])
def test_log_round_trip(path: Path) -> None:
    text = path.read_text()
    assert format_log(parse_log(text)) == text


def test_replay_detects_divergence(tmp_path: Path) -> None:
    text = SMALL.read_text()
    # swap the result of game 2 -> the engine must name game 2
    bad = text.replace("%00002%result% 23401", "%00002%result% 23410")
    p = tmp_path / "bad.log"
    p.write_text(bad)
    r = replay_log(p)
    assert not r.ok and r.games == 2
    assert r.first_divergence is not None and r.first_divergence.startswith("game 2")
    # a play by the wrong player
    bad = text.replace("%00000%play%  4D3C3EE 3HTDTEE", "%00000%play%  4D3C3EE 0HTDTEE")
    p.write_text(bad)
    r = replay_log(p)
    assert not r.ok and r.first_divergence is not None
    assert r.first_divergence.startswith("game 0 play 1")


def test_player_names_from_the_header() -> None:
    assert parse_log(SMALL.read_text()).player_names() == ["traced", "def1", "def2", "def3",
                                                           "def4"]
    assert LogFile().player_names() == ["p0", "p1", "p2", "p3", "p4"]
