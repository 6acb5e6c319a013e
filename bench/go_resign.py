"""Whether a player's resignations gave games away: every game of a Go arena run that it
lost by resigning is played on from the position where it resigned, by the same two players
(their specs from the run's records) with its resigning off, to the end.

    python bench/go_resign.py RUN [--player corvid] [--out FILE] [--json]

RUN is the directory of a ``bench/go_strength.py`` or ``corvid arena gtp`` run (its
``games.jsonl`` and ``run.json``). The player named ``--player`` (a label of the run; the
default ``corvid``) must be a corvid player: it plays on with ``resign_threshold=0`` added
to its settings (and any ``--set``); its opponent plays as it did (it may resign again).
Games are scored as the arena scores them (Tromp-Taylor after both sides' cleanup, or the
run's scorer). A game won or drawn on is one the resignation gave away: the gain per game of
the run is (won + drawn / 2) / games, what never resigning would have added to the score.
Untimed runs only (a clocked run's clocks at the resignation are not recorded).

One line per game played on (``--limit N``: the first N only); every result is a JSON line
in ``--out`` (default RUN/resign.jsonl) with the settings it was played with, and a rerun
with the same ``--out`` and settings resumes.
``--json``: ``{"run", "player", "games", "resigned", "played_on", "won", "drawn", "lost",
"gain_per_game", "margins"}`` last (the counts and the gain over the games played on;
``margins``: the player's final score margin in each, sorted).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from _common import emit_json, print_table  # also puts the repository on sys.path

from clients.logs import setup_logging
from protocols.gtp import parse_vertex
from servers.arena.gtp import ALIASES, start_up
from servers.arena.players import Player, SpecError, parse_player
from servers.gtp.match import MatchConfig, play_game
from servers.gtp.process import EngineError, EngineProcess


def resigned_games(records: list[dict[str, Any]], player: str) -> list[dict[str, Any]]:
    """The games of a run's ``records`` that ``player`` lost by resigning, in the run's
    order."""
    games = [g for g in records if player in g["players"] and g.get("reason") == "resign"
             and g["result"][g["players"].index(player)] == 0.0]
    return sorted(games, key=lambda g: g["index"])


def engine(pl: Player, name: str, seed: int, cwd: str | None, startup: float
           ) -> EngineProcess:
    """The engine of ``pl``, once it has answered its first command, and a corvid engine
    ``corvid-ready`` (a cold start may compile its kernels; ``startup`` seconds at most)."""
    e = EngineProcess(shlex.join(pl.argv(["gtp"], name=name, seed=seed)), name, cwd=cwd)
    try:
        start_up(e, pl, startup)
    except EngineError as err:
        e.close()
        raise EngineError(f"{name} did not start: {err}") from err
    return e


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", type=Path, help="the run's directory (games.jsonl, run.json)")
    ap.add_argument("--player", default="corvid",
                    help="the label of the corvid player whose resignations are played on "
                         "(default corvid)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="another setting of that player for the games played on (repeatable)")
    ap.add_argument("--seed", type=int, default=1, help="the engines' seeds (default 1)")
    ap.add_argument("--limit", type=int, default=0,
                    help="play on at most this many games (default 0: all)")
    ap.add_argument("--out", type=Path, help="JSON lines of results (default RUN/resign.jsonl)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    setup_logging("warning")

    try:
        meta = json.loads((args.run / "run.json").read_text())
        records = [json.loads(line)
                   for line in (args.run / "games.jsonl").read_text().splitlines()]
        games = resigned_games(records, args.player)
        total = len(records)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"go_resign: {args.run} is not a readable Go arena run: {e}")
    opts = meta.get("options", {})
    if meta.get("game") != "gtp":
        sys.exit(f"go_resign: {args.run} is a {meta.get('game')} run, not a Go (gtp) one")
    if opts.get("main_time", 0) > 0:
        sys.exit("go_resign: a clocked run (its clocks at the resignations are not recorded)")
    cfg = MatchConfig(size=int(opts.get("size", 9)), komi=float(opts.get("komi", 7.0)),
                      timeout=float(opts.get("timeout", 60.0)))
    out = args.out or args.run / "resign.jsonl"
    settings = ["resign_threshold=0", *args.set]
    done: dict[int, dict[str, Any]] = {}
    if out.exists():  # the games already played on with these settings
        done = {r["index"]: r for r in map(json.loads, out.read_text().splitlines())
                if r.get("settings") == settings}
    todo = games[:args.limit] if args.limit else games
    cwd = str(Path(__file__).resolve().parent.parent)
    startup = float(opts.get("startup_timeout", 300.0))
    engines: dict[str, EngineProcess] = {}
    scorer: EngineProcess | None = None
    try:
        if opts.get("scorer"):
            scorer = EngineProcess(opts["scorer"], "scorer")
        for g in todo:
            if g["index"] in done:
                continue
            us = g["players"].index(args.player)
            specs = g["specs"]
            try:
                ours = parse_player(specs[us], aliases=ALIASES)
                theirs = parse_player(specs[1 - us], aliases=ALIASES)
            except SpecError as e:
                sys.exit(f"go_resign: game {g['index']}: {e}")
            if ours.kind != "corvid":
                sys.exit(f"go_resign: {args.player!r} is not a corvid player ({specs[us]})")
            for s in settings:
                k, _, v = s.partition("=")
                ours = ours.with_setting(k.strip(), v.strip())
            key = f"{ours.spec}\n{theirs.spec}"
            if key not in engines:
                for e in engines.values():
                    e.close()
                engines = {}  # filled one at a time: a failed start closes the other
                engines[key] = engine(ours, args.player, args.seed, cwd, startup)
                engines["opponent"] = engine(theirs, "opponent", args.seed + 1, cwd, startup)
            moves = [parse_vertex(m, cfg.size) for m in g["moves"]]
            colour = len(moves) % 2  # the resigning player was to move
            opening = [(i % 2, v) for i, v in enumerate(moves)]
            pair = (engines[key], engines["opponent"])
            black, white = pair if colour == 0 else pair[::-1]
            t0 = time.monotonic()
            r = play_game(black, white, cfg, scorer, opening=opening)
            margin = None if r.score is None else (r.score if colour == 0 else -r.score)
            rec = {"index": g["index"], "settings": settings, "record": g.get("record", ""),
                   "resigned_at": len(moves),
                   "moves": len(r.moves), "reason": r.reason, "result": r.result_text,
                   "outcome": ("drawn" if r.winner is None and r.reason == "score" else
                               "won" if r.winner == colour else "lost"),
                   "margin": margin, "seconds": round(time.monotonic() - t0, 1)}
            done[g["index"]] = rec
            with open(out, "a") as f:
                f.write(json.dumps(rec) + "\n")
            print(f"game {g['index'] + 1:4d}  resigned at move {len(moves) + 1:3d}  "
                  f"played on: {rec['outcome']:5s} {r.result_text} in {len(r.moves)} moves",
                  flush=True)
            if r.faulty is not None:  # an engine misbehaved: fresh ones for the next game
                for e in engines.values():
                    e.close()
                engines = {}
    except EngineError as e:
        sys.exit(f"go_resign: {e}")
    finally:
        for e in [*engines.values(), *([scorer] if scorer else [])]:
            e.close()
    rows = [done[g["index"]] for g in games if g["index"] in done]
    count = {k: sum(r["outcome"] == k for r in rows) for k in ("won", "drawn", "lost")}
    gain = (count["won"] + count["drawn"] / 2) / total if total else 0.0
    margins = sorted(r["margin"] for r in rows if r["margin"] is not None)
    print_table(f"{args.player}'s resignations in {args.run}, played on", [
        ("games in the run", total), ("resigned", len(games)), ("played on", len(rows)),
        ("won", count["won"]), ("drawn", count["drawn"]), ("lost", count["lost"]),
        ("gain per game of the run", f"{gain:.4f}")])
    if args.json:
        emit_json({"run": str(args.run), "player": args.player, "games": total,
                   "resigned": len(games), "played_on": len(rows), **count,
                   "gain_per_game": round(gain, 4), "margins": margins})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
