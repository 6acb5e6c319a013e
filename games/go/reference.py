"""Plain-Python reference of the rules and of area scoring (no numba).

Written independently of :mod:`games.go.board` (flood fills instead of incremental groups)
but with the same empty-point list discipline, so that the same moves give the same board,
empty list, ko point and score. Tests compare the two; the reference of the playout policies
builds on this board. Slow: for tests only.
"""

from __future__ import annotations

from typing import Self

from games.go.coords import BLACK, BORDER, EMPTY, PASS, WHITE


class RefBoard:
    """A Go board as a list of colours with a border; simple ko."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.w = w = size + 2
        self.col = [BORDER] * (w * w)
        self.empties: list[int] = []
        for r in range(size):
            for c in range(size):
                p = (r + 1) * w + c + 1
                self.col[p] = EMPTY
                self.empties.append(p)
        self.ko = 0
        self.to_play = BLACK
        self.last = PASS
        self.last2 = PASS
        self.passes = 0
        self.captures = {BLACK: 0, WHITE: 0}

    @classmethod
    def from_kernel(cls, b: object) -> Self:
        """A copy of a kernel board array (colours, empty list order, ko, turn, last move)."""
        from games.go import board as K

        arr = b  # numpy array (NROWS, P)
        size = int(arr[K.META, K.M_SIZE])  # type: ignore[index]
        ref = cls(size)
        ref.col = [int(v) for v in arr[K.COL]]  # type: ignore[index]
        n = int(arr[K.META, K.M_NEMPTY])  # type: ignore[index]
        ref.empties = [int(v) for v in arr[K.EMP, :n]]  # type: ignore[index]
        ref.ko = int(arr[K.META, K.M_KO])  # type: ignore[index]
        ref.to_play = int(arr[K.META, K.M_TOPLAY])  # type: ignore[index]
        ref.last = int(arr[K.META, K.M_LAST])  # type: ignore[index]
        ref.last2 = int(arr[K.META, K.M_LAST2])  # type: ignore[index]
        ref.passes = int(arr[K.META, K.M_PASSES])  # type: ignore[index]
        return ref

    def neighbours(self, p: int) -> tuple[int, int, int, int]:
        return (p + 1, p - 1, p + self.w, p - self.w)

    def group(self, p: int) -> tuple[set[int], set[int]]:
        """(stones, liberties) of the group at p."""
        c = self.col[p]
        stones = {p}
        libs: set[int] = set()
        todo = [p]
        while todo:
            q = todo.pop()
            for n in self.neighbours(q):
                cn = self.col[n]
                if cn == c and n not in stones:
                    stones.add(n)
                    todo.append(n)
                elif cn == EMPTY:
                    libs.add(n)
        return stones, libs

    def legal(self, p: int, c: int, use_ko: bool = True) -> bool:
        if self.col[p] != EMPTY or (use_ko and p == self.ko):
            return False
        self.col[p] = c
        try:
            for n in self.neighbours(p):
                if self.col[n] == 3 - c and not self.group(n)[1]:
                    return True
            return bool(self.group(p)[1])
        finally:
            self.col[p] = EMPTY

    def copy(self) -> Self:
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.col = list(self.col)
        new.empties = list(self.empties)
        new.captures = dict(self.captures)
        return new

    def play(self, p: int, c: int) -> int:
        self.to_play = 3 - c
        self.last2 = self.last
        self.last = p
        self.ko = 0
        if p == PASS:
            self.passes += 1
            return 0
        self.passes = 0
        i = self.empties.index(p)
        self.empties[i] = self.empties[-1]
        self.empties.pop()
        self.col[p] = c
        captured = 0
        ko = 0
        for n in self.neighbours(p):
            if self.col[n] == 3 - c:
                stones, libs = self.group(n)
                if not libs:
                    for s in sorted(stones):
                        self.col[s] = EMPTY
                        self.empties.append(s)
                    captured += len(stones)
                    ko = n
        self.captures[c] += captured
        stones, libs = self.group(p)
        if captured == 1 and len(stones) == 1 and len(libs) == 1:
            self.ko = ko
        return captured

    def is_eye(self, p: int, c: int) -> bool:
        if any(self.col[n] not in (c, BORDER) for n in self.neighbours(p)):
            return False
        w = self.w
        diag = [self.col[q] for q in (p + w + 1, p + w - 1, p - w + 1, p - w - 1)]
        bad = sum(1 for v in diag if v == 3 - c)
        if BORDER in diag:
            return bad == 0
        return bad < 2

    def empty_region(self, p: int, limit: int = 0) -> tuple[set[int], set[int]]:
        """The empty region containing the empty point p and the colours of the stones around
        it; with ``limit``, the fill stops once the region has more points than that."""
        region = {p}
        todo = [p]
        around: set[int] = set()
        while todo and not (limit and len(region) > limit):
            q = todo.pop()
            for n in self.neighbours(q):
                if self.col[n] == EMPTY and n not in region:
                    region.add(n)
                    todo.append(n)
                elif self.col[n] in (BLACK, WHITE):
                    around.add(self.col[n])
        return region, around

    def area(self) -> tuple[int, list[int]]:
        """(black area - white area, owner per point) by Tromp-Taylor."""
        owner = [EMPTY] * len(self.col)
        done: set[int] = set()
        score = 0
        for p, cp in enumerate(self.col):
            if cp in (BLACK, WHITE):
                owner[p] = cp
                score += 1 if cp == BLACK else -1
            elif cp == EMPTY and p not in done:
                region, reach = self.empty_region(p)
                done |= region
                if len(reach) == 1:
                    (who,) = reach
                    for q in region:
                        owner[q] = who
                    score += len(region) if who == BLACK else -len(region)
        return score, owner
