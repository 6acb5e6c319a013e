"""The style report's Daihinmin part (``bench/style.py --game daihinmin``): games played in
this process, the players' own decision code asked at every decision.

The table: the styled player, the plain default (the client's defaults, ``style=""``) and
three baselines (:mod:`clients.uecda.baseline`, the rule player). The games are split into
matches (the match driver :class:`games.daihinmin.match.Match`: deals, exchanges, ranks
carried over, seats reshuffled every three games), at least five when there are five games
or more; in match ``j`` (seed ``seed + j``) the styled player is player ``j mod 5`` and the
plain default player ``j + 1 mod 5``, each with fresh state (its opponent models) as a
client starts each match afresh. Both search players play at the same fixed playouts
(``max_seconds`` raised so that the budget is playouts alone: reproducible).

The style rate on the same positions: beside each of the two search players sits a **twin**
of the other (the plain default beside the styled player, the styled player beside the plain
default), a second decider of the same settings that follows the same seat's games (it is
told of each game's end as the player is, so its opponent models learn the same). At every
decision of either search player where its legal moves include one with the style's
feature and one without, the mover and its twin both decide (:meth:`Decider.move`, the
client's own code: sure finishes, search, fallback); the mover's move is played, the twin's
only recorded. ``rate_styled`` / ``rate_plain``: the shares of those positions where the
styled / plain decision has the feature. The exchanges at the start of a game are the
players' own (:meth:`Decider.exchange`).

Score: the styled player's points per game (5 for the daifugo .. 1 for the daihinmin),
``score_plain`` the plain default's in the same games, ``ci95`` the batch-means interval of
the styled player's points (blocks of :data:`BLOCK` games within a match); ``diff`` and
``diff_ci95``: the styled player's points minus the plain default's, game by game, with its
batch-means interval (the paired difference: the deal's luck, shared, drops out).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

import games.daihinmin.rules as R
from clients.logs import setup_logging
from clients.uecda.baseline import baseline_exchange, baseline_move
from clients.uecda.config import ClientConfig, load_client_config
from clients.uecda.decide import Decider
from clients.uecda.tracker import GameTracker
from games.daihinmin.cards import PASS, popcount
from games.daihinmin.match import Deal, Match, MatchConfig
from games.daihinmin.state import GameState
from knowledge.daihinmin.style import STYLES, feature_mask
from knowledge.style import StyleSpec, parse_styles
from protocols.uecda import GameStart
from protocols.uecda.cards import hand_to_cells
from servers.arena.stats import batch_mean_ci95

DEFAULT_PLAYOUTS = ClientConfig().playouts  # the client's default budget
BLOCK = 4  # games per batch of the interval
MIN_MATCHES = 5


class _Player:
    """A search player at one player number, with its twin (the other player's settings)."""

    def __init__(self, me: int, config: ClientConfig, twin: ClientConfig, seed: int) -> None:
        rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2)]
        self.me = me
        self.decider = Decider(config, rngs[0])
        self.twin = Decider(twin, rngs[1])
        self.tracker = GameTracker(np.random.default_rng(0))  # what the deciders read
        self.tracker.me = me

    def start(self, deal: Deal) -> None:
        tr = self.tracker
        tr.game = deal.game + 1
        tr.turns = 0
        hand = deal.hands[self.me]
        tr.hand0 = hand
        tr.start = GameStart(hand_to_cells(hand), deal.to_give(self.me),
                             tuple(popcount(h) for h in deal.dealt), tuple(deal.ranks),
                             tuple(deal.order))

    def exchange(self, n: int) -> int:
        return self.decider.exchange(self.tracker, n)

    def moves(self, st: GameState, both: bool) -> tuple[int, int]:
        """The player's move from ``st`` and (with ``both``) its twin's, else -1."""
        tr = self.tracker
        tr.shadow = st
        tr.turns += 1
        lead = st.table == PASS
        mine = self.decider.move(tr, lead)
        return mine, self.twin.move(tr, lead) if both else -1

    def end(self, st: GameState) -> None:
        self.tracker.shadow = st
        self.decider.end_game(self.tracker)
        self.twin.end_game(self.tracker)


def _configs(spec: StyleSpec, playouts: int, own_policy: str) -> tuple[ClientConfig, ClientConfig]:
    """The styled player's settings and the plain default's."""
    common = [f"playouts={playouts}", "max_seconds=600"]
    styled = [*common, f"style={spec.name}:{spec.strength:g}"]
    if own_policy:
        styled.append(f"own_policy={own_policy}")
    return load_client_config(overrides=styled), load_client_config(overrides=common)


