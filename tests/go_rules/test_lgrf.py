"""Last good reply with forgetting (knowledge.go.lgrf) against the plain-Python reference, and its
rules on hand-made sequences."""

from __future__ import annotations

import numpy as np
import pytest

from games.go import board as K
from games.go.coords import BLACK, PASS, WHITE, vertex_to_point
from games.go.state import GoState
from knowledge.go.lgrf import lgr_reply, lgr_update, new_tables
from knowledge.go.patterns import pattern_table
from knowledge.go.playout import k_playout
from knowledge.go.position import GoPosition
from knowledge.go.reference import RefPlayer


def replies_of(T: np.ndarray) -> dict[tuple[int, ...], int]:
    """The kernel tables as the reference's dict."""
    P = int((np.sqrt(1 + 4 * T.shape[1]) - 1) / 2 + 0.5)
    out: dict[tuple[int, ...], int] = {}
    for c in (BLACK, WHITE):
        for prev in range(P):
            if T[c, prev] >= 0:
                out[(c, prev)] = int(T[c, prev])
        for j in np.flatnonzero(T[c, P:] >= 0):
            out[(c, int(j) // P, int(j) % P)] = int(T[c, P + j])
    return out


@pytest.mark.parametrize(("size", "policy", "level"), [(5, 2, 2), (7, 1, 1), (9, 2, 2),
                                                       (9, 2, 1), (13, 2, 2), (9, 2, 3),
                                                       (9, 4, 3), (7, 4, 2), (9, 5, 2),
                                                       (9, 6, 4), (7, 5, 4), (9, 6, 3),
                                                       (9, 7, 2), (7, 7, 4)])
def test_playouts_and_tables_match_the_reference(size: int, policy: int, level: int) -> None:
    """Successive playouts from one position share the tables: the kernel and the reference
    play the same moves and leave the same tables after each."""
    pat = pattern_table()
    rng = np.random.default_rng(size * 7 + level)
    base = GoState(size, 7.5)
    for _ in range(size):
        moves = base.legal_moves()
        base.play(moves[int(rng.integers(len(moves) - 1))])
    T = new_tables(base._b.shape[1])
    replies: dict[tuple[int, ...], int] = {}
    cap = 3 * size * size
    ptab, plv = GoPosition(base).policy_arrays(policy)
    used = 0
    for i in range(12):
        seed = int(rng.integers(1, 2**62))
        b = base._b.copy()
        ref = RefPlayer.from_kernel(b)
        moves = np.empty(cap + 1, dtype=np.int32)
        owner = np.empty(b.shape[1], dtype=np.int32)
        buf = np.empty(4 * b.shape[1] + 8, dtype=np.int32)
        sc, nm, s = k_playout(b, np.uint64(seed), policy, pat, ptab, plv, 2, cap, moves,
                              owner, buf, T, level, 7.5)
        rsc, rmoves, rs = ref.playout(seed, policy, pat, 2, cap, replies=replies, level=level,
                                      komi=7.5)
        assert moves[:nm].tolist() == rmoves, f"playout {i}"
        assert (sc, int(s)) == (rsc, rs)
        assert replies_of(T) == replies
        if i == 0:
            used = len(replies)
    assert used > 0  # the first playout stored replies, so the later ones could use them


def test_winner_stores_and_loser_forgets() -> None:
    P = 11 * 11
    T = new_tables(P)
    a, b, c, d = 20, 30, 40, 50
    # black a, white b, black c, white d after last2 = 60 (black), last = 70 (white)
    seq = np.array([a, b, c, d], dtype=np.int32)
    lgr_update(T, BLACK, 60, 70, seq, 4, BLACK)
    assert T[BLACK, 70] == a and T[BLACK, P + 60 * P + 70] == a  # reply to (60, 70)
    assert T[BLACK, b] == c and T[BLACK, P + a * P + b] == c
    assert T[WHITE, a] == -1 and T[WHITE, c] == -1  # the loser stores nothing
    # white stores b as its reply to a, then loses a playout where it played b after a
    T[WHITE, a] = b
    T[WHITE, P + 70 * P + a] = b
    lgr_update(T, BLACK, 60, 70, seq, 4, BLACK)
    assert T[WHITE, a] == -1 and T[WHITE, P + 70 * P + a] == -1  # forgotten
    # a jigo changes nothing; a pass neither answers nor is answered
    before = T.copy()
    lgr_update(T, BLACK, 60, 70, seq, 4, 0)
    assert (T == before).all()
    lgr_update(T, WHITE, 60, PASS, np.array([PASS, 33], dtype=np.int32), 2, WHITE)
    assert (T[:, :P] == before[:, :P]).all()  # nothing answers a pass; white's pass no reply


def test_reply_is_checked_before_it_is_played() -> None:
    s = GoState(9, 7.5)
    for v in ("E5", "D5"):
        s.play(vertex_to_point(v, 9))
    B = s._b
    P = B.shape[1]
    T = new_tables(P)
    last = int(B[K.META, K.M_LAST])
    target = int(B[K.META, K.M_LAST2])  # occupied: never played
    T[BLACK, last] = target
    assert lgr_reply(B, BLACK, T, 1, 2) == PASS
    free = int(np.flatnonzero(B[K.COL] == 0)[0])
    T[BLACK, last] = free
    assert lgr_reply(B, BLACK, T, 1, 2) == free
    T[BLACK, P + int(B[K.META, K.M_LAST2]) * P + last] = int(np.flatnonzero(B[K.COL] == 0)[1])
    assert lgr_reply(B, BLACK, T, 2, 2) == int(np.flatnonzero(B[K.COL] == 0)[1])
    assert lgr_reply(B, BLACK, T, 1, 2) == free  # level 1 ignores the two-move replies
