"""Plain-Python reference of the playout policies, last good reply, the move features, the
ladder reader, capture reading and its priors, and the local shapes (no numba).

Written independently of the kernels but with the same random draws, so that a playout from
the same position and seed gives the same moves and score. Tests compare the two. Slow: for
tests only.
"""

from __future__ import annotations

from typing import Any

from games.go.coords import BLACK, BORDER, EMPTY, PASS, WHITE
from games.go.reference import RefBoard

MASK = (1 << 64) - 1
MUL = 0x2545F4914F6CDD1D


def rand_next(s: int) -> int:
    s ^= s >> 12
    s ^= (s << 25) & MASK
    s ^= s >> 27
    return s


def rand_below(s: int, k: int) -> int:
    return (((s * MUL) & MASK) >> 33) % k


def rand_unit(s: int) -> float:
    return (((s * MUL) & MASK) >> 11) / 9007199254740992.0


def _pick(cand: list[int], s: int) -> tuple[int, int]:
    """playout._pick_sorted_unique: one of the distinct candidates, drawn uniformly in sorted
    order (one draw); PASS without drawing if there is none."""
    if not cand:
        return PASS, s
    u = sorted(set(cand))
    s = rand_next(s)
    return u[rand_below(s, len(u))], s


class RefPlayer(RefBoard):
    """The reference board with the playout policies' steps (simple ko)."""

    def _captures(self, p: int, c: int) -> bool:
        return any(self.col[n] == 3 - c and len(self.group(n)[1]) == 1
                   for n in self.neighbours(p))

    def _group_after(self, p: int, c: int) -> tuple[set[int], set[int]]:
        """The group c would form at the empty point p (nothing captured), and its
        liberties."""
        self.col[p] = c
        try:
            return self.group(p)
        finally:
            self.col[p] = EMPTY

    def self_atari(self, p: int, c: int) -> int:
        if self._captures(p, c):
            return 0
        stones, libs = self._group_after(p, c)
        return len(stones) if len(libs) == 1 else 0

    def bad_self_atari(self, p: int, c: int, sa_min: int, policy: int) -> bool:
        """tactics.bad_self_atari, from its docstring: a self-atari of ``sa_min`` stones or
        more, unless (policy 7) the group is a dead shape of at most five stones: up to
        three, a square or pyramid four, a bulky or crossed five."""
        k = self.self_atari(p, c)
        if k < sa_min:
            return False
        if policy != 7 or k > 5:
            return True
        stones = set(self._group_after(p, c)[0])
        top = max(self._degrees(stones).values())
        square = any({q, q + 1, q + self.w, q + self.w + 1} <= stones for q in stones)
        dead = (k <= 3 or (k == 4 and (top == 3 or square))
                or (k == 5 and (top == 4 or square)))
        return not dead

    def _degrees(self, points: set[int]) -> dict[int, int]:
        """Each point's neighbours among ``points``."""
        return {p: sum(n in points for n in self.neighbours(p)) for p in points}

    def pattern_code(self, p: int) -> int:
        w = self.w
        code = 0
        for i, d in enumerate((w - 1, w, w + 1, -1, 1, -w - 1, -w, -w + 1)):
            code |= self.col[p + d] << (2 * i)
        return code

    def atari_rules(self, c: int, s: int, policy: int) -> tuple[int, int]:
        """Step 1 of policies 1-6 (the last move is a point): escape or capture near it."""
        last = self.last
        cand: list[int] = []
        for n in self.neighbours(last):
            if self.col[n] != c:
                continue
            stones, libs = self.group(n)
            if len(libs) != 1:
                continue
            (lib,) = libs
            if (self.legal(lib, c) and self.self_atari(lib, c) == 0
                    and not (policy in (3, 4) and self.escape_laddered(lib, c))):
                cand.append(lib)
            for st in stones:
                for q in self.neighbours(st):
                    if self.col[q] == 3 - c:
                        _, ol = self.group(q)
                        if len(ol) == 1:
                            (lq,) = ol
                            if self.legal(lq, c):
                                cand.append(lq)
        if self.col[last] == 3 - c:
            _, libs = self.group(last)
            if len(libs) == 1:
                (lib,) = libs
                if self.legal(lib, c):
                    cand.append(lib)
        return _pick(cand, s)

    def choose(self, c: int, s: int, policy: int, pat: object, sa_min: int,
               ptab: Any = None, plv: Any = None) -> tuple[int, int]:
        last = self.last
        w = self.w
        if policy >= 1 and last != PASS:
            q, s = self.tactical_rules(c, s, policy, sa_min)
            if q != PASS:
                return q, s
        if policy == 3:
            q, s = self.local_learned(c, s, ptab, plv)
            if q != PASS:
                return q, s
        elif policy >= 1 and last != PASS:
            cand = [last + d for d in (w - 1, w, w + 1, -1, 1, -w - 1, -w, -w + 1)
                    if self.col[last + d] == EMPTY
                    and pat[self.pattern_code(last + d)]]  # type: ignore[index]
            while cand:
                s = rand_next(s)
                i = rand_below(s, len(cand))
                q = cand[i]
                if (self.legal(q, c) and not self.is_eye(q, c)
                        and not self.bad_self_atari(q, c, sa_min, policy)):
                    return q, s
                cand[i] = cand[-1]
                cand.pop()
        n = len(self.empties)
        if n == 0:
            return PASS, s
        if policy >= 2:
            s = rand_next(s)
            start = rand_below(s, n)
            for i in range(n):
                p = self.empties[(start + i) % n]
                atari = [q for q in self.neighbours(p)
                         if self.col[q] == 3 - c and len(self.group(q)[1]) == 1]
                if atari and self.legal(p, c):
                    return p, s
        s = rand_next(s)
        start = rand_below(s, n)
        for i in range(n):
            p = self.empties[(start + i) % n]
            if not self.legal(p, c) or self.is_eye(p, c):
                continue
            if policy >= 1 and self.bad_self_atari(p, c, sa_min, policy):
                continue
            return p, s
        return PASS, s

    def tactical_rules(self, c: int, s: int, policy: int, sa_min: int) -> tuple[int, int]:
        """playout.tactical_rules: the atari rules, then nakade (policies 6 and 7) and the
        low-liberty rule (policies 5 to 7)."""
        q, s = self.atari_rules(c, s, policy)
        if q == PASS and policy >= 6:
            q, s = self.nakade_rule(c, s, sa_min, policy)
        if q == PASS and policy >= 5:
            q, s = self.low_liberty_rule(c, s)
        return q, s

    def libs_after(self, p: int, c: int) -> int:
        """tactics.libs_after: the liberties of c's group after playing at p, capped at 3
        (3 when the move captures)."""
        if self._captures(p, c):
            return 3
        return min(len(self._group_after(p, c)[1]), 3)

    def low_liberty_rule(self, c: int, s: int) -> tuple[int, int]:
        """Policy 5's step after the atari rules: atari on the last move's group of two
        liberties, or extend a group of c next to it from two liberties to three or more."""
        last = self.last
        cand: list[int] = []
        if self.col[last] == 3 - c:
            _, libs = self.group(last)
            if len(libs) == 2:
                cand += [q for q in libs if self.legal(q, c) and self.self_atari(q, c) == 0]
        for n in self.neighbours(last):
            if self.col[n] == c:
                _, libs = self.group(n)
                if len(libs) == 2:
                    cand += [q for q in libs if self.legal(q, c) and self.libs_after(q, c) >= 3]
        return _pick(cand, s)

    def nakade_vital(self, q: int) -> int:
        """tactics.nakade_vital, from its docstring: the region by a set, the shapes named."""
        region, around = self.empty_region(q, limit=5)
        if not 3 <= len(region) <= 5 or len(around) != 1:
            return -1
        degree = self._degrees(region)
        edges = sum(degree.values()) // 2
        top = max(degree.values())
        middle = [p for p in sorted(region) if degree[p] == top]
        three = len(region) == 3
        pyramid = len(region) == 4 and top == 3
        cross_or_bulky = len(region) == 5 and (top == 4 or edges == 5)
        return middle[0] if three or pyramid or cross_or_bulky else -1

    def nakade_rule(self, c: int, s: int, sa_min: int, policy: int = 6) -> tuple[int, int]:
        """Policies 6 and 7's step after the atari rules: the vital point of an empty region
        next to the last move, if legal and not a bad self-atari (the policy's)."""
        cand = []
        for n in self.neighbours(self.last):
            if self.col[n] == EMPTY:
                v = self.nakade_vital(n)
                if (v >= 0 and self.legal(v, c)
                        and not self.bad_self_atari(v, c, sa_min, policy)):
                    cand.append(v)
        return _pick(cand, s)

    def escape_laddered(self, lib: int, c: int) -> bool:
        b2 = self.copy()
        b2.play(lib, c)
        return (len(b2.group(lib)[1]) == 2
                and reference_ladder_attack(b2, lib, 0, [0]))

    def local_learned(self, c: int, s: int, ptab: Any, plv: Any) -> tuple[int, int]:
        """Policy 3's local step (playout.local_candidates and draw_local)."""
        from knowledge.go import features as F

        w = self.w
        cand: list[int] = []
        gam: list[float] = []
        for base in (self.last, self.last2):
            if base <= 0:
                continue
            for d in (w - 1, w, w + 1, -1, 1, -w - 1, -w, -w + 1):
                q = base + d
                if (self.col[q] != EMPTY or q in cand or not self.legal(q, c)
                        or self.is_eye(q, c)):
                    continue
                cand.append(q)
                gam.append(reference_playout_gamma(self, q, c, ptab, plv))
        total = 0.0
        for g in gam:
            total += g
        far = (len(self.empties) - len(cand)) * plv[F.NG, 0]
        if total <= 0.0:
            return PASS, s
        s = rand_next(s)
        u = rand_unit(s) * (total + far)
        if u >= total:
            return PASS, s
        acc = 0.0
        for q, g in zip(cand, gam, strict=True):
            acc += g
            if u < acc:
                return q, s
        return cand[-1], s

    def playout(self, s: int, policy: int, pat: object, sa_min: int, max_moves: int,
                ptab: Any = None, plv: Any = None,
                replies: dict[tuple[int, ...], int] | None = None, level: int = 0,
                komi: float = 0.0) -> tuple[int, list[int], int]:
        """(black area - white area, moves, rng state); plays on self. With ``level`` > 0,
        last good reply with forgetting (``knowledge.go.lgrf``): ``replies`` maps (c, prev)
        and (c, prev2, prev) to c's stored reply, and is updated by the result."""
        first, last2, last = self.to_play, self.last2, self.last
        moves: list[int] = []
        while self.passes < 2 and len(moves) < max_moves:
            c = self.to_play
            p = PASS
            if level > 0 and replies is not None:
                if level == 3 and policy >= 1 and self.last != PASS:
                    p, s = self.atari_rules(c, s, policy)
                elif level == 4 and policy >= 1 and self.last != PASS:
                    p, s = self.tactical_rules(c, s, policy, sa_min)
                if p == PASS:
                    p = self._stored_reply(c, replies, level, sa_min, policy)
            if p == PASS:
                p, s = self.choose(c, s, policy, pat, sa_min, ptab, plv)
            self.play(p, c)
            moves.append(p)
        score = self.area()[0]
        winner = BLACK if score - komi > 0 else WHITE if score - komi < 0 else 0
        if level > 0 and replies is not None and winner:
            prev2, prev, c = last2, last, first
            for mv in moves:
                if mv != PASS and prev != PASS:
                    keys = [(c, prev)] + ([(c, prev2, prev)] if prev2 != PASS else [])
                    for key in keys:
                        if c == winner:
                            replies[key] = mv
                        elif replies.get(key) == mv:
                            del replies[key]
                prev2, prev, c = prev, mv, 3 - c
        return score, moves, s

    def _stored_reply(self, c: int, replies: dict[tuple[int, ...], int], level: int,
                      sa_min: int, policy: int = 6) -> int:
        if self.last == PASS:
            return PASS
        keys: list[tuple[int, ...]] = [(c, self.last)]
        if level >= 2 and self.last2 != PASS:
            keys.insert(0, (c, self.last2, self.last))
        for key in keys:
            q = replies.get(key, PASS)
            if (q != PASS and self.col[q] == EMPTY and self.legal(q, c)
                    and not self.is_eye(q, c)
                    and not self.bad_self_atari(q, c, sa_min, policy)):
                return q
        return PASS


