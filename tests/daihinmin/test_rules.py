"""Rule edge cases and perft-style legal-move counts."""

import pytest

from games.daihinmin import PASS, SINGLE_JOKER, GameState, hand_from_str, move_from_str
from games.daihinmin import rules as R
from games.daihinmin.cards import move_str
from games.daihinmin.kernels import gen_moves_list

ORDER = [0, 1, 2, 3, 4]


def mk(hands: list[str], first: int = 0, order: list[int] | None = None) -> GameState:
    return GameState([hand_from_str(h) for h in hands], order or ORDER, first)


def strs(ms: list[int]) -> list[str]:
    return sorted(move_str(m) for m in ms)


# ------------------------------------------------------------------ perft-style counts

@pytest.mark.parametrize("hand,table,rev,lock,count", [
    # hand-reasoned small cases
    ("S3H3J3", "", 0, 0, 12),  # 3 singles; S3H3; 6 pairs with joker; 2 triples with joker
    ("S3S4S5", "", 0, 0, 4),  # 3 singles + S3S4S5
    # 4 singles; 9 joker pairs; sequences: 345, x34, J(3)45/3J(4)5/34J(5), 45J(6), x345, 345J(6)
    ("S3S4S5J3", "", 0, 0, 21),
    ("S3H3J3", "D4", 0, 0, 2),  # pass + joker
    ("S3H3J3", "Kx", 0, 0, 2),  # pass + spade 3 over the joker
    ("H3J3", "Kx", 0, 0, 1),  # only pass
    ("S5S6H7J3", "S4", 0, 1, 4),  # lock on spades: pass, S5, S6, joker
    ("S5S6H7J3", "S4", 1, 0, 2),  # revolution: only the joker beats a 4: pass, joker
    ("S3H3D3", "S4H4", 1, 0, 4),  # revolution, pairs below 4: pass + 3 pairs of 3s
    ("S3H3D3J3", "S4H4", 1, 1, 4),  # ... locked to S,H: pass, S3H3, S3+joker(H), joker(S)+H3
    ("S6S7S8S9", "D3D4D5", 0, 0, 3),  # pass, 678, 789
    # recorded hand (game 0, player 4, dealt): 11 singles, D3C3, S5C5, HJCJ, no sequence
    ("S5STH8H9HJHKD3C3C5C6CJ", "", 0, 0, 14),
])
def test_perft_counts(hand: str, table: str, rev: int, lock: int, count: int) -> None:
    h = hand_from_str(hand)
    t = move_from_str(table)
    ms = R.legal_moves(h, t, rev, lock)
    assert len(ms) == count, strs(ms)
    assert gen_moves_list(h, t, rev, lock) == ms


# counts of legal moves of recorded hands (as dealt in the logs) on an empty table; regression
# figures from the reference generator, cross-checked against the kernel
RECORDED = [
    ("SAH4H6D5D6D8D9DJC4CTJ3", None),
    ("S3S9H3H6HTHQHKD4C3CAJ3", None),
    ("STSKH8H9HTH2C9CJCKCAJ3", None),
    ("S4S5S6S9STSQH2D3C3CA", None),
]


@pytest.mark.parametrize("hand,_", RECORDED)
def test_recorded_hands_kernel_matches_reference(hand: str, _: None) -> None:
    h = hand_from_str(hand)
    for table in ("", "S4", "S4H4", "D3D4D5", "Kx", "S5S6S7S8S9"):
        t = move_from_str(table)
        for rev in (0, 1):
            for lock in (0, 1) if table else (0,):
                assert gen_moves_list(h, t, rev, lock) == R.legal_moves(h, t, rev, lock)


# ------------------------------------------------------------------ the state machine

