"""The client side: tracker on the real transcript, baseline, fallback, CLI, arena specs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from clients.cli import main as corvid_main
from clients.uecda.agent import UecdaPlayer
from clients.uecda.baseline import baseline_exchange, baseline_move
from clients.uecda.config import ClientConfig
from clients.uecda.tracker import GameTracker
from games.daihinmin.cards import (
    JOKER,
    PASS,
    hand_from_str,
    move_from_str,
    move_str,
)
from protocols.uecda import (
    NEED_DATA,
    PAUSED,
    ClientConnection,
    ClientTable,
    Event,
    ExchangeTable,
    GameStart,
    HandTable,
    MoveTable,
    PlayerNumber,
    Profile,
    ServerConnection,
    StageTable,
)
from protocols.uecda.cards import hand_from_cells, move_from_cells
from tests.paths import DATA
from tests.uecda.golden import load_wire


def _client_table(data: bytes) -> ClientTable:
    s = ServerConnection()
    s.profile = Profile("x")
    s.receive_data(data)
    t = s.next_event()
    assert isinstance(t, ClientTable)
    return t


@pytest.mark.regression
def test_tracker_follows_the_real_transcript() -> None:
    """Following the real server's 5 games: the shadow never desynchronises and every move
    the sample client made is legal in it."""
    conn = ClientConnection()
    tr = GameTracker(np.random.default_rng(1))
    moves_checked = 0
    for direction, _, data in load_wire():
        if direction == "C->S":
            if conn.state.name == "SEND_PROFILE":
                conn.send(Profile("traced"))
                continue
            t = _client_table(data)
            if conn.state.name == "SEND_EXCHANGE":
                tr.on_exchange(hand_from_cells(t.cards))
                conn.send(ExchangeTable(t.cards))
            else:
                assert tr.shadow is not None
                m = move_from_cells(t.cards)
                assert m == PASS or m in tr.shadow.legal_moves()
                info = tr.shadow.info_set(tr.me)
                assert info.hand == tr.hand
                moves_checked += 1
                conn.send(MoveTable(t.cards))
            continue
        conn.receive_data(data)
        while True:
            ev = conn.next_event()
            if ev is NEED_DATA or ev is PAUSED:
                break
            if isinstance(ev, PlayerNumber):
                tr.me = ev.player
            elif isinstance(ev, GameStart):
                tr.on_game_start(ev)
            elif isinstance(ev, HandTable):
                tr.on_hand_table(ev)
            elif isinstance(ev, StageTable):
                tr.on_stage(ev)
    assert moves_checked == 80
    assert tr.resyncs == 0
    assert tr.game == 5


def test_baseline_prefers_sequences_then_groups_and_never_passes_leading() -> None:
    hand = hand_from_str("S3S4S5H3D3C9J3")
    assert move_str(baseline_move(hand, PASS, False, False)) == "S3S4S5"
    assert move_str(baseline_move(hand_from_str("H3D3C9J3"), PASS, False, False)) == "H3D3"
    assert move_str(baseline_move(hand, move_from_str("H8"), False, False)) == "C9"
    # revolution: the weakest is the highest rank
    assert move_str(baseline_move(hand_from_str("S4H9"), PASS, True, False)) == "H9"
    # nothing beats a 2 but the joker: the joker is played last, never a pass when it can
    assert move_str(baseline_move(hand_from_str("S4J3"), move_from_str("H2"), False,
                                  False)) == "Kx"
    assert baseline_move(hand_from_str("S4"), move_from_str("H2"), False, False) == PASS
    give = baseline_exchange(hand_from_str("S3H9C2J3"), 2)
    assert give == hand_from_str("S3H9") and not give >> JOKER & 1


def test_fallback_when_the_search_fails() -> None:
    """A broken core never costs a move: the baseline's move is played."""
    player = UecdaPlayer(ClientConfig(core="flat", playouts=50, seed=1), "t")

    class Broken:
        def search(self, *a: object, **k: object) -> object:
            raise RuntimeError("boom")

    player.decider.core = Broken()
    conn_s = ServerConnection()
    conn_c = ClientConnection()
    conn_c.send(player.profile())
    hand = hand_from_str("S3S4S5H9D3")
    from protocols.uecda.cards import hand_to_cells

    start = GameStart(hand_to_cells(hand), 0, (5, 12, 12, 12, 12), (0,) * 5, (0, 1, 2, 3, 4))
    ht = HandTable(start.hand, 0, True, True, False, False, start.card_counts, start.ranks,
                   start.seats)
    for ev in (PlayerNumber(0), start, ht):
        conn_c.receive_data(conn_s.send(ev))
    cmd = None
    while True:
        got = conn_c.next_event()
        if got is NEED_DATA or got is PAUSED:
            break
        assert isinstance(got, Event)
        cmd = player.handle(got) or cmd
    assert isinstance(cmd, MoveTable)
    assert move_str(move_from_cells(cmd.cards)) == "S3S4S5"
    assert player.decider.fallbacks == 1