def reference_features(ref: RefPlayer, p: int, c: int, pat: object,
                       ladders: bool = False) -> list[int]:
    """The prior features of :func:`knowledge.go.priors.k_features` for one point."""
    cap_groups: dict[int, int] = {}
    save_groups: dict[int, int] = {}
    for n in ref.neighbours(p):
        if ref.col[n] in (BLACK, WHITE):
            stones, libs = ref.group(n)
            if len(libs) == 1:
                target = cap_groups if ref.col[n] == 3 - c else save_groups
                target[min(stones)] = len(stones)
    sa = ref.self_atari(p, c)
    w, size = ref.w, ref.size
    r, cc = p // w - 1, p % w - 1
    line = min(r, cc, size - 1 - r, size - 1 - cc) + 1
    empty = 1
    for rr in range(size):
        for c2 in range(size):
            if abs(rr - r) + abs(c2 - cc) <= 3 and ref.col[(rr + 1) * w + c2 + 1] in (BLACK,
                                                                                  WHITE):
                empty = 0
    if ref.last == PASS:
        dist = 99
    else:
        lr, lc = ref.last // w - 1, ref.last % w - 1
        dist = max(abs(lr - r), abs(lc - cc))
    save = sum(save_groups.values()) if sa == 0 else 0
    cap = sum(cap_groups.values())
    ladder_escape = ladder_atari = 0
    if ladders:
        ladder_escape = int(save > 0 and cap == 0 and ref.escape_laddered(p, c))
        after = ref.copy()
        after.play(p, c)
        done: set[int] = set()
        for n in ref.neighbours(p):
            if ref.col[n] == 3 - c and n not in done:
                stones, libs = ref.group(n)
                done |= stones
                if len(libs) == 2 and p in libs and reference_ladder_captured(
                        after, n, 0, [0]):
                    ladder_atari += len(stones)
    return [cap, save, 1 if pat[ref.pattern_code(p)] else 0,  # type: ignore[index]
            sa, line, empty, dist, ladder_escape, ladder_atari]


