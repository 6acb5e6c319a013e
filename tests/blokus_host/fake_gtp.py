"""A tiny GTP Blokus engine for the host's tests, speaking Pentobi's notation: it keeps the
position with games.blokus_duo, refuses an illegal ``play`` with ``? illegal move`` (as
Pentobi does), and answers ``genmove`` with its colour's first legal placement, or ``pass``.
Colours are explicit, as in Pentobi: a colour that plays out of turn means the other passed.

Flags: ``--refuse`` answers every ``play`` with an error; ``--sleep S`` waits S seconds
before each ``genmove`` answer; ``--resign`` resigns at its first ``genmove``; ``--garble``
answers ``genmove`` with cells that are no piece; ``--no-duo`` refuses ``set_game``;
``--exit CODE`` exits at once, as a program that cannot start would.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script: the repository

from games.blokus_duo import PASS, BlokusState  # noqa: E402

COLOURS = {"b": 0, "black": 0, "blue": 0, "w": 1, "white": 1, "green": 1}


class Engine:
    def __init__(self, flags: list[str]) -> None:
        self.flags = flags
        self.sleep = float(flags[flags.index("--sleep") + 1]) if "--sleep" in flags else 0.0
        self.state = BlokusState()

    def _turn(self, colour: int) -> None:
        """Make ``colour`` the mover: the first mover of a new game, or the other passed."""
        if not self.state.history:
            if self.state.to_move_colour != colour:
                self.state = BlokusState(first=colour)
        elif self.state.to_move_colour != colour:
            self.state.play(PASS)

    def handle(self, words: list[str]) -> tuple[bool, str]:
        cmd, args = words[0], words[1:]
        if cmd in ("name", "version", "quit"):
            return True, {"name": "fake", "version": "1", "quit": ""}[cmd]
        if cmd == "set_game":
            return ("--no-duo" not in self.flags and " ".join(args) == "Blokus Duo",
                    "" if "--no-duo" not in self.flags else "invalid argument")
        if cmd == "clear_board":
            self.state = BlokusState()
            return True, ""
        if cmd == "play" and len(args) == 2 and args[0] in COLOURS:
            if "--refuse" in self.flags:
                return False, "illegal move"
            colour = COLOURS[args[0]]
            try:
                move = self.state.geo.parse_pentobi(args[1])
                self._turn(colour)
                self.state.play(move)
            except ValueError:
                return False, "illegal move"
            return True, ""
        if cmd == "genmove" and len(args) == 1 and args[0] in COLOURS:
            time.sleep(self.sleep)
            if "--resign" in self.flags:
                return True, "resign"
            if "--garble" in self.flags:
                return True, "a1,c3"
            self._turn(COLOURS[args[0]])
            moves = self.state.legal_placements()
            move = moves[0] if moves else PASS
            self.state.play(move)
            return True, self.state.geo.pentobi(move)
        return False, "unknown command"


def main() -> int:
    flags = sys.argv[1:]
    if "--exit" in flags:
        print("fake: told to exit", file=sys.stderr)
        return int(flags[flags.index("--exit") + 1])
    engine = Engine(flags)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        ok, text = engine.handle(words)
        sys.stdout.write(f"{'=' if ok else '?'} {text}\n\n")
        sys.stdout.flush()
        if words[0] == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
