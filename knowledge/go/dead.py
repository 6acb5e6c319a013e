"""Dead-stone estimation from playout ownership, and scoring with dead stones removed.

The playouts are those of the default playout settings
(:class:`knowledge.go.position.PlayoutSettings`)."""

from __future__ import annotations

import numpy as np

from games.go import board as K
from games.go.coords import BLACK, EMPTY, WHITE
from games.go.scoring import k_area
from games.go.state import GoState
from knowledge.go.position import GoPosition


def _groups(state: GoState) -> list[list[int]]:
    seen: set[int] = set()
    out = []
    for c in (BLACK, WHITE):
        for p in state.stones(c):
            if p not in seen:
                g = state.group(p)
                seen.update(g)
                out.append(g)
    return out


def dead_stones(state: GoState, rng: np.random.Generator, playouts: int = 200,
                own: np.ndarray | None = None) -> list[int]:
    """Groups whose points the opponent owns at the end of most playouts (mean ownership
    over the group's stones beyond 0 towards the opponent). Sorted points."""
    if own is None:
        own = GoPosition(state).ownership(rng, playouts)
    dead: list[int] = []
    for g in _groups(state):
        c = state.colour_at(g[0])
        m = float(np.mean(own[g]))
        if (c == BLACK and m < 0) or (c == WHITE and m > 0):
            dead.extend(g)
    return sorted(dead)


def final_status(state: GoState, rng: np.random.Generator, playouts: int = 200
                 ) -> dict[str, list[int]]:
    """GTP ``final_status_list``: alive, dead and seki stones. Dead as in
    :func:`dead_stones`. A group that is not dead is in **seki** when one of its liberties
    ends neutral (reaching both colours) in most playouts: the playout policy refuses the
    self-atari of filling a shared liberty, so seki survives the playouts, while dame get
    filled. Every other group is alive."""
    own, neutral = GoPosition(state).ownership_stats(rng, playouts)
    dead = set(dead_stones(state, rng, playouts, own))
    w = state.size + 2
    col = state.board_array()[K.COL]
    alive: list[int] = []
    seki: list[int] = []
    for g in _groups(state):
        if g[0] in dead:
            continue
        libs = {q for p in g for q in (p + 1, p - 1, p + w, p - w)
                if col[q] == EMPTY}
        if any(neutral[q] > 0.5 for q in libs):
            seki.extend(g)
        else:
            alive.extend(g)
    return {"alive": sorted(alive), "dead": sorted(dead), "seki": sorted(seki)}


def score_with_dead_removed(state: GoState, rng: np.random.Generator,
                            playouts: int = 200) -> float:
    """Area score (black - white - komi) after taking the estimated dead stones off."""
    dead = dead_stones(state, rng, playouts)
    b = state.board_array().copy()
    b[K.COL, dead] = EMPTY
    owner = np.empty(b.shape[1], dtype=np.int32)
    diff = k_area(b, owner)
    return diff - state.komi
