"""What an arena run keeps: one :class:`GameRecord` per game, and the run directory.

A run directory holds

* ``run.json`` — the run's settings (:class:`RunConfig`): game, players, schedule, games per
  pairing, seed, chunk, the game's options;
* ``games.jsonl`` — one JSON line per game (:class:`GameRecord`), appended as games end; a
  game that could not be played (its task failed twice) has ``"status": "failed"``;
* the game records in the formats users know: ``uecda/*.log`` (tndhms server logs, one per
  match), ``sgf/*.sgf`` (Go), ``blokus/*.blksgf`` (Pentobi's Blokus SGF).

``--resume DIR`` reads ``run.json`` and ``games.jsonl`` and plays only the games without an
``ok`` line (a truncated last line, from a run that was killed, is ignored). A record file
that a resumed task would write again (a UECda log cut off by the interruption) is first
renamed ``NAME.interrupted1``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import msgspec


class RunConfig(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    game: str
    players: list[str]  # the --player specs as given (labels included)
    games: int  # per pairing
    seed: int
    chunk: int  # games per task
    schedule: str = "roundrobin"
    sweep: str | None = None
    options: dict[str, Any] = {}
    version: int = 1


class GameRecord(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One game. Seats: UECda player numbers 0-4; Go black, white; Blokus player 1, 2."""

    pairing: int
    index: int  # game number within the pairing, 0-based
    status: str = "ok"  # ok | failed
    players: list[str] = []  # participant label per seat
    specs: list[str] = []  # their specs
    result: list[float] = []  # per seat: UECda points (5..1); else 1 win, 0.5 draw, 0 loss
    ranks: list[int] = []  # per seat, 0 = best (ties share a rank)
    reason: str = ""  # how it ended (score, resign, timeout, illegal, ...; UECda: end)
    detail: str = ""
    faults: list[str] = []  # per seat: "" or timeout / violation (what the seat did wrong)
    standin: list[bool] = []  # UECda: the seat was played by the server's stand-in
    first: int | None = None  # Blokus: the seat that moved first
    score: float | None = None  # Go: black minus white; Blokus: player 1 minus player 2
    moves: list[str] = []  # Go: GTP vertices; Blokus: host move codes
    answer_times: list[list[float]] = []  # Go, Blokus: per seat, the seconds of each answer
    record: str = ""  # the file (relative to the run directory) with this game's record
    record_game: int = 0  # the game's number in that file, when it holds several (UECda)
    seed: int = 0
    seconds: float = 0.0
    task: int = 0
    attempt: int = 1
    options: dict[str, Any] = {}
    error: str = ""  # why a failed game could not be played
    text: str = ""  # the game record itself (kept in memory, not in games.jsonl)

    @property
    def key(self) -> tuple[int, int]:
        return (self.pairing, self.index)


@dataclass
class Piece:
    """What a task yields: a finished game (or None) and text to append to record files."""

    game: GameRecord | None
    files: dict[str, str] = field(default_factory=dict)  # relative path -> text to append


class RunDirError(ValueError):
    pass


class RunDir:
    """A run directory (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._games: TextIO | None = None
        self._written: set[str] = set()  # record files this process has written to

    @property
    def config_path(self) -> Path:
        return self.path / "run.json"

    def exists(self) -> bool:
        return self.config_path.exists()

    def create(self, config: RunConfig) -> None:
        if self.exists():
            raise RunDirError(f"{self.path} already holds a run: resume it with --resume "
                              f"{self.path}, or choose another --out")
        self.path.mkdir(parents=True, exist_ok=True)
        self.config_path.write_bytes(msgspec.json.format(msgspec.json.encode(config)) + b"\n")

    def load_config(self) -> RunConfig:
        try:
            return msgspec.json.decode(self.config_path.read_bytes(), type=RunConfig)
        except FileNotFoundError:
            raise RunDirError(f"{self.path} holds no arena run (no run.json)") from None
        except msgspec.DecodeError as e:
            raise RunDirError(f"{self.config_path} is damaged: {e}") from None

    def load_games(self) -> list[GameRecord]:
        """Every game line, in file order; a damaged line (a killed run's last) is skipped."""
        path = self.path / "games.jsonl"
        if not path.exists():
            return []
        out = []
        dec = msgspec.json.Decoder(GameRecord)
        for line in path.read_bytes().splitlines():
            if line.strip():
                try:
                    out.append(dec.decode(line))
                except msgspec.DecodeError:
                    continue
        return out

    def add(self, piece: Piece) -> None:
        for rel, text in piece.files.items():
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if rel not in self._written:
                self._written.add(rel)
                if target.exists():  # left by an interrupted run: keep it aside
                    n = 1
                    while target.with_name(f"{target.name}.interrupted{n}").exists():
                        n += 1
                    target.rename(target.with_name(f"{target.name}.interrupted{n}"))
            with open(target, "a", encoding="utf-8") as f:
                f.write(text)
        if piece.game is not None:
            if self._games is None:
                self._games = open(self.path / "games.jsonl", "a", encoding="utf-8")  # noqa: SIM115
                self._fix_torn_line()
            line = msgspec.json.encode(msgspec.structs.replace(piece.game, text=""))
            self._games.write(line.decode() + "\n")
            self._games.flush()

    def _fix_torn_line(self) -> None:
        """A killed run may have left half a line: start ours on a line of its own."""
        assert self._games is not None
        path = self.path / "games.jsonl"
        if path.stat().st_size:
            with open(path, "rb") as f:
                f.seek(-1, 2)
                if f.read(1) != b"\n":
                    self._games.write("\n")

    def close(self) -> None:
        if self._games is not None:
            self._games.close()
            self._games = None


def latest(records: list[GameRecord]) -> dict[tuple[int, int], GameRecord]:
    """The last word on each game: an ok record beats a failed one, a later one an earlier."""
    out: dict[tuple[int, int], GameRecord] = {}
    for r in records:
        old = out.get(r.key)
        if old is None or r.status == "ok" or old.status != "ok":
            out[r.key] = r
    return out
