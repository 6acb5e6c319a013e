"""`corvid gtp` as a subprocess: a whole 9x9 game under sudden-death time pressure.

Each genmove's time is measured from the controller's side (what a tournament server
charges) and must stay inside what the clock held when it was asked; the clocks must never
run out. The engine plays both colours, 4 s each for the whole game, searching by time only.
Those are wall-clock margins on a loaded machine, so that game is in the slow run; the time
allotment itself is tested against an injected clock in ``test_timecontrol.py``.
"""

from __future__ import annotations

import sys

import pytest

from servers.gtp.process import EngineProcess

MAIN_TIME = 4.0


@pytest.mark.slow
@pytest.mark.integration
def test_whole_game_under_time_left_pressure() -> None:
    cmd = (f"{sys.executable} -m clients.cli --log-level warning gtp "
           "--set playouts=0 --set seed=5")
    engine = EngineProcess(cmd, "corvid")
    try:
        for c in ("boardsize 9", "komi 7", "clear_board", f"time_settings {MAIN_TIME:g} 0 0"):
            assert engine.command(*c.split(), timeout=120).ok
        clock = {"b": MAIN_TIME, "w": MAIN_TIME}
        colour, passes, moves = "b", 0, 0
        worst = 0.0
        while passes < 2 and moves < 200:
            assert engine.command("time_left", colour, f"{clock[colour]:.3f}", 0,
                                  timeout=10).ok
            resp, took = engine.command_timed("genmove", colour, timeout=30)
            assert resp.ok, resp.text
            assert took < clock[colour], f"move {moves}: {took:.3f} s with {clock[colour]:.3f}"
            worst = max(worst, took / clock[colour])
            clock[colour] -= took
            moves += 1
            if resp.text.lower() == "resign":
                break
            passes = passes + 1 if resp.text.lower() == "pass" else 0
            colour = "w" if colour == "b" else "b"
        assert passes == 2 or resp.text.lower() == "resign", f"no end after {moves} moves"
        assert moves >= 20  # a real game, not an early pass
        assert min(clock.values()) > 0
        # the clock was used, not ignored: some move thought for a noticeable while
        assert MAIN_TIME * 2 - sum(clock.values()) > 1.0
        print(f"{moves} moves, clocks left {clock}, worst share {worst:.2f}")
        assert engine.command("showboard", timeout=10).ok
    finally:
        engine.close()


@pytest.mark.integration
def test_stdout_carries_nothing_but_gtp_even_with_debug_logs() -> None:
    import subprocess

    from protocols.gtp import Controller

    script = b"name\nboardsize 9\nplay b e5\ngenmove w\nshowboard\nnosuch\nquit\n"
    proc = subprocess.run(
        [sys.executable, "-m", "clients.cli", "--log-level", "debug", "gtp",
         "--set", "playouts=20"],
        input=script, capture_output=True, timeout=300, check=True)
    c = Controller()
    c.receive_data(proc.stdout)
    c.receive_data(b"")
    answers = []
    while (r := c.next_response()) is not None:
        answers.append(r)
    assert [a.ok for a in answers] == [True] * 5 + [False, True]
    assert answers[0].text == "corvid" and answers[5].text == "unknown command"
    assert b"gtp_in" in proc.stderr  # the logs went to stderr


def test_help_explains() -> None:
    import subprocess

    out = subprocess.run([sys.executable, "-m", "clients.cli", "gtp", "--help"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert "GTP" in out and "--set" in out and "playouts" in out and "time_left" in out