def test_eight_cut_real_and_joker() -> None:
    g = mk(["S8H9", "S4S5", "D4D5", "C4C5", "H4H5J3"])
    g.play(move_from_str("S8"))
    assert g.table == PASS and g.to_move == 0  # cut: same player leads
    # a joker standing as an 8 in a group cuts
    g2 = mk(["H8H9J3", "S4S5", "D4D5", "C4C5", "H4H5"])
    g2.play(move_from_str("K8H8"))
    assert g2.table == PASS and g2.to_move == 0
    # a joker standing as an 8 in a sequence cuts
    g3 = mk(["S7S9H3J3", "S4S5", "D4D5", "C4C5", "H4H5"])
    g3.play(move_from_str("S7K8S9"))
    assert g3.table == PASS and g3.to_move == 0
    # a single joker never cuts
    g4 = mk(["S9J3H3", "S4S5", "D4D5", "C4C5", "H4H5"])
    g4.play(SINGLE_JOKER)
    assert g4.table == SINGLE_JOKER and g4.to_move == 1


def test_lock_and_joker_clears_it() -> None:
    g = mk(["S5H9", "S6S9H7", "S7J3D4", "C4C5", "H4H5"])
    g.play(move_from_str("S5"))
    g.play(move_from_str("S6"))
    assert g.lock
    assert strs(g.legal_moves()) == strs([PASS, move_from_str("S7"), SINGLE_JOKER])
    g.play(SINGLE_JOKER)
    assert not g.lock
    assert g.legal_moves() == [PASS]  # player 3 holds no spade 3


def test_spade3_over_single_joker_flushes() -> None:
    g = mk(["H9J3C9", "S3S9", "D4D5", "C4C5", "H4H5"])
    g.play(SINGLE_JOKER)
    assert g.to_move == 1
    assert g.legal_moves() == [PASS, move_from_str("S3")]
    g.play(move_from_str("S3"))
    assert g.table == PASS and g.to_move == 1 and not g.lock


def test_revolution_by_sequence_of_five_and_group_of_four() -> None:
    g = mk(["S3S4S5S6S7H9", "SAS2H3", "D4D5", "C4C5", "H4H5"])
    g.play(move_from_str("S3S4S5S6S7"))
    assert g.revolution
    for _ in range(4):
        g.play(PASS)
    assert g.to_move == 0 and g.table == move_from_str("S3S4S5S6S7")  # back to the player
    g.play(PASS)  # everyone passed: flush, player 0 leads
    assert g.table == PASS and g.to_move == 0
    g.play(move_from_str("H9"))
    assert strs(g.legal_moves()) == strs([PASS, move_from_str("H3")])  # lower wins now
    g = mk(["S3H3D3C3H9", "SAS2H4", "D4D5", "C4C5", "H5H6J3"])
    g.play(move_from_str("S3H3D3C3"))
    assert g.revolution
    g = mk(["S3H3D3H9", "SAS2H4", "D4D5", "C4C5", "H5H6J3"], first=4)
    g.play(move_from_str("H5"))
    g.play(PASS); g.play(PASS); g.play(PASS); g.play(PASS)  # noqa: E702
    assert g.to_move == 4
    g.play(PASS)
    assert g.to_move == 4 and g.table == PASS  # flush when the last player passes too


def test_turn_returns_to_last_player_who_may_play_again() -> None:
    g = mk(["S4S6H9", "S5H5", "D5D6", "C5C6", "H6H7"], order=[3, 1, 0, 4, 2], first=0)
    g.play(move_from_str("S4"))  # player 0 (seat 2) -> next seat 3 = player 4
    assert g.to_move == 4
    for _ in range(4):
        g.play(PASS)
    assert g.to_move == 0 and g.table == move_from_str("S4")
    g.play(move_from_str("S6"))  # on his own card
    assert g.to_move == 0  # everybody else already passed in this trick
    g.play(PASS)
    assert g.table == PASS and g.to_move == 0


def test_leader_after_flush_when_last_player_is_out() -> None:
    g = mk(["S4", "S5H5", "D5D6", "C5C6", "H6H7"], order=[0, 1, 2, 3, 4], first=0)
    g.play(move_from_str("S4"))
    assert g.finish == [0]
    for _ in range(4):
        g.play(PASS)
    assert g.table == PASS and g.to_move == 1  # next seat with cards


