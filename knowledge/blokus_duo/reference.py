"""Plain-Python references of how corvid plays Blokus Duo, from the rules' reference board
(:mod:`games.blokus_duo.reference`): the playout policies' exact move probabilities, the
priors and the playing styles' features. Slow; for tests."""

from __future__ import annotations

import math
from collections.abc import Callable

from games.blokus_duo.geometry import PASS
from games.blokus_duo.reference import (
    DIAG,
    EDGE,
    RefBoard,
    forbidden,
    neighbours,
    placements,
    reference_attach,
    reference_legal,
)
from knowledge.blokus_duo import moves as M
from knowledge.blokus_duo import playout_features as PF
from knowledge.blokus_duo.settings import BlokusConfig
from knowledge.blokus_duo.style import BASE, BLOCK_TAKE, EXPAND_GAIN, EXPAND_RADIUS, STYLES
from knowledge.style import parse_style


def _new_attach(b: RefBoard, colour: int, cells: list[tuple[int, int]],
                att: set[tuple[int, int]], forb: set[tuple[int, int]]) -> int:
    """How many new attach points placing ``cells`` creates for ``colour``."""
    piece = set(cells)
    corners = neighbours(piece, DIAG, b.size) - neighbours(piece, EDGE, b.size)
    return sum(1 for x, y in corners
               if b.grid[y][x] < 0 and (x, y) not in forb and (x, y) not in att)