def reference_pattern20(ref: RefPlayer, p: int, c: int) -> int:
    """:func:`knowledge.go.features.pattern20` by flood fills."""
    code = 0
    w = ref.w
    for i, d in enumerate((w - 1, w, w + 1, -1, 1, -w - 1, -w, -w + 1)):
        v = ref.col[p + d]
        if c == WHITE and v in (BLACK, WHITE):
            v = 3 - v
        code |= v << (2 * i)
    for i, q in enumerate((p + w, p - 1, p + 1, p - w)):
        if ref.col[q] in (BLACK, WHITE) and len(ref.group(q)[1]) == 1:
            code |= 1 << (16 + i)
    return code


def reference_large_codes(ref: RefPlayer, p: int, c: int) -> tuple[int, int]:
    """:func:`knowledge.go.features.large_codes` by rotating and mirroring the neighbourhood
    itself: the least code over the 8 images of the board around p."""
    r, cc = divmod(p, ref.w)
    r, cc = r - 1, cc - 1

    def state(dx: int, dy: int) -> int:
        rr, c2 = r + dy, cc + dx
        if not (0 <= rr < ref.size and 0 <= c2 < ref.size):
            return 3
        v = ref.col[(rr + 1) * ref.w + c2 + 1]
        return 0 if v == EMPTY else 1 if v == c else 2

    rings = [sorted((dx, dy) for dx in range(-d, d + 1) for dy in range(-d, d + 1)
                    if abs(dx) + abs(dy) == d) for d in (1, 2, 3)]
    order = rings[0] + rings[1] + rings[2]
    images = []
    for mirror in (False, True):
        for turns in range(4):
            def seen(dx: int, dy: int, mirror: bool = mirror, turns: int = turns) -> int:
                # the image's point (dx, dy) is the board's point turned back, then mirrored
                for _ in range(turns):
                    dx, dy = dy, -dx
                return state(-dx if mirror else dx, dy)
            images.append([seen(dx, dy) for dx, dy in order])
    code3 = min(sum(v << (2 * j) for j, v in enumerate(im)) for im in images)
    code2 = min(sum(v << (2 * j) for j, v in enumerate(im[:12])) for im in images)
    return code3, code2 | (1 << 50)


