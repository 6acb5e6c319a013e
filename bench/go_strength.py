"""Strength of `corvid gtp` against GNU Go through the referee (`corvid serve gtp`).

    python bench/go_strength.py --games 10 --playouts 1000 --level 0 [--size 9] [--komi 7]
    python bench/go_strength.py --games 10 --seconds 1 --level 10   # a time per move

corvid plays black in odd games and white in even ones; games are scored by Tromp-Taylor
with both engines capturing dead stones before they pass (GNU Go runs with --chinese-rules
--capture-all-dead --positional-superko, corvid cleans up by default), or with
--gnugo-score by GNU Go's final_score (dead stones removed by its own judgement).
Prints the referee's table; with --json the last line is the referee's JSON
{"games":..,"wins":..,"draws":..,"losses":..,"win_rate":..,"ci95":[lo,hi]} for corvid.
With --parallel J the games are split over J referees run at once (seeds seed .. seed+J-1,
each starting with corvid as black; SGFs in --sgf-dir/part-j), their lines are printed as
they come, prefixed [j], and the last lines give the pooled figures (Wilson interval, draws
counting half). A game takes one core for about a minute and a half at 3000 playouts.
GNU Go is the Debian package `gnugo` (installed in /usr/games).
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from _common import ROOT, emit_json  # also puts the repository on sys.path

from servers.arena.stats import wilson


def find_gnugo() -> str | None:
    return shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games:/usr/local/games")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--playouts", type=int, default=1000, help="corvid playouts per move")
    p.add_argument("--seconds", type=float, default=None, metavar="S",
                   help="corvid searches S seconds per move instead (no playout cap)")
    p.add_argument("--level", type=int, default=0, help="GNU Go level (0..10)")
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--komi", type=float, default=7.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="extra corvid gtp setting (repeatable)")
    p.add_argument("--sgf-dir", type=Path)
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--gnugo-score", action="store_true",
                   help="score finished games with GNU Go's final_score instead of "
                        "Tromp-Taylor")
    p.add_argument("--parallel", type=int, default=1, metavar="J",
                   help="split the games over J referees run at once (default 1)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.games < 1 or args.parallel < 1:
        p.error("--games and --parallel must be at least 1")
    if args.seconds is not None and args.seconds <= 0:
        p.error("--seconds must be > 0")
    gnugo = find_gnugo()
    if gnugo is None:
        print("go_strength: GNU Go not found (apt-get install gnugo)", file=sys.stderr)
        return 2
    budget = (f"{args.seconds:g} s/move" if args.seconds is not None
              else f"{args.playouts} playouts/move")
    print(f"corvid ({budget}) vs GNU Go level {args.level}, "
          f"{args.size}x{args.size}, komi {args.komi:g}, {args.games} games", flush=True)
    jobs = min(args.parallel, args.games)
    if jobs == 1:
        return subprocess.run(referee_command(args, gnugo, args.seed, args.games, args.sgf_dir),
                              cwd=ROOT, check=False).returncode
    return run_parallel(args, gnugo, jobs)


def referee_command(args: argparse.Namespace, gnugo: str, seed: int, games: int,
                    sgf_dir: Path | None) -> list[str]:
    py = shlex.quote(sys.executable)
    budget = ([f"playouts={args.playouts}"] if args.seconds is None
              else ["playouts=0", f"seconds={args.seconds:g}"])
    sets = " ".join(f"--set {shlex.quote(s)}" for s in [*budget, f"seed={seed}", *args.set])
    corvid = f"{py} -m clients.cli --log-level warning gtp {sets}"
    opponent = (f"{gnugo} --mode gtp --level {args.level} --chinese-rules --capture-all-dead "
                "--positional-superko")
    cmd = [sys.executable, "-m", "clients.cli", "--log-level", "warning", "serve", "gtp",
           "--black", corvid, "--white", opponent, "--games", str(games),
           "--size", str(args.size), "--komi", f"{args.komi:g}", "--alternate",
           "--timeout", f"{args.timeout:g}"]
    if args.gnugo_score:
        cmd += ["--scorer", f"{gnugo} --mode gtp --chinese-rules"]
    if sgf_dir:
        cmd += ["--sgf-dir", str(sgf_dir)]
    if args.json:
        cmd.append("--json")
    return cmd


def run_parallel(args: argparse.Namespace, gnugo: str, jobs: int) -> int:
    """J referees at once; their lines prefixed [j]; the pooled figures at the end."""
    shares = [args.games // jobs + (1 if j < args.games % jobs else 0) for j in range(jobs)]
    procs = []
    for j, games in enumerate(shares):
        sgf_dir = args.sgf_dir / f"part-{j + 1}" if args.sgf_dir else None
        cmd = referee_command(args, gnugo, args.seed + j, games, sgf_dir)
        if "--json" not in cmd:
            cmd.append("--json")  # the pooled figures are read from each referee's last line
        procs.append(subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True))
    last: list[str] = [""] * jobs
    lock = threading.Lock()

    def pump(j: int) -> None:
        stdout = procs[j].stdout
        assert stdout is not None
        for line in stdout:
            last[j] = line
            if line.startswith("{") and not args.json:
                continue  # the part's JSON is only for pooling
            with lock:
                print(f"[{j + 1}] {line}", end="", flush=True)

    threads = [threading.Thread(target=pump, args=(j,)) for j in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = [pr.wait() for pr in procs]
    parts: list[dict[str, Any]] = []
    for j, line in enumerate(last):
        try:
            parts.append(json.loads(line))
        except json.JSONDecodeError:
            print(f"go_strength: referee {j + 1} gave no result (exit {codes[j]})",
                  file=sys.stderr)
            return codes[j] or 1
    pooled = pool(parts)
    print(f"pooled: {pooled['games']} games, W-D-L {pooled['wins']}-{pooled['draws']}-"
          f"{pooled['losses']}, score {pooled['win_rate']:.3f}, Wilson 95 % "
          f"[{pooled['ci95'][0]:.3f}, {pooled['ci95'][1]:.3f}]", flush=True)
    if args.json:
        emit_json(pooled)
    return max(codes)


def pool(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The referees' figures summed: games, wins, draws, losses, win_rate (draws half) and
    its Wilson 95 % interval."""
    games = sum(int(x["games"]) for x in parts)
    wins = sum(int(x["wins"]) for x in parts)
    draws = sum(int(x["draws"]) for x in parts)
    losses = sum(int(x["losses"]) for x in parts)
    score = wins + draws / 2
    lo, hi = wilson(score, games)
    return {"games": games, "wins": wins, "draws": draws, "losses": losses,
            "win_rate": round(score / games, 4) if games else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)]}


if __name__ == "__main__":
    sys.exit(main())
