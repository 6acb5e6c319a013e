"""SGF read and write (through sgfmill). Handicap/setup stones are AB/AW on the root."""

from __future__ import annotations

from sgfmill import sgf

from games.go.coords import BLACK, PASS, WHITE, point, row_col
from games.go.state import GoState

_COL = {"b": BLACK, "w": WHITE}
_NAME = {BLACK: "b", WHITE: "w"}


def to_sgf(state: GoState, *, black_name: str | None = None, white_name: str | None = None,
           result: str | None = None, extra: dict[str, str] | None = None) -> bytes:
    """The game (setup stones, moves, komi, size) as SGF bytes."""
    game = sgf.Sgf_game(size=state.size)
    root = game.get_root()
    root.set("KM", state.komi)
    root.set("RU", "Chinese")
    if black_name:
        root.set("PB", black_name)
    if white_name:
        root.set("PW", white_name)
    if result:
        root.set("RE", result)
    for k, v in (extra or {}).items():
        root.set_raw(k, v.encode())
    ab = {row_col(state.size, p) for c, p in state.setup if c == BLACK}
    aw = {row_col(state.size, p) for c, p in state.setup if c == WHITE}
    if ab or aw:
        root.set_setup_stones(ab, aw)
        if ab and not aw:
            root.set("HA", len(ab))
    for colour, p in state.history:
        node = game.extend_main_sequence()
        node.set_move(_NAME[colour], None if p == PASS else row_col(state.size, p))
    return bytes(game.serialise())


def from_sgf(data: bytes | str, moves: int | None = None) -> GoState:
    """The position of an SGF game after ``moves`` moves of the main line (all by default).
    Raises ValueError for malformed SGF or an illegal move in it."""
    if isinstance(data, str):
        data = data.encode()
    game = sgf.Sgf_game.from_bytes(data)
    size = game.get_size()
    komi = game.get_komi()
    state = GoState(size, komi)
    root = game.get_root()
    ab, aw, _ = root.get_setup_stones()
    if ab:
        state.place_setup(BLACK, [point(size, r, c) for r, c in sorted(ab)])
    if aw:
        state.place_setup(WHITE, [point(size, r, c) for r, c in sorted(aw)])
    if ab and not aw:
        state.to_play = WHITE
    if root.has_property("PL"):
        state.to_play = _COL[root.get("PL")]
    n = 0
    for node in game.get_main_sequence()[1:]:
        if moves is not None and n >= moves:
            break
        colour, move = node.get_move()
        if colour is None:
            continue
        p = PASS if move is None else point(size, move[0], move[1])
        state.play_colour(_COL[colour], p)
        n += 1
    return state