def test_replay_subcommand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = DATA / "uecda" / "server-log-5games-same-match.log"
    assert corvid_main(["uecda", "replay", str(good)]) == 0
    text = good.read_text()
    bad = tmp_path / "bad.log"
    # game 00001's first play by player 1 (H3D3C3) becomes an illegal single
    bad.write_text(text.replace("%00001%play%  1H3D3C3EE", "%00001%play%  1S4EE", 1))
    assert corvid_main(["uecda", "replay", str(bad), str(good)]) == 1
    out = capsys.readouterr().out
    assert "DIVERGES" in out and "game 1" in out
    assert f"{good}: ok" in out  # the logs after a diverging one are still checked
    assert corvid_main(["uecda", "replay", str(good), str(tmp_path / "none.log")]) == 2
    captured = capsys.readouterr()
    assert "no such log file" in captured.err and "ok" not in captured.out


def test_client_config_overrides() -> None:
    from clients.config import ConfigError
    from clients.uecda.config import load_client_config

    cfg = load_client_config(None, ["core=uct", "playouts=200", "alpha=1.0"])
    assert (cfg.core, cfg.playouts, cfg.alpha) == ("uct", 200, 1.0)
    with pytest.raises(ConfigError, match="core"):
        load_client_config(None, ["core=magic"])


def test_tracker_remembers_the_exchange() -> None:
    """As daifugo we know where our two cards went; as daihinmin we know what was taken."""
    from games.daihinmin.match import Match, MatchConfig
    from protocols.uecda.cards import hand_to_cells

    m = Match(MatchConfig(seed=9, reset_every=100))
    m.game = 1  # the second game: not a rank reset, so there is an exchange
    m.ranks = [0, 1, 2, 3, 4]
    d2 = m.deal()
    gift = baseline_exchange(d2.hands[0], 2)
    d2.give(0, gift)
    d2.give(1, baseline_exchange(d2.hands[1], 1))
    st = d2.state()
    counts = tuple(bin(h).count("1") for h in d2.dealt)
    for me, shown in ((0, d2.hands[0] | gift), (4, d2.dealt[4])):
        tr = GameTracker(np.random.default_rng(0))
        tr.me = me
        tr.on_game_start(GameStart(hand_to_cells(shown), 2 if me == 0 else 0, counts,
                                   (0, 1, 2, 3, 4), tuple(d2.order)))
        if me == 0:
            tr.on_exchange(gift)
        tr.on_hand_table(HandTable(hand_to_cells(st.hand(me)), st.to_move, st.to_move == me,
                                   True, False, False, counts, (0, 1, 2, 3, 4),
                                   tuple(d2.order)))
        assert tr.shadow is not None and tr.shadow.hand(me) == st.hand(me)
        known = tr.shadow.info_set(me).known()
        if me == 0:
            assert known[4] == gift  # the daihinmin holds what we gave
            assert tr.shadow.hand(4) & gift == gift
        else:
            taken = d2.dealt[4] & ~st.hand(4)
            assert taken and known[0] & taken == taken  # the daifugo holds our tribute
