"""Time management for a GTP engine: from ``time_settings`` / ``kgs-time_settings`` and
``time_left`` to a number of seconds for the next move, never losing on time.

The rule: in main time, spend ``(remaining - reserve) / expected moves left`` (the reserve
includes a fixed overhead per expected move; where a byo-yomi follows, at least a safe share
of one byo-yomi period), or with a ``shape`` a weighted share that gives the opening more
than the endgame (:meth:`TimePolicy.weight`); in Canadian byo-yomi,
``(period left - reserve) / stones left``; in Japanese byo-yomi, a share of one period (the
period is given back after each move). ``reserve`` covers the controller's and the network's
lag and our own overhead around the search. The clock is also tracked locally (our own
thinking time is subtracted after each move) for controllers that never send ``time_left``.

A move whose search ends unclear may take more (:meth:`TimeManager.extension`): in main time
only, up to ``extend`` times its share and at most half of what main time holds beyond the
share after the reserves; never from a byo-yomi period. A search that ends early gives its
time back to the clock, and so to the later moves' shares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Mode = Literal["none", "absolute", "canadian", "byoyomi"]


@dataclass
class ClockState:
    """What we know of one colour's clock."""

    main_left: float = 0.0
    period_left: float = 0.0  # time left in the current byo-yomi period
    stones_left: int = 0  # Canadian: stones left in the period; 0 in main time
    periods_left: int = 0  # Japanese byo-yomi periods left
    in_byoyomi: bool = False


@dataclass(frozen=True)
class TimeSettings:
    mode: Mode = "none"
    main: float = 0.0
    period: float = 0.0  # byo-yomi period length (seconds)
    stones: int = 0  # Canadian stones per period
    periods: int = 0  # Japanese byo-yomi periods

    @property
    def limited(self) -> bool:
        return self.mode != "none"


@dataclass(frozen=True)
class TimePolicy:
    """Tuning of the allotment (fields of the engine config)."""

    reserve: float = 0.5  # seconds always kept back (lag, process overhead)
    reserve_fraction: float = 0.05  # plus this share of what is left
    overhead: float = 0.02  # fixed cost of a move outside the search (kept back per move)
    moves_fraction: float = 0.45  # expected moves left per player = fraction * points - played
    min_moves_left: int = 12
    byoyomi_use: float = 0.7  # share of a byo-yomi allotment spent
    max_seconds: float = 0.0  # hard cap per move (0: none)
    extend: float = 0.0  # share of a move's time an unclear search may add (main time only)
    shape: float = 0.0  # main time: how much more the opening gets than the endgame (weight)

    def expected_moves(self, points: int) -> int:
        """The moves a player is expected to make in a game on ``points`` intersections."""
        return max(1, int(self.moves_fraction * points))

    def weight(self, move: int, points: int) -> float:
        """The weight of a player's move ``move`` (0 for its first) in the share of main time:
        ``1 + shape * max(-1, 1 - 2 move / n)`` over the ``n`` expected moves, so from
        ``1 + shape`` at the first move down to 1 at the middle of the game and ``1 - shape``
        from move ``n`` on; 1 at every move with ``shape`` 0: the time goes where games are
        decided, not to a settled endgame (how the time is spread over a game's moves
        changes strength: Huang, Coulom and Lin 2010; Baier and Winands 2016)."""
        n = self.expected_moves(points)
        return 1.0 + self.shape * max(-1.0, 1.0 - 2.0 * move / n)