def _chunks(games: int) -> list[int]:
    """Games per match: at least :data:`MIN_MATCHES` matches when there are enough games."""
    k = min(games, MIN_MATCHES)
    return [games // k + (1 if i < games % k else 0) for i in range(k)]


def measure_style(spec: StyleSpec, games: int, playouts: int, seed: int,
                  own_policy: str = "") -> dict[str, Any]:
    """One style's row of the report (module docstring)."""
    t0 = time.perf_counter()
    styled_cfg, plain_cfg = _configs(spec, playouts, own_policy)
    points: list[list[int]] = []  # per match, the styled player's points game by game
    plain_points: list[list[int]] = []  # ... and the plain default's
    positions = styled_feature = plain_feature = 0
    for j, n in enumerate(_chunks(games)):
        me_s, me_p = j % R.NP, (j + 1) % R.NP
        players = {me_s: _Player(me_s, styled_cfg, plain_cfg, seed * 1000 + 2 * j),
                   me_p: _Player(me_p, plain_cfg, styled_cfg, seed * 1000 + 2 * j + 1)}
        match = Match(MatchConfig(seed=seed + j))
        run: list[int] = []
        plain_run: list[int] = []
        for _ in range(n):
            deal = match.deal()
            for p in players.values():
                p.start(deal)
            for p in range(R.NP):
                if deal.to_give(p):
                    give = (players[p].exchange(deal.to_give(p)) if p in players
                            else baseline_exchange(deal.hands[p], deal.to_give(p)))
                    deal.give(p, give)
            st = deal.state(seed=seed + j)
            while not st.is_terminal():
                p = st.to_move
                if p not in players:
                    st.play(baseline_move(st.hand(p), st.table, st.revolution, st.lock))
                    continue
                legal = st.legal_moves()
                mask = feature_mask(spec.name, st.hand(p), legal)
                choice = bool(mask.any() and not mask.all())
                move, other = players[p].moves(st, choice)
                if choice:
                    positions += 1
                    s_move, p_move = (move, other) if p == me_s else (other, move)
                    styled_feature += int(mask[legal.index(s_move)])
                    plain_feature += int(mask[legal.index(p_move)])
                st.play(move)
            for pl in players.values():
                pl.end(st)
            pts = st.points()
            run.append(pts[me_s])
            plain_run.append(pts[me_p])
            match.finish(st)
            print(f"style {spec.name}:{spec.strength:g}: game {sum(map(len, points)) + len(run)}"
                  f"/{games}, points styled {pts[me_s]} plain {pts[me_p]}; positions "
                  f"{positions}, feature chosen styled {styled_feature} plain {plain_feature}",
                  file=sys.stderr, flush=True)
        points.append(run)
        plain_points.append(plain_run)
    score, ci = batch_mean_ci95(points, BLOCK, 1.0, 5.0)
    diffs = [[a - b for a, b in zip(r, q, strict=True)] for r, q in zip(points, plain_points,
                                                                        strict=True)]
    diff, diff_ci = batch_mean_ci95(diffs, BLOCK, -4.0, 4.0)
    return {"name": spec.name, "strength": spec.strength, "positions": positions,
            "rate_plain": plain_feature / max(positions, 1),
            "rate_styled": styled_feature / max(positions, 1),
            "score": score, "score_plain": float(np.mean(sum(plain_points, []))), "ci95": list(ci),
            "diff": diff, "diff_ci95": list(diff_ci),
            "seconds": round(time.perf_counter() - t0, 1),
            **({"own_policy": own_policy} if own_policy else {})}


def measure(styles: list[str], games: int, playouts: int, seed: int,
            own_policy: str = "") -> dict[str, Any]:
    """The report's figures for ``styles`` (``--style`` texts; empty: every style at its
    default strength) over ``games`` games at ``playouts`` (0: the client's default) per
    decision of both search players; ``own_policy``: a weights file for the styled player's
    own moves in its playouts (the client's ``own_policy`` setting)."""
    specs = parse_styles(styles, STYLES)
    p = playouts or DEFAULT_PLAYOUTS
    setup_logging("warning")  # the players' decisions are not news here; warnings to stderr
    return {"games": games, "playouts": p,
            "styles": [measure_style(s, games, p, seed, own_policy) for s in specs]}