def reference_playout_team(b: RefBoard, colour: int, move: int) -> list[int]:
    """The learned playouts' feature ids (``playout_features.PF_GROUP_NAMES`` order) of
    ``colour``'s legal placement ``move``, as the module's doc defines them."""
    cells, piece = placements(b.size)
    cs = cells[move]
    n = b.size
    att = reference_attach(b, colour)
    opp_att = reference_attach(b, 1 - colour)
    forb = forbidden(b, colour)
    last = b.last_move[1 - colour]
    near = False
    if last != PASS:
        around = neighbours(set(cells[last]), DIAG, n) | neighbours(set(cells[last]), EDGE, n)
        near = any(c in around for c in cs)
    take = sum(1 for c in cs if c in opp_att)
    spent = sum(1 for c in cs if c in att) - 1
    spent += sum(1 for c in neighbours(set(cs), EDGE, n) if c in att)
    gain = _new_attach(b, colour, cs, att, forb)
    phase = min(len(b.pieces[colour]) // 4, PF.PF_PHASES - 1)
    return [piece[move] * PF.PF_PHASES + phase,
            PF.PF_B_NEAR + int(near),
            PF.PF_B_TAKE + min(take, PF.PF_MAX_TAKE),
            PF.PF_B_GAIN + min(gain, PF.PF_MAX_GAIN),
            PF.PF_B_SPENT + min(max(spent, 0), PF.PF_MAX_SPENT)]


def reference_policy(b: RefBoard, colour: int, weights: list[float],
                     uniform: bool, learned: bool = False) -> dict[int, float]:
    """The playout policy's exact move probabilities for ``colour`` (empty: it passes).

    learned: proportional to the product of ``weights[W_LEARNED + f]`` over the
    placement's playout features f (:func:`reference_playout_team`), the strengths being the
    last ``PF_FEATURES`` parameters. uniform: equal.
    weighted: proportional to ``weights[size]`` times ``weights[6]`` when the
    placement touches (by an edge or a corner) the opponent's last placement, else
    ``weights[7]``; times ``weights[8]`` per new attach point short of ``weights[9]``; times
    ``weights[10]`` if it covers none of the opponent's attach points; times ``weights[12]``
    for a piece smaller than 5 while ``colour`` has placed fewer than ``weights[11]`` (as the
    parameters of ``policy.playout_params``)."""
    legal = reference_legal(b, colour)
    if not legal:
        return {}
    if uniform:
        return {m: 1.0 / len(legal) for m in legal}
    if learned:
        base = len(weights) - PF.PF_FEATURES
        raw = {m: math.prod(weights[base + f] for f in reference_playout_team(b, colour, m))
               for m in legal}
        tot = sum(raw.values())
        return {m: v / tot for m, v in raw.items()}
    cells, _ = placements(b.size)
    last = b.last_move[1 - colour]
    touch: set[tuple[int, int]] = set()
    if last != PASS:
        for x, y in cells[last]:
            touch.update((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        touch -= set(cells[last])
    att = reference_attach(b, colour)
    opp_att = reference_attach(b, 1 - colour)
    forb = forbidden(b, colour)
    raw = {}
    for m in legal:
        cs = cells[m]
        f = weights[6] if last != PASS and any(c in touch for c in cs) else weights[7]
        w = weights[len(cs)] * f
        if weights[8] < 1:
            gain = _new_attach(b, colour, cs, att, forb)
            if gain < weights[9]:
                w *= weights[8] ** (weights[9] - gain)
        if weights[10] < 1 and not any(c in opp_att for c in cs):
            w *= weights[10]
        if len(cs) < 5 and len(b.pieces[colour]) < weights[11]:
            w *= weights[12]
        raw[m] = w
    tot = sum(raw.values())
    return {m: v / tot for m, v in raw.items()}


def _placement_terms(b: RefBoard, colour: int) -> Callable[[list[tuple[int, int]]],
                                                            tuple[int, int, int, int]]:
    """For ``colour`` to move: a placement's cells -> (gain, take, spent, dmin) as
    ``knowledge.blokus_duo.placement`` describes them."""
    att = reference_attach(b, colour)
    opp_att = reference_attach(b, 1 - colour)
    forb = forbidden(b, colour)
    n = b.size
    opp = [(x, y) for y in range(n) for x in range(n) if b.grid[y][x] == 1 - colour]
    if not opp:
        opp = [b.start(1 - colour)]

    def terms(cs: list[tuple[int, int]]) -> tuple[int, int, int, int]:
        gain = _new_attach(b, colour, cs, att, forb)
        take = sum(1 for c in cs if c in opp_att)
        spent = sum(1 for c in cs if c in att) - 1
        spent += sum(1 for c in neighbours(set(cs), EDGE, n) if c in att)
        d = min(max(abs(x - u), abs(y - w)) for x, y in cs for u, w in opp)
        return gain, take, spent, d

    return terms


def _open_count(b: RefBoard, colour: int, radius: int) -> Callable[[list[tuple[int, int]]], int]:
    """For ``colour`` to move: a placement's cells -> the new attach points it creates at
    least ``radius`` cells (Chebyshev) from every piece on the board (a colour's start
    square before it has one), as ``placement.k_open`` counts them."""
    att = reference_attach(b, colour)
    forb = forbidden(b, colour)
    n = b.size
    pieces = [(x, y) for y in range(n) for x in range(n) if b.grid[y][x] >= 0]
    pieces += [b.start(c) for c in (0, 1) if not b.pieces[c]]

    def opened(cs: list[tuple[int, int]]) -> int:
        corners = neighbours(set(cs), DIAG, n) - neighbours(set(cs), EDGE, n)
        return sum(1 for x, y in corners
                   if b.grid[y][x] < 0 and (x, y) not in forb and (x, y) not in att
                   and min(max(abs(x - u), abs(y - w)) for u, w in pieces) >= radius)

    return opened


def reference_style_moves(b: RefBoard, colour: int, name: str) -> set[int]:
    """The legal placements of ``colour`` that have the feature of style ``name``, as
    ``knowledge.blokus_duo.style`` defines it."""
    cells, _ = placements(b.size)
    terms = _placement_terms(b, colour)
    opened = _open_count(b, colour, EXPAND_RADIUS)
    out = set()
    for m in reference_legal(b, colour):
        if name == "blocking":
            if terms(cells[m])[1] >= BLOCK_TAKE:
                out.add(m)
        elif opened(cells[m]) >= EXPAND_GAIN:
            out.add(m)
    return out


def reference_priors(b: RefBoard, colour: int, cfg: BlokusConfig
                     ) -> dict[int, tuple[float, float]]:
    """Each legal placement's prior (value, pseudo-count) for ``colour`` to move, from the
    rules as ``knowledge.blokus_duo.priors`` describes them."""
    legal = reference_legal(b, colour)
    cells, _ = placements(b.size)
    placed = len(b.pieces[colour])
    prune = placed < cfg.open_pieces and any(len(cells[m]) >= cfg.open_min_size
                                              for m in legal)
    terms = _placement_terms(b, colour)
    spec = parse_style(cfg.style, STYLES)
    styled = set() if spec is None else reference_style_moves(b, colour, spec.name)
    strength = {}
    if cfg.priors == "learned":
        gamma = M.load_move_weights(cfg.move_weights).gamma
        for m, team in reference_move_features(b, colour).items():
            if not (prune and len(cells[m]) < cfg.open_min_size):
                strength[m] = math.prod(gamma[f] for f in team if f >= 0)
    top = max(strength.values(), default=0.0)
    out = {}
    for m in legal:
        cs = cells[m]
        k = len(cs)
        if prune and k < cfg.open_min_size:
            out[m] = (0.0, cfg.prune_count)
            continue
        if cfg.priors == "learned":
            r = (strength[m] / top) ** cfg.prior_tau
            v = cfg.prior_low + (cfg.prior_high - cfg.prior_low) * r
        elif cfg.priors == "size":
            v = 0.5
            if placed < cfg.prior_early_pieces:
                v = min(1.0, max(0.0, 0.5 + cfg.prior_size_bonus * (k - 3)))
        else:
            gain, take, spent, d = terms(cs)
            v = (0.5 + cfg.prior_size * (k - 3) + cfg.prior_gain * min(gain, cfg.prior_gain_cap)
                 + cfg.prior_take * take - cfg.prior_waste * max(spent, 0)
                 + cfg.prior_front * max(0, cfg.prior_front_radius - d))
            v = min(0.95, max(0.05, v))
        n = cfg.prior_count
        if m in styled:
            assert spec is not None
            e = spec.strength * BASE[spec.name]
            v, n = (v * n + e) / (n + e), n + e
        out[m] = (v, n)
    return out


def reference_move_features(b: RefBoard, colour: int) -> dict[int, tuple[int, ...]]:
    """Each legal placement's feature ids for ``colour`` to move (``GROUP_*`` order, -1:
    none in the group), as ``knowledge.blokus_duo.moves`` describes them."""
    cells, piece = placements(b.size)
    terms = _placement_terms(b, colour)
    opened = _open_count(b, colour, M.OPEN_RADIUS)
    att = reference_attach(b, colour)
    opp_att = reference_attach(b, 1 - colour)
    n = b.size
    last = b.last_move[1 - colour]
    placed = len(b.pieces[colour])
    late = int(placed >= M.LATE_PIECES)
    phase = 0 if placed < 3 else 1 if placed < 6 else 2 if placed < 10 else 3
    lo, hi = (n - 1) // 2, n // 2

    def cheb(p: tuple[int, int], q: tuple[int, int]) -> int:
        return max(abs(p[0] - q[0]), abs(p[1] - q[1]))

    out: dict[int, tuple[int, ...]] = {}
    for m in reference_legal(b, colour):
        cs = cells[m]
        gain, take, spent, d = terms(cs)
        corners = neighbours(set(cs), DIAG, n) - neighbours(set(cs), EDGE, n)
        if last == PASS:
            lid = 4
        else:
            dl = min(cheb(p, q) for p in cs for q in cells[last])
            lid = 0 if dl <= 1 else 1 if dl == 2 else 2 if dl <= 4 else 3
        centre = -1
        if placed < M.CENTRE_PIECES:
            dc = min(max(lo - x, x - hi, lo - y, y - hi, 0) for x, y in cs)
            centre = M.GROUP_BASE[M.G_CENTRE] + min(dc, M.MAX_CENTRE)
        ring = sum(1 for x in neighbours(set(cs), DIAG, n) | neighbours(set(cs), EDGE, n)
                   if x in opp_att)
        dup = sum(1 for x in corners if x in att)
        base = M.GROUP_BASE
        out[m] = (base[M.G_PIECE] + piece[m] * 4 + phase,
                  base[M.G_GAIN] + min(gain, M.MAX_GAIN) * 2 + late,
                  base[M.G_TAKE] + min(take, M.MAX_TAKE) * 2 + late,
                  base[M.G_SPENT] + min(max(spent, 0), M.MAX_SPENT),
                  base[M.G_FRONT] + (min(max(d, 1), M.MAX_FRONT) - 1) * 2 + late,
                  base[M.G_LAST] + lid,
                  base[M.G_OPEN] + min(opened(cs), M.MAX_OPEN),
                  centre,
                  base[M.G_RING] + min(ring, M.MAX_RING) * 2 + late,
                  base[M.G_DUP] + min(dup, M.MAX_DUP))
    return out
