"""The tndhms server log format: parser, writer and the replay oracle.

``replay_log(path)`` replays every game of a server log through the rules engine and stops at
the first divergence (an illegal play, a play by the wrong player, a tribute that is not the
strongest cards, a different finishing order or different points).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import games.daihinmin.rules as R
from games.daihinmin.cards import (
    PASS,
    hand_from_str,
    hand_str,
    move_from_str,
    move_str,
    popcount,
    strongest,
)
from games.daihinmin.state import Exchange, GameState


@dataclass
class GameRecord:
    """One game of a log. Everything by player number except ``seat`` (player per seat)."""

    number: int
    mibun: list[int]  # rank of each player (2 for all in a reset game)
    seat: list[int]  # player number in seats 0..4
    dealt: list[int]  # hands as dealt, by player
    changes: list[Exchange] | None  # None = "NULL" (no exchange)
    plays: list[tuple[int, int]]  # (player, move); move 0 = pass
    result: list[int]  # players in finishing order
    points: list[int]  # cumulative points by player after this game


@dataclass
class LogFile:
    header: list[str] = field(default_factory=list)  # raw "%-----%" lines before the games
    games: list[GameRecord] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)  # raw lines after the games

    def player_names(self) -> list[str]:
        """The players' names by player number, from the header's ``palyer_name`` line (as
        tndhms spells it), else ``p0`` … ``p4``."""
        for line in self.header:
            parts = line.split("%")
            if len(parts) > 3 and parts[2] == "palyer_name":
                names = parts[3].split()
                if len(names) == R.NP:
                    return names
        return [f"p{i}" for i in range(R.NP)]


@dataclass
class ReplayResult:
    ok: bool
    games: int  # games replayed without divergence
    plays: int  # plays checked
    first_divergence: str | None = None
    rejected: list[str] = field(default_factory=list)  # plays counted as passes (ack 8)

    def __bool__(self) -> bool:
        return self.ok


def _digits(s: str) -> list[int]:
    return [int(ch) for ch in s.strip()]


def parse_log(text: str) -> LogFile:
    """Parse a whole log (one or more matches' lines; ``%-----%`` lines kept raw)."""
    log = LogFile()
    cur: dict[str, str] = {}
    order: list[int] = []

    def flush() -> None:
        if cur:
            log.games.append(_record(cur))
            cur.clear()

    for line in text.splitlines():
        if not line.startswith("%"):
            continue
        parts = line.split("%", 3)
        if len(parts) < 4:
            continue
        tag, key, val = parts[1], parts[2], parts[3]
        if tag == "-----":
            flush()
            (log.footer if log.games else log.header).append(line)
            continue
        num = int(tag)
        if order and order[-1] != num:
            flush()
        order.append(num)
        cur["number"] = str(num)
        cur[key] = val
    flush()
    return log


def _record(d: dict[str, str]) -> GameRecord:
    changes: list[Exchange] | None = None
    raw = d.get("change_cards", "NULL").strip()
    if raw != "NULL":
        changes = []
        for ent in raw.split():
            if not ent.endswith("EE") or len(ent) < 6:
                raise ValueError(f"bad change_cards entry {ent!r}")
            src, dst, cards = int(ent[0]), int(ent[1]), hand_from_str(ent[2:-2])
            changes.append(Exchange(src, dst, cards, False))
    plays = []
    for ent in d.get("play", "").split():
        if not ent.endswith("EE"):
            raise ValueError(f"bad play entry {ent!r}")
        plays.append((int(ent[0]), move_from_str(ent[1:-2])))
    return GameRecord(
        number=int(d["number"]),
        mibun=_digits(d["mibun"]),
        seat=_digits(d["seat"]),
        dealt=[hand_from_str(h) for h in d["palyer_cards"].split()],
        changes=changes,
        plays=plays,
        result=_digits(d["result"]),
        points=[int(x) for x in d["points"].split()],
    )


def format_game(g: GameRecord) -> str:
    """The lines of one game, in the server's exact layout."""
    n = f"%{g.number:05d}%"
    lines = [
        f"{n}mibun% {''.join(map(str, g.mibun))}",
        f"{n}seat% {''.join(map(str, g.seat))}",
        f"{n}palyer_cards% " + "".join(hand_str(h) + " " for h in g.dealt),
    ]
    if g.changes is None:
        lines.append(f"{n}change_cards% NULL")
    else:
        lines.append(f"{n}change_cards% " + "".join(
            f" {e.src}{e.dst}{hand_str(e.cards)}EE" for e in g.changes))
    lines.append(f"{n}play% " + "".join(f" {p}{move_str(m)}EE" for p, m in g.plays))
    lines.append(f"{n}result% {''.join(map(str, g.result))}")
    lines.append(f"{n}points% {' '.join(map(str, g.points))}")
    return "\n".join(lines) + "\n"


def format_log(log: LogFile) -> str:
    out = [line + "\n" for line in log.header]
    out += [format_game(g) for g in log.games]
    out += [line + "\n" for line in log.footer]
    return "".join(out)


def write_log(log: LogFile, path: str | Path) -> None:
    Path(path).write_text(format_log(log))


def record_of(state: GameState, number: int, mibun: list[int], points: list[int],
              reset: bool) -> GameRecord:
    """A GameRecord of a finished GameState (for servers writing logs)."""
    changes = None if reset else [
        Exchange(e.src, e.dst, e.cards, e.tribute) for e in state.exchanges]
    return GameRecord(number, list(mibun), list(state.order), list(state.dealt), changes,
                      list(state.history), list(state.st[R.FINISH:R.FINISH + R.NP]),
                      list(points))


def replay_game(g: GameRecord, prev_points: list[int],
                rejected: list[str] | None = None) -> tuple[str | None, int]:
    """Replay one game; returns (divergence message or None, number of plays checked).
    Plays the engine rejects are counted as passes (as the server does with an illegal
    submission, which it still writes to the log) and described in ``rejected``."""
    if rejected is None:
        rejected = []
    where = f"game {g.number}"
    hands = list(g.dealt)
    reset = g.changes is None
    if not reset:
        assert g.changes is not None
        mib = g.mibun
        by_rank = {r: p for p, r in enumerate(mib)}
        if sorted(mib) != [0, 1, 2, 3, 4]:
            return f"{where}: ranks {mib} are not a permutation", 0
        expect = [(by_rank[4], by_rank[0], 2), (by_rank[3], by_rank[1], 1)]
        for i, e in enumerate(g.changes):
            if i < 2:
                src, dst, n = expect[i]
                want = strongest(hands[src], n)
                if (e.src, e.dst, e.cards) != (src, dst, want):
                    return (f"{where}: tribute {i} is {e.src}->{e.dst} {hand_str(e.cards)}, "
                            f"engine expects {src}->{dst} {hand_str(want)}"), 0
                e.tribute = True
            else:
                if e.cards & ~hands[e.src]:
                    return f"{where}: player {e.src} gives cards he lacks", 0
                n = 2 if mib[e.src] == 0 else 1 if mib[e.src] == 1 else 0
                dst = by_rank[4] if mib[e.src] == 0 else by_rank[3]
                if popcount(e.cards) != n or e.dst != dst:
                    return f"{where}: exchange entry {i} invalid", 0
            hands[e.src] &= ~e.cards
            hands[e.dst] |= e.cards
    st = GameState(hands, g.seat, ranks=g.mibun, exchanges=g.changes or [], dealt=g.dealt,
                   lead_pass=True)
    for i, (p, m) in enumerate(g.plays):
        if st.is_terminal():
            return f"{where} play {i}: the game is already over (plays go on)", i
        if p != st.to_move:
            return (f"{where} play {i}: player {p} plays {move_str(m) or 'pass'}, "
                    f"engine expects player {st.to_move} to move"), i
        if m != PASS and not st.accepts(m):
            # the server logs a rejected submission as is and counts it as a pass
            rejected.append(f"{where} play {i}: player {p} {move_str(m)} on "
                            f"{move_str(st.table) or 'an empty table'}"
                            f"{' (revolution)' if st.revolution else ''}"
                            f"{' (lock)' if st.lock else ''}")
            m = PASS
        st.play(m)
    if not st.is_terminal():
        return f"{where}: plays end but the engine's game goes on", len(g.plays)
    fin = st.st[R.FINISH:R.FINISH + R.NP]
    if st.st[R.STALE]:
        fin_check = [p for p in fin if not st.st[R.H0 + p]]  # players who really finished
        if g.result[:len(fin_check)] != fin_check:
            return f"{where}: result {g.result}, engine (stalemate) {fin}", len(g.plays)
        fin = g.result
    elif fin != g.result:
        return f"{where}: result {g.result}, engine {fin}", len(g.plays)
    pts = list(prev_points)
    for i, p in enumerate(fin):
        pts[p] += R.POINTS[i]
    if pts != g.points:
        return f"{where}: points {g.points}, engine {pts}", len(g.plays)
    return None, len(g.plays)


def replay_text(text: str) -> ReplayResult:
    log = parse_log(text)
    pts = [0] * R.NP
    plays = 0
    rejected: list[str] = []
    for k, g in enumerate(log.games):
        if g.number == 0 or (k > 0 and g.number <= log.games[k - 1].number):
            pts = [0] * R.NP
        msg, n = replay_game(g, pts, rejected)
        plays += n
        if msg:
            return ReplayResult(False, k, plays, msg, rejected)
        pts = g.points
    return ReplayResult(True, len(log.games), plays, None, rejected)


def replay_log(path: str | Path) -> ReplayResult:
    """Replay a tndhms server log. ``result.ok``, ``result.games`` (games replayed clean),
    ``result.first_divergence`` (None or a message naming the game and the play index)."""
    try:
        text = Path(path).read_text()
    except OSError as e:
        return ReplayResult(False, 0, 0, f"cannot read {path}: {e}")
    try:
        return replay_text(text)
    except (ValueError, KeyError, IndexError) as e:
        return ReplayResult(False, 0, 0, f"cannot parse {path}: {e}")
