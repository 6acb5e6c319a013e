"""How long each client takes to start, from a cold and from a warm compile cache.

    python bench/startup.py [--mode all|cold|warm] [--seconds S] [--json]

Each client runs as ``corvid`` processes, as a tournament starts them:

* ``gtp_first_answer_s``: from starting ``corvid gtp`` to its answer to ``protocol_version``
  (sent at once);
* ``gtp_first_genmove_s``: then, after ``boardsize 9``, ``clear_board`` and ``time_settings
  0 S 1`` (a clock of ``--seconds`` S per move), from sending ``genmove b`` to its answer,
  searching by time only (playouts=0). The wait for the warm-up, if it is still running,
  is on the move's clock: the answer should come within S;
* ``uecda_connect_s``, ``blokus_connect_s``: from starting ``corvid uecda`` / ``corvid
  blokus`` to their connection to a local listener (they warm up before connecting).

Cold: each client with an empty ``NUMBA_CACHE_DIR`` of its own, so every kernel it runs is
compiled. Warm: one fresh ``NUMBA_CACHE_DIR`` filled by ``corvid compile`` (not timed), then
each client started on it. The machine may be shared: the load average is printed beside
each figure. The last line with ``--json``: ``{"cold": {...}, "warm": {...},
"genmove_seconds": S}``, each of the four figures per mode (a mode not run is null).
"""

from __future__ import annotations

import argparse
import os
import select
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import ROOT, emit_json, print_table

CORVID = [sys.executable, "-m", "clients.cli", "--log-level", "warning"]
TIMEOUT = 900.0  # seconds any one step may take before the bench gives up on it
FIGURES = ("gtp_first_answer_s", "gtp_first_genmove_s", "uecda_connect_s", "blokus_connect_s")


def _env(cache: Path) -> dict[str, str]:
    return dict(os.environ, NUMBA_CACHE_DIR=str(cache))


def _answer(proc: subprocess.Popen[bytes], command: str) -> tuple[bytes, float]:
    """Send one GTP command; its answer and the seconds it took."""
    assert proc.stdin is not None and proc.stdout is not None
    t0 = time.perf_counter()
    proc.stdin.write(command.encode() + b"\n")
    proc.stdin.flush()
    out = b""
    fd = proc.stdout.fileno()
    while not out.endswith(b"\n\n"):
        ready, _, _ = select.select([fd], [], [], TIMEOUT)
        chunk = os.read(fd, 65536) if ready else b""
        if not chunk:
            raise RuntimeError(f"corvid gtp gave no answer to {command!r}")
        out += chunk
    return out, time.perf_counter() - t0


def gtp(cache: Path, seconds: float) -> dict[str, float]:
    t0 = time.perf_counter()
    proc = subprocess.Popen(CORVID + ["gtp", "--set", "playouts=0"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
                            env=_env(cache))
    try:
        _answer(proc, "protocol_version")
        first = time.perf_counter() - t0
        for command in ("boardsize 9", "clear_board", f"time_settings 0 {seconds:g} 1"):
            _answer(proc, command)
        move, genmove = _answer(proc, "genmove b")
        if not move.startswith(b"="):
            raise RuntimeError(f"genmove failed: {move!r}")
        _answer(proc, "quit")
        proc.wait(TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return {"gtp_first_answer_s": first, "gtp_first_genmove_s": genmove}


def connect(client: str, cache: Path) -> float:
    """Seconds from starting ``corvid CLIENT`` to its connection to a local listener."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(TIMEOUT)
        port = listener.getsockname()[1]
        t0 = time.perf_counter()
        proc = subprocess.Popen(CORVID + [client, "--port", str(port), "--wait", "30"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                cwd=ROOT, env=_env(cache))
        try:
            conn, _ = listener.accept()
            took = time.perf_counter() - t0
            conn.close()  # the client reports a broken game and exits
            proc.wait(60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return took


def measure(caches: dict[str, Path], seconds: float) -> dict[str, float]:
    out = gtp(caches["gtp"], seconds)
    out["uecda_connect_s"] = connect("uecda", caches["uecda"])
    out["blokus_connect_s"] = connect("blokus", caches["blokus"])
    return {k: round(out[k], 3) for k in FIGURES}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["all", "cold", "warm"], default="all")
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="the clock of the timed genmove, seconds per move (default 1)")
    ap.add_argument("--json", action="store_true", help="the figures as JSON, last line")
    args = ap.parse_args(argv)
    figures: dict[str, Any] = {"cold": None, "warm": None, "genmove_seconds": args.seconds}
    with tempfile.TemporaryDirectory(prefix="corvid-startup-") as tmp:
        if args.mode in ("all", "cold"):
            caches = {c: Path(tmp, f"cold-{c}") for c in ("gtp", "uecda", "blokus")}
            figures["cold"] = measure(caches, args.seconds)
            print_table(f"cold cache (load {os.getloadavg()[0]:.1f})",
                        list(figures["cold"].items()))
        if args.mode in ("all", "warm"):
            warm = Path(tmp, "warm")
            subprocess.run(CORVID + ["compile"], cwd=ROOT, env=_env(warm), check=True,
                           stdout=subprocess.DEVNULL, timeout=4 * TIMEOUT)
            figures["warm"] = measure({c: warm for c in ("gtp", "uecda", "blokus")},
                                      args.seconds)
            print_table(f"warm cache, after corvid compile (load {os.getloadavg()[0]:.1f})",
                        list(figures["warm"].items()))
    if args.json:
        emit_json(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
