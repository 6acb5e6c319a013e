"""Soak: a long match of corvid clients on our mock servers, at a small budget.

    python bench/soak.py --game uecda  --games 10000 --json [--state FILE]
    python bench/soak.py --game blokus --games 1000  --json
    python bench/soak.py --game gtp    --games 500   --json

* ``uecda``: the mock UECda server (in this process) and five ``corvid uecda`` processes
  (three flat Monte Carlo, one UCT, one baseline), one match of N games.
* ``blokus``: the mock ICFPT host (in this process) and two ``corvid blokus`` processes
  (α-β and UCT), which reconnect for every game, as on the contest host.
* ``gtp``: the GTP referee (in this process) and two ``corvid gtp`` engines on 9×9, colours
  alternating.

The last line with ``--json`` is
``{"games":..,"crashes":..,"drops":..,"timeouts":..,"rss_growth_mb":..,"wall_seconds":..}``:

* ``crashes``: client processes that ended with a non-zero code or a signal, or a game the
  referee ended as a crash (the engine closed its pipe), or an exception in the server;
* ``drops``: a client the server had to give up on for another reason than time (it closed
  the connection, sent garbage or an illegal move: the UECda stand-in took its seat, the
  ICFPT host scored a violation, the GTP referee a protocol error or an illegal move);
* ``timeouts``: a client that did not answer within ``--timeout`` seconds;
* ``rss_growth_mb``: the largest growth of resident memory of any process (the server and
  every client) from the end of the first 10 % of a segment's games to its end.

Resumable: progress goes to ``--state`` (JSON, rewritten after every game). Run the same
command again after an interruption and it plays the games still missing as a new
*segment* (fresh processes, the next seed), adding to the totals; the RSS growth reported is
the largest of the segments'. ``--segment N`` cuts a long run into segments of N games on
purpose (0: one segment).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import emit_json, print_table  # noqa: E402
from clients.logs import setup_logging  # noqa: E402

CLI = [sys.executable, "-m", "clients.cli", "--log-level", "warning"]


def rss_mb(pid: int) -> float | None:
    """Resident memory of a process in MB (Linux /proc), None if it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except (OSError, ValueError):
        return None
    return None


