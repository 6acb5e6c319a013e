"""Tactical reading for the playout policies and the move features (numba): self-ataris,
liberties after a move, ladders, nakade, and the levels of a move's capture, escape, atari,
distance and line. The small ones are compiled without reference counting
(:func:`~games.go.board.leaf_kernel`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from games.go.board import (
    COL,
    GID,
    GSIZE,
    M_LAST,
    M_SIZE,
    M_W,
    META,
    NXT,
    PLIB,
    SCR,
    atari_lib,
    group_libs,
    groups_next_to,
    in_atari,
    k_legal_noko,
    k_play,
    leaf_kernel,
    touches,
)
from games.go.coords import BLACK, BORDER, EMPTY, PASS, WHITE

# move features (knowledge.go.features; the learned playout policy reads some of them)
NG = 12  # feature groups of knowledge.go.features (column 0 of a feature row: the pattern code)


(G_PATTERN, G_CAPTURE, G_ESCAPE, G_ATARI, G_SELF_ATARI, G_DIST, G_DIST2, G_LINE, G_EYE,
 G_EMPTY_AREA, G_PASS, G_LIBS) = range(NG)


LEVELS = (0, 4, 6, 4, 3, 10, 10, 4, 1, 4, 2, 4)  # levels per group (the pattern's are codes)


# ladder reading (knowledge.go.features): extensions and positions read before giving up
LADDER_DEPTH = 60


LADDER_NODES = 400


@leaf_kernel
def k_self_atari(B: np.ndarray, p: int, c: int) -> int:
    """If c playing at the empty point p would leave its new group with exactly one liberty
    and capture nothing, the size of that group; otherwise 0 (also for suicide: 0 libs)."""
    w = B[META, M_W]
    l1 = -1
    nlib = 0
    for n in (p + 1, p - 1, p + w, p - w):
        cn = B[COL, n]
        if cn == EMPTY:
            if nlib == 0:
                l1 = n
                nlib = 1
            elif n != l1:
                return 0
        elif cn == 3 - c:
            if in_atari(B, B[GID, n]):
                return 0
    size = 1
    for g in groups_next_to(B, p, c, False):
        if g < 0:
            break
        size += B[GSIZE, g]
        if B[PLIB, g] > 8:
            return 0  # >= 3 distinct liberties (each is counted at most 4 times)
        s = g
        while True:
            for q in (s + 1, s - 1, s + w, s - w):
                if B[COL, q] == EMPTY and q != p:
                    if nlib == 0:
                        l1 = q
                        nlib = 1
                    elif q != l1:
                        return 0
            s = B[NXT, s]
            if s == g:
                break
    if nlib == 1:
        return size
    return 0


@leaf_kernel
def dead_shape_after(B: np.ndarray, p: int, c: int) -> bool:
    """Whether the group c would form by playing at the empty point p has a shape in which,
    once captured, the capturer cannot make two eyes: at most three stones, a square or a
    pyramid four, a bulky or a crossed five (the eye spaces of :func:`nakade_vital`, and the
    square four). A self-atari into such a shape inside the opponent's eye space is how the
    attacker kills it (nakade), so a playout policy need not refuse it. The group's points
    go to the board's scratch row ``B[SCR]``."""
    w = B[META, M_W]
    pts = B[SCR]  # not a new array: a leaf_kernel allocates none
    pts[0] = p
    k = 1
    for g in groups_next_to(B, p, c, False):
        if g < 0:
            break
        if k + B[GSIZE, g] > 5:
            return False
        q = g
        while True:
            pts[k] = q
            k += 1
            q = B[NXT, q]
            if q == g:
                break
    if k <= 3:
        return True
    top, _, pairs = shape_degrees(pts, k, w)
    if k == 4:
        return top == 3 or pairs == 4  # a pyramid, or a square
    return top == 4 or pairs == 5  # a cross, or a bulky five (a square and one more)


@leaf_kernel
def bad_self_atari(B: np.ndarray, p: int, c: int, sa_min: int, nakade: bool) -> bool:
    """Whether a playout refuses c's move at p as a self-atari: one that leaves a group of
    at least ``sa_min`` stones in atari, unless (with ``nakade``) the group has at most five
    stones in a dead shape (:func:`dead_shape_after`)."""
    k = k_self_atari(B, p, c)
    if k < sa_min:
        return False
    return not (nakade and k <= 5 and dead_shape_after(B, p, c))