def test_game_end_points_and_returns() -> None:
    g = mk(["S4", "S5", "D5", "C5", "H6H7"], first=0)
    for m in ("S4", "S5", "D5", "C5"):
        g.play(move_from_str(m))
    assert g.is_terminal()
    assert g.finish == [0, 1, 2, 3, 4]
    assert g.points() == [5, 4, 3, 2, 1]
    assert g.returns() == [1.0, 0.75, 0.5, 0.25, 0.0]
    assert g.legal_moves() == []


def test_twenty_pass_stalemate() -> None:
    g = mk(["S4S9", "S5S9", "D5D9", "C5C9", "H6H7"], first=0)
    g.lead_pass = True
    g.play(move_from_str("S4"))  # player 0 plays, then 19 passes keep the game going
    n = 0
    while not g.is_terminal():
        assert PASS in g.legal_moves()
        g.play(PASS)
        n += 1
    assert n == 20
    assert g.st[R.STALE] == 1 and sorted(g.finish) == [0, 1, 2, 3, 4]
    assert sorted(g.points()) == [1, 2, 3, 4, 5]
    # an accepted play resets the count
    g = mk(["S4S9", "S5S9", "D5D9", "C5C9", "H6H7"], first=0)
    g.lead_pass = True
    for _ in range(19):
        g.play(PASS)
    g.play(g.legal_moves()[1])
    assert not g.is_terminal() and g.st[R.PASSCOUNT] == 0


def test_server_accepts_and_submit() -> None:
    g = mk(["S4S9", "S5S9", "D5D9", "C5C9", "H6H7"], first=0)
    assert g.accepts(PASS)  # pass on an empty table: ack 9
    assert not g.accepts(move_from_str("H9"))  # not held
    assert g.submit(move_from_str("S9"))
    assert not g.accepts(PASS)  # a pass on cards: ack 8
    assert not g.submit(move_from_str("S5"))  # too weak: counts as a pass
    assert g.to_move == 2 and g.hand(1) == hand_from_str("S5S9")


def _perft_rows() -> list[tuple[str, str, str, int, int, int]]:
    from pathlib import Path

    rows = []
    for line in (Path(__file__).parent / "data" / "perft.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        i, h, t, rev, lock, n = line.split()
        rows.append((i, h, t, int(rev), int(lock), int(n)))
    return rows


def test_perft_file_recorded_hands() -> None:
    """Legal-move counts of every hand dealt in the 5-game log on a few tables (reference and
    kernel); on a mismatch, print the moves by kind ("divide")."""
    rows = _perft_rows()
    assert len(rows) > 200
    for i, h, t, rev, lock, n in rows:
        hand = hand_from_str(h)
        table = move_from_str("" if t == "-" else t)
        ref = R.legal_moves(hand, table, rev, lock)
        ker = gen_moves_list(hand, table, rev, lock)
        if len(ref) != n or ker != ref:
            from games.daihinmin.cards import move_kind
            divide = {k: sorted(move_str(m) for m in ref if move_kind(m) == k) for k in range(4)}
            pytest.fail(f"{i} {h} on {t} rev={rev} lock={lock}: ref {len(ref)} kernel "
                        f"{len(ker)} expected {n}; divide {divide}")


def test_diagram() -> None:
    g = mk(["S3S4", "H5J3", "D4D5", "C4C5", "H4H6"], first=0, order=[2, 0, 1, 4, 3])
    g.play(move_from_str("S3"))
    g.play(move_from_str("H5"))
    g.play(PASS)
    assert g.diagram() == "\n".join([
        "table: H5",
        " seat 0 player 2 (heimin): D4D5",
        " seat 1 player 0 (heimin): S4",
        " seat 2 player 1 (heimin): J3",
        " seat 3 player 4 (heimin): H4H6 passed",
        ">seat 4 player 3 (heimin): C4C5",
    ])
    g.play(PASS)  # player 3
    g.play(PASS)  # player 2
    g.play(PASS)  # player 0: back to player 1 over his own card
    g.play(SINGLE_JOKER)  # player 1 goes out on his own five
    assert "player 1 (heimin): - out #1" in g.diagram()
