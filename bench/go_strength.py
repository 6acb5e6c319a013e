"""Strength of `corvid gtp` against GNU Go through the referee (`corvid serve gtp`).

    python bench/go_strength.py --games 10 --playouts 1000 --level 0 [--size 9] [--komi 7]

corvid plays black in odd games and white in even ones; games are scored by Tromp-Taylor
with both engines capturing dead stones before they pass (GNU Go runs with --chinese-rules
--capture-all-dead --positional-superko, corvid cleans up by default), or with
--gnugo-score by GNU Go's final_score (dead stones removed by its own judgement).
Prints the referee's table; with --json the last line is the referee's JSON
{"games":..,"wins":..,"draws":..,"losses":..,"win_rate":..,"ci95":[lo,hi]} for corvid.
GNU Go is the Debian package `gnugo` (installed in /usr/games).
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
from pathlib import Path


def find_gnugo() -> str | None:
    return shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games:/usr/local/games")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--playouts", type=int, default=1000, help="corvid playouts per move")
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
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    gnugo = find_gnugo()
    if gnugo is None:
        print("go_strength: GNU Go not found (apt-get install gnugo)", file=sys.stderr)
        return 2
    py = shlex.quote(sys.executable)
    sets = " ".join(f"--set {shlex.quote(s)}" for s in
                    [f"playouts={args.playouts}", f"seed={args.seed}", *args.set])
    corvid = f"{py} -m clients.cli --log-level warning gtp {sets}"
    opponent = (f"{gnugo} --mode gtp --level {args.level} --chinese-rules --capture-all-dead "
                "--positional-superko")
    cmd = [sys.executable, "-m", "clients.cli", "--log-level", "warning", "serve", "gtp",
           "--black", corvid, "--white", opponent, "--games", str(args.games),
           "--size", str(args.size), "--komi", f"{args.komi:g}", "--alternate",
           "--timeout", f"{args.timeout:g}"]
    if args.gnugo_score:
        cmd += ["--scorer", f"{gnugo} --mode gtp --chinese-rules"]
    if args.sgf_dir:
        cmd += ["--sgf-dir", str(args.sgf_dir)]
    if args.json:
        cmd.append("--json")
    print(f"corvid ({args.playouts} playouts/move) vs GNU Go level {args.level}, "
          f"{args.size}x{args.size}, komi {args.komi:g}, {args.games} games", flush=True)
    root = Path(__file__).resolve().parent.parent
    return subprocess.run(cmd, cwd=root, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
