"""The mock server: whole matches with stand-ins, on loopback, and misbehaving clients."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.daihinmin.replay import parse_log, replay_log
from protocols.transport import TcpTransport
from protocols.uecda import ClientConnection, Profile
from protocols.uecda.table import pack_int
from servers.uecda.config import ServerConfig
from servers.uecda.match import MatchServer
from tests.uecda.helpers import ServerThread, corvid_client, run_threads


def test_standin_match_is_reproducible_and_replays(tmp_path: Path) -> None:
    logs = []
    for i in range(2):
        path = tmp_path / f"m{i}.log"
        rec = MatchServer(ServerConfig(games=8, seed=11, log=str(path)), [None] * 5).run()
        assert len(rec.points) == 8
        assert all(sorted(g) == [1, 2, 3, 4, 5] for g in rec.points)
        res = replay_log(path)
        assert res.ok, res.first_divergence
        assert res.games == 8
        logs.append(parse_log(path.read_text()).games)
    assert [(g.dealt, g.plays, g.result) for g in logs[0]] == \
        [(g.dealt, g.plays, g.result) for g in logs[1]]
    g0, g1 = logs[0][0], logs[0][1]
    assert g0.changes is None and g0.mibun == [2] * 5  # rank-reset first game
    assert g1.changes is not None and len(g1.changes) == 4  # tribute + return


def test_seats_reshuffle_every_three_games(tmp_path: Path) -> None:
    path = tmp_path / "m.log"
    MatchServer(ServerConfig(games=7, seed=5, log=str(path), reset_every=4),
                [None] * 5).run()
    games = parse_log(path.read_text()).games
    assert games[0].seat == games[1].seat == games[2].seat
    assert games[3].seat == games[4].seat == games[5].seat
    assert games[4].changes is None  # game 5 (1-based) is a rank reset with reset_every=4
    assert replay_log(path).ok


@pytest.mark.integration
def test_loopback_baseline_clients_and_misbehaving_ones(tmp_path: Path) -> None:
    """Two good clients, one that sends garbage, one that disconnects, one that goes
    silent: the match is played to the end and the log replays clean."""
    path = tmp_path / "mixed.log"
    srv = ServerThread(ServerConfig(games=3, seed=7, log=str(path), timeout=0.5))
    port = srv.port

    def garbage() -> None:
        tr = TcpTransport("127.0.0.1", port)
        conn = ClientConnection()
        tr.send(conn.send(Profile("garbage")))
        tr.send(b"\xff" * 480)  # cells of -1: not a table
        tr.recv(4)
        while tr.recv(65536):
            pass
        tr.close()

    def quitter() -> None:
        tr = TcpTransport("127.0.0.1", port)
        tr.send(ClientConnection().send(Profile("quitter")))
        tr.recv(4)
        tr.close()

    silent_done: list[TcpTransport] = []

    def silent() -> None:
        tr = TcpTransport("127.0.0.1", port)
        tr.send(ClientConnection().send(Profile("silent")))
        silent_done.append(tr)  # keeps the socket open, never answers

    threads = run_threads([
        corvid_client(port, "good1", core="baseline"),
        corvid_client(port, "good2", core="baseline"),
        garbage, quitter, silent,
    ])
    rec = srv.join()
    for t in threads:
        t.join(30)
    for tr in silent_done:
        tr.close()
    assert len(rec.points) == 3
    names = rec.names
    dropped = {names[d.player]: d.reason for d in rec.drops}
    assert set(dropped) == {"garbage", "quitter", "silent"}
    assert "garbage" in dropped["garbage"]
    assert "timeout" in dropped["silent"]
    res = replay_log(path)
    assert res.ok, res.first_divergence
    assert res.games == 3
    assert "STANDIN" in path.read_text()


def test_pack_int_is_big_endian() -> None:
    assert pack_int(9) == b"\0\0\0\t"


def test_live_events_on_zeromq() -> None:
    """A recorder subscribes; the server waits for it, then publishes every event of a
    stand-in match."""
    import msgspec
    import zmq

    from servers.uecda.publish import Publisher

    ctx = zmq.Context.instance()
    sub = ctx.socket(zmq.SUB)
    sub.setsockopt(zmq.SUBSCRIBE, b"uecda.")
    sub.setsockopt(zmq.RCVTIMEO, 10000)
    pub = Publisher("tcp://127.0.0.1:*")
    sub.connect(pub.endpoint)
    try:
        assert pub.wait_subscriber(10.0)
        rec = MatchServer(ServerConfig(games=2, seed=3), [None] * 5, events=pub).run()
        got = []
        while True:
            topic, body = sub.recv_multipart()
            got.append((topic.decode(), msgspec.json.decode(body)))
            if topic == b"uecda.end":
                break
    finally:
        pub.close()
        sub.close(linger=0)
    topics = [t for t, _ in got]
    assert topics[0] == "uecda.match" and topics.count("uecda.game") == 2
    results = [f for t, f in got if t == "uecda.result"]
    assert [r["points"] for r in results] == rec.points
    plays = [f for t, f in got if t == "uecda.play"]
    assert plays and all(p["standin"] for p in plays)
    assert got[-1][1]["totals"] == rec.totals


class _Passer:
    """A seat that always passes and botches the exchange (three cards)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.owe_exchange = False

    def send(self, ev: object) -> None:
        from protocols.uecda import GameStart

        if isinstance(ev, GameStart):
            self.owe_exchange = ev.exchange_count > 0

    def read_table(self) -> object:
        from protocols.uecda import ClientTable
        from protocols.uecda.table import EMPTY_CELLS, make_cells

        if self.owe_exchange:
            self.owe_exchange = False
            return ClientTable(make_cells([(0, 1, 1), (1, 1, 1), (2, 1, 1)]))
        return ClientTable(EMPTY_CELLS)

    def close(self) -> None:
        pass


def test_stalemate_and_exchange_penalty(tmp_path: Path) -> None:
    """Five passers: every game ends by the 20-pass stalemate (random ranks); a botched
    exchange gives away the sender's strongest cards instead."""
    from games.daihinmin.cards import strongest

    path = tmp_path / "pass.log"
    rec = MatchServer(ServerConfig(games=3, seed=2, log=str(path)),
                      [_Passer(f"x{p}") for p in range(5)]).run()  # type: ignore[misc]
    assert rec.drops == [] and len(rec.points) == 3
    games = parse_log(path.read_text()).games
    assert all(len(g.plays) == 20 for g in games)  # nobody ever plays: 20 passes
    g = games[1]
    assert g.changes is not None
    hands = list(g.dealt)
    for e in g.changes[:2]:
        hands[e.src] &= ~e.cards
        hands[e.dst] |= e.cards
    daifugo = g.mibun.index(0)
    ret = next(e for e in g.changes[2:] if e.src == daifugo)
    assert ret.cards == strongest(hands[daifugo], 2)
    assert replay_log(path).ok
