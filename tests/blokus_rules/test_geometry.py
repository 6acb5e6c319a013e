"""Pieces, orientations, placements and notations against the spec's facts."""

from __future__ import annotations

import pytest

from games.blokus_duo import PASS, geometry
from games.blokus_duo.geometry import oriented_offsets


@pytest.fixture(scope="module")
def g():  # type: ignore[no-untyped-def]
    return geometry()


def test_counts(g) -> None:  # type: ignore[no-untyped-def]
    assert g.shapes_per_piece == (1, 2, 2, 4, 2, 8, 4, 1, 4, 2, 8, 8, 8, 4, 8, 4, 4, 4, 4, 8, 1)
    assert sum(g.shapes_per_piece) == 91
    assert g.num_placements == 13729
    assert int((g.piece == 0).sum()) == 196
    assert [int(n) for n in g.ncells[[0, 196]]] == [1, 2]


def test_orientations() -> None:
    # r2 = 90 deg clockwise (y down): "right" goes to "down"; r1 mirrors x; r3 = transpose
    assert oriented_offsets(1, 0) == ((0, 0), (0, 1))
    assert oriented_offsets(1, 2) == ((0, 0), (-1, 0))
    assert oriented_offsets(3, 1) == ((0, -1), (0, 0), (-1, 0))
    for p in range(21):
        assert oriented_offsets(p, 3) == tuple((b, a) for a, b in oriented_offsets(p, 0))
        assert oriented_offsets(p, 5) == tuple((a, -b) for a, b in oriented_offsets(p, 0))


@pytest.mark.parametrize(
    ("code", "pentobi"),
    [("56u0", "e8,d9,e9,f9,e10"), ("66l5", "f7,f8,e9,f9,e10"), ("abp2", "i3,i4,j4,k4,i5"),
     ("55b0", "e9,e10")],
)
def test_worked_examples(g, code: str, pentobi: str) -> None:  # type: ignore[no-untyped-def]
    m = g.parse_code(code)
    assert g.code(m) == code
    assert m == g.parse_pentobi(pentobi)
    assert set(g.pentobi(m).split(",")) == set(pentobi.split(","))
    assert g.parse_pentobi("b " + pentobi) == m


def test_x_cells(g) -> None:  # type: ignore[no-untyped-def]
    m = g.parse_code("56u0")
    assert sorted(g.contest_xy(c) for c in g.move_cells(m)) == sorted(
        [(5, 5), (4, 6), (5, 6), (6, 6), (5, 7)])


def test_several_codes_one_placement(g) -> None:  # type: ignore[no-untyped-def]
    assert g.parse_code("55b0") == g.parse_code("56b4")
    assert g.code(g.parse_code("56b4")) == "55b0"
    # the monomino: all 8 orientations name the same placement
    assert len({g.parse_code(f"77a{r}") for r in range(8)}) == 1


def test_every_code(g) -> None:  # type: ignore[no-untyped-def]
    """Every syntactically possible code either names a placement whose cells agree with
    the template or is rejected; each placement's canonical code round-trips."""
    digits = "123456789abcde"
    n_ok = 0
    for X in digits:
        for Y in digits:
            for p in "abcdefghijklmnopqrstu":
                for r in "01234567":
                    code = X + Y + p + r
                    try:
                        m = g.parse_code(code)
                    except ValueError:
                        continue
                    n_ok += 1
                    assert g.codes[m][2] == p
    assert n_ok == len(g.code_index)
    for m in range(g.num_placements):
        assert g.parse_code(g.code(m)) == m
        assert g.parse_pentobi(g.pentobi(m)) == m


@pytest.mark.parametrize("bad", ["56U0", "56u8", "f6u0", "00a0", "56v0", "5 u0", "56u", "e1j0"])
def test_bad_codes(g, bad: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        g.parse_code(bad)


def test_pass(g) -> None:  # type: ignore[no-untyped-def]
    assert g.parse_code("0000") == PASS
    assert g.code(PASS) == "0000"
    assert g.parse_pentobi("pass") == PASS and g.pentobi(PASS) == "pass"


def test_cell_names(g) -> None:  # type: ignore[no-untyped-def]
    assert g.cell_name(int(g.start[0])) == "e10" and g.contest_xy(int(g.start[0])) == (5, 5)
    assert g.cell_name(int(g.start[1])) == "j5" and g.contest_xy(int(g.start[1])) == (10, 10)
    assert g.cell_name(0) == "a14" and g.parse_cell("n1") == 195


def test_masks(g) -> None:  # type: ignore[no-untyped-def]
    m = g.parse_code("56u0")
    assert g.nedges[m] == 8 and g.ncorners[m] == 8
    assert not (g.edge_mask & g.cell_mask).any()
    assert not (g.corner_mask & (g.cell_mask | g.edge_mask)).any()