def reference_ladder_captured(ref: RefPlayer, stone: int, depth: int, nodes: list[int]) -> bool:
    """:func:`knowledge.go.features.ladder_captured` by flood fills and board copies."""
    from knowledge.go.features import LADDER_DEPTH, LADDER_NODES

    nodes[0] += 1
    if depth >= LADDER_DEPTH or nodes[0] > LADDER_NODES:
        return False
    d = ref.col[stone]
    stones, libs = ref.group(stone)
    if len(libs) != 1:
        return False
    for s in stones:
        for q in ref.neighbours(s):
            if ref.col[q] == 3 - d and len(ref.group(q)[1]) == 1:
                return False  # the defender captures
    (lib,) = libs
    if not ref.legal(lib, d, use_ko=False):
        return True
    b2 = ref.copy()
    b2.play(lib, d)
    return reference_ladder_attack(b2, stone, depth + 1, nodes)


def reference_ladder_attack(ref: RefPlayer, stone: int, depth: int, nodes: list[int]) -> bool:
    d = ref.col[stone]
    libs = ref.group(stone)[1]
    if len(libs) >= 3:
        return False
    if len(libs) <= 1:
        return True
    for a in sorted(libs):
        if not ref.legal(a, 3 - d, use_ko=False):
            continue
        b3 = ref.copy()
        b3.play(a, 3 - d)
        if (b3.col[stone] == d and len(b3.group(stone)[1]) == 1
                and reference_ladder_captured(b3, stone, depth, nodes)):
            return True
    return False


