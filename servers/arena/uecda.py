"""``corvid arena uecda``: Daihinmin tables of five on the mock UECda server.

Players: ``corvid[:key=value,...]`` (``corvid uecda`` with ``--set key=value``), ``baseline``
(= ``corvid:core=baseline``, the sample-client-like player), ``standin`` (the server's own
rule-based player: no process at all) and ``cmd:PROGRAM ARGS`` (any UECda client; ``{host}``,
``{port}``, ``{name}`` replaced).

A task is one match on its own server (a free loopback port, in the task's process) with
its own five clients, started one after the other so that player numbers follow the table.
Ranks reset in a match's first game, as in the server's every-100-games reset; so a task
holds at most 100 games, and its log is a tndhms server log (``uecda/*.log`` in the run
directory).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import msgspec

from servers.arena.backends import PlayerError
from servers.arena.players import Player, SpecError, parse_player
from servers.arena.plugin import GameSpec
from servers.arena.records import GameRecord, Piece
from servers.arena.schedule import Task
from servers.arena.stats import mean_ci95
from servers.uecda.config import ServerConfig
from servers.uecda.match import MatchRecord, MatchServer
from servers.uecda.net import Listener, RemoteClient

NP = 5
CONNECT_SECONDS = 120.0  # for a client to start (a cold start compiles its kernels) and connect


class Options(msgspec.Struct, frozen=True, kw_only=True):
    timeout: float = 120.0  # seconds per move before the stand-in takes the seat
    log_level: str = "warning"  # of the corvid client processes
    client_logs: str | None = None  # keep each client's log under this directory


def _baseline(params: dict[str, str]) -> str:
    if params:
        raise ValueError("baseline takes no settings (use corvid:core=baseline,...)")
    return "corvid:core=baseline"


SERVERS = ("standin",)
ALIASES = {"baseline": _baseline}


def parse(text: str) -> Player:
    return parse_player(text, SERVERS, ALIASES)


def _name(p: int, player: Player) -> str:
    kind = "base" if player.settings == ("core=baseline",) else player.kind
    return f"p{p}{kind}"[:9]


def _tail(path: Path, n: int = 400) -> str:
    try:
        text = path.read_text(errors="replace").strip()
    except OSError:
        return ""
    return text[-n:].replace("\n", " | ")


def start_clients(players: Sequence[Player], listener: Listener, timeout: float,
                  logdir: Path, log_level: str, seed: int | None, cwd: str | None,
                  procs: list[subprocess.Popen[bytes]],
                  clients: list[RemoteClient | None]) -> None:
    """Start the client players one by one (player number = position), each accepted before
    the next starts; server players get None (the stand-in plays them). Processes and
    connections are appended to ``procs`` and ``clients`` as they come. Raises PlayerError
    for a client that exits before it connects (fatal when it exits with the usage-error
    code 2) or never connects."""
    for p, pl in enumerate(players):
        if pl.kind == "server":
            clients.append(None)
            continue
        log = logdir / f"player{p}.log"
        argv = pl.argv(["uecda", "--host", listener.host, "--port", str(listener.port),
                        "--name", _name(p, pl)], listener.host, listener.port, _name(p, pl),
                       None if seed is None else seed + p, log_level)
        with open(log, "wb") as err:
            try:
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=err,
                                        stderr=err, cwd=cwd)
            except OSError as e:
                raise PlayerError(f"player {pl.label!r}: cannot start {argv[0]!r}: {e}",
                                  fatal=True) from e
        procs.append(proc)
        deadline = time.monotonic() + CONNECT_SECONDS
        client = None
        while client is None:
            client = listener.accept_players(1, timeout, accept_timeout=0.5, first=p,
                                             quiet=True)[0]
            if client is not None:
                break
            why = listener.failures.get(p, "")
            if "in time" not in why:  # it connected, but its profile was bad
                raise PlayerError(f"player {pl.label!r}: {why}")
            if proc.poll() is not None:
                raise PlayerError(f"player {pl.label!r} exited with code {proc.returncode} "
                                  f"before connecting: {_tail(log)}", fatal=proc.returncode == 2)
            if time.monotonic() > deadline:
                raise PlayerError(f"player {pl.label!r} did not connect in "
                                  f"{CONNECT_SECONDS:g} s")
        listener.failures.pop(p, None)
        clients.append(client)


def stop(procs: Sequence[subprocess.Popen[bytes]], grace: float = 30.0) -> None:
    for proc in procs:
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def match(players: Sequence[Player], cfg: ServerConfig, log_level: str = "warning",
          client_logs: str | Path | None = None, cwd: str | None = None,
          client_seed: int | None = None) -> Iterator[MatchRecord]:
    """One match on a free loopback port between five players; yields the record after
    every game. The server runs here, the clients are processes of their own."""
    if len(players) != NP:
        raise SpecError(f"UECda needs exactly {NP} players, got {len(players)}")
    procs: list[subprocess.Popen[bytes]] = []
    with ExitStack() as stack:
        logdir = Path(client_logs) if client_logs else Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="corvid-arena-")))
        logdir.mkdir(parents=True, exist_ok=True)
        listener = Listener("127.0.0.1", 0)
        clients: list[RemoteClient | None] = []
        try:
            try:
                start_clients(players, listener, cfg.timeout, logdir, log_level, client_seed,
                              cwd, procs, clients)
            finally:
                listener.close()
            yield from MatchServer(cfg, clients).games()
        finally:
            for c in clients:
                if c is not None:
                    c.close()
            stop(procs)


def _cwd(path: str) -> str | None:
    return path if Path(path).is_dir() else None


def play(task: Task) -> Iterator[Piece]:
    """The games of one task: a match of ``len(task.indices)`` games."""
    opts = msgspec.convert(task.options, Options)
    first, last = task.indices[0] + 1, task.indices[-1] + 1
    rel = f"uecda/p{task.pairing:03d}-g{first:04d}-{last:04d}" + \
        ("" if task.attempt == 1 else f"-a{task.attempt}") + ".log"
    labels = [p.label for p in task.players]
    with tempfile.TemporaryDirectory(prefix="corvid-arena-") as tmp:
        log = Path(tmp) / "match.log"
        cfg = ServerConfig(games=len(task.indices), seed=task.seed, timeout=opts.timeout,
                           log=str(log), port=0)
        logs = None if not opts.client_logs else \
            Path(opts.client_logs) / f"task{task.id:04d}-a{task.attempt}"
        pos = 0
        t0 = time.monotonic()
        with open(log, "a+", encoding="ascii") as reader:  # noqa: SIM117
            for k, rec in enumerate(match(task.players, cfg, opts.log_level, logs,
                                          _cwd(task.cwd), task.seed)):
                reader.seek(pos)
                text = reader.read()
                pos = reader.tell()
                now = time.monotonic()
                g = k + 1
                yield Piece(_record(task, k, g, rec, labels, rel, text, now - t0), {rel: text})
                t0 = now
            reader.seek(pos)
            tail = reader.read()
        if tail:
            yield Piece(None, {rel: tail})


def _record(task: Task, k: int, g: int, rec: MatchRecord, labels: list[str], rel: str,
            text: str, seconds: float) -> GameRecord:
    pts = rec.points[-1]
    fin = rec.finish[-1]
    faults = [""] * NP
    standin = [p.kind == "server" for p in task.players]
    for d in rec.drops:
        if d.game <= g:
            standin[d.player] = True
        if d.game == g or (d.game == 0 and g == 1):
            faults[d.player] = "timeout" if d.reason.startswith("timeout") else "violation"
    return GameRecord(pairing=task.pairing, index=task.indices[k], players=labels,
                      specs=[p.spec for p in task.players], result=[float(x) for x in pts],
                      ranks=[fin.index(p) for p in range(NP)], reason="end", faults=faults,
                      standin=standin, record=rel, record_game=g, seed=task.seed,
                      seconds=round(seconds, 3), options=task.options, text=text)


GAME = GameSpec("uecda", NP, Options, play, chunk_cap=100, default_games=100, servers=SERVERS,
                aliases=ALIASES)


# --- the single-match API kept for bench/daihinmin_strength.py ---------------------------
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


def run_arena(specs: list[str], games: int, seed: int | None = None, timeout: float = 120.0,
              log: str | None = None, client_logs: str | None = None,
              on_game: Callable[[int, MatchRecord], None] | None = None,
              client_log_level: str = "warning") -> ArenaResult:
    """One match of ``games`` games between five players, in this process."""
    players = [parse(s) for s in specs]
    cfg = ServerConfig(games=games, seed=seed, timeout=timeout, log=log, port=0)
    rec = MatchRecord([], 0)
    for g, rec in enumerate(match(players, cfg, client_log_level, client_logs), 1):
        if on_game is not None:
            on_game(g, rec)
    return ArenaResult(specs, rec)


def run_parallel(specs: list[str], games: int, parallel: int, seed: int | None = None,
                 timeout: float = 120.0, client_logs: str | None = None,
                 on_game: Callable[[int, MatchRecord], None] | None = None,
                 client_log_level: str = "warning") -> ArenaResult:
    """``parallel`` independent matches at once (seeds ``seed``, ``seed + 1``, ...), games
    split as evenly as possible; the per-game points are pooled."""
    if parallel <= 1:
        return run_arena(specs, games, seed, timeout, None, client_logs, on_game,
                         client_log_level)
    from concurrent.futures import ThreadPoolExecutor

    sizes = [n for n in (games // parallel + (1 if i < games % parallel else 0)
                         for i in range(parallel)) if n > 0]
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


def print_report(res: ArenaResult, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    print(f"{'player':<40} {'pts/game':>9} {'95% CI':>17}", file=out)
    for r in res.report():
        lo, hi = r["ci95"]
        print(f"{r['name']:<40} {r['points_per_game']:>9.3f}   [{lo:.3f}, {hi:.3f}]", file=out)
    for d in res.record.drops:
        print(f"stand-in for player {d.player} from game {d.game}: {d.reason}", file=out)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from servers.arena.cli import add_game_parser

    p = add_game_parser(subparsers, GAME, "Daihinmin: tables of five on the mock UECda server",
                        __doc__ or "", EXAMPLES)
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="seconds per move before the server's stand-in takes the seat "
                   "(default 120: a client may compile its kernels on its first move)")
    p.add_argument("--game-log", "--log", dest="game_log", metavar="FILE",
                   help="also write the match's tndhms log to FILE (a run of one match: one "
                   "table, --chunk at least --games)")
    p.add_argument("--client-logs", metavar="DIR", help="keep each client's log under DIR")
    p.add_argument("--client-log-level", default=None,
                   choices=["debug", "info", "warning", "error"],
                   help="log level of the corvid client processes (default warning)")
    p.set_defaults(options_of=_options, after_run=_after_run)


EXAMPLES = """\
examples:
  corvid arena uecda --games 200 --player corvid --player baseline --player baseline \\
      --player baseline --player baseline --json
  corvid arena uecda --schedule gauntlet --games 100 --player corvid:playouts=3000 \\
      --player baseline --player standin
  corvid arena uecda --sweep alpha=0.8,0.9,1.0 --games 200 --player corvid \\
      --player baseline --plot alpha.png
"""


def _options(args: argparse.Namespace) -> dict[str, Any]:
    given = {"timeout": args.timeout, "log_level": args.client_log_level,
             "client_logs": args.client_logs}
    return {k: v for k, v in given.items() if v is not None}


def _after_run(args: argparse.Namespace, result: Any) -> None:
    """--game-log: copy the one match's log."""
    if not args.game_log:
        return
    files = sorted({r.record for r in result.records if r.record})
    if len(files) != 1 or result.directory is None:
        print(f"corvid arena uecda: --game-log needs a run of one match; the logs are in "
              f"{result.directory}/uecda/", file=sys.stderr)
        return
    Path(args.game_log).write_text((result.directory / files[0]).read_text())
