import pytest

from games.daihinmin import (
    JOKER,
    PASS,
    SINGLE_JOKER,
    card_from_str,
    card_str,
    hand_from_rows,
    hand_from_str,
    hand_str,
    hand_to_rows,
    move_cards,
    move_from_rows,
    move_from_str,
    move_str,
    move_to_rows,
)
from games.daihinmin.rules import all_melds


def test_card_index_scheme() -> None:
    assert card_from_str("S3") == 0
    assert card_from_str("S2") == 12
    assert card_from_str("H3") == 13
    assert card_from_str("D3") == 26
    assert card_from_str("C2") == 51
    assert card_from_str("J3") == JOKER == 52
    assert [card_str(c) for c in (0, 5, 13, 51, 52)] == ["S3", "S8", "H3", "C2", "J3"]


def test_hand_strings_and_rows() -> None:
    s = "SAH4H6D5D6D8D9DJC4CTJ3"
    h = hand_from_str(s)
    assert hand_str(h) == s
    rows = hand_to_rows(h)
    assert rows[0][12] == 1  # spade ace: column 12
    assert rows[1][2] == 1  # heart 4: column 2
    assert rows[4][1] == 2  # the joker in a hand
    assert sum(map(sum, rows)) == 10 + 2
    assert hand_from_rows(rows) == h


@pytest.mark.parametrize("text", [
    "D3C3", "S3", "KJDJ", "Kx", "S8H8M8", "SQLQCQ", "D4M5D6", "NxC3C4", "STKJSQSKSAS2",
    "S6H6D6N6", "C8C9NTCJ", "D5D6D7M8D9DT", "S2L2",
])
def test_log_move_round_trip(text: str) -> None:
    m = move_from_str(text)
    assert move_str(m) == text
    assert move_from_rows(move_to_rows(m)) == m


def test_joker_notation_rows() -> None:
    # K L M N J = rows 0 1 2 3 4
    m = move_from_str("S8H8M8")
    rows = move_to_rows(m)
    assert rows[0][6] == 1 and rows[1][6] == 1 and rows[2][6] == 2
    seq = move_from_str("NxC3C4")
    rows = move_to_rows(seq)
    assert rows[3][0] == 2 and rows[3][1] == 1 and rows[3][2] == 1
    top = move_from_str("SKSAS2KX")  # never in the logs: joker above the 2, column 14
    assert move_to_rows(top)[0][14] == 2
    assert move_str(top) == "SKSAS2KX"
    five = move_from_str("S7H7D7C7J7")
    assert move_to_rows(five)[4][5] == 2
    assert move_str(five) == "S7H7D7C7J7"


def test_single_joker_any_cell() -> None:
    for r in range(4):
        for c in range(15):
            rows = [[0] * 15 for _ in range(5)]
            rows[r][c] = 2
            assert move_from_rows(rows) == SINGLE_JOKER
    rows = [[0] * 15 for _ in range(5)]
    rows[4][1] = 2
    with pytest.raises(ValueError):
        move_from_rows(rows)
    assert move_from_rows([[0] * 15 for _ in range(5)]) == PASS
    assert move_str(SINGLE_JOKER) == "Kx"


@pytest.mark.parametrize("bad", [
    [(0, 3, 1), (1, 4, 1)],  # neither group nor sequence
    [(0, 3, 1), (0, 4, 1)],  # two-card sequence
    [(0, 3, 1), (0, 5, 1), (0, 6, 1)],  # gap
    [(0, 0, 1)],  # no real card in column 0
    [(4, 3, 1), (0, 3, 1)],  # row 4 in a 2-group
])
def test_bad_shapes_rejected(bad: list[tuple[int, int, int]]) -> None:
    rows = [[0] * 15 for _ in range(5)]
    for r, c, v in bad:
        rows[r][c] = v
    with pytest.raises(ValueError):
        move_from_rows(rows)


def test_every_meld_converts() -> None:
    h = hand_from_str("S3S4S5S6H3H4D3C3C4C5J3")
    for m in all_melds(h):
        assert move_from_rows(move_to_rows(m)) == m
        assert move_from_str(move_str(m)) == m
        assert move_cards(m) & ~h == 0
