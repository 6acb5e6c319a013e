"""Strength of the Blokus Duo player on the mock ICFPT host, at the host's time per move.

Starts ``corvid serve blokus`` on free ports of 127.0.0.1 (both seats and both move orders,
alternating every game / every two games) and ``corvid blokus`` as the player under test;
the opponent is a built-in one of the host (``first-legal``, ``biggest``) or a second
``corvid blokus`` process with another core (``uct``, ``alphabeta``, ``greedy``).

    python bench/blokus_strength.py --games 10 --opponent biggest  # the default core
    python bench/blokus_strength.py --games 4 --opponent uct --core alphabeta --json

Prints the host's table of games and, with ``--json``, the host's figures as the last line:
``{"games", "wins", "draws", "losses", "win_rate", "timeouts", "violations", ...}`` (for the
player under test).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import _common  # noqa: F401  (sys.path)

from clients.blokus.config import PlayerConfig

ROOT = Path(__file__).resolve().parents[1]
BUILTIN = ("first-legal", "biggest")
CORES = ("uct", "alphabeta", "greedy")


def corvid() -> list[str]:
    script = Path(sys.executable).parent / "corvid"
    return [str(script)] if script.exists() else [sys.executable, "-m", "clients.cli"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--opponent", default="biggest", choices=[*BUILTIN, *CORES])
    ap.add_argument("--core", default=PlayerConfig().core, choices=CORES,
                    help="core of the player under test (default: the client's, %(default)s)")
    ap.add_argument("--time", type=float, default=1.0, help="host seconds per move")
    ap.add_argument("--dialect", default="2014", choices=["2014", "2013"])
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="extra setting for the player under test")
    ap.add_argument("--opponent-set", action="append", default=[], metavar="KEY=VALUE",
                    help="extra setting for a client opponent")
    ap.add_argument("--sgf-dir", metavar="DIR")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    cmd = corvid()
    serve = [*cmd, "--log-level", "warning", "serve", "blokus", "--port", "0", "--games",
             str(args.games), "--seat", "alternate", "--first", "alternate", "--dialect",
             args.dialect, "--timeout", str(args.time), "--seed", str(args.seed), "--json"]
    if args.opponent in BUILTIN:
        serve += ["--opponent", args.opponent]
    else:
        serve += ["--port2", "0"]
    if args.sgf_dir:
        serve += ["--sgf-dir", args.sgf_dir]
    t0 = time.monotonic()
    srv = subprocess.Popen(serve, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    procs: list[subprocess.Popen[str]] = []
    try:
        assert srv.stdout is not None
        first = srv.stdout.readline()
        if not first.startswith("# listening"):
            print(f"the host did not start: {first!r}", file=sys.stderr)
            return 1
        ports = [int(p) for p in first.rsplit(":", 1)[1].split(",")]

        def client(port: int, core: str, sets: list[str], seed: int, team: str
                   ) -> subprocess.Popen[str]:
            c = [*cmd, "--log-level", "warning", "blokus", "--port", str(port), "--games",
                 str(args.games), "--dialect", args.dialect, "--team-code", team,
                 "--set", f"core={core}", "--set", f"time={args.time}",
                 "--set", f"seed={seed}"]
            for s in sets:
                c += ["--set", s]
            return subprocess.Popen(c, cwd=ROOT, text=True)

        procs.append(client(ports[0], args.core, args.set, args.seed, "01"))
        if args.opponent in CORES:
            procs.append(client(ports[1], args.opponent, args.opponent_set, args.seed + 1,
                                "02"))
        out, _ = srv.communicate()
        for p in procs:
            p.wait(timeout=60)
    finally:
        for p in [srv, *procs]:
            if p.poll() is None:
                p.kill()
    lines = out.strip().splitlines()
    figures = json.loads(lines[-1])
    figures.update(core=args.core, opponent=args.opponent, time=args.time,
                   dialect=args.dialect, seconds=round(time.monotonic() - t0, 1))
    print(f"player under test: {args.core}  opponent: {args.opponent}  "
          f"{args.time:g} s per move  dialect {args.dialect}")
    for line in lines[:-1]:
        print(line)
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