@leaf_kernel
def libs_after(B: np.ndarray, p: int, c: int) -> int:
    """The liberties of the group c would form by playing at the empty point p, capped at 3
    (3 also when the move captures: an opponent group next to p is in atari)."""
    w = B[META, M_W]
    l1 = -1
    l2 = -1
    for n in (p + 1, p - 1, p + w, p - w):
        cn = B[COL, n]
        if cn == EMPTY:
            if l1 < 0:
                l1 = n
            elif l2 < 0:
                l2 = n
            else:
                return 3
        elif cn == 3 - c and in_atari(B, B[GID, n]):
            return 3
    for g in groups_next_to(B, p, c, False):
        if g < 0:
            break
        if B[PLIB, g] > 12:
            return 3  # >= 4 distinct liberties, so >= 3 besides p
        s = g
        while True:
            for q in (s + 1, s - 1, s + w, s - w):
                if B[COL, q] == EMPTY and q != p and q != l1 and q != l2:
                    if l1 < 0:
                        l1 = q
                    elif l2 < 0:
                        l2 = q
                    else:
                        return 3
            s = B[NXT, s]
            if s == g:
                break
    return 0 if l1 < 0 else 1 if l2 < 0 else 2


@leaf_kernel
def nakade_vital(B: np.ndarray, q: int, buf: np.ndarray) -> int:
    """The vital point of the empty region containing the empty point q when it could be an
    eye space too small to live in, else -1: the region (flood fill, ``buf[0:5]`` scratch)
    has 3 to 5 points, every stone around it is of one colour (the edge may bound it too),
    and its shape is a three (the middle point), a pyramid four (the point next to three
    others), a crossed five (the centre) or a bulky five (the point of its square next to
    the fifth point). Straight, bent and square fours and the other fives have no vital
    point here: they live, or are dead whatever is played."""
    w = B[META, M_W]
    buf[0] = q
    k = 1
    i = 0
    around = 0  # the colour of the stones around the region (0: none seen yet)
    while i < k:
        p = buf[i]
        i += 1
        for n in (p + 1, p - 1, p + w, p - w):
            cn = B[COL, n]
            if cn == EMPTY:
                seen = False
                for j in range(k):
                    if buf[j] == n:
                        seen = True
                        break
                if not seen:
                    if k == 5:
                        return -1
                    buf[k] = n
                    k += 1
            elif cn != BORDER:
                if around == 0:
                    around = cn
                elif cn != around:
                    return -1
    if k < 3 or around == 0:
        return -1
    top, best, edges = shape_degrees(buf, k, w)
    if k == 3 or (k == 4 and top == 3) or (k == 5 and (top == 4 or edges == 5)):
        return best
    return -1


@leaf_kernel
def shape_degrees(pts: np.ndarray, k: int, w: int) -> tuple[int, int, int]:
    """For the points ``pts[:k]`` (row width ``w``): the most neighbours a point has among
    them, the first point with that many, and the number of adjacent pairs. They name the
    small shapes: a pyramid four has a point with three neighbours, a square four four pairs,
    a crossed five a point with four, a bulky five five pairs."""
    top = 0
    best = -1
    pairs = 0
    for a in range(k):
        d = 0
        p = pts[a]
        for b in range(k):
            n = pts[b]
            if n == p + 1 or n == p - 1 or n == p + w or n == p - w:
                d += 1
        pairs += d
        if d > top:
            top = d
            best = p
    return top, best, pairs // 2


@njit(cache=True)
def escape_laddered(B: np.ndarray, lib: int, c: int) -> bool:
    """c extends at ``lib`` out of atari (to at least two liberties): does it get only two,
    and does a ladder then catch it?"""
    B2 = B.copy()
    k_play(B2, lib, c)
    n, _, _ = group_libs(B2, B2[GID, lib])
    if n != 2:
        return False
    nodes = np.zeros(1, dtype=np.int64)
    return ladder_attack(B2, lib, nodes)