class Segment:
    """The figures of one segment (one set of processes), kept as it runs."""

    def __init__(self, games: int, on_progress: Callable[[Segment], None]) -> None:
        self.target = games
        self.games = 0
        self.crashes = 0
        self.drops = 0
        self.timeouts = 0
        self.events: list[str] = []  # what each crash / drop / timeout was
        self.base: dict[int, float] = {}  # pid -> RSS at the end of the first 10 %
        self.peak_growth = 0.0
        self.pids: dict[int, str] = {}
        self.on_progress = on_progress
        self.t0 = time.monotonic()

    def watch(self, pid: int, label: str) -> None:
        self.pids[pid] = label

    def fault(self, kind: str, what: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        self.events.append(f"{kind} (game {self.games + 1}): {what}")

    def game_done(self) -> None:
        self.games += 1
        mark = max(1, (self.target + 9) // 10)
        if self.games == mark:
            for pid in self.pids:
                r = rss_mb(pid)
                if r is not None:
                    self.base[pid] = r
        elif self.games > mark and (self.games % 50 == 0 or self.games == self.target):
            self.measure()
        self.on_progress(self)

    def measure(self) -> None:
        for pid, base in self.base.items():
            r = rss_mb(pid)
            if r is not None:
                self.peak_growth = max(self.peak_growth, r - base)

    def figures(self) -> dict[str, Any]:
        return {"games": self.games, "crashes": self.crashes, "drops": self.drops,
                "timeouts": self.timeouts, "rss_growth_mb": round(self.peak_growth, 1),
                "wall_seconds": round(time.monotonic() - self.t0, 1), "events": self.events}


def _reap(procs: list[tuple[str, subprocess.Popen[bytes]]], seg: Segment,
          grace: float = 60.0) -> None:
    """Wait for the client processes; a non-zero exit is a crash."""
    for label, proc in procs:
        try:
            code = proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            seg.fault("crashes", f"{label} did not exit after the match (killed)")
            continue
        if code != 0:
            seg.fault("crashes", f"{label} exited with code {code}")


# --- UECda ---------------------------------------------------------------------------------
UECDA_PLAYERS = ["core=flat,playouts=64", "core=flat,playouts=64,alpha=1.0",
                 "core=uct,playouts=64", "core=flat,playouts=64,exchange=heuristic",
                 "core=baseline"]


def soak_uecda(seg: Segment, seed: int, args: argparse.Namespace, logdir: Path) -> None:
    from servers.uecda.config import ServerConfig
    from servers.uecda.match import MatchRecord, MatchServer
    from servers.uecda.net import Listener

    listener = Listener("127.0.0.1", 0)
    procs: list[tuple[str, subprocess.Popen[bytes]]] = []
    seats: list[Any] = []
    try:
        for p, spec in enumerate(UECDA_PLAYERS):
            argv = CLI + ["uecda", "--port", str(listener.port), "--name", f"soak{p}"]
            for s in spec.split(","):
                argv += ["--set", s]
            argv += ["--set", f"seed={seed * 10 + p}"]
            with open(logdir / f"uecda-player{p}.log", "ab") as err:
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=err, stderr=err)
            procs.append((f"player {p} ({spec})", proc))
            seg.watch(proc.pid, f"player{p}")
            # accept in order, so player numbers follow UECDA_PLAYERS
            clients = listener.accept_players(1, args.timeout, accept_timeout=120.0, first=p)
            if clients[0] is None:
                raise RuntimeError(f"player {p} did not connect: {listener.failures[p]}")
            seats.append(clients[0])
        seg.watch(os.getpid(), "server")
        cfg = ServerConfig(games=seg.target, seed=seed, timeout=args.timeout, port=0)
        seen_drops = [0]

        def on_game(game: int, rec: MatchRecord) -> None:
            for d in rec.drops[seen_drops[0]:]:
                kind = "timeouts" if d.reason.startswith("timeout") else "drops"
                seg.fault(kind, f"player {d.player}: {d.reason}")
            seen_drops[0] = len(rec.drops)
            seg.game_done()

        MatchServer(cfg, seats, listener.failures, on_game).run()
    finally:
        listener.close()
        _reap(procs, seg)


# --- Blokus Duo ------------------------------------------------------------------------------
BLOKUS_PLAYERS = [["--set", "core=alphabeta", "--set", "seconds=0.15", "--set", "margin=0.1"],
                  ["--set", "core=uct", "--set", "seconds=0.15", "--set", "margin=0.1"]]


def soak_blokus(seg: Segment, seed: int, args: argparse.Namespace, logdir: Path) -> None:
    from servers.blokus.host import GameResult, Host, HostConfig

    cfg = HostConfig(port=0, port2=0, games=seg.target, first="alternate", seat="alternate",
                     timeout=args.timeout, connect_timeout=120.0, seed=seed)
    host = Host(cfg)
    procs: list[tuple[str, subprocess.Popen[bytes]]] = []
    try:
        for i, (port, extra) in enumerate(zip(host.ports, BLOKUS_PLAYERS, strict=True)):
            argv = CLI + ["blokus", "--port", str(port), "--games", str(seg.target),
                          "--wait", "120", "--team-code", f"s{i}", "--set",
                          f"seed={seed * 10 + i}", *extra]
            with open(logdir / f"blokus-player{i}.log", "ab") as err:
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=err, stderr=err)
            procs.append((f"player on port {i + 1} ({' '.join(extra[1::2])})", proc))
            seg.watch(proc.pid, f"player{i}")
        seg.watch(os.getpid(), "host")

        def on_game(r: GameResult) -> None:
            rec = r.record
            if rec.violator is not None:
                kind = "timeouts" if rec.reason == "timeout" else "drops"
                seg.fault(kind, f"player {rec.violator + 1}: {rec.reason} {rec.detail}")
            seg.game_done()

        results = host.run(on_game)
        if len(results) < seg.target:
            seg.fault("crashes", f"the match stopped after {len(results)} games")
    finally:
        host.close()
        _reap(procs, seg)


