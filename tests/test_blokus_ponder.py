"""Blokus Duo on the opponent's time and early answers: the compiled tree's early stop and
its stop request from another thread, and the player's pondering (a prompt stops it at once,
the decision reuses the tree under the opponent's actual reply, the decision's log fields)."""

from __future__ import annotations

import threading
import time
from typing import Any

import msgspec
import numpy as np
import pytest
from structlog.testing import capture_logs

from clients.blokus.config import PlayerConfig, load_player_config
from clients.blokus.player import BlokusPlayer
from clients.config import ConfigError
from games.blokus_duo import BlokusState
from knowledge.blokus_duo.position import BlokusPosition
from protocols.icfpt import FirstMovePrompt, TurnPrompt
from search.budget import Budget
from search.ctree import C_ITER, CompiledUCT, SplitMix
from search.result import SearchResult
from tests.core.test_ctree import WorkClock


def _position(plies: int, seed: int) -> BlokusPosition:
    s = BlokusState()
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves)))])
    return BlokusPosition(s, PlayerConfig().game)


def _wait_for(condition: Any, timeout: float) -> None:
    """Poll ``condition`` until it holds (a search running in another thread)."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "condition not reached"
        time.sleep(0.001)


@pytest.mark.parametrize("timed", [False, True])
def test_early_stop_answers_the_move_of_the_whole_search_sooner(timed: bool) -> None:
    """With one move far ahead, the search that stops early chooses the move the whole
    search chooses (same random stream), with fewer playouts; a search told not to stop
    early (a ponder) runs its whole budget."""
    cfg = PlayerConfig().uct
    position = _position(10, 3)
    results: dict[str, SearchResult] = {}
    for run, configured, told in (("full", False, None), ("early", True, None),
                                  ("told", True, False)):
        u = CompiledUCT(msgspec.structs.replace(cfg, early_stop=configured))
        # a time budget on a clock where an iteration takes 100 µs: 12,000 iterations
        budget = (Budget(seconds=1.2, clock=WorkClock(u, 10_000.0)) if timed
                  else Budget(playouts=12_000))
        results[run] = u.search(position.clone(), None, budget, SplitMix(7), early_stop=told)
    full, early_res = results["full"], results["early"]
    assert not full.info["settled"] and full.playouts >= 11_990
    assert results["told"].playouts == full.playouts and not results["told"].info["settled"]
    assert early_res.info["settled"] and early_res.playouts < full.playouts
    assert early_res.move == full.move
    best, second = sorted(early_res.visits)[-1], sorted(early_res.visits)[-2]
    if not timed:  # what was left of the budget could not have changed the move
        assert best - second > 12_000 - early_res.playouts


def test_early_stop_runs_on_when_the_moves_are_close() -> None:
    """The first move of the game under the knowledge priors: the top moves stay close (304
    visits against 173 after 3000 playouts), the budget runs out."""
    cfg = PlayerConfig(prior_kind="knowledge")
    u = CompiledUCT(msgspec.structs.replace(cfg.uct, early_stop=True))
    r = u.search(BlokusPosition(BlokusState(), cfg.game), None, Budget(playouts=3000),
                 SplitMix(2))
    assert not r.info["settled"] and r.playouts == 3000


def test_a_stop_request_ends_a_search_from_another_thread() -> None:
    u = CompiledUCT(PlayerConfig().uct)
    position = _position(6, 1)
    u.search(position.clone(), None, Budget(playouts=50), SplitMix(1))  # kernels loaded
    box: dict[str, SearchResult] = {}
    th = threading.Thread(target=lambda: box.setdefault(
        "r", u.search(position.clone(), None, Budget(seconds=60.0), SplitMix(2))))
    th.start()
    _wait_for(lambda: u.counters[C_ITER] > 100, 30.0)  # well inside its iterations
    t = time.perf_counter()
    u.request_stop()
    th.join(10.0)
    assert not th.is_alive() and time.perf_counter() - t < 1.0  # generous: about 1 ms
    assert 100 < box["r"].playouts and box["r"].elapsed < 30.0
    # the request stands until withdrawn: a search returns at once, on the tree it has
    r = u.search(position.clone(), None, Budget(playouts=500), SplitMix(3))
    assert r.playouts == 0 and r.info["reused_visits"] > 100
    u.clear_stop()
    assert u.search(position.clone(), None, Budget(playouts=500), SplitMix(3)).playouts == 500


def _player(**settings: Any) -> BlokusPlayer:
    return BlokusPlayer(PlayerConfig(book="none", seed=5, **settings))


def _decision(logs: list[dict[str, Any]]) -> dict[str, Any]:
    return [e for e in logs if e["event"] == "decision"][-1]


def test_pondering_keeps_the_visits_under_the_opponents_reply() -> None:
    """After our first move the ponder searches the opponent's position (to its cap of
    playouts: no prompt comes); the opponent then plays the reply the ponder liked best, and
    the decision's search starts from the visits gathered under it. Without pondering the
    same reply finds only what our own search left there."""
    reused: dict[bool, int] = {}
    first: dict[bool, str] = {}
    reply, reply_visits = "", 0
    for ponder in (True, False):
        p = _player(ponder=ponder, playouts=3000, seconds=30.0, margin=1.0)
        with capture_logs() as logs:
            first[ponder] = p.on_prompt(FirstMovePrompt(1))
            th = p.ponder()
            assert (th is not None) == ponder
            if th is not None:
                th.join(60.0)
                edges = p.core.searcher.root_edges()  # the opponent's position, pondered
                visits = edges["N"] - edges["N0"]
                assert visits.sum() >= 3000
                assert p.state is not None
                best = int(np.argmax(visits))
                reply, reply_visits = p.state.code(int(edges["move"][best])), int(visits[best])
            p.on_prompt(TurnPrompt((reply,)))
        d = _decision(logs)
        reused[ponder] = d["reused_visits"]
        if ponder:
            assert d["ponder_playouts"] == 3000
            assert d["ponder_wait_ms"] <= 0  # it had ended before the prompt
        else:
            assert "ponder_playouts" not in d
    assert first[True] == first[False]  # the same game, with and without pondering
    # the whole subtree: the reply's node has the visits through it but the one that made it
    assert reused[True] == reply_visits - 1 and reply_visits > 30
    assert reused[True] > 2 * reused[False]


def test_a_prompt_stops_the_ponder_and_the_answer_is_on_time() -> None:
    """The ponder may run for ``seconds`` (5 s here); a prompt that comes while it runs stops
    it within a few ms (bounded generously here), and the decision searches its own time and
    answers well within the limit."""
    p = _player(ponder=True, seconds=5.0, margin=4.6)
    p.on_prompt(FirstMovePrompt(1))
    searcher = p.core.searcher
    searcher.counters[C_ITER] = 0  # the decision's count: the ponder's search counts anew
    th = p.ponder()
    assert th is not None
    _wait_for(lambda: searcher.counters[C_ITER] > 200, 30.0)
    assert p.state is not None
    reply = p.state.code(p.state.legal_placements()[0])
    t_prompt = time.perf_counter()
    with capture_logs() as logs:
        code = p.on_prompt(TurnPrompt((reply,)), t_prompt)
    d = _decision(logs)
    assert not th.is_alive()
    assert "fallback" not in d and d["move"] == code and d["playouts"] > 0
    assert 200 < d["ponder_playouts"]
    assert 0 <= d["ponder_wait_ms"] < 300  # about 1 ms on an idle machine
    assert d["elapsed_ms"] < (5.0 - 4.6 / 2) * 1000
    assert d["reused_visits"] >= 0 and d["settled"] is False


def test_ponder_before_the_search_starts_and_without_the_setting() -> None:
    """A prompt right after the answer: the stop request holds, so the ponder returns at
    once whenever its search begins; with ``ponder`` off nothing runs."""
    p = _player(ponder=True, seconds=5.0, margin=4.6)
    p.on_prompt(FirstMovePrompt(1))
    th = p.ponder()
    box = p.stop_pondering()
    assert th is not None and box is not None
    th.join(10.0)
    assert not th.is_alive() and box["playouts"] < 5000
    assert p.stop_pondering() is None  # once
    off = _player(seconds=5.0, margin=4.6)
    off.on_prompt(FirstMovePrompt(1))
    assert off.ponder() is None and off.stop_pondering() is None


def test_ponder_needs_the_compiled_tree_in_this_process() -> None:
    for sets, what in ((["workers=2"], "workers=2"), (["compiled=false"], "compiled=false")):
        with pytest.raises(ConfigError, match="ponder=true searches the compiled tree in this "
                                              f"process: it needs core=uct, compiled=true and "
                                              f"workers=1 .*{what}"):
            load_player_config(None, ["ponder=true", *sets])
    with pytest.raises(ConfigError, match="needs core=uct.*here core=flat"):
        load_player_config(None, ["core=flat", "ponder=true"])
    cfg = load_player_config(None, ["ponder=true", "early_stop=true"])
    assert cfg.ponder and cfg.uct.early_stop
    for preset in ("v1", "v2"):  # the releases' players do neither
        c = load_player_config(None, [f"preset={preset}"])
        assert not c.ponder and not c.early_stop


@pytest.mark.integration
def test_a_whole_game_on_the_mock_host_with_pondering() -> None:
    """The agent loop ponders after each answer and the host's next prompt stops it: a game
    against the host's biggest-piece player, every answer in time, every decision after the
    first with its ponder's figures, the ponder's visits reused."""
    from clients.blokus.agent import play_game
    from protocols.transport import TcpTransport
    from tests.blokus_host.helpers import HostThread

    h = HostThread(seat="1", first="1", opponent="biggest", timeout=1.0, seed=3)
    p = _player(ponder=True, playouts=400, seconds=1.0, margin=0.25)
    with capture_logs() as logs:
        game = play_game(TcpTransport("127.0.0.1", h.port), p, "2014", "07")
    (r,) = h.join()
    assert game.ended == "game_over" and r.record.reason == "end", r.record.reason
    decisions = [e for e in logs if e["event"] == "decision"]
    assert len(decisions) > 10
    assert all("fallback" not in d for d in decisions)
    pondered = [d for d in decisions[1:] if "ponder_playouts" in d]
    assert len(pondered) == len(decisions) - 1
    assert all(d["ponder_wait_ms"] < 300 for d in pondered if "ponder_wait_ms" in d)
    assert any(d.get("reused_visits", 0) > 0 for d in pondered)
    assert p.stop_pondering() is None  # the game's end stopped the last one