@dataclass
class TimeManager:
    policy: TimePolicy = field(default_factory=TimePolicy)
    settings: TimeSettings = field(default_factory=TimeSettings)
    clocks: dict[int, ClockState] = field(default_factory=dict)

    # -- commands ----------------------------------------------------------------------
    def time_settings(self, main: float, byo_time: float, byo_stones: int) -> None:
        """GTP ``time_settings``: byo_time > 0 with stones 0 means no limit."""
        if byo_time > 0 and byo_stones == 0:
            self.set(TimeSettings())
        elif byo_stones > 0:
            self.set(TimeSettings("canadian", main, byo_time, byo_stones))
        else:
            self.set(TimeSettings("absolute", main))

    def set(self, settings: TimeSettings) -> None:
        self.settings = settings
        self.clocks = {c: self._fresh() for c in (0, 1)}

    def _fresh(self) -> ClockState:
        s = self.settings
        st = ClockState(main_left=s.main, periods_left=s.periods)
        if s.main <= 0 and s.mode in ("canadian", "byoyomi"):
            st.in_byoyomi = True
            st.period_left = s.period
            st.stones_left = s.stones if s.mode == "canadian" else 0
        return st

    def time_left(self, colour: int, seconds: float, stones: int) -> None:
        """GTP ``time_left``: stones 0 means main time. Under Japanese byo-yomi (KGS) the
        stones are the periods left and the time is what is left of the current period."""
        st = self.clocks.setdefault(colour, self._fresh())
        mode = self.settings.mode
        if stones == 0:
            st.in_byoyomi = False
            st.main_left = seconds
        elif mode == "byoyomi":
            st.in_byoyomi = True
            st.main_left = 0.0
            st.period_left = seconds
            st.periods_left = stones
        else:
            st.in_byoyomi = True
            st.main_left = 0.0
            st.period_left = seconds
            st.stones_left = stones

    def spent(self, colour: int, seconds: float) -> None:
        """Track our own clock after a move that took ``seconds`` (between time_left)."""
        st = self.clocks.get(colour)
        s = self.settings
        if st is None or not s.limited:
            return
        if not st.in_byoyomi:
            st.main_left -= seconds
            if st.main_left >= 0 or s.mode == "absolute":
                return
            over = -st.main_left
            st.main_left = 0.0
            st.in_byoyomi = True
            st.period_left = s.period
            st.stones_left = s.stones
            seconds = over
        if s.mode == "canadian":
            st.period_left -= seconds
            st.stones_left -= 1
            if st.stones_left <= 0:
                st.period_left = s.period
                st.stones_left = s.stones
        elif s.mode == "byoyomi":
            if seconds > s.period:
                st.periods_left = max(0, st.periods_left - 1)
            st.period_left = s.period

    # -- the allotment -----------------------------------------------------------------
    def _moves_left(self, points: int, played: int) -> int:
        p = self.policy
        return max(p.min_moves_left, p.expected_moves(points) - played)

    def _share(self, points: int, played: int, moves_left: int) -> float:
        """The next move's share of what main time leaves for ``moves_left`` moves: its
        weight over the weights of the moves left (1 / moves_left with no shape)."""
        p = self.policy
        total = sum(p.weight(played + i, points) for i in range(moves_left))
        return p.weight(played, points) / total

    def _keep(self, t: float, moves: int = 1) -> float:
        """What ``t`` seconds leave to spend over ``moves`` moves after the reserves."""
        p = self.policy
        return max(0.0, t - p.reserve - p.reserve_fraction * max(t, 0.0) - moves * p.overhead)

    def allot(self, colour: int, points: int, played: int) -> float | None:
        """Seconds for our next move, or None when the game is not timed.

        ``points``: intersections on the board; ``played``: moves this colour has made."""
        s = self.settings
        if not s.limited:
            return None
        p = self.policy
        st = self.clocks.setdefault(colour, self._fresh())
        moves_left = self._moves_left(points, played)
        keep = self._keep
        if not st.in_byoyomi:
            budget = keep(st.main_left, moves_left) * self._share(points, played, moves_left)
            if s.mode == "canadian" and s.stones > 0:
                budget = max(budget, p.byoyomi_use * keep(s.period, s.stones) / s.stones)
            elif s.mode == "byoyomi" and s.periods > 0:
                budget = max(budget, p.byoyomi_use * keep(s.period))
        elif s.mode == "canadian":
            stones = max(1, st.stones_left)
            budget = p.byoyomi_use * keep(st.period_left, stones) / stones
        elif s.mode == "byoyomi":
            if st.period_left > 0:
                budget = p.byoyomi_use * keep(st.period_left)
            else:  # the current period is gone: spend part of the next only if one is spare
                budget = p.byoyomi_use * keep(s.period) if st.periods_left > 1 else 0.0
        else:
            budget = 0.0
        if p.max_seconds > 0:
            budget = min(budget, p.max_seconds)
        return max(0.0, budget)

    def extension(self, colour: int, points: int, played: int, share: float) -> float:
        """Seconds a move allotted ``share`` (:meth:`allot`) may add when its search ends
        unclear: up to ``extend`` times the share, in main time only, and at most half of
        what main time holds beyond the share after the reserves for the moves left (0 in
        byo-yomi, untimed, or with ``extend`` 0); within ``max_seconds`` with the share."""
        s, p = self.settings, self.policy
        st = self.clocks.get(colour)
        if p.extend <= 0 or not s.limited or st is None or st.in_byoyomi:
            return 0.0
        spare = self._keep(st.main_left, self._moves_left(points, played)) - share
        extra = min(p.extend * share, spare / 2)
        if p.max_seconds > 0:
            extra = min(extra, p.max_seconds - share)
        return max(0.0, extra)
