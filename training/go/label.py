"""``corvid learn go label``: positions of recorded games labelled with deep-search values.

Positions are drawn (seeded) from the games in a directory: a game, then a move number
between ``skip`` and its first pass. Each is searched by ``corvid gtp``'s UCT (its default
settings, changed by ``--set``) with a large playout budget; the label is the value, for
the player to move, of the root move the search chooses (its most visited). One JSON line
per position in the output file (game file, move number, value, playouts), appended as each
finishes, so an interrupted run resumes (with
the same games directory, seed and count, the same positions are drawn). These are the
"labelled positions" of the playout policies' MSE measure (bench/go_mse.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from games.go import PASS, GoState
from training.go.dataset import replay, sgf_files

if TYPE_CHECKING:
    from clients.gtp.config import GtpConfig


@dataclass(frozen=True)
class LabelledPosition:
    game: str  # file name in the games directory
    move: int  # moves played before the position
    value: float  # deep-search value for the player to move
    playouts: int


def position_at(path: Path, move: int) -> GoState:
    """The position of an SGF game after ``move`` moves (setup stones placed)."""
    s, history = replay(path.read_bytes())
    for colour, p in history[:move]:
        s.play_colour(colour, p)
    if move < len(history):
        s.to_play = history[move][0]
    return s


def pick_positions(files: list[Path], n: int, seed: int, skip: int = 6
                   ) -> list[tuple[Path, int]]:
    """n distinct (game, move) pairs: a random game, a random move from ``skip`` up to the
    first pass (games too short are skipped)."""
    rng = np.random.default_rng(seed)
    lengths = {}
    for f in files:
        _, history = replay(f.read_bytes())
        k = next((i for i, (_, p) in enumerate(history) if p == PASS), len(history))
        if k > skip:
            lengths[f] = k
    pool = sorted(lengths)
    if not pool:
        return []
    out: list[tuple[Path, int]] = []
    seen = set()
    tries = 0
    while len(out) < n and tries < 20 * n:
        tries += 1
        f = pool[int(rng.integers(len(pool)))]
        m = int(rng.integers(skip, lengths[f]))
        if (f.name, m) not in seen:
            seen.add((f.name, m))
            out.append((f, m))
    return out


def read_labels(path: Path) -> list[LabelledPosition]:
    if not path.exists():
        return []
    return [LabelledPosition(**json.loads(line)) for line in
            path.read_text(encoding="utf-8").splitlines() if line.strip()]


def labelling_config(settings: list[str]) -> GtpConfig:
    """The settings of the labelling search: ``corvid gtp``'s defaults changed by
    ``settings``, on :mod:`search.uct` (the Python tree)."""
    from clients.gtp.config import load_gtp_config

    return load_gtp_config(None, [*settings, "compiled=false"])


def search_value(state: GoState, cfg: GtpConfig, playouts: int, rng: np.random.Generator
                 ) -> tuple[float, int]:
    """(value, playouts run) of a UCT search of ``state`` with ``cfg`` (a
    :func:`labelling_config`) and ``playouts`` playouts: the value, for the player to move,
    of the root move the search chooses, its most visited."""
    from clients.gtp.player import search_position, uct_config
    from search.budget import Budget
    from search.uct import UCT

    res = UCT(uct_config(cfg, state.size)).search(search_position(state, cfg), None,
                                                  Budget(playouts=playouts), rng)
    return float(res.value), int(res.playouts)


def label_positions(games: Path, out: Path, *, positions: int, playouts: int, seed: int,
                    settings: list[str],
                    log: Callable[[str], None] = print) -> list[LabelledPosition]:
    """Label ``positions`` positions of the games in ``games`` (those already in ``out``
    are kept)."""
    cfg = labelling_config(settings)
    done = {(x.game, x.move) for x in read_labels(out)}
    todo = [(f, m) for f, m in pick_positions(sgf_files(games), positions, seed)
            if (f.name, m) not in done]
    log(f"{len(done)} positions labelled in {out}; labelling {len(todo)}")
    out.parent.mkdir(parents=True, exist_ok=True)
    for i, (f, m) in enumerate(todo):
        s = position_at(f, m)
        s.forget_undo()
        rng = np.random.default_rng([seed, i, m])
        value, run = search_value(s, cfg, playouts, rng)
        rec = LabelledPosition(f.name, m, round(value, 5), run)
        with out.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(rec.__dict__) + "\n")
        log(f"{f.name} move {m}: {rec.value:.3f}")
    return read_labels(out)
