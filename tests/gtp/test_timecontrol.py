"""Time allotment: never more than the clock allows, byo-yomi handled, own clock tracked."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clients.gtp.timecontrol import TimeManager, TimePolicy, TimeSettings


def tm(**policy: float) -> TimeManager:
    policy.setdefault("overhead", 0.0)
    return TimeManager(TimePolicy(**policy))  # type: ignore[arg-type]


def test_overhead_is_kept_back_per_expected_move() -> None:
    t = TimeManager(TimePolicy(reserve=0.0, reserve_fraction=0.0, overhead=0.1,
                               moves_fraction=0.0, min_moves_left=10))
    t.time_settings(10, 0, 0)
    assert t.allot(0, 81, 0) == pytest.approx((10 - 1) / 10)
    t.time_left(0, 0.9, 0)
    assert t.allot(0, 81, 0) == 0.0


def test_untimed() -> None:
    t = tm()
    assert t.allot(0, 81, 0) is None
    t.time_settings(0, 5, 0)  # byo-yomi time with zero stones: no limit
    assert t.allot(0, 81, 0) is None


def test_absolute_spreads_the_main_time() -> None:
    t = tm(reserve=1.0, reserve_fraction=0.0, moves_fraction=0.5, min_moves_left=10)
    t.time_settings(60, 0, 0)
    assert t.allot(0, 81, 0) == pytest.approx(59 / 40)
    t.time_left(0, 11, 0)
    assert t.allot(0, 81, 35) == pytest.approx(10 / 10)  # min_moves_left
    t.time_left(0, 0.5, 0)
    assert t.allot(0, 81, 50) == 0.0


def test_canadian_byoyomi() -> None:
    t = tm(reserve=0.0, reserve_fraction=0.0, byoyomi_use=0.5)
    t.time_settings(0, 30, 10)
    assert t.allot(1, 81, 0) == pytest.approx(0.5 * 30 / 10)
    t.time_left(1, 12, 3)
    assert t.allot(1, 81, 0) == pytest.approx(0.5 * 12 / 3)
    # in main time with a byo-yomi behind: at least a safe share of a period
    t.time_settings(1, 30, 10)
    assert t.allot(1, 81, 0) == pytest.approx(0.5 * 30 / 10)


def test_japanese_byoyomi_uses_a_share_of_one_period() -> None:
    t = tm(reserve=0.5, reserve_fraction=0.0, byoyomi_use=0.8)
    t.set(TimeSettings("byoyomi", 0, 10, periods=3))
    assert t.allot(0, 361, 0) == pytest.approx(0.8 * 9.5)
    t.time_left(0, 4, 2)  # 4 s left in the current period, 2 periods
    assert t.allot(0, 361, 0) == pytest.approx(0.8 * 3.5)


def test_own_clock_is_tracked_between_time_left() -> None:
    t = tm(reserve=0.0, reserve_fraction=0.0, min_moves_left=1, moves_fraction=0.0)
    t.time_settings(10, 20, 5)
    t.spent(0, 4)
    assert t.clocks[0].main_left == 6
    t.spent(0, 8)  # 6 from main, 2 into the first period
    c = t.clocks[0]
    assert c.in_byoyomi and c.period_left == 18 and c.stones_left == 4
    for _ in range(4):
        t.spent(0, 1)
    assert t.clocks[0].period_left == 20 and t.clocks[0].stones_left == 5  # new period


def test_max_seconds_caps() -> None:
    t = tm(max_seconds=0.25)
    t.time_settings(600, 0, 0)
    assert t.allot(0, 81, 0) == 0.25


def test_an_unclear_move_may_add_a_share_of_its_time_in_main_time_only() -> None:
    t = tm(reserve=1.0, reserve_fraction=0.0, moves_fraction=0.5, min_moves_left=10,
           extend=0.5)
    assert t.extension(0, 81, 0, 1.0) == 0.0  # untimed
    t.time_settings(60, 0, 0)
    share = t.allot(0, 81, 0)
    assert share == pytest.approx(59 / 40)
    assert t.extension(0, 81, 0, share) == pytest.approx(0.5 * share)
    t.time_left(0, 4, 0)  # 3 s to spend after the reserve: at most half of it beyond the share
    share = t.allot(0, 81, 35)
    assert share == pytest.approx(3 / 10)
    assert t.extension(0, 81, 35, share) == pytest.approx(0.15)
    t.time_left(0, 1.2, 0)
    assert t.extension(0, 81, 35, t.allot(0, 81, 35) or 0.0) == pytest.approx(0.01)
    t.time_settings(0, 30, 5)  # Canadian byo-yomi only: never more than the period's share
    assert t.extension(0, 81, 0, t.allot(0, 81, 0) or 0.0) == 0.0
    assert tm(extend=0.0, reserve=0.0).extension(0, 81, 0, 1.0) == 0.0
    capped = tm(reserve=0.0, max_seconds=1.2, extend=1.0)
    capped.time_settings(600, 0, 0)
    assert capped.extension(0, 81, 0, 1.0) == pytest.approx(0.2)


@settings(max_examples=200, deadline=None)
@given(main=st.floats(0, 3600), left=st.floats(0, 3600), played=st.integers(0, 400),
       period=st.floats(0.1, 120), stones=st.integers(1, 25),
       mode=st.sampled_from(["absolute", "canadian", "byoyomi"]))
def test_never_more_than_the_clock_holds(main: float, left: float, played: int,
                                         period: float, stones: int, mode: str) -> None:
    t = TimeManager(TimePolicy())
    if mode == "absolute":
        t.time_settings(main, 0, 0)
        t.time_left(0, left, 0)
        assert t.allot(0, 81, played) < max(left, 1e-9)
        share = t.allot(0, 81, played) or 0.0
        long = TimeManager(TimePolicy(extend=4.0))
        long.time_settings(main, 0, 0)
        long.time_left(0, left, 0)
        assert share + long.extension(0, 81, played, share) < max(left, 1e-9)
    elif mode == "canadian":
        t.time_settings(main, period, stones)
        t.time_left(0, min(left, period), stones)
        assert t.allot(0, 81, played) < min(left, period) / stones + 1e-9 or left == 0
    else:
        t.set(TimeSettings("byoyomi", main, period, periods=3))
        t.time_left(0, min(left, period), 2)
        limit = min(left, period) if left > 0 else period  # 0 left: a spare period remains
        assert t.allot(0, 81, played) <= limit
        t.time_left(0, 0, 1)
        assert t.allot(0, 81, played) == 0.0  # the last period: answer at once
