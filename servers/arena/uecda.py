"""``corvid arena uecda``: five players on the mock UECda server.

Each ``--player SPEC`` (exactly five, in player-number order) is one of

* ``baseline`` — the built-in sample-client-like player (``corvid uecda --set core=baseline``);
* ``corvid[:key=value,...]`` — the corvid client with settings (``playouts=3000,alpha=0.9``,
  ``core=uct``, ...), each passed as ``--set key=value``;
* ``cmd:PROGRAM ARGS...`` — any other client; ``{host}``, ``{port}`` and ``{name}`` in the
  command are replaced.

The server runs in this process on a free loopback port; the clients are subprocesses, each
started once its predecessor has connected, so player numbers follow the ``--player`` order.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from servers.arena.stats import mean_ci95
from servers.uecda.config import ServerConfig
from servers.uecda.match import MatchRecord, MatchServer
from servers.uecda.net import Listener

NP = 5


@dataclass
class PlayerSpec:
    spec: str
    kind: str  # "corvid" or "cmd"
    settings: list[str] = field(default_factory=list)
    command: str = ""

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        text = text.strip()
        if text == "baseline":
            return cls(text, "corvid", ["core=baseline"])
        if text.startswith("cmd:"):
            return cls(text, "cmd", command=text[4:])
        kind, _, rest = text.partition(":")
        if kind != "corvid":
            raise ValueError(f"unknown player {text!r}: use baseline, corvid[:k=v,...] "
                             "or cmd:COMMAND")
        settings = [s.strip() for s in rest.split(",") if s.strip()]
        for s in settings:
            if "=" not in s:
                raise ValueError(f"player setting {s!r} is not key=value")
        return cls(text, "corvid", settings)

    def argv(self, host: str, port: int, name: str, log_level: str) -> list[str]:
        if self.kind == "cmd":
            return [a.format(host=host, port=port, name=name)
                    for a in shlex.split(self.command)]
        out = [sys.executable, "-m", "clients.cli", "--log-level", log_level, "uecda",
               "--host", host, "--port", str(port), "--name", name]
        for s in self.settings:
            out += ["--set", s]
        return out


@dataclass
class ArenaResult:
    specs: list[str]
    record: MatchRecord

    def report(self) -> list[dict[str, Any]]:
        out = []
        for p, spec in enumerate(self.specs):
            pts = [float(g[p]) for g in self.record.points]
            m, (lo, hi) = mean_ci95(pts, 1.0, 5.0)
            out.append({"name": f"p{p}:{spec}", "spec": spec, "player": p,
                        "points_per_game": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)],
                        "games": len(pts)})
        return out


def run_arena(
    specs: list[str],
    games: int,
    seed: int | None = None,
    timeout: float = 120.0,
    log: str | None = None,
    client_logs: str | None = None,
    on_game: Callable[[int, MatchRecord], None] | None = None,
    client_log_level: str = "warning",
) -> ArenaResult:
    """Play one match of ``games`` games between the five players."""
    if len(specs) != NP:
        raise ValueError(f"UECda needs exactly {NP} players, got {len(specs)}")
    players = [PlayerSpec.parse(s) for s in specs]
    cfg = ServerConfig(games=games, seed=seed, timeout=timeout, log=log, port=0)
    listener = Listener("127.0.0.1", 0)
    procs: list[subprocess.Popen[bytes]] = []
    logdir_ctx = tempfile.TemporaryDirectory(prefix="corvid-arena-") if not client_logs \
        else None
    logdir = Path(client_logs or (logdir_ctx.name if logdir_ctx else "."))
    logdir.mkdir(parents=True, exist_ok=True)
    try:
        clients = []
        for p, pl in enumerate(players):
            name = f"p{p}{'base' if pl.settings == ['core=baseline'] else pl.kind}"[:9]
            err = open(logdir / f"player{p}.log", "wb")  # noqa: SIM115
            procs.append(subprocess.Popen(
                pl.argv("127.0.0.1", listener.port, name, client_log_level),
                stdin=subprocess.DEVNULL, stdout=err, stderr=err))
            err.close()
            # accept this one before starting the next: player number = --player order
            client = None
            for _ in range(240):  # up to 2 minutes for a client to start and connect
                got = listener.accept_players(1, timeout, accept_timeout=0.5, first=p,
                                              quiet=True)
                client = got[0]
                if client is not None or p not in listener.failures or \
                        "in time" not in listener.failures[p]:
                    break
                if procs[-1].poll() is not None:
                    listener.failures[p] = f"client exited with code {procs[-1].returncode}"
                    break
            if client is not None:
                listener.failures.pop(p, None)
            clients.append(client)
        failures = dict(listener.failures)
        rec = MatchServer(cfg, clients, failures, on_game).run()
    finally:
        listener.close()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if logdir_ctx is not None:
            logdir_ctx.cleanup()
    return ArenaResult(specs, rec)


def run_parallel(
    specs: list[str],
    games: int,
    parallel: int,
    seed: int | None = None,
    timeout: float = 120.0,
    client_logs: str | None = None,
    on_game: Callable[[int, MatchRecord], None] | None = None,
    client_log_level: str = "warning",
) -> ArenaResult:
    """``parallel`` independent matches at once (seeds ``seed``, ``seed + 1``, ...), games
    split as evenly as possible; the per-game points are pooled."""
    if parallel <= 1:
        return run_arena(specs, games, seed, timeout, None, client_logs, on_game,
                         client_log_level)
    from concurrent.futures import ThreadPoolExecutor

    sizes = [games // parallel + (1 if i < games % parallel else 0) for i in range(parallel)]
    sizes = [n for n in sizes if n > 0]
    with ThreadPoolExecutor(max_workers=len(sizes)) as pool:
        futs = [pool.submit(run_arena, specs, n, None if seed is None else seed + i, timeout,
                            None, None if client_logs is None else f"{client_logs}/match{i}",
                            on_game, client_log_level)
                for i, n in enumerate(sizes)]
        parts = [f.result() for f in futs]
    rec = MatchRecord(parts[0].record.names, parts[0].record.seed)
    offset = 0
    for part in parts:
        rec.points += part.record.points
        rec.finish += part.record.finish
        for d in part.record.drops:
            rec.drops.append(type(d)(d.game + offset if d.game else 0, d.player, d.reason))
        offset += len(part.record.points)
    return ArenaResult(specs, rec)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "uecda",
        help="Daihinmin: five players on the mock UECda server",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--games", type=int, default=100, help="games in the match")
    p.add_argument("--player", action="append", default=[], metavar="SPEC",
                   help="a player (give exactly five): baseline, corvid[:k=v,...], cmd:...")
    p.add_argument("--seed", type=int, default=None, help="server seed (deals, seats)")
    p.add_argument("--parallel", type=int, default=1,
                   help="run this many independent matches at once (seeds S, S+1, ...; "
                   "--game-log only with 1)")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds per move before a stand-in takes the seat (default 120: a "
                   "client may compile its kernels on its first move)")
    p.add_argument("--log", "--game-log", dest="log", metavar="FILE",
                   help="write the server's game log (tndhms format)")
    p.add_argument("--client-logs", metavar="DIR", help="keep each client's log in DIR")
    p.add_argument("--client-log-level", default="warning",
                   choices=["debug", "info", "warning", "error"],
                   help="log level of the client processes (default warning)")
    p.add_argument("--json", action="store_true",
                   help="print the result as one JSON object on the last line")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if len(args.player) != NP:
        print(f"corvid arena uecda: give --player exactly {NP} times", file=sys.stderr)
        return 2
    try:
        for s in args.player:
            PlayerSpec.parse(s)
    except ValueError as e:
        print(f"corvid arena uecda: {e}", file=sys.stderr)
        return 2
    from tqdm import tqdm

    bar = tqdm(total=args.games, file=sys.stderr, unit="game", disable=None)

    def progress(game: int, rec: MatchRecord) -> None:
        bar.update(1)
        if args.parallel <= 1:
            bar.set_postfix_str(" ".join(f"{t / game:.2f}" for t in rec.totals))

    try:
        if args.parallel > 1:
            res = run_parallel(args.player, args.games, args.parallel, args.seed,
                               args.timeout, args.client_logs, progress,
                               args.client_log_level)
        else:
            res = run_arena(args.player, args.games, args.seed, args.timeout, args.log,
                            args.client_logs, progress, args.client_log_level)
    finally:
        bar.close()
    print_report(res)
    if args.json:
        print(json.dumps({"players": res.report(), "games": len(res.record.points),
                          "seed": res.record.seed}))
    return 0


def print_report(res: ArenaResult) -> None:
    rows = res.report()
    print(f"{'player':<40} {'pts/game':>9} {'95% CI':>17}")
    for r in rows:
        lo, hi = r["ci95"]
        print(f"{r['name']:<40} {r['points_per_game']:>9.3f}   [{lo:.3f}, {hi:.3f}]")
    for d in res.record.drops:
        print(f"stand-in for player {d.player} from game {d.game}: {d.reason}")
