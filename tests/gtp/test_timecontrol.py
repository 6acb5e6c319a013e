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


def test_a_shape_gives_the_opening_more_of_main_time_than_the_endgame() -> None:
    p = TimePolicy(moves_fraction=0.5, shape=0.5)  # 40 expected moves on 9x9
    assert [p.weight(k, 81) for k in (0, 10, 20, 30, 40, 60)] == pytest.approx(
        [1.5, 1.25, 1.0, 0.75, 0.5, 0.5])
    assert TimePolicy(shape=0.0).weight(0, 81) == 1.0
    t = tm(reserve=1.0, reserve_fraction=0.0, moves_fraction=0.5, min_moves_left=10,
           shape=0.5)
    t.time_settings(60, 0, 0)
    weights = [1 + 0.5 * (1 - 2 * k / 40) for k in range(40)]  # the 40 moves left
    first = t.allot(0, 81, 0) or 0.0
    assert first == pytest.approx(59 * 1.5 / sum(weights))
    t.time_left(0, 11, 0)  # from move 35: the 10 moves left, weights 0.625 down to 0.5
    tail = [1 + 0.5 * max(-1, 1 - 2 * k / 40) for k in range(35, 45)]
    assert t.allot(0, 81, 35) == pytest.approx(10 * tail[0] / sum(tail))
    flat = tm(reserve=1.0, reserve_fraction=0.0, moves_fraction=0.5, min_moves_left=10)
    flat.time_settings(60, 0, 0)
    assert flat.allot(0, 81, 0) == pytest.approx(59 / 40)
    assert (flat.allot(0, 81, 0) or 0.0) < first


@pytest.mark.parametrize("shape", [0.0, 0.5, 0.9])
def test_a_whole_game_spent_as_allotted_keeps_the_reserve(shape: float) -> None:
    t = TimeManager(TimePolicy(shape=shape))
    t.time_settings(30, 0, 0)
    times = []
    for k in range(120):
        share = t.allot(0, 81, k) or 0.0
        times.append(share)
        t.spent(0, share)
    assert t.clocks[0].main_left > 0.5  # the fixed reserve is never spent
    if shape > 0:  # the first ten moves get more than the next ten, and those than the rest
        assert sum(times[:10]) > sum(times[10:20]) > sum(times[20:30]) > sum(times[30:40])


@settings(max_examples=200, deadline=None)
@given(main=st.floats(0, 3600), left=st.floats(0, 3600), played=st.integers(0, 400),
       period=st.floats(0.1, 120), stones=st.integers(1, 25),
       mode=st.sampled_from(["absolute", "canadian", "byoyomi"]),
       shape=st.sampled_from([0.0, 0.75]))
def test_never_more_than_the_clock_holds(main: float, left: float, played: int,
                                         period: float, stones: int, mode: str,
                                         shape: float) -> None:
    t = TimeManager(TimePolicy(shape=shape))
    if mode == "absolute":
        t.time_settings(main, 0, 0)
        t.time_left(0, left, 0)
        assert t.allot(0, 81, played) < max(left, 1e-9)
        share = t.allot(0, 81, played) or 0.0
        long = TimeManager(TimePolicy(extend=4.0, shape=shape))
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
