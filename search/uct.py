"""UCT with RAVE, priors, progressive widening and tree reuse (Kocsis and Szepesvári 2006;
Gelly and Silver 2007).

* Child statistics live as arrays on the parent node (visits ``N``, value sums ``W``, RAVE
  visits ``RN`` and sums ``RW``); selection is one vectorised argmax.
* Values are kept from the point of view of the seat to move at the parent, taken from the
  per-seat returns of the playout: negamax for two players, max-own-reward for n players.
* RAVE (Gelly & Silver 2007): β = sqrt(k / (3 n(s) + k)); after each episode every node on
  the path credits each move its own player played later in the episode (first occurrence;
  with ``rave_first_player`` only where no other player made the move before it);
  with ``rave_weighted`` (Fuego's weighted RAVE updates) the credit falls linearly from 2 at
  the node to 0 at the episode's end, w = 2 − 2 (i − d) / (L − d) for a first occurrence at
  ply i of an episode of L plies, seen from a node at depth d.
* Priors (games.contract.HasPriors) are pseudo-counts: a new child starts with
  N = RN = count and W = RW = value * count. Without priors: ``prior_value`` x ``prior_count``.
* Grandfather prior (``grandfather`` > 0): a new node's move that was already tried from the
  node two plies up (same player to move) gets that experience as well: min(real visits,
  ``grandfather``) more pseudo-visits at the grandfather's mean value.
* Progressive widening (Coulom): children are unlocked in prior order; after the first
  ``widening_initial`` the n-th more is unlocked at t_{n+1} = t_n + a * b^n visits.
* Tree reuse: the next search starts from the old subtree whose position key matches.
* Determinised mode: if the root is an info set (has ``sample_world``), each iteration samples
  one world and descends through the moves legal in that world.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
import numpy as np
from numba import njit

from search.budget import Budget, Meter
from search.result import SearchResult, final_index

_ALL = np.zeros(0, dtype=np.int64)
_EMPTY_MOVES = np.zeros(0, dtype=np.int64)
_RAVE_TABLE_LIMIT = 1 << 16  # vectorised RAVE for int moves in [-1, this)


def _small_int_moves(moves: list[Any]) -> np.ndarray | None:
    """The moves as an int64 array if they are ints in [-1, _RAVE_TABLE_LIMIT), else None."""
    if not moves:
        return _EMPTY_MOVES
    try:
        arr = np.array(moves)
    except ValueError:  # ragged sequences
        return None
    if arr.dtype.kind not in "iu" or arr.ndim != 1:  # bools, floats, tuples, objects
        return None
    if arr.min() < -1 or arr.max() >= _RAVE_TABLE_LIMIT:
        return None
    return arr.astype(np.int64, copy=False)


@njit(cache=True)
def rave_weight(i: int, d: int, length: int, weighted: bool) -> float:
    """AMAF credit of a first occurrence at ply ``i`` of an episode of ``length`` plies,
    seen from the node at depth ``d``: 1, or with ``weighted`` 2 − 2 (i − d) / (length − d)."""
    if not weighted:
        return 1.0
    return 2.0 - 2.0 * (i - d) / (length - d)


@njit(cache=True)
def mark_first_plies(played: np.ndarray, players: np.ndarray, moves: np.ndarray,
                offset: int, first_player: bool) -> None:
    """played[player, move + 1] = the ply + 1 of each playout move's first occurrence (the
    playout's plies start at ``offset``); 0 stays where a move was not played. With
    ``first_player`` a move is marked only for the player who made it first."""
    for j in range(len(moves)):
        m = moves[j] + 1
        if played[players[j], m] != 0:
            continue
        if first_player:
            taken = False
            for s in range(played.shape[0]):
                if played[s, m] != 0:
                    taken = True
            if taken:
                continue
        played[players[j], m] = offset + j + 1


@njit(cache=True)
def rave_credit(played: np.ndarray, seat: int, move_arr: np.ndarray, i: int, d: int,
                length: int, weighted: bool, first_player: bool, RN: np.ndarray,
                RW: np.ndarray, r: float) -> None:
    """One node's AMAF update (the node at depth ``d`` of an episode of ``length`` plies,
    ``seat`` to move): mark its move ``i`` as played by that seat at ply d (``played``: per
    seat the ply + 1 of each move's first occurrence, 0 for none; with ``first_player`` the
    other seats' later marks of the move are taken off, since this seat made it first), then
    credit every child whose move that seat played."""
    m = move_arr[i] + 1
    if first_player:
        for s in range(played.shape[0]):
            played[s, m] = 0
    row = played[seat]
    row[m] = d + 1
    for k in range(len(move_arr)):
        p = row[move_arr[k] + 1]
        if p > 0:
            w = rave_weight(p - 1, d, length, weighted)
            RN[k] += w
            RW[k] += w * r


@njit(cache=True)
def _grandfather_credit(N: np.ndarray, N0: np.ndarray, W: np.ndarray, RN: np.ndarray,
                        RW: np.ndarray, moves: np.ndarray, gN: np.ndarray, gN0: np.ndarray,
                        gW: np.ndarray, gmoves: np.ndarray, cap: float,
                        pos: np.ndarray) -> None:
    """The grandfather prior for int moves (kept only with RAVE, so the RAVE pair is
    credited too); ``pos`` is a scratch table of -1 (restored) covering both move sets."""
    for j in range(len(gmoves)):
        pos[gmoves[j] + 1] = j
    for i in range(len(moves)):
        j = pos[moves[i] + 1]
        if j < 0:
            continue
        seen = gN[j] - gN0[j]
        if seen <= 0:
            continue
        n = min(seen, cap)
        v = gW[j] / gN[j]
        N[i] += n
        N0[i] += n
        W[i] += v * n
        RN[i] += n
        RW[i] += v * n
    for j in range(len(gmoves)):
        pos[gmoves[j] + 1] = -1


@njit(cache=True)
def rave_beta(n: float, N: float, RN: float, k: float, mse: bool) -> float:
    """RAVE's weight β in Q_UR = β Q_RAVE + (1 − β) Q for a child with ``N`` visits and
    ``RN`` RAVE visits (pseudo-visits of the priors included) under a node with ``n``.

    The hand-selected schedule of Gelly & Silver (2007), β = sqrt(k / (3 n + k)), is the same
    for every child of the node; given a child's own real visits as ``n`` (``rave_child``) it
    is per child, and a child the search has not tried keeps its RAVE value however often
    the node is visited. With ``mse``, the minimum-MSE schedule of Gelly & Silver
    (2011) with the equivalence parameter k = 1 / (4 b²) (b: the RAVE bias) is per child,
    β = RN / (RN + N + N RN / k): a child tried little leans on its RAVE value, one tried
    k times about evenly on both.
    """
    if mse:
        return RN / (RN + N + N * RN / k)
    return float(np.sqrt(k / (3.0 * n + k)))


@njit(cache=True)
def _select_child(N: np.ndarray, W: np.ndarray, N0: np.ndarray, RN: np.ndarray,
                  RW: np.ndarray, allowed: np.ndarray, n: float, c: float, rave_k: float,
                  rave: bool, mse: bool, child: bool, u: float) -> int:
    """The child index maximising Q_UR + c sqrt(ln n / N) over ``allowed`` (all if empty).

    Untried children (no visits and, with RAVE, no RAVE visits) come first, one chosen by
    the uniform number ``u``. Q_UR = β Q_RAVE + (1 − β) Q with β of ``rave_beta``, its
    ``n`` the node's visits, or with ``child`` the child's real visits (N − N0).
    """
    m = len(allowed) if len(allowed) > 0 else len(N)
    n_unseen = 0
    for j in range(m):
        i = allowed[j] if len(allowed) > 0 else j
        if N[i] <= 0 and (not rave or RN[i] <= 0):
            n_unseen += 1
    if n_unseen > 0:
        pick = min(int(u * n_unseen), n_unseen - 1)
        for j in range(m):
            i = allowed[j] if len(allowed) > 0 else j
            if N[i] <= 0 and (not rave or RN[i] <= 0):
                if pick == 0:
                    return i
                pick -= 1
    logn = np.log(max(n, 1.0))
    best = -1
    best_score = -np.inf
    for j in range(m):
        i = allowed[j] if len(allowed) > 0 else j
        q = W[i] / N[i] if N[i] > 0 else 0.0
        if rave:
            if RN[i] > 0:
                qr = RW[i] / RN[i]
                if N[i] > 0:
                    nb = N[i] - N0[i] if child else n
                    beta = rave_beta(nb, N[i], RN[i], rave_k, mse)
                    q = beta * qr + (1.0 - beta) * q
                else:
                    q = qr
        if c > 0:
            q += c * np.sqrt(logn / max(N[i], 1.0))
        if q > best_score:
            best_score = q
            best = i
    return best


class UCTConfig(msgspec.Struct, frozen=True):
    c: float = 1.0  # UCB exploration constant (0 is common with RAVE and priors)
    rave: bool = False
    rave_k: float = 1000.0  # RAVE equivalence parameter k
    rave_mse: bool = False  # β per child by the minimum-MSE schedule (rave_beta)
    rave_child: bool = False  # the hand-selected β from the child's real visits (rave_beta)
    rave_weighted: bool = False  # AMAF credit 2 → 0 along the episode (rave_weight)
    # AMAF credits a move only to the player who made it first in the episode (a point the
    # opponent played first, later captured and played again, is not the player's move)
    rave_first_player: bool = False
    priors: bool = True  # use the game's priors when it offers them
    prior_value: float = 0.5  # even-game prior when the game has none
    prior_count: float = 0.0
    grandfather: float = 0.0  # most pseudo-visits taken from the grandfather's statistics
    widening: bool = False
    widening_initial: int = 1
    widening_a: float = 40.0
    widening_b: float = 1.4
    reuse: bool = True
    final: Literal["visits", "mean", "lcb"] = "visits"  # search.result.final_index
    max_depth: int = 1000
    tree_mb: float = 1024.0  # search.ctree only: the most memory its node and edge pools take
    # search.ctree only, with final="visits": end the search when the most visited root move
    # leads the second by more than the playouts the budget still allows at the measured rate
    early_stop: bool = False
    # a leaf is expanded (its moves and priors made, the search descends below it) once the
    # edge into it has this many real visits; until then the episodes reaching it play out
    # from it (1: on its second visit, as Gelly and Silver's UCT grows one node an episode)
    expand_visits: int = 1


class Node:
    __slots__ = (
        "to_move", "key", "moves", "index", "N", "W", "N0", "RN", "RW", "children", "n",
        "order", "thresholds", "move_arr", "move_hi",
    )

    def __init__(self, to_move: int, key: int | None) -> None:
        self.to_move = to_move
        self.key = key
        self.moves: list[Any] = []
        self.index: dict[Any, int] = {}
        self.N = np.zeros(0)
        self.W = np.zeros(0)
        self.N0 = np.zeros(0)
        self.RN = np.zeros(0)
        self.RW = np.zeros(0)
        self.children: list[Node | None] = []
        self.n = 0.0  # visits of this node
        self.order: np.ndarray | None = None  # progressive widening order (child indices)
        self.thresholds: np.ndarray | None = None
        # the moves as small non-negative-or-pass ints, for the vectorised RAVE update
        # (None when the game's moves are not such ints)
        self.move_arr: np.ndarray | None = _EMPTY_MOVES
        self.move_hi = -1  # the largest of move_arr

    def add_moves(self, moves: list[Any], values: np.ndarray, counts: np.ndarray,
                  rave: bool) -> None:
        start = len(self.moves)
        self.moves.extend(moves)
        self.index.update(zip(moves, range(start, start + len(moves)), strict=True))
        rc = counts if rave else np.zeros_like(counts)
        if start == 0:
            self.N, self.W, self.N0 = counts.copy(), values * counts, counts.copy()
            self.RN, self.RW = rc.copy(), values * rc
        else:
            self.N = np.concatenate([self.N, counts])
            self.W = np.concatenate([self.W, values * counts])
            self.N0 = np.concatenate([self.N0, counts])
            self.RN = np.concatenate([self.RN, rc])
            self.RW = np.concatenate([self.RW, values * rc])
        self.children.extend([None] * len(moves))
        if rave and self.move_arr is not None:
            arr = _small_int_moves(moves)
            if arr is None:
                self.move_arr = None
            else:
                self.move_arr = np.concatenate([self.move_arr, arr])
                if len(arr):
                    self.move_hi = max(self.move_hi, int(arr.max()))



class UCT:
    """A UCT searcher. Keep one instance per game to reuse its tree between moves."""

    def __init__(self, config: UCTConfig | None = None) -> None:
        self.config = config or UCTConfig()
        self.root: Node | None = None
        self._pos = np.zeros(0, dtype=np.int64)  # scratch move -> index table (grandfather)

    def reset(self) -> None:
        self.root = None

    # -- nodes -------------------------------------------------------------------------
    def _prior_stats(self, state: Any, moves: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        cfg = self.config
        values = np.full(len(moves), cfg.prior_value)
        counts = np.full(len(moves), cfg.prior_count)
        if cfg.priors and hasattr(state, "priors"):
            pr = state.priors()
            pm = list(pr.moves)
            if pm == moves:  # the usual case: priors for exactly the legal moves, in order
                return (np.asarray(pr.values, dtype=np.float64).copy(),
                        np.asarray(pr.counts, dtype=np.float64).copy())
            pos = {m: i for i, m in enumerate(moves)}
            pv = np.asarray(pr.values, dtype=np.float64)
            pc = np.asarray(pr.counts, dtype=np.float64)
            for j, m in enumerate(pm):
                i = pos.get(m)
                if i is not None:
                    values[i] = pv[j]
                    counts[i] = pc[j]
        return values, counts

    def _new_node(self, state: Any, determinised: bool) -> Node:
        cfg = self.config
        node = Node(state.to_move, None if determinised else state.key())
        moves = list(state.legal_moves())
        values, counts = self._prior_stats(state, moves)
        node.add_moves(moves, values, counts, cfg.rave)
        if cfg.widening and not determinised:
            # static order: prior value, ties broken by prior count
            node.order = np.lexsort((-counts, -values)).astype(np.int64)
            steps = cfg.widening_a * cfg.widening_b ** np.arange(max(len(moves), 1))
            node.thresholds = np.cumsum(steps)
        return node

    def _grandfather_prior(self, node: Node, gf: Node) -> None:
        if gf.to_move != node.to_move:
            return
        cap = self.config.grandfather
        if (self.config.rave and node.move_arr is not None
                and gf.move_arr is not None):  # int moves (kept with RAVE): one kernel
            need = max(node.move_hi, gf.move_hi) + 2
            if len(self._pos) < need:
                self._pos = np.full(need, -1, dtype=np.int64)
            _grandfather_credit(node.N, node.N0, node.W, node.RN, node.RW, node.move_arr,
                                gf.N, gf.N0, gf.W, gf.move_arr, float(cap), self._pos)
            return
        for i, m in enumerate(node.moves):
            j = gf.index.get(m)
            if j is None:
                continue
            seen = gf.N[j] - gf.N0[j]
            if seen <= 0:
                continue
            n = min(seen, cap)
            v = gf.W[j] / gf.N[j]
            node.N[i] += n
            node.N0[i] += n
            node.W[i] += v * n
            if self.config.rave:
                node.RN[i] += n
                node.RW[i] += v * n

    def _extend(self, node: Node, world: Any) -> np.ndarray:
        """Determinised mode: the indices of the moves legal in this world (added if new)."""
        legal = list(world.legal_moves())
        new = [m for m in legal if m not in node.index]
        if new:
            values, counts = self._prior_stats(world, new)
            node.add_moves(new, values, counts, self.config.rave)
        return np.fromiter((node.index[m] for m in legal), dtype=np.int64, count=len(legal))

    # -- selection ---------------------------------------------------------------------
    def _select(self, node: Node, allowed: np.ndarray | None, rng: np.random.Generator) -> int:
        cfg = self.config
        if allowed is None:
            if node.order is not None and node.thresholds is not None:
                unlocked = cfg.widening_initial + int(
                    np.searchsorted(node.thresholds, node.n, side="right")
                )
                allowed = node.order[: max(1, unlocked)]
        idx = _ALL if allowed is None else allowed
        return int(_select_child(node.N, node.W, node.N0, node.RN, node.RW, idx, node.n,
                                 cfg.c, cfg.rave_k, cfg.rave, cfg.rave_mse, cfg.rave_child,
                                 rng.random()))

    # -- tree reuse --------------------------------------------------------------------
    def _find_reusable(self, key: int, to_move: int, depth: int = 4) -> Node | None:
        frontier = [self.root] if self.root is not None else []
        for _ in range(depth + 1):
            nxt: list[Node] = []
            for nd in frontier:
                if nd.key == key and nd.to_move == to_move:
                    return nd
                nxt.extend(c for c in nd.children if c is not None)
            frontier = nxt
        return None

    # -- the search --------------------------------------------------------------------
    def search(
        self, root: Any, seat: int | None, budget: Budget, rng: np.random.Generator
    ) -> SearchResult:
        """Search from ``root`` (a State, or an InfoSet for determinised search) for the seat
        to move (``seat`` is the searching seat; for a State it must be ``root.to_move``)."""
        cfg = self.config
        meter = budget.start()
        determinised = hasattr(root, "sample_world")
        reused = 0.0
        if determinised:
            world0 = root.sample_world(rng)
            tree = self._new_node(world0, True)
            self.root = None
        else:
            if root.is_terminal():
                raise ValueError("UCT.search: the game is over at the root")
            found = self._find_reusable(root.key(), root.to_move) if cfg.reuse else None
            if found is not None:
                tree = found
                reused = found.n
            else:
                tree = self._new_node(root, False)
        if budget.visits is not None:  # a cap of visits counts the kept ones
            meter = Meter(budget.after_reuse(reused), meter.t0)
        if seat is None:
            seat = tree.to_move
        playouts = 0
        max_depth_seen = 0
        while not meter.done(playouts):
            world = root.sample_world(rng) if determinised else root.clone()
            depth = self._episode(tree, world, determinised, rng)
            max_depth_seen = max(max_depth_seen, depth)
            playouts += 1
        self.root = None if determinised else tree
        visits = tree.N - tree.N0
        means = np.where(tree.N > 0, tree.W / np.maximum(tree.N, 1e-300), np.nan)
        if determinised and hasattr(root, "legal_moves"):
            mine = np.array([tree.index[m] for m in root.legal_moves() if m in tree.index])
        else:
            mine = np.arange(len(tree.moves))
        b = int(mine[final_index(cfg.final, visits[mine], means[mine])])
        return SearchResult(
            move=tree.moves[b],
            value=float(means[b]),
            moves=[tree.moves[i] for i in mine],
            visits=[int(round(visits[i])) for i in mine],
            values=[float(means[i]) for i in mine],
            playouts=playouts,
            elapsed=meter.elapsed(),
            info={"reused_visits": int(reused), "max_depth": max_depth_seen},
        )

    def _episode(self, tree: Node, world: Any, determinised: bool,
                 rng: np.random.Generator) -> int:
        cfg = self.config
        path: list[tuple[Node, int]] = []
        node = tree
        while True:
            if world.is_terminal() or len(path) >= cfg.max_depth:
                break
            allowed = self._extend(node, world) if determinised else None
            if allowed is not None and len(allowed) == 0:
                break
            i = self._select(node, allowed, rng)
            path.append((node, i))
            world.play(node.moves[i])
            child = node.children[i]
            if child is None:
                if (not world.is_terminal()
                        and node.N[i] - node.N0[i] > cfg.expand_visits - 1.5):
                    child = node.children[i] = self._new_node(world, determinised)
                    if cfg.grandfather > 0 and len(path) >= 2:
                        self._grandfather_prior(child, path[-2][0])
                break
            node = child
        if world.is_terminal():
            returns = np.asarray(world.returns(), dtype=np.float64)
            p_moves: np.ndarray = _EMPTY_MOVES
            p_players: np.ndarray = _EMPTY_MOVES
        else:
            p = world.playout(rng, node.to_move)
            returns = np.asarray(p.returns, dtype=np.float64)
            p_moves, p_players = p.moves, p.players
        # backpropagation
        for nd, i in path:
            r = returns[nd.to_move]
            nd.n += 1.0
            nd.N[i] += 1.0
            nd.W[i] += r
        if cfg.rave:
            self._rave_update(path, p_moves, p_players, returns)
        return len(path)

    def _rave_update(self, path: list[tuple[Node, int]], p_moves: np.ndarray,
                     p_players: np.ndarray, returns: np.ndarray) -> None:
        """AMAF: each node on the path credits every move its player made from that node on
        (in the tree below it or in the playout), once per episode (``rave_weight``)."""
        p_hi = int(p_moves.max()) if len(p_moves) else -1
        if all(nd.move_arr is not None for nd, _ in path) and (
                len(p_moves) == 0 or (p_moves.min() >= -1 and p_hi < _RAVE_TABLE_LIMIT)):
            self._rave_update_table(path, p_moves, p_players, returns, p_hi)
            return
        weighted = self.config.rave_weighted
        depth = len(path)
        length = depth + len(p_moves)
        first = self.config.rave_first_player
        later: dict[int, dict[Any, int]] = {}  # player -> move -> ply of its first occurrence
        made: set[Any] = set()  # the moves made so far by anyone (rave_first_player)
        for j, (m, pl) in enumerate(zip(p_moves.tolist(), p_players.tolist(), strict=True)):
            if first and m in made:
                continue
            made.add(m)
            later.setdefault(pl, {}).setdefault(m, depth + j)
        for d in range(depth - 1, -1, -1):
            nd, i = path[d]
            if first:
                for seen in later.values():
                    seen.pop(nd.moves[i], None)
            seen = later.setdefault(nd.to_move, {})
            seen[nd.moves[i]] = d
            r = returns[nd.to_move]
            for m, ply in seen.items():
                k = nd.index.get(m)
                if k is not None:
                    w = rave_weight(ply, d, length, weighted)
                    nd.RN[k] += w
                    nd.RW[k] += w * r

    def _rave_update_table(self, path: list[tuple[Node, int]], p_moves: np.ndarray,
                           p_players: np.ndarray, returns: np.ndarray, p_hi: int) -> None:
        """The same update with a played[player, move + 1] table of first plies (int moves;
        ``p_hi`` is the largest playout move)."""
        hi = max(p_hi, 0, max((nd.move_hi for nd, _ in path), default=-1))
        played = np.zeros((len(returns), hi + 2), dtype=np.int64)
        depth = len(path)
        first = self.config.rave_first_player
        if len(p_moves):
            mark_first_plies(played, p_players, p_moves, depth, first)
        length = depth + len(p_moves)
        weighted = self.config.rave_weighted
        for d in range(depth - 1, -1, -1):
            nd, i = path[d]
            assert nd.move_arr is not None
            rave_credit(played, nd.to_move, nd.move_arr, i, d, length, weighted, first,
                        nd.RN, nd.RW, float(returns[nd.to_move]))