class _ReadBudget(Exception):
    """The capture reading ran out of positions."""


def reference_capture_read(ref: RefPlayer, stone: int, attacker_first: bool) -> bool:
    """:func:`knowledge.go.tactics.capture_read` by recursion, flood fills and board
    copies (the same moves in the same order, so the same positions counted)."""
    from knowledge.go.tactics import READ_DEPTH, READ_NODES, READ_WIDTH

    d = ref.col[stone]
    nodes = [0]

    def moves(b: RefPlayer, attacker: bool) -> list[int]:
        stones, libs = b.group(stone)
        if attacker:
            return [q for q in sorted(libs) if b.legal(q, 3 - d, use_ko=False)]
        (lib,) = libs
        out = [lib] if b.legal(lib, d, use_ko=False) else []
        caps: set[int] = set()
        for s in stones:
            for q in b.neighbours(s):
                if b.col[q] == 3 - d:
                    qlibs = b.group(q)[1]
                    if len(qlibs) == 1 and b.legal(min(qlibs), d, use_ko=False):
                        caps.add(min(qlibs))
        return (out + sorted(caps - set(out)))[:READ_WIDTH]

    def read(b: RefPlayer, attacker: bool, k: int) -> bool:
        """Captured, with ``attacker`` to move at depth k."""
        for m in moves(b, attacker):
            nodes[0] += 1
            if nodes[0] > READ_NODES:
                raise _ReadBudget
            t = b.copy()
            t.play(m, 3 - d if attacker else d)
            if t.col[stone] != d:
                captured = True
            else:
                n = len(t.group(stone)[1])
                if attacker:
                    captured = n == 1 and k + 1 < READ_DEPTH and read(t, False, k + 1)
                elif n == 2 and k + 1 < READ_DEPTH:
                    captured = read(t, True, k + 1)
                else:
                    captured = n <= 1
            if captured == attacker:
                return captured
        return not attacker

    n = len(ref.group(stone)[1])
    if attacker_first and n != 2:
        return n <= 1
    if not attacker_first and n != 1:
        return n == 0
    try:
        return read(ref, attacker_first, 0)
    except _ReadBudget:
        return False


def reference_read_priors(ref: RefPlayer, c: int, moves: list[int], per_stone: float
                          ) -> tuple[list[float], list[float]]:
    """The (wins, visits) that :func:`knowledge.go.priors.k_read_priors` adds to each point
    of ``moves``."""
    o = 3 - c
    wins = [0.0] * len(moves)
    visits = [0.0] * len(moves)
    index = {p: i for i, p in enumerate(moves) if p != PASS}
    done: set[int] = set()
    for g in range(len(ref.col)):
        if ref.col[g] not in (BLACK, WHITE) or g in done:
            continue
        stones, libs = ref.group(g)
        done |= stones
        if len(stones) < 2 or len(libs) >= 3:
            continue
        b = per_stone * min(len(stones), 4)
        if ref.col[g] == o:
            if len(libs) == 2:
                for lib in sorted(libs):
                    if lib in index:
                        t = ref.copy()
                        t.play(lib, c)
                        if t.col[g] == o and reference_capture_read(t, g, False):
                            wins[index[lib]] += b
                            visits[index[lib]] += b
            continue
        if len(libs) == 2 and not reference_capture_read(ref, g, True):
            continue
        cand = set(libs)
        for s in stones:
            for q in ref.neighbours(s):
                if ref.col[q] == o and len(ref.group(q)[1]) <= 2:
                    cand |= ref.group(q)[1]
        for m in sorted(cand):
            if m not in index:
                continue
            t = ref.copy()
            t.play(m, c)
            if t.col[g] == c and not reference_capture_read(t, g, True):
                wins[index[m]] += b
                visits[index[m]] += b
            elif len(libs) == 1 and m in libs:
                visits[index[m]] += b
    return wins, visits


