"""Strength of the Blokus Duo player on the mock ICFPT host, at the host's time per move.

Starts ``corvid serve blokus`` on free ports of 127.0.0.1 (both seats and both move orders,
alternating every game / every two games) and ``corvid blokus`` as the player under test;
the opponent is a built-in one of the host (``first-legal``, ``biggest``), a second
``corvid blokus`` process with another core (``uct``, ``alphabeta``, ``abucb``, ``flat``,
``greedy``), or a named player (``v1``: ``--set preset=v1``, the wave-1 default).

    python bench/blokus_strength.py --games 10 --opponent biggest  # the default player
    python bench/blokus_strength.py --games 4 --opponent uct --core alphabeta --json
    python bench/blokus_strength.py --games 200 --opponent v1 --out runs/v1.jsonl --json

The games run in chunks of ``--chunk`` games (a multiple of 4, so that each chunk covers both
seats and both move orders), each a host of its own with seed ``seed + chunk``. With
``--out FILE`` every finished chunk is a JSON line there and a rerun skips the chunks already
done: an interrupted match resumes where it stopped.

Prints each chunk's table of games and the pooled figures; with ``--json`` the last line is
``{"games", "wins", "draws", "losses", "win_rate", "ci95", "timeouts", "violations",
"opponent_violations", "answer_max", "answer_p99", "answer_mean", "load", ...}`` for the
player under test (answer times in seconds as the host measured them, ``load`` the 1-minute
load average at the start and the end: time-limited games depend on it).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (sys.path)

from clients.blokus.config import PRESETS, PlayerConfig
from servers.arena.stats import wilson

ROOT = Path(__file__).resolve().parents[1]
BUILTIN = ("first-legal", "biggest")
CORES = ("uct", "alphabeta", "abucb", "flat", "greedy")


def corvid() -> list[str]:
    script = Path(sys.executable).parent / "corvid"
    return [str(script)] if script.exists() else [sys.executable, "-m", "clients.cli"]


def run_chunk(args: argparse.Namespace, games: int, seed: int) -> tuple[dict[str, Any], str]:
    """One host with ``games`` games; its JSON figures and its printed table."""
    cmd = corvid()
    serve = [*cmd, "--log-level", "warning", "serve", "blokus", "--port", "0", "--games",
             str(games), "--seat", "alternate", "--first", "alternate", "--dialect",
             args.dialect, "--timeout", str(args.time), "--seed", str(seed), "--json"]
    if args.opponent in BUILTIN:
        serve += ["--opponent", args.opponent]
    else:
        serve += ["--port2", "0"]
    if args.sgf_dir:
        serve += ["--sgf-dir", str(Path(args.sgf_dir) / f"seed-{seed}")]
    srv = subprocess.Popen(serve, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    procs: list[subprocess.Popen[str]] = []
    try:
        assert srv.stdout is not None
        first = srv.stdout.readline()
        if not first.startswith("# listening"):
            raise RuntimeError(f"the host did not start: {first!r}")
        ports = [int(p) for p in first.rsplit(":", 1)[1].split(",")]

        def client(port: int, sets: list[str], seed: int, team: str) -> subprocess.Popen[str]:
            c = [*cmd, "--log-level", "warning", "blokus", "--port", str(port), "--games",
                 str(games), "--dialect", args.dialect, "--team-code", team,
                 "--set", f"time={args.time}", "--set", f"seed={seed}"]
            for s in sets:
                c += ["--set", s]
            return subprocess.Popen(c, cwd=ROOT, text=True)

        mine = ([f"core={args.core}"] if args.core else []) + args.set
        procs.append(client(ports[0], mine, seed, "01"))
        if args.opponent in CORES:
            procs.append(client(ports[1], [f"core={args.opponent}", *args.opponent_set],
                                seed + 1, "02"))
        elif args.opponent in PRESETS:
            procs.append(client(ports[1], [f"preset={args.opponent}", *args.opponent_set],
                                seed + 1, "02"))
        out, _ = srv.communicate()
        for p in procs:
            p.wait(timeout=60)
    finally:
        for p in [srv, *procs]:
            if p.poll() is None:
                p.kill()
    lines = out.strip().splitlines()
    return json.loads(lines[-1]), "\n".join(lines[:-1])


def pooled(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of all chunks together."""
    tot: dict[str, Any] = {k: sum(c[k] for c in chunks) for k in
                           ("games", "wins", "draws", "losses", "timeouts", "violations",
                            "opponent_violations")}
    n = tot["games"]
    score = tot["wins"] + 0.5 * tot["draws"]
    tot["win_rate"] = round(score / n, 4) if n else 0.0
    tot["ci95"] = [round(x, 4) for x in wilson(score, n)]
    times = sorted(t for c in chunks for t in c.get("answer_ms", []))
    tot["answer_max"] = times[-1] / 1000 if times else 0.0
    tot["answer_p99"] = times[math.ceil(0.99 * len(times)) - 1] / 1000 if times else 0.0
    tot["answer_mean"] = round(sum(times) / len(times) / 1000, 4) if times else 0.0
    tot["load"] = [c["load"] for c in chunks]
    return tot


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--opponent", default="biggest", choices=[*BUILTIN, *CORES, *PRESETS])
    ap.add_argument("--core", default="", choices=["", *CORES],
                    help="core of the player under test (default: the client's, "
                    f"{PlayerConfig().core})")
    ap.add_argument("--time", type=float, default=1.0, help="host seconds per move")
    ap.add_argument("--dialect", default="2014", choices=["2014", "2013"])
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="extra setting for the player under test (e.g. preset=v1)")
    ap.add_argument("--opponent-set", action="append", default=[], metavar="KEY=VALUE",
                    help="extra setting for a client opponent")
    ap.add_argument("--chunk", type=int, default=20,
                    help="games per host run (a multiple of 4; default %(default)s)")
    ap.add_argument("--out", metavar="FILE", help="JSON lines of finished chunks; a rerun "
                    "resumes after them")
    ap.add_argument("--sgf-dir", metavar="DIR")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.chunk <= 0 or args.chunk % 4:
        ap.error("--chunk must be a positive multiple of 4")

    key = {k: getattr(args, k) for k in ("opponent", "core", "time", "dialect", "set",
                                         "opponent_set", "chunk", "seed")}
    done: list[dict[str, Any]] = []
    out = Path(args.out) if args.out else None
    if out is not None and out.exists():
        for line in out.read_text().splitlines():
            rec = json.loads(line)
            if rec.get("key") != key:
                print(f"{out} holds another match ({rec.get('key')}); use another --out",
                      file=sys.stderr)
                return 2
            done.append(rec)
    t0 = time.monotonic()
    label = args.core or PlayerConfig().core
    print(f"player under test: {label} {' '.join(args.set)}  opponent: {args.opponent}  "
          f"{args.time:g} s per move  dialect {args.dialect}", flush=True)
    if done:
        print(f"resuming: {sum(c['games'] for c in done)} games done in {out}", flush=True)
    start = sum(c["games"] for c in done)
    while start < args.games:
        n = min(args.chunk, args.games - start)
        index = start // args.chunk
        load0 = os.getloadavg()[0]
        figures, table = run_chunk(args, n, args.seed + index)
        figures["load"] = [round(load0, 2), round(os.getloadavg()[0], 2)]
        figures["key"] = key
        figures["chunk"] = index
        print(table, flush=True)
        print(f"chunk {index}: {figures['wins']}-{figures['draws']}-{figures['losses']}, "
              f"timeouts {figures['timeouts']}, answer max {figures['answer_max']:.3f} s, "
              f"load {figures['load'][0]:.1f}..{figures['load'][1]:.1f}", flush=True)
        done.append(figures)
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            with out.open("a") as f:
                f.write(json.dumps(figures) + "\n")
        start += n
    tot = pooled(done)
    tot.update(core=label, set=args.set, opponent=args.opponent, time=args.time,
               dialect=args.dialect, seconds=round(time.monotonic() - t0, 1))
    print(f"games {tot['games']}  W-D-L {tot['wins']}-{tot['draws']}-{tot['losses']}  "
          f"win rate {tot['win_rate']:.3f} (95% {tot['ci95'][0]:.3f}..{tot['ci95'][1]:.3f})  "
          f"timeouts {tot['timeouts']}  violations {tot['violations']}  "
          f"answer max {tot['answer_max']:.3f} s p99 {tot['answer_p99']:.3f} s")
    if args.json:
        print(json.dumps(tot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
