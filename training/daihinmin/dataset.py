"""Stage 2: decisions from tndhms game logs, as features of every candidate move.

A decision is one play of a player with at least two candidates (the legal melds and, when
following, the pass): its candidates' feature rows (``knowledge.daihinmin.learned.
features_matrix``, from the mover's view: its hand, the cards the others hold together, the
table, revolution, lock and the fewest cards of another player) and the index of the move
taken. A submission the server rejected counts as the pass it was; a pass on an empty table
(the server accepts it, the policy never plays it) is left out.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from games.daihinmin.cards import PASS
from games.daihinmin.replay import GameRecord, parse_log
from games.daihinmin.state import GameState
from knowledge.daihinmin.features import N_DENSE, N_TABLE
from knowledge.daihinmin.learned import decision_rows
from search.learn import select_contests


@dataclass
class Decisions:
    X: npt.NDArray[np.float64]  # candidate feature rows
    offsets: npt.NDArray[np.int64]  # decision g: rows offsets[g]:offsets[g+1]
    chosen: npt.NDArray[np.int64]  # index of the move taken, within its decision
    player: npt.NDArray[np.int64]  # who decided (player number in its log)

    def __len__(self) -> int:
        return len(self.chosen)

    def subset(self, mask: npt.NDArray[np.bool_]) -> Decisions:
        idx, rows, offsets = select_contests(self.offsets, mask)
        return Decisions(self.X[rows], offsets, self.chosen[idx], self.player[idx])

    def dense(self) -> Decisions:
        """The same decisions described by the dense features only (no shape table, no
        context)."""
        return Decisions(self.X[:, :N_DENSE], self.offsets, self.chosen, self.player)

    def without_context(self) -> Decisions:
        """The same decisions described by the dense features and the shape table."""
        return Decisions(self.X[:, :N_DENSE + N_TABLE], self.offsets, self.chosen, self.player)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, X=self.X.astype(np.float32), offsets=self.offsets,
                            chosen=self.chosen, player=self.player)

    @classmethod
    def load(cls, path: str | Path) -> Decisions:
        d = np.load(path)
        return cls(d["X"].astype(np.float64), d["offsets"], d["chosen"], d["player"])


def start_state(g: GameRecord) -> GameState:
    """The game of a log record after its exchange (the log was checked by the replay)."""
    hands = list(g.dealt)
    for e in g.changes or []:
        hands[e.src] &= ~e.cards
        hands[e.dst] |= e.cards
    return GameState(hands, g.seat, ranks=g.mibun, exchanges=g.changes or [], dealt=g.dealt,
                     lead_pass=True)


def plays(g: GameRecord) -> Iterator[tuple[GameState, int, int]]:
    """(state before the play, player, move as the server took it) for each play of a game;
    the state is played on after each yield (do not keep it)."""
    st = start_state(g)
    for p, m in g.plays:
        if st.is_terminal():
            return
        if m != PASS and not st.accepts(m):
            m = PASS  # rejected: the server counts it as a pass
        yield st, p, m
        st.play(m)


def decisions(records: Iterable[GameRecord], players: set[int] | None = None) -> Decisions:
    """The decisions of ``players`` (player numbers; None = everyone) in the games."""
    return _decisions((g, players) for g in records)


def _decisions(games: Iterable[tuple[GameRecord, set[int] | None]]) -> Decisions:
    rows: list[npt.NDArray[np.float64]] = []
    offsets = [0]
    chosen: list[int] = []
    who: list[int] = []
    for g, players in games:
        for st, p, m in plays(g):
            if players is not None and p not in players:
                continue
            got = decision_rows(st, p, m)
            if got is None:
                continue
            rows.append(got[0])
            offsets.append(offsets[-1] + len(got[0]))
            chosen.append(got[1])
            who.append(p)
    X = np.vstack(rows) if rows else np.zeros((0, 0))
    return Decisions(X, np.array(offsets, np.int64), np.array(chosen, np.int64),
                     np.array(who, np.int64))


def decisions_from_logs(paths: Iterable[str | Path],
                        names: Collection[str] | None = None) -> Decisions:
    """The decisions in game logs; with ``names``, only those of the players so named in
    each log's header (``LogFile.player_names``)."""
    def games() -> Iterator[tuple[GameRecord, set[int] | None]]:
        for path in paths:
            log = parse_log(Path(path).read_text())
            keep = None if names is None else \
                {p for p, n in enumerate(log.player_names()) if n in names}
            for g in log.games:
                yield g, keep
    return _decisions(games())
