"""A tiny GTP engine for the arena's tests: it passes on every genmove (so a game between
two of them ends at once, white winning on komi). ``--exit CODE``: exit at once instead,
as a program that cannot start would. ``--stall``: never answer ``genmove``."""

from __future__ import annotations

import sys


def main() -> int:
    if "--exit" in sys.argv:
        print("passer: told to exit", file=sys.stderr)
        return int(sys.argv[sys.argv.index("--exit") + 1])
    stall = "--stall" in sys.argv
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "genmove" and stall:
            continue
        answer = {"name": "passer", "version": "1", "protocol_version": "2",
                  "genmove": "pass"}.get(cmd, "")
        sys.stdout.write(f"= {answer}\n\n")
        sys.stdout.flush()
        if cmd == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
