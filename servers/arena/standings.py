"""The table of a run: per player its games, result with a 95 % interval, rating with its
uncertainty, timeouts and violations; for two-player games also one row per pairing.

* Result: two-player games score 1 / ½ / 0 per game with a Wilson interval; UECda scores the
  points of the game (5 for the daifugo .. 1) with the normal-approximation interval of the
  mean (a player on several seats of a table counts the mean of its seats, once per game).
* Rating: openskill's Plackett–Luce model (mu 25, sigma 25/3 before any game; no skill drift:
  the programs do not change during a run), updated game by game in the order of the
  schedule, so a resumed or parallel run gives the same ratings. A player on several seats
  of one game takes the sum of the updates of its seats. The interval is mu ± 1.96 sigma.
* Pairings (two-player games): wins, draws, losses of the first player, its score with a
  Wilson interval and the Elo difference that score implies (with the interval's ends).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from servers.arena.records import GameRecord
from servers.arena.stats import mean_ci95, wilson

Z95 = 1.959964


@dataclass
class Row:
    label: str
    spec: str
    games: int = 0
    result: float = math.nan  # win rate (draws half) or points per game
    ci95: tuple[float, float] = (math.nan, math.nan)
    rating: float = 25.0
    sigma: float = 25.0 / 3
    timeouts: int = 0
    violations: int = 0
    sweep: str | None = None  # the swept value of a sweep variant

    @property
    def rating_ci95(self) -> tuple[float, float]:
        return (self.rating - Z95 * self.sigma, self.rating + Z95 * self.sigma)


@dataclass
class PairRow:
    first: str
    second: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    ci95: tuple[float, float]
    elo: float | None  # the first player's Elo advantage (None when the score is 0 or 1)
    elo_ci95: tuple[float | None, float | None]


@dataclass
class Standings:
    metric: str  # "win rate" or "points/game"
    rows: list[Row]
    pairs: list[PairRow] = field(default_factory=list)
    games: int = 0
    failed: int = 0

    def to_json(self) -> dict[str, Any]:
        def clean(x: Any) -> Any:
            if isinstance(x, float):
                return None if math.isnan(x) else round(x, 4)
            if isinstance(x, (list, tuple)):
                return [clean(v) for v in x]
            if isinstance(x, dict):
                return {k: clean(v) for k, v in x.items()}
            return x

        rows = []
        for r in self.rows:
            d = asdict(r)
            d["rating_ci95"] = list(r.rating_ci95)
            rows.append(d)
        out: dict[str, Any] = clean({
            "metric": self.metric, "games": self.games, "failed": self.failed, "players": rows,
            "pairings": [asdict(p) for p in self.pairs]})
        return out

class Tally:
    """Running results per player, for progress lines: each game added costs its seats
    only (the full table, with ratings, is computed once at the end)."""

    def __init__(self, records: Iterable[GameRecord] = ()) -> None:
        self.sums: dict[str, float] = {}
        self.counts: dict[str, int] = {}
        self.games = 0
        self.failed = 0
        for r in records:
            self.add(r)

    def add(self, rec: GameRecord) -> None:
        if rec.status != "ok":
            self.failed += 1
            return
        self.games += 1
        per: dict[str, list[float]] = {}
        for label, x in zip(rec.players, rec.result, strict=True):
            per.setdefault(label, []).append(x)
        for label, xs in per.items():
            self.sums[label] = self.sums.get(label, 0.0) + sum(xs) / len(xs)
            self.counts[label] = self.counts.get(label, 0) + 1

    def brief(self, limit: int = 4) -> str:
        """The leaders in a few words: ``label result`` (win rate or points per game)."""
        means = sorted(((s / self.counts[k], k) for k, s in self.sums.items()), reverse=True)
        text = "  ".join(f"{_short(k)} {m:.2f}" for m, k in means[:limit])
        return (f"{self.failed} failed  " if self.failed else "") + text


def _short(label: str, n: int = 24) -> str:
    return label if len(label) <= n else label[:n - 1] + "~"


def elo(p: float) -> float | None:
    """The Elo difference a score ``p`` implies (None at 0 or 1)."""
    if not 0.0 < p < 1.0:
        return None
    return 400.0 * math.log10(p / (1.0 - p))


def standings(records: Sequence[GameRecord], labels: Sequence[str], specs: Sequence[str],
              seats: int, sweep_values: Sequence[str | None] = ()) -> Standings:
    """The table over the ``ok`` records (failed ones are counted), players in the order
    given, pairings in order of first appearance."""
    ok = sorted((r for r in records if r.status == "ok"), key=lambda r: r.key)
    index = {label: i for i, label in enumerate(labels)}
    rows = [Row(label, spec, sweep=sweep_values[i] if i < len(sweep_values) else None)
            for i, (label, spec) in enumerate(zip(labels, specs, strict=True))]
    samples: list[list[float]] = [[] for _ in labels]
    for rec in ok:
        per: dict[int, list[float]] = {}
        for seat, label in enumerate(rec.players):
            i = index[label]
            per.setdefault(i, []).append(rec.result[seat])
            fault = rec.faults[seat] if seat < len(rec.faults) else ""
            rows[i].timeouts += fault == "timeout"
            rows[i].violations += fault == "violation"
        for i, vals in per.items():
            samples[i].append(sum(vals) / len(vals))
    for row, xs in zip(rows, samples, strict=True):
        row.games = len(xs)
        if not xs:
            continue
        if seats == 2:
            row.result = sum(xs) / len(xs)
            row.ci95 = wilson(sum(xs), len(xs))
        else:
            row.result, row.ci95 = mean_ci95(xs, 1.0, float(seats))
    _rate(ok, index, rows)
    failed = sum(1 for r in records if r.status != "ok")
    metric = "win rate" if seats == 2 else "points/game"
    pairs = _pairs(ok) if seats == 2 else []
    return Standings(metric, rows, pairs, len(ok), failed)


def _rate(ok: Sequence[GameRecord], index: dict[str, int], rows: list[Row]) -> None:
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    ratings = [model.rating(name=r.label) for r in rows]
    for rec in ok:
        who = [index[label] for label in rec.players]
        new = model.rate([[ratings[i]] for i in who], ranks=[float(r) for r in rec.ranks])
        mu = {i: ratings[i].mu for i in set(who)}
        var = {i: ratings[i].sigma ** 2 for i in set(who)}
        for seat, i in enumerate(who):
            after = new[seat][0]
            mu[i] += after.mu - ratings[i].mu
            var[i] *= after.sigma ** 2 / ratings[i].sigma ** 2
        for i in set(who):
            ratings[i] = model.rating(mu=mu[i], sigma=math.sqrt(var[i]), name=rows[i].label)
    for row, r in zip(rows, ratings, strict=True):
        row.rating, row.sigma = r.mu, r.sigma


def _pairs(ok: Sequence[GameRecord]) -> list[PairRow]:
    """Per pairing: the results of its first player (the one in seat 0 of even games)."""
    tally: dict[int, list[Any]] = {}
    for rec in ok:
        first_seat = 0 if rec.index % 2 == 0 else 1
        first, second = rec.players[first_seat], rec.players[1 - first_seat]
        t = tally.setdefault(rec.pairing, [first, second, 0, 0, 0])
        s = rec.result[first_seat]
        t[2 if s == 1.0 else 3 if s == 0.5 else 4] += 1
    out = []
    for _, (first, second, w, d, lo_) in sorted(tally.items()):
        n = w + d + lo_
        score = (w + 0.5 * d) / n
        lo, hi = wilson(w + 0.5 * d, n)
        out.append(PairRow(first, second, n, w, d, lo_, score, (lo, hi), elo(score),
                           (elo(lo), elo(hi))))
    return out


def format_table(st: Standings, title: str = "") -> str:
    """The table as text (players by rating, best first; then the pairings)."""
    lines = [title] if title else []
    width = max([len("player"), *(len(r.label) for r in st.rows)])
    width = min(width, 48)
    lines.append(f"{'player':<{width}} {'games':>5} {st.metric:>11} {'95% CI':>15} "
                 f"{'rating':>7} {'95% CI':>15} {'t/o':>4} {'viol':>4}")
    for r in sorted(st.rows, key=lambda r: -r.rating):
        lo, hi = r.ci95
        rlo, rhi = r.rating_ci95
        res = f"{r.result:11.3f}" if r.games else f"{'-':>11}"
        ci = f"[{lo:.3f}, {hi:.3f}]" if r.games else ""
        lines.append(f"{_short(r.label, width):<{width}} {r.games:>5} {res} {ci:>15} "
                     f"{r.rating:7.2f} [{rlo:5.1f}, {rhi:5.1f}] {r.timeouts:>4} "
                     f"{r.violations:>4}")
    if st.pairs:
        pw = min(2 * width + 4, 60)
        lines.append("")
        lines.append(f"{'pairing':<{pw}} {'W-D-L':>9} {'score':>6} {'95% CI':>15} "
                     f"{'Elo':>5} {'95% CI':>13}")
        for p in st.pairs:
            name = _short(f"{p.first} vs {p.second}", pw)
            e = "-" if p.elo is None else f"{p.elo:+.0f}"
            elo_lo = "-inf" if p.elo_ci95[0] is None else f"{p.elo_ci95[0]:+.0f}"
            elo_hi = "+inf" if p.elo_ci95[1] is None else f"{p.elo_ci95[1]:+.0f}"
            wdl, interval = f"{p.wins}-{p.draws}-{p.losses}", f"[{elo_lo}, {elo_hi}]"
            lines.append(f"{name:<{pw}} {wdl:>9} {p.score:6.3f} "
                         f"[{p.ci95[0]:.3f}, {p.ci95[1]:.3f}] {e:>5} {interval:>13}")
    if st.failed:
        lines.append(f"{st.failed} game(s) could not be played (see games.jsonl)")
    return "\n".join(lines)