@njit(cache=True)
def coulom_distance(B: np.ndarray, p: int, q: int) -> int:
    """dx + dy + max(dx, dy) between two points (q may be PASS: a large number)."""
    if q == PASS or q <= 0:
        return 1000
    w = int(B[META, M_W])
    dx = abs(p % w - q % w)
    dy = abs(p // w - q // w)
    return dx + dy + max(dx, dy)


@njit(cache=True)
def distance_level(d: int) -> int:
    if d < 2:
        return 0
    if d <= 9:
        return d - 1
    if d <= 12:
        return 9
    if d <= 16:
        return 10
    return 0


@njit(cache=True)
def capture_level(B: np.ndarray, p: int, c: int) -> int:
    """The CAPTURE level of c playing at p (0: captures nothing)."""
    o = 3 - c
    w = B[META, M_W]
    last = B[META, M_LAST]
    stones = 0
    saves = False
    takes_last = False
    for g in groups_next_to(B, p, o, True):
        if g < 0:
            break
        stones += B[GSIZE, g]
        if last > 0 and B[COL, last] == o and B[GID, last] == g:
            takes_last = True
        s = g
        while True:
            for q in (s + 1, s - 1, s + w, s - w):
                if B[COL, q] == c and in_atari(B, B[GID, q]):
                    saves = True
            s = B[NXT, s]
            if s == g:
                break
    if stones == 0:
        return 0
    if saves:
        return 1
    if takes_last:
        return 2
    return 3 if stones == 1 else 4


@njit(cache=True)
def _attacker_in_atari_next_to(B: np.ndarray, g: int, a: int) -> bool:
    w = B[META, M_W]
    s = g
    while True:
        for q in (s + 1, s - 1, s + w, s - w):
            if B[COL, q] == a and in_atari(B, B[GID, q]):
                return True
        s = B[NXT, s]
        if s == g:
            break
    return False


@njit(cache=True)
def _defend(T: np.ndarray, stone: int, depth: int, nodes: np.ndarray) -> int:
    """The defender's turn in a ladder, on T (changed): 0 escaped, 1 captured, 2 the attacker
    is to move against two liberties."""
    d = T[COL, stone]
    g = T[GID, stone]
    nodes[0] += 1
    if depth >= LADDER_DEPTH or nodes[0] > LADDER_NODES:
        return 0
    if not in_atari(T, g) or _attacker_in_atari_next_to(T, g, 3 - d):
        return 0
    lib = atari_lib(T, g)
    if not k_legal_noko(T, lib, d):
        return 1
    k_play(T, lib, d)
    n, _, _ = group_libs(T, T[GID, stone])
    return 0 if n >= 3 else 1 if n <= 1 else 2


@njit(cache=True)
def _ladder(B: np.ndarray, stone: int, attacker: bool, nodes: np.ndarray) -> bool:
    """Is the group at ``stone`` captured in a ladder? With ``attacker`` the attacker is to
    move (three or more liberties: no; one: yes; two: it tries each, smaller point first),
    else the defender, in atari. A depth-first search with a stack of boards (numba's cache
    mishandles recursive functions); the defender has one move, so a capture found under
    any attacker choice answers the whole question."""
    d = B[COL, stone]
    a = 3 - d
    base = 0
    if not attacker:
        T0 = B.copy()
        r = _defend(T0, stone, 0, nodes)
        if r != 2:
            return r == 1
        B = T0
        base = 1
    n, l1, l2 = group_libs(B, B[GID, stone])
    if n >= 3:
        return False
    if n <= 1:
        return True
    stack = np.empty((LADDER_DEPTH + 2, B.shape[0], B.shape[1]), dtype=B.dtype)
    libs = np.empty((LADDER_DEPTH + 2, 2), dtype=np.int64)
    branch = np.zeros(LADDER_DEPTH + 2, dtype=np.int64)
    stack[0] = B
    libs[0, 0] = l1
    libs[0, 1] = l2
    k = 0
    while k >= 0:
        if branch[k] == 2:
            k -= 1
            continue
        A = libs[k, branch[k]]
        branch[k] += 1
        S = stack[k]
        if not k_legal_noko(S, A, a):
            continue
        T = stack[k + 1]
        T[:, :] = S
        k_play(T, A, a)
        if T[COL, stone] != d or not in_atari(T, T[GID, stone]):
            continue
        r = _defend(T, stone, k + base, nodes)
        if r == 1:
            return True
        if r == 2:
            _, l1, l2 = group_libs(T, T[GID, stone])
            k += 1
            libs[k, 0] = l1
            libs[k, 1] = l2
            branch[k] = 0
    return False


@njit(cache=True)
def ladder_captured(B: np.ndarray, stone: int, nodes: np.ndarray) -> bool:
    """The group at ``stone`` is in atari and its colour is to move: is it captured in a
    ladder? (``nodes[0]``: positions read so far, 0 for a fresh reading.)"""
    return _ladder(B, stone, False, nodes)


@njit(cache=True)
def ladder_attack(B: np.ndarray, stone: int, nodes: np.ndarray) -> bool:
    """The attacker is to move against the group at ``stone``: can a ladder capture it?"""
    return _ladder(B, stone, True, nodes)


@njit(cache=True)
def escape_level(B: np.ndarray, p: int, c: int, ladders: bool) -> int:
    """The ESCAPE level of c playing at p, which captures nothing: 0 if no group of c next
    to p is in atari or if the move leaves it in atari, 1 three or more liberties, 2 two
    (3 with ``ladders`` when a ladder then takes the group); + 3 when the last move gave
    that atari. Copies the board only when a group of c next to p is in atari."""
    last = B[META, M_LAST]
    new = False
    any_atari = False
    for g in groups_next_to(B, p, c, True):
        if g < 0:
            break
        any_atari = True
        if last > 0 and touches(B, g, last):
            new = True
    if not any_atari:
        return 0
    B2 = B.copy()
    k_play(B2, p, c)
    n, _, _ = group_libs(B2, B2[GID, p])
    if n <= 1:
        return 0
    level = 1 if n >= 3 else 2
    if level == 2 and ladders:
        nodes = np.zeros(1, dtype=np.int64)
        if ladder_attack(B2, p, nodes):
            level = 3
    return level + 3 if new else level


@njit(cache=True)
def _put_in_atari(B: np.ndarray, g: int, p: int) -> int:
    """g if it is the root of a group of two liberties, p one of them; else -1."""
    if g < 0:
        return -1
    n, l1, l2 = group_libs(B, g)
    return g if n == 2 and (l1 == p or l2 == p) else -1


@njit(cache=True)
def groups_put_in_atari(B: np.ndarray, p: int, c: int) -> tuple[int, int, int, int]:
    """The roots of the distinct opponent groups that c playing at the empty point p puts
    in atari (two liberties now, p one of them), in neighbour order; -1 in the places of
    the other groups and after the last."""
    g0, g1, g2, g3 = groups_next_to(B, p, 3 - c, False)
    return (_put_in_atari(B, g0, p), _put_in_atari(B, g1, p), _put_in_atari(B, g2, p),
            _put_in_atari(B, g3, p))


@njit(cache=True)
def atari_level(B: np.ndarray, p: int, c: int, ladders: bool) -> int:
    """The ATARI level of c playing at p: 0 if no opponent group goes into atari, else 1
    for a one-stone group, 2 for a larger one, + 2 with ``ladders`` when a ladder then
    captures it (the highest if several)."""
    best = 0
    for g in groups_put_in_atari(B, p, c):
        if g < 0:
            continue
        level = 1 if B[GSIZE, g] == 1 else 2
        if ladders:
            B2 = B.copy()
            k_play(B2, p, c)
            nodes = np.zeros(1, dtype=np.int64)
            if ladder_captured(B2, g, nodes):
                level += 2
        best = max(best, level)
    return best


@njit(cache=True)
def edge_line(B: np.ndarray, p: int) -> int:
    """The line of the point p: 1 on the edge, 2 next to it, and so on."""
    w = B[META, M_W]
    size = B[META, M_SIZE]
    r = p // w - 1
    cc = p % w - 1
    return int(min(min(r, cc), min(size - 1 - r, size - 1 - cc)) + 1)


@njit(cache=True)
def empty_area(B: np.ndarray, p: int) -> bool:
    """No stone within Manhattan distance 3 of the point p."""
    w = B[META, M_W]
    size = B[META, M_SIZE]
    r = p // w - 1
    cc = p % w - 1
    for dr in range(-3, 4):
        for dc in range(-3 + abs(dr), 4 - abs(dr)):
            rr = r + dr
            c2 = cc + dc
            if 0 <= rr < size and 0 <= c2 < size:
                v = B[COL, (rr + 1) * w + c2 + 1]
                if v == BLACK or v == WHITE:
                    return False
    return True


# capture reading (capture_read): plies and positions read before giving up (as an escape)
READ_DEPTH = 24


READ_NODES = 300


READ_WIDTH = 32  # moves of one side in one position, at most (the first found)


@njit(cache=True)
def add_unique(out: np.ndarray, k: int, p: int) -> int:
    """Append p to ``out[:k]`` unless it is there or ``out`` is full; the new length."""
    for j in range(k):
        if out[j] == p:
            return k
    if k < out.shape[0]:
        out[k] = p
        k += 1
    return k


@njit(cache=True)
def read_stack(B: np.ndarray) -> np.ndarray:
    """Scratch boards for :func:`capture_read` on boards like B."""
    return np.empty((READ_DEPTH + 1, B.shape[0], B.shape[1]), dtype=B.dtype)


@njit(cache=True)
def _read_moves(T: np.ndarray, stone: int, attacker: bool, out: np.ndarray) -> int:
    """The moves :func:`capture_read` tries for the side to move against or for the group
    at ``stone``: the attacker (the group has two liberties) each liberty; the defender (the
    group is in atari) the liberty, then the liberties of the attacker groups in atari next
    to it (captures) in increasing order. Legal ones only (ko ignored), without repeats;
    returns how many."""
    g = T[GID, stone]
    d = T[COL, stone]
    a = 3 - d
    k = 0
    if attacker:
        _, l1, l2 = group_libs(T, g)
        for lib in (l1, l2):
            if lib >= 0 and k_legal_noko(T, lib, a):
                out[k] = lib
                k += 1
        return k
    lib = atari_lib(T, g)
    if k_legal_noko(T, lib, d):
        out[k] = lib
        k += 1
    first = k
    w = T[META, M_W]
    s = g
    while True:
        for q in (s + 1, s - 1, s + w, s - w):
            if T[COL, q] == a and in_atari(T, T[GID, q]):
                cap = atari_lib(T, T[GID, q])
                if k_legal_noko(T, cap, d):
                    k = add_unique(out, k, cap)
        s = T[NXT, s]
        if s == g:
            break
    for i in range(first + 1, k):  # the captures in increasing order
        j = i
        while j > first and out[j - 1] > out[j]:
            out[j - 1], out[j] = out[j], out[j - 1]
            j -= 1
    return k


@njit(cache=True)
def capture_read(B: np.ndarray, stone: int, attacker_first: bool, nodes: np.ndarray,
                 stack: np.ndarray) -> bool:
    """Is the group at ``stone`` captured by a chase of ataris? The attacker (to move with
    ``attacker_first``) plays a liberty of the group when it has two; the defender, in
    atari, extends or captures an attacker group in atari next to it, and the reading goes
    on from whatever liberties that leaves: three or more escape, one is captured. An AND-OR
    search, depth first over a stack of boards (numba's cache mishandles recursive
    functions); it gives up, as an escape, after ``READ_DEPTH`` plies or ``READ_NODES``
    positions (``nodes[0]`` counts them). Ko is ignored. With the attacker first, a group
    of one liberty is captured and one of three or more is not; with the defender first, a
    group not in atari is not. ``stack``: scratch boards (:func:`read_stack`)."""
    d = B[COL, stone]
    n, _, _ = group_libs(B, B[GID, stone])
    if attacker_first:
        if n != 2:
            return n <= 1
    elif n != 1:
        return n == 0
    moves = np.empty((READ_DEPTH + 1, READ_WIDTH), dtype=np.int64)
    count = np.zeros(READ_DEPTH + 1, dtype=np.int64)
    nxt = np.zeros(READ_DEPTH + 1, dtype=np.int64)
    stack[0] = B
    att = attacker_first  # the side to move at frame k: the root's when k is even
    count[0] = _read_moves(B, stone, att, moves[0])
    k = 0
    while True:
        attacker = att if k % 2 == 0 else not att
        if nxt[k] < count[k]:
            m = moves[k, nxt[k]]
            nxt[k] += 1
            nodes[0] += 1
            if nodes[0] > READ_NODES:
                return False
            T = stack[k + 1]
            T[:, :] = stack[k]
            k_play(T, m, 3 - d if attacker else d)
            if T[COL, stone] != d:
                captured = True
            else:
                n, _, _ = group_libs(T, T[GID, stone])
                if attacker:
                    if n == 1 and k + 1 < READ_DEPTH:
                        count[k + 1] = _read_moves(T, stone, False, moves[k + 1])
                        nxt[k + 1] = 0
                        k += 1
                        continue
                    captured = False  # no atari, or too deep to read on: an escape
                else:
                    if n == 2 and k + 1 < READ_DEPTH:
                        count[k + 1] = _read_moves(T, stone, True, moves[k + 1])
                        nxt[k + 1] = 0
                        k += 1
                        continue
                    captured = n <= 1
            if captured != attacker:
                continue  # not decided: try the frame's next move
        else:
            captured = not attacker  # no attacker move captures / no defender move escapes
        # frame k is decided (captured or not); pass it up while it decides its parents
        while True:
            if k == 0:
                return captured
            k -= 1
            if captured == (att if k % 2 == 0 else not att):
                continue
            break