def _coulom_level(ref: RefPlayer, p: int, q: int) -> int:
    if q == PASS or q <= 0:
        return 0
    dx = abs(p % ref.w - q % ref.w)
    dy = abs(p // ref.w - q // ref.w)
    d = dx + dy + max(dx, dy)
    if 2 <= d <= 9:
        return d - 1
    return 9 if 10 <= d <= 12 else 10 if 13 <= d <= 16 else 0


def reference_playout_gamma(ref: RefPlayer, p: int, c: int, ptab: Any, plv: Any) -> float:
    """:func:`knowledge.go.playout.playout_gamma` (same products in the same order)."""
    from knowledge.go import features as F

    f = reference_move_features(ref, p, c, ladders=False)
    g = float(ptab[f[F.G_PATTERN]])
    for group in (F.G_CAPTURE, F.G_ESCAPE, F.G_ATARI, F.G_SELF_ATARI):
        g *= plv[group, f[group]]
    for group in (F.G_DIST, F.G_DIST2):
        g *= plv[group, f[group] if f[group] <= 2 else 0]
    g *= plv[F.G_LINE, f[F.G_LINE]]
    g *= plv[F.G_EYE, f[F.G_EYE]]
    return float(g)


def reference_move_features(ref: RefPlayer, p: int, c: int, ladders: bool = True) -> list[int]:
    """:func:`knowledge.go.features.k_move_features` for one move, written from the docstring
    (without ``ladders``, as the playout policy sees it: no ladder is read)."""
    from knowledge.go import features as F

    out = [0] * F.NG
    if p == PASS:
        out[F.G_PATTERN] = -1
        out[F.G_PASS] = 2 if ref.passes > 0 else 1
        return out
    o = 3 - c
    out[F.G_PATTERN] = reference_pattern20(ref, p, c)
    groups = {}  # the distinct groups next to p: min stone -> (stones, liberties)
    for n in ref.neighbours(p):
        if ref.col[n] in (BLACK, WHITE):
            stones, libs = ref.group(n)
            groups[min(stones)] = (stones, libs)
    captured = [st for st, lb in groups.values() if ref.col[min(st)] == o and len(lb) == 1]
    ours_in_atari = [st for st, lb in groups.values() if ref.col[min(st)] == c and len(lb) == 1]
    n_cap = sum(len(st) for st in captured)
    if n_cap:
        saves = any(ref.col[q] == c and len(ref.group(q)[1]) == 1
                    for st in captured for s in st for q in ref.neighbours(s))
        if saves:
            out[F.G_CAPTURE] = 1
        elif any(ref.last in st for st in captured):
            out[F.G_CAPTURE] = 2
        else:
            out[F.G_CAPTURE] = 3 if n_cap == 1 else 4
    elif ours_in_atari:
        b2 = ref.copy()
        b2.play(p, c)
        libs = b2.group(p)[1]
        if len(libs) >= 2:
            level = 1 if len(libs) >= 3 else (
                3 if ladders and reference_ladder_attack(b2, p, 0, [0]) else 2)
            new = any(ref.last in ref.neighbours(s) for st in ours_in_atari for s in st)
            out[F.G_ESCAPE] = level + 3 if new else level
    best = 0
    for stones, libs in groups.values():
        if ref.col[min(stones)] != o or len(libs) != 2 or p not in libs:
            continue
        level = 1 if len(stones) == 1 else 2
        b2 = ref.copy()
        b2.play(p, c)
        if ladders and reference_ladder_captured(b2, min(stones), 0, [0]):
            level += 2
        best = max(best, level)
    out[F.G_ATARI] = best
    out[F.G_SELF_ATARI] = min(ref.self_atari(p, c), 3)
    out[F.G_DIST] = _coulom_level(ref, p, ref.last)
    out[F.G_DIST2] = _coulom_level(ref, p, ref.last2)
    size, w = ref.size, ref.w
    r, cc = p // w - 1, p % w - 1
    line = min(r, cc, size - 1 - r, size - 1 - cc) + 1
    out[F.G_LINE] = line if line <= 4 else 0
    out[F.G_EYE] = int(all(ref.col[n] in (c, BORDER) for n in ref.neighbours(p)))
    near = any(ref.col[(rr + 1) * w + c2 + 1] in (BLACK, WHITE)
               for rr in range(size) for c2 in range(size)
               if abs(rr - r) + abs(c2 - cc) <= 3)
    out[F.G_EMPTY_AREA] = 0 if near else min(line, 4)
    best = 0
    for stones, libs in groups.values():
        if ref.col[min(stones)] == o and len(libs) == 3:
            race = any(ref.col[q] == c and len(ref.group(q)[1]) in (2, 3)
                       for s in stones for q in ref.neighbours(s))
            best = max(best, 2 if race else 1)
    short = [st for st, lb in groups.values() if ref.col[min(st)] == c and len(lb) == 2]
    if short and not n_cap:
        b2 = ref.copy()
        b2.play(p, c)
        if len(b2.group(p)[1]) >= 3:
            new = any(ref.last in ref.neighbours(s) for st in short for s in st)
            best = max(best, 4 if new else 3)
    out[F.G_LIBS] = best
    return out


def reference_shape_counts(ref: RefPlayer, c: int) -> list[float]:
    """:func:`knowledge.go.shapes.k_shape_counts`: shapes enumerated with explicit symmetries."""
    from knowledge.go.shapes import N_POINT, n_shape_features, shape_tables

    two, three = shape_tables()
    n, w = ref.size, ref.w
    out = [0.0] * n_shape_features()

    def rel(r: int, cc: int) -> int:
        v = ref.col[(r + 1) * w + cc + 1]
        return 0 if v not in (BLACK, WHITE) else (1 if v == c else 2)

    classes = sorted({tuple(sorted((a, b))) for a in range(5) for b in range(5)},
                     key=lambda t: (t[1], t[0]))
    assert len(classes) * 2 == N_POINT
    for r in range(n):
        for cc in range(n):
            v = rel(r, cc)
            if v:
                key = tuple(sorted((min(r, n - 1 - r, 4), min(cc, n - 1 - cc, 4))))
                out[2 * classes.index(key) + v - 1] += 1.0
    for size, table in ((2, two), (3, three)):
        for r in range(n - size + 1):
            for cc in range(n - size + 1):
                code = sum(rel(r + i // size, cc + i % size) * 3 ** i
                           for i in range(size * size))
                if table[code] >= 0:
                    out[int(table[code])] += 1.0
    return out


def reference_style_feature(ref: RefBoard, p: int, c: int, moves_played: int,
                            style: str) -> bool:
    """:func:`knowledge.go.style.style_feature` by coordinates: the move of c at p, after
    ``moves_played`` moves of the game, has the feature of the style named ``style``."""
    w, size = ref.w, ref.size
    r, cc = p // w - 1, p % w - 1

    def line(row: int, column: int) -> int:
        return min(row, column, size - 1 - row, size - 1 - column) + 1

    if style == "fighting":
        if ref.last == PASS:
            return False
        lr, lc = ref.last // w - 1, ref.last % w - 1
        return (max(abs(lr - r), abs(lc - cc)) <= 2
                and any(ref.col[n] == 3 - c for n in ref.neighbours(p)))
    if moves_played >= size * size // 8:
        return False
    height = line(r, cc)
    centre = (size + 1) // 2
    if style == "territorial":
        return 3 <= height <= min(4, centre - 2)
    if height not in (4, 5):
        return False
    return not any(
        ref.col[(rr + 1) * w + c2 + 1] in (BLACK, WHITE) and line(rr, c2) > height
        for rr in range(max(0, r - 2), min(size, r + 3))
        for c2 in range(max(0, cc - 2), min(size, cc + 3)))
