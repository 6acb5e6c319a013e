"""Positions of recorded games as move-feature teams for the learners.

Each position before a move of a game (up to and including its first pass: after it, GNU Go
and corvid only clean up dead stones) becomes one contest: the candidates are the contract's
legal moves (``GoState.legal_moves()``: legal points not filling the mover's own true eye,
then PASS), each described by :func:`knowledge.go.features.k_move_features` with its pattern
made canonical (:func:`knowledge.go.patterns.canonical20`) and its two large-pattern codes
(:func:`knowledge.go.features.k_large_codes`), and the winner is the move played.
A move that is not a candidate (an eye filled) leaves its position out. With a ``player``
name, only the moves of the side the record names so (SGF ``PB``/``PW``) become contests: the
GNU Go moves of games against GNU Go, say, not its opponent's.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import structlog
from sgfmill import sgf

from games.go import PASS, GoState
from games.go.sgf import from_sgf
from knowledge.go import features as F
from knowledge.go.patterns import canonical20
from search.learn import select_contests
from training.files import files_digest

log = structlog.get_logger()

FEATURES_VERSION = 3  # bump when knowledge.go.features changes what it computes


@dataclass
class Contests:
    """``feats[k]``: candidate k's features (pattern column canonical), ``large[k]`` its
    large-pattern codes (distance 3, distance 2; -1 for PASS); the candidates of position i
    are ``starts[i]:starts[i + 1]``, the one played ``chosen[i]`` (an index into feats);
    ``game[i]`` numbers the game of position i (0-based, in file order)."""

    feats: np.ndarray  # int32 (K, NG)
    starts: np.ndarray  # int64 (P + 1)
    chosen: np.ndarray  # int64 (P)
    game: np.ndarray  # int32 (P)
    large: np.ndarray  # int64 (K, 2)

    @property
    def positions(self) -> int:
        return len(self.chosen)

    def subset(self, keep: np.ndarray) -> Contests:
        """The positions where ``keep`` (bool per position) holds."""
        idx, rows, starts = select_contests(self.starts, keep)
        chosen = starts[:-1] + (self.chosen[idx] - self.starts[idx])
        return Contests(self.feats[rows], starts, chosen, self.game[idx], self.large[rows])


def replay(data: bytes) -> tuple[GoState, list[tuple[int, int]]]:
    """The starting position of an SGF game (setup stones placed) and its moves."""
    final = from_sgf(data)
    s = GoState(final.size, final.komi)
    for colour in (1, 2):
        stones = [p for c, p in final.setup if c == colour]
        if stones:
            s.place_setup(colour, stones)
    if final.history:
        s.to_play = final.history[0][0]
    return s, list(final.history)


def player_colours(data: bytes, player: str) -> set[int]:
    """The colours (1 black, 2 white) that the SGF record's PB / PW name ``player``."""
    root = sgf.Sgf_game.from_bytes(data).get_root()
    return {colour for colour, prop in ((1, "PB"), (2, "PW"))
            if root.has_property(prop) and root.get(prop) == player}


def game_contests(data: bytes, player: str | None = None
                  ) -> tuple[list[np.ndarray], list[np.ndarray], list[int]]:
    """(features of each position's candidates, their large-pattern codes, index of the move
    played) for one game: of every move, or of the moves of the side named ``player``."""
    s, history = replay(data)
    movers = {1, 2} if player is None else player_colours(data, player)
    canon = canonical20()
    out: list[np.ndarray] = []
    large: list[np.ndarray] = []
    chosen: list[int] = []
    for colour, p in history:
        s.to_play = colour
        moves = s.legal_moves()
        if colour in movers and p in moves:
            arr = np.asarray(moves, dtype=np.int32)
            f = np.zeros((len(arr), F.NG), dtype=np.int32)
            F.k_move_features(s.board_array(), colour, arr, f)
            pat = f[:, F.G_PATTERN]
            f[:, F.G_PATTERN] = np.where(pat >= 0, canon[np.maximum(pat, 0)], -1)
            out.append(f)
            lc = np.zeros((len(arr), 2), dtype=np.int64)
            F.k_large_codes(s.board_array(), colour, arr, lc)
            large.append(lc)
            chosen.append(moves.index(p))
        s.play_colour(colour, p)
        if p == PASS:
            break
    return out, large, chosen


def sgf_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.sgf"))


def build_contests(files: list[Path], player: str | None = None) -> Contests:
    feats: list[np.ndarray] = []
    large: list[np.ndarray] = []
    starts = [0]
    chosen: list[int] = []
    game: list[int] = []
    for g, path in enumerate(files):
        fs, ls, ch = game_contests(path.read_bytes(), player)
        for f, lc, c in zip(fs, ls, ch, strict=True):
            chosen.append(starts[-1] + c)
            starts.append(starts[-1] + len(f))
            feats.append(f)
            large.append(lc)
            game.append(g)
    return Contests(
        np.concatenate(feats) if feats else np.zeros((0, F.NG), dtype=np.int32),
        np.asarray(starts, dtype=np.int64), np.asarray(chosen, dtype=np.int64),
        np.asarray(game, dtype=np.int32),
        np.concatenate(large) if large else np.zeros((0, 2), dtype=np.int64))


def load_contests(files: list[Path], cache: Path | None = None, player: str | None = None
                  ) -> Contests:
    """:func:`build_contests`, kept in ``cache`` (an .npz, rebuilt when the games, the player
    or the features version change, or when it cannot be read). Runs on the same directory at
    once each write their own temporary file; a cache that cannot be written is skipped with a
    warning (the contests are still returned)."""
    key = f"{FEATURES_VERSION}-{files_digest(files)}-{player or ''}"
    if cache is not None and cache.exists():
        try:
            with np.load(cache) as z:
                if str(z["key"]) == key:
                    return Contests(z["feats"], z["starts"], z["chosen"], z["game"],
                                    z["large"])
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
            log.warning("contests_cache_unreadable", path=str(cache), error=str(e))
    c = build_contests(files, player)
    if cache is not None:
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=cache.stem + ".", suffix=".tmp.npz",
                                       dir=cache.parent)
            with os.fdopen(fd, "wb") as f:
                np.savez_compressed(f, key=key, feats=c.feats, starts=c.starts,
                                    chosen=c.chosen, game=c.game, large=c.large)
            os.replace(tmp, cache)
        except OSError as e:
            log.warning("contests_cache_not_written", path=str(cache), error=str(e))
            if tmp is not None and os.path.exists(tmp):
                os.unlink(tmp)
    return c
