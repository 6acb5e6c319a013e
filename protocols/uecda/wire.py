"""Tables <-> events: the one place that knows which cell means what (both directions)."""

from __future__ import annotations

from protocols.uecda.errors import LocalProtocolError, RemoteProtocolError
from protocols.uecda.events import (
    ClientTable,
    Event,
    ExchangeTable,
    GameStart,
    HandTable,
    MoveTable,
    Profile,
    StageTable,
)
from protocols.uecda.table import (
    CARD_ROWS,
    COLS,
    Row,
    Table,
    cells_of,
    check_cells,
    count_cards,
    pack_table,
)

NAME_CELLS = COLS - 1  # room for the NUL terminator


def _row6(card_counts: tuple[int, ...], ranks: tuple[int, ...], seats: tuple[int, ...]) -> Row:
    if len(card_counts) != 5 or len(ranks) != 5 or len(seats) != 5:
        raise LocalProtocolError("card_counts, ranks and seats hold 5 values each")
    return tuple(card_counts) + tuple(ranks) + tuple(seats)


def _split_row6(row: Row) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    return tuple(row[0:5]), tuple(row[5:10]), tuple(row[10:15])


def _flag(v: int, what: str) -> bool:
    if v not in (0, 1):
        raise RemoteProtocolError(f"{what} must be 0 or 1, got {v}")
    return bool(v)


def _player(v: int, what: str) -> int:
    if not 0 <= v <= 4:
        raise RemoteProtocolError(f"{what} must be a player number 0..4, got {v}")
    return v


def _cells(table: Table, what: str) -> tuple[Row, ...]:
    try:
        return check_cells(cells_of(table))
    except ValueError as e:
        raise RemoteProtocolError(f"{what}: {e}") from None


# -- server tables ----------------------------------------------------------------------
def decode_game_start(table: Table) -> GameStart:
    r5 = table[5]
    if r5[0] != 1:
        raise RemoteProtocolError(f"expected HAND0 ([5][0] = 1), got [5][0] = {r5[0]}")
    counts, ranks, seats = _split_row6(table[6])
    if r5[1] not in (0, 1, 2):
        raise RemoteProtocolError(f"HAND0 asks for {r5[1]} exchange cards")
    hand = _cells(table, "HAND0")
    if count_cards(hand) < r5[1]:
        raise RemoteProtocolError(f"HAND0 asks for {r5[1]} exchange cards from a hand of "
                                  f"{count_cards(hand)}")
    return GameStart(hand, r5[1], counts, ranks, seats, r5[3])


def decode_hand_table(table: Table, me: int | None) -> HandTable:
    r5 = table[5]
    if r5[0] != 0:
        raise RemoteProtocolError("expected a hand table, got a HAND0 ([5][0] = 1)")
    counts, ranks, seats = _split_row6(table[6])
    my_turn = _flag(r5[2], "[5][2] (your turn)")
    turn = _player(r5[3], "[5][3] (whose turn)")
    if me is not None and my_turn and turn != me:
        raise RemoteProtocolError(f"hand table says it is our turn but names player {turn}")
    return HandTable(
        hand=_cells(table, "hand table"),
        turn=turn,
        my_turn=my_turn,
        lead=_flag(r5[4], "[5][4] (lead)"),
        revolution=_flag(r5[6], "[5][6] (revolution)"),
        lock=_flag(r5[7], "[5][7] (lock)"),
        card_counts=counts,
        ranks=ranks,
        seats=seats,
        eleven_back=_flag(r5[5], "[5][5] (11-back)"),
    )


def decode_stage_table(table: Table) -> StageTable:
    r5 = table[5]
    counts, ranks, seats = _split_row6(table[6])
    return StageTable(
        cards=_cells(table, "stage table"),
        actor=_player(r5[3], "[5][3] (who acted)"),
        lead=_flag(r5[4], "[5][4] (lead)"),
        revolution=_flag(r5[6], "[5][6] (revolution)"),
        lock=_flag(r5[7], "[5][7] (lock)"),
        card_counts=counts,
        ranks=ranks,
        seats=seats,
        eleven_back=_flag(r5[5], "[5][5] (11-back)"),
        row7=tuple(table[7]),
    )


def encode_server_table(ev: Event) -> bytes:
    """HAND0, hand table or stage table -> 480 bytes."""
    if isinstance(ev, GameStart):
        r5: tuple[int, ...] = (1, ev.exchange_count, 0, ev.marker)
        return pack_table([*_checked(ev.hand), r5, _row6(ev.card_counts, ev.ranks, ev.seats)])
    if isinstance(ev, HandTable):
        r5 = (0, 0, int(ev.my_turn), ev.turn, int(ev.lead), int(ev.eleven_back),
              int(ev.revolution), int(ev.lock))
        return pack_table([*_checked(ev.hand), r5, _row6(ev.card_counts, ev.ranks, ev.seats)])
    if isinstance(ev, StageTable):
        r5 = (0, 0, 0, ev.actor, int(ev.lead), int(ev.eleven_back), int(ev.revolution),
              int(ev.lock))
        return pack_table([*_checked(ev.cards), r5,
                           _row6(ev.card_counts, ev.ranks, ev.seats), ev.row7])
    raise LocalProtocolError(f"{type(ev).__name__} is not a server table")


def _checked(cells: tuple[Row, ...]) -> tuple[Row, ...]:
    try:
        return check_cells(cells)
    except ValueError as e:
        raise LocalProtocolError(str(e)) from None


# -- client tables ----------------------------------------------------------------------
def encode_client_table(ev: Event) -> bytes:
    if isinstance(ev, Profile):
        try:
            name = ev.name.encode("ascii")
        except UnicodeEncodeError:
            raise LocalProtocolError(f"the client name must be ASCII: {ev.name!r}") from None
        if not name or b"\0" in name:
            raise LocalProtocolError("the client name must be non-empty and NUL-free")
        name = name[:NAME_CELLS]
        return pack_table([(ev.version,), tuple(name)])
    if isinstance(ev, (MoveTable, ExchangeTable)):
        return pack_table(_checked(ev.cards))
    raise LocalProtocolError(f"{type(ev).__name__} is not a client table")


def decode_profile(table: Table) -> Profile:
    name = bytearray()
    for v in table[1]:
        if v == 0:
            break
        if not 32 <= v < 127:
            raise RemoteProtocolError(f"profile name holds a non-printable code {v}")
        name.append(v)
    return Profile(name=name.decode("ascii"), version=table[0][0])


def decode_client_table(table: Table) -> ClientTable:
    """A move or exchange table as sent; values outside 0..2 raise RemoteProtocolError."""
    cells = _cells(table, "client table")
    rest = tuple(table[CARD_ROWS:])
    return ClientTable(cells, rest if any(any(r) for r in rest) else ())


__all__ = [
    "decode_client_table",
    "decode_game_start",
    "decode_hand_table",
    "decode_profile",
    "decode_stage_table",
    "encode_client_table",
    "encode_server_table",
]
