"""Perft-style legal move counts from fixed positions, kept as data (legal_counts.jsonl).

Each line: id, size, the moves (GTP vertices, colours alternating from black), the colour to
play, the number of legal points (superko included), the number without own true eyes, and
the Tromp-Taylor black - white area. The counts were produced by the plain-Python reference
(flood fills, brute-force superko); regenerate with
``python -m tests.go_rules.test_perft --regenerate`` only after a deliberate rules change.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from games.go import PASS, GoState, point_to_vertex, vertex_to_point
from games.go.reference import RefBoard

DATA = Path(__file__).parent / "data" / "legal_counts.jsonl"


def reference_counts(size: int, vertices: list[str]) -> tuple[list[int], list[int], int]:
    """(legal points, legal points that are not own true eyes, area) by the reference."""
    ref = RefBoard(size)
    boards = {tuple(ref.col)}
    for v in vertices:
        p = vertex_to_point(v, size)
        ref.play(p, ref.to_play)
        if p != PASS:
            boards.add(tuple(ref.col))
    c = ref.to_play
    legal = []
    for p in sorted(ref.empties):
        if not ref.legal(p, c, use_ko=False):
            continue
        saved = (list(ref.col), list(ref.empties), ref.ko, ref.to_play, ref.last, ref.passes,
                 dict(ref.captures))
        ref.play(p, c)
        repeat = tuple(ref.col) in boards
        (ref.col, ref.empties, ref.ko, ref.to_play, ref.last, ref.passes,
         ref.captures) = saved
        if not repeat:
            legal.append(p)
    no_eyes = [p for p in legal if not ref.is_eye(p, c)]
    return legal, no_eyes, ref.area()[0]


def load() -> list[dict[str, object]]:
    if not DATA.exists():
        return []
    return [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("case", load(), ids=lambda c: str(c["id"]))
def test_legal_counts(case: dict[str, object]) -> None:
    size = int(case["size"])  # type: ignore[call-overload]
    moves = list(case["moves"])  # type: ignore[call-overload]
    s = GoState(size, 0.0)
    for v in moves:
        s.play(vertex_to_point(v, size))
    got = s.legal_points()
    if len(got) != case["legal"]:
        legal, _, _ = reference_counts(size, moves)
        extra = sorted(point_to_vertex(p, size) for p in set(got) - set(legal))
        missing = sorted(point_to_vertex(p, size) for p in set(legal) - set(got))
        pytest.fail(f"legal {len(got)} != {case['legal']}; extra {extra}, missing {missing}")
    assert len(s.legal_points(include_eyes=False)) == case["no_eyes"]
    assert s.score() == case["area"]


def regenerate() -> None:
    rows = []
    rng = np.random.default_rng(2024)
    i = 0
    for size, lengths in ((5, (0, 10, 25, 40, 60)), (9, (0, 30, 80, 120)),
                          (13, (50, 150)), (19, (0, 100, 250))):
        for n in lengths:
            s = GoState(size, 0.0)
            for _ in range(n):
                moves = s.legal_moves()
                if len(moves) <= 1:
                    break
                s.play(moves[int(rng.integers(len(moves) - 1))])
            vertices = [point_to_vertex(p, size) for _, p in s.history]
            legal, no_eyes, area = reference_counts(size, vertices)
            rows.append({"id": f"{size}x{size}-{i}", "size": size, "moves": vertices,
                         "legal": len(legal), "no_eyes": len(no_eyes), "area": area})
            i += 1
    DATA.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    if "--regenerate" in sys.argv:
        regenerate()
