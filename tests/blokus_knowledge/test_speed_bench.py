"""bench/blokus_speed.py: the search rate with player settings and from a later position."""

from __future__ import annotations

import pytest

from clients.config import ConfigError
from tests.paths import load_bench


def test_search_rate_takes_settings_and_plies() -> None:
    bench = load_bench("blokus_speed")
    assert bench.search_rate(60, repeats=1, settings=["expand_visits=4"], plies=6) > 0
    with pytest.raises(ConfigError, match="expand_visits"):
        bench.search_rate(60, repeats=1, settings=["expand_visits=0"])