# --- Go (GTP) -------------------------------------------------------------------------------
def soak_gtp(seg: Segment, seed: int, args: argparse.Namespace, logdir: Path) -> None:
    from servers.gtp.match import GameResult, MatchConfig, run_match
    from servers.gtp.process import EngineProcess

    cfg = MatchConfig(size=9, komi=7.0, timeout=args.timeout)
    engines = []
    errs = []
    try:
        for i in range(2):
            cmd = " ".join(CLI + ["gtp", "--set", f"playouts={args.gtp_playouts}",
                                  "--set", f"seed={seed * 10 + i}"])
            err = open(logdir / f"gtp-engine{i}.log", "ab")  # noqa: SIM115
            errs.append(err)
            e = EngineProcess(cmd, f"engine{i}", err)
            engines.append(e)
        seg.watch(os.getpid(), "referee")
        pids: dict[int, str] = {}

        def track() -> None:  # an engine restarted after a fault is a new process
            for e in engines:
                if e.proc is not None and e.proc.pid not in pids:
                    pids[e.proc.pid] = e.label
                    seg.watch(e.proc.pid, e.label)

        track()

        def on_game(g: int, result: GameResult, first_colour: int) -> None:
            if result.reason in ("crash", "timeout", "protocol", "illegal"):
                kind = {"crash": "crashes", "timeout": "timeouts"}.get(result.reason, "drops")
                seg.fault(kind, f"{result.reason}: {result.detail}")
            seg.game_done()
            track()

        for e in engines:  # the first answer may wait for the kernels
            e.command("name", timeout=300.0)
        run_match(engines[0], engines[1], seg.target, cfg, alternate=True, on_game=on_game)
    finally:
        codes = []
        for e in engines:
            proc = e.proc
            e.close()
            codes.append((e.label, None if proc is None else proc.returncode))
        for label, code in codes:
            if code not in (0, None):
                seg.fault("crashes", f"{label} exited with code {code}")
        for err in errs:
            err.close()


SOAKS = {"uecda": soak_uecda, "blokus": soak_blokus, "gtp": soak_gtp}
DEFAULT_TIMEOUT = {"uecda": 10.0, "blokus": 1.0, "gtp": 30.0}


def load_state(path: Path, game: str, target: int) -> dict[str, Any]:
    if path.exists():
        state: dict[str, Any] = json.loads(path.read_text())
        if state.get("game") != game:
            raise SystemExit(f"soak: {path} holds a {state.get('game')} soak, not {game}")
        state["target"] = target
        return state
    return {"game": game, "target": target, "segments": []}


def save_state(path: Path, state: dict[str, Any]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(state, indent=1))
    tmp.replace(path)


def totals(state: dict[str, Any]) -> dict[str, Any]:
    segs = state["segments"]
    return {
        "games": sum(s["games"] for s in segs),
        "crashes": sum(s["crashes"] for s in segs),
        "drops": sum(s["drops"] for s in segs),
        "timeouts": sum(s["timeouts"] for s in segs),
        "rss_growth_mb": max((s["rss_growth_mb"] for s in segs), default=0.0),
        "wall_seconds": round(sum(s["wall_seconds"] for s in segs), 1),
        "segments": len(segs),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", required=True, choices=sorted(SOAKS))
    ap.add_argument("--games", type=int, required=True, help="games in all (the target)")
    ap.add_argument("--segment", type=int, default=0,
                    help="games per segment, each with fresh processes (default 0: one)")
    ap.add_argument("--state", type=Path, default=None,
                    help="progress file (default soak-GAME.json in the current directory)")
    ap.add_argument("--logs", type=Path, default=None,
                    help="directory of the clients' logs (default: next to --state)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per move before a client counts as timed out (default: "
                    "uecda 10, blokus 1 as on the contest host, gtp 30)")
    ap.add_argument("--gtp-playouts", type=int, default=64, help="playouts per Go move")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first segment")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.timeout is None:
        args.timeout = DEFAULT_TIMEOUT[args.game]
    setup_logging("error")
    state_path = args.state or Path(f"soak-{args.game}.json")
    logdir = args.logs or state_path.parent / f"soak-{args.game}-logs"
    logdir.mkdir(parents=True, exist_ok=True)
    state = load_state(state_path, args.game, args.games)
    soak = SOAKS[args.game]
    while totals(state)["games"] < args.games:
        left = args.games - totals(state)["games"]
        size = min(left, args.segment) if args.segment > 0 else left
        index = len(state["segments"])
        state["segments"].append({})

        def progress(seg: Segment, index: int = index) -> None:
            state["segments"][index] = seg.figures()
            save_state(state_path, state)

        seg = Segment(size, progress)
        try:
            soak(seg, args.seed + index, args, logdir)
        except Exception as e:  # the server side failed: a crash, and the end of this run
            seg.fault("crashes", f"server: {type(e).__name__}: {e}")
            progress(seg)
            break
        seg.measure()
        progress(seg)
        if seg.games < size:
            break  # a segment that did not finish would loop for ever
    figures = totals(state)
    print_table(f"soak {args.game}: {figures['games']} of {args.games} games", [
        (k, v) for k, v in figures.items()])
    for s in state["segments"]:
        for ev in s.get("events", [])[:20]:
            print(f"  {ev}")
    if args.json:
        emit_json(figures)
    ok = figures["games"] >= args.games and not (figures["crashes"] or figures["drops"]
                                                 or figures["timeouts"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
