"""Live analysis for the GUIs: ``lz-analyze``, ``kata-analyze`` and ``genmove_analyze``.

A search of the position goes on in slices between the engine's commands (the player's
:class:`Analysis`); every interval its candidate moves are written as one line in Leela
Zero's format (``info move D4 visits 12 winrate 5230 prior 1210 order 0 pv D4 E5 ...``,
win rate and prior in 0..10000) or KataGo's (the same keys, win rate and prior in 0..1).
The win rate is that of the side to move. :class:`AnalysisStream` is the state of one such
answer: it never does I/O, the engine's loop writes what :meth:`AnalysisStream.step` gives.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from protocols.gtp import GtpSyntaxError, Vertex, format_vertex, parse_int

SLICE_SECONDS = 0.05  # a search slice: the longest a new command waits for the analysis
DEFAULT_INTERVAL = 1.0  # seconds between lines when the command gives no interval
# kata-analyze / lz-analyze keys that are accepted and not used (corvid has no ownership map)
IGNORED_KEYS = ("minmoves", "ownership", "ownershipStdev", "pvVisits", "pvEdgeVisits",
                "movesOwnership", "movesOwnershipStdev", "rootInfo")


@dataclass(frozen=True)
class Candidate:
    """A move of the root as the search sees it: its visits, its win rate for the side to
    move (0..1), its prior (the move's share of the prior, 0..1) and the line the search
    expects after it (the move first)."""

    vertex: Vertex
    visits: int
    winrate: float
    prior: float
    pv: list[Vertex]


class Analysis(Protocol):
    """A search of one position that goes on between calls (the player's tree kept)."""

    def step(self, seconds: float) -> list[Candidate]:
        """Search about ``seconds`` more; the root's searched moves, most visited first."""
        ...

    @property
    def done(self) -> bool:
        """Whether the move's budget is spent (a search for a move); never for analysis."""
        ...


def format_info(candidates: list[Candidate], kata: bool, max_moves: int = 0) -> str:
    """One line of ``info`` entries, Leela Zero's (``kata`` false) or KataGo's numbers."""
    out = []
    for order, c in enumerate(candidates[:max_moves] if max_moves > 0 else candidates):
        if kata:
            numbers = f"winrate {c.winrate:.6f} prior {c.prior:.6f}"
        else:
            numbers = f"winrate {round(10000 * c.winrate)} prior {round(10000 * c.prior)}"
        pv = " ".join(format_vertex(v) for v in c.pv)
        out.append(f"info move {format_vertex(c.vertex)} visits {c.visits} {numbers} "
                   f"order {order} pv {pv}")
    return " ".join(out)


@dataclass(frozen=True)
class AnalyzeArgs:
    """The arguments of ``lz-analyze`` / ``kata-analyze`` after the colour: the interval
    in seconds and the most candidates a line lists (0: all)."""

    interval: float = DEFAULT_INTERVAL
    max_moves: int = 0


def parse_analyze_args(args: list[str]) -> AnalyzeArgs:
    """``[interval] [key value ...]`` (interval in centiseconds, also as ``interval N``;
    ``maxmoves N``; the keys of IGNORED_KEYS accepted and ignored)."""
    interval, max_moves = DEFAULT_INTERVAL, 0
    rest = list(args)
    if rest and rest[0].isdigit():
        interval = parse_int(rest.pop(0), "interval") / 100
    if len(rest) % 2:
        raise GtpSyntaxError()
    for key, value in zip(rest[::2], rest[1::2], strict=True):
        if key == "interval":
            interval = parse_int(value, "interval") / 100
        elif key == "maxmoves":
            max_moves = parse_int(value, "maxmoves")
        elif key not in IGNORED_KEYS:
            raise GtpSyntaxError()
    if interval < 0 or max_moves < 0:
        raise GtpSyntaxError()
    return AnalyzeArgs(interval, max_moves)


class AnalysisStream:
    """One streamed answer: the search in slices, a line every ``interval`` seconds.
    ``finish`` (given for ``genmove_analyze``) ends it once the analysis is done: it plays
    the move and returns the answer's last line (``play D4``); without it the stream goes
    on until the next command (``interruptible``)."""

    def __init__(self, analysis: Analysis, kata: bool, args: AnalyzeArgs,
                 clock: Callable[[], float],
                 finish: Callable[[list[Candidate]], str] | None = None) -> None:
        self.analysis = analysis
        self.kata = kata
        self.args = args
        self.clock = clock
        self.finish = finish
        self.next_line = clock() + args.interval
        self.candidates: list[Candidate] = []
        self.ended = False

    @property
    def interruptible(self) -> bool:
        return self.finish is None

    def step(self) -> bytes:
        """Search one slice; the bytes to write (a line when the interval is up, the end of
        the answer when a move's search is done, else nothing)."""
        now = self.clock()
        seconds = min(SLICE_SECONDS, max(self.next_line - now, 0.0)) or SLICE_SECONDS
        self.candidates = self.analysis.step(seconds)
        out = ""
        if self.clock() >= self.next_line:
            self.next_line = self.clock() + self.args.interval
            out = self._line()
        if self.finish is not None and self.analysis.done:
            if not out:
                out = self._line()
            out += f"play {self.finish(self.candidates)}\n\n"
            self.ended = True
        return out.encode()

    def stop(self) -> bytes:
        """End the answer (a new command came): its closing blank line."""
        self.ended = True
        return b"\n"

    def _line(self) -> str:
        if not self.candidates:
            return ""
        return format_info(self.candidates, self.kata, self.args.max_moves) + "\n"


def prior_shares(wins: list[float]) -> list[float]:
    """Priors as shares (0..1, summing to 1): each move's prior pseudo-wins over all."""
    total = math.fsum(wins)
    return [w / total if total > 0 else 0.0 for w in wins]
