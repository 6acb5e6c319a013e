"""Strength of `corvid gtp` against GNU Go or any other GTP engine, played on the arena
(`corvid arena gtp`).

    python bench/go_strength.py --games 10 --playouts 1000 --level 0 [--size 9] [--komi 7]
    python bench/go_strength.py --games 10 --seconds 1 --level 10   # a time per move
    python bench/go_strength.py --games 10 --main-time 60 --opponent "pachi threads=1"  # a clock
    python bench/go_strength.py --games 10 --main-time 40 --opponent-untimed \\
        --opponent "pachi -t =20000 threads=1"   # a clock for corvid only
    python bench/go_strength.py --games 20 --playouts 3000 --opponent "pachi -t =3000 threads=1"
    python bench/go_strength.py --games 20 --visits 3000 --opponent "pachi -t =3000 threads=1"
    python bench/go_strength.py --resume runs/go-strength-20261124-221500  # after a stop
    python bench/go_strength.py --resume runs/go-strength-20261124-221500 --summary --json
    python bench/go_strength.py --resume NEW --summary --against OLD --json  # paired

corvid plays black in odd games and white in even ones; games are scored by Tromp-Taylor
with both engines capturing dead stones before they pass (GNU Go runs with --chinese-rules
--capture-all-dead --positional-superko, corvid cleans up by default), or with
--gnugo-score by GNU Go's final_score (dead stones removed by its own judgement). One line
per game as it ends, then the arena's table and a summary line; with --json the last line
is {"games":..,"wins":..,"draws":..,"losses":..,"win_rate":..,"ci95":[lo,hi],"corvid":SPEC,
"opponent":SPEC,"corvid_move_mean":..,"corvid_move_max":..,"opponent_move_mean":..,
"opponent_move_max":..,"corvid_move_mean_by_phase":[..],...} for corvid (Wilson interval,
draws counting half; the seconds per move of each side, from genmove to its answer as the
referee measured them, also by phase: the mean of each side's moves 1-10, 11-20, 21-30 and
31 on, since a side of fixed playouts spends its time unevenly). --opponent CMD
plays the GTP engine CMD (any program on stdin/stdout; its strength and time are its own
command line) instead of GNU Go; it must capture dead stones before passing, or give
--gnugo-score. --main-time S gives both engines the same sudden-death clock of S seconds a
game (time_settings S 0 0 and time_left before each move; corvid searches by its clock with
no playout cap, the opponent by its own time manager, so its command line should set no
fixed playouts; a side whose clock runs out loses on time); with --opponent-untimed only
corvid plays on that clock and the opponent within --timeout a move (an opponent at fixed
playouts: equal time a game when corvid's clock is what the opponent spends in a game, each
side spending it by its own rule). --visits V caps corvid's root
visits per move instead of its new playouts, the subtree kept from the last move included,
as Pachi counts its `-t =V` (corvid's --playouts N searches N new playouts on top of what
it kept). --parallel J plays J games at
once (tasks of consecutive games, each with its own two engines; --backend ray for Ray
tasks, on a cluster with --ray-address). Every game is recorded in the run directory (--out, default
runs/go-strength-TIME: SGFs and games.jsonl), so an interrupted run continues with --resume
DIR (--resume DIR --summary prints the figures of the games recorded so far and plays none;
with --against OLD also the difference of corvid's score from OLD's game by game, over the
game numbers both runs played, with its 95 % interval: two runs of one seed give corvid the
same colour at each number, so the colours cancel; JSON "against");
--sgf-dir DIR also writes the SGFs there as game-NNNN.sgf. A game takes one core for
about 15-25 seconds at 3000-5000 playouts (GNU Go's moves included; November 2026). GNU Go
is the Debian package `gnugo` (installed in /usr/games); it is needed for the default
opponent and for --gnugo-score only.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

from _common import (  # also puts the repository on sys.path
    add_arena_arguments,
    arena_out,
    emit_json,
    play_on_arena,
)

from clients.logs import setup_logging
from servers.arena import ArenaError, GameRecord, RunResult, prepare
from servers.arena.standings import format_table
from servers.arena.stats import mean_ci95, wilson

CORVID, GNUGO, OPPONENT = "corvid", "gnugo", "opponent"  # the labels of the players
NAME = "go-strength"


def find_gnugo() -> str | None:
    return shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games:/usr/local/games")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--playouts", type=int, default=1000, help="corvid playouts per move")
    p.add_argument("--visits", type=int, default=None, metavar="V",
                   help="corvid's root visits per move instead, those kept from the last "
                   "move included (as Pachi's -t =V counts)")
    p.add_argument("--seconds", type=float, default=None, metavar="S",
                   help="corvid searches S seconds per move instead (no playout cap)")
    p.add_argument("--main-time", type=float, default=None, metavar="S",
                   help="a sudden-death clock of S seconds a game for both engines instead "
                   "(corvid: no playout cap; the opponent by its own time manager)")
    p.add_argument("--opponent-untimed", action="store_true",
                   help="with --main-time: the clock is corvid's only; the opponent plays "
                   "within --timeout a move (for an opponent at fixed playouts)")
    p.add_argument("--level", type=int, default=None, help="GNU Go level (0..10, default 0)")
    p.add_argument("--opponent", metavar="CMD", help="a GTP engine's command line to play "
                   "instead of GNU Go, e.g. \"pachi -t =3000 threads=1\"")
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--komi", type=float, default=7.0)
    p.add_argument("--seed", type=int, default=1, help="the run's seed (corvid's seeds, "
                   "derived per task)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="extra corvid gtp setting (repeatable)")
    p.add_argument("--sgf-dir", type=Path, help="also write the SGFs here (game-NNNN.sgf)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per move")
    p.add_argument("--gnugo-score", action="store_true",
                   help="score finished games with GNU Go's final_score instead of "
                        "Tromp-Taylor")
    add_arena_arguments(p, NAME)
    p.add_argument("--summary", action="store_true",
                   help="with --resume DIR: print the figures of the games the run has "
                   "recorded so far and play none (a run going on or stopped)")
    p.add_argument("--against", type=Path, metavar="DIR",
                   help="with --summary: also corvid's score in this run less its score in "
                   "the run DIR, game by game over the games both recorded (the same game "
                   "number: the same colours, and of one seed the same seeds of corvid)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    setup_logging("warning")
    if args.against is not None and not args.summary:
        p.error("--against compares two recorded runs: give --resume DIR --summary")
    if args.summary:
        if not args.resume:
            p.error("--summary reads a run: give --resume DIR")
        return summary(Path(args.resume), args.json, args.against)
    if args.games < 1 or args.parallel < 1:
        p.error("--games and --parallel must be at least 1")
    if args.seconds is not None and args.seconds <= 0:
        p.error("--seconds must be > 0")
    if args.main_time is not None and args.main_time <= 0:
        p.error("--main-time must be > 0")
    if args.visits is not None and args.visits < 1:
        p.error("--visits must be at least 1")
    if sum(x is not None for x in (args.main_time, args.seconds, args.visits)) > 1:
        p.error("--visits, --seconds and --main-time are three budgets: give one")
    if args.opponent_untimed and args.main_time is None:
        p.error("--opponent-untimed leaves the clock to corvid: give --main-time")
    if args.opponent is not None and args.level is not None:
        p.error("--level is GNU Go's: give it in --opponent's command line instead")
    if args.opponent is not None and not args.opponent.strip():
        p.error("--opponent needs a command")
    level = 0 if args.level is None else args.level
    gnugo = find_gnugo()
    if gnugo is None and (args.opponent is None or args.gnugo_score) and not args.resume:
        print("go_strength: GNU Go not found (apt-get install gnugo)", file=sys.stderr)
        return 2
    if args.main_time is not None:
        budget = ["playouts=0"]
    elif args.seconds is not None:
        budget = ["playouts=0", f"seconds={args.seconds:g}"]
    elif args.visits is not None:
        budget = ["playouts=0", f"visits={args.visits}"]
    else:
        budget = [f"playouts={args.playouts}"]
    corvid = "corvid:" + ",".join([*budget, *args.set])
    options: dict[str, Any] = {"size": args.size, "komi": args.komi, "timeout": args.timeout}
    if args.main_time is not None:
        options["main_time"] = args.main_time
    if args.gnugo_score and gnugo is not None:
        options["scorer"] = f"{gnugo} --mode gtp --chinese-rules"
    opponent = (f"{OPPONENT}=cmd:{args.opponent.strip()}" if args.opponent is not None
                else f"{GNUGO}=gnugo:level={level}")
    if args.opponent_untimed:
        options["untimed"] = [opponent.split("=", 1)[0]]  # its label
    args.out = arena_out(args, NAME) if not args.resume else None
    if args.resume:
        print(f"resuming the run in {args.resume} (its players, games and options)", flush=True)
    else:
        who = args.opponent or f"GNU Go level {level}"
        clock = "" if args.main_time is None else f", {args.main_time:g} s a game " + (
            "(the opponent untimed)" if args.opponent_untimed else "each")
        print(f"corvid ({', '.join(budget)}{clock}) vs {who}, "
              f"{args.size}x{args.size}, komi {args.komi:g}, {args.games} games; records in "
              f"{args.out}", flush=True)

    def on_game(r: GameRecord) -> None:
        print(game_line(r), flush=True)
        if args.sgf_dir is not None and r.text:
            args.sgf_dir.mkdir(parents=True, exist_ok=True)
            (args.sgf_dir / f"game-{r.index + 1:04d}.sgf").write_text(r.text)

    res = play_on_arena(args, "gtp", [f"{CORVID}={corvid}", opponent], options, on_game, NAME)
    if res is None:
        return 2
    print()
    print(format_table(res.standings()))
    return report(res.records, res.config.players, args.json)


def recorded(run: Path) -> RunResult:
    """The games a run has recorded so far (the arena's plan of its resume, none of it
    played); ArenaError if ``run`` is no run."""
    plan = prepare(resume=run)
    return RunResult(plan.config, plan.participants,
                     [plan.previous[k] for k in sorted(plan.previous)], run,
                     sweep_values=plan.sweep_values)


def summary(run: Path, as_json: bool, against: Path | None = None) -> int:
    """--summary: the arena's table and corvid's figures over the games a run has recorded
    so far; with ``against``, also the paired difference from that run (:func:`paired`)."""
    try:
        res = recorded(run)
        other = recorded(against) if against is not None else None
    except ArenaError as e:
        print(f"{NAME}: {e}", file=sys.stderr)
        return 2
    for d, r in ((run, res), (against, other)):
        if r is not None and not r.ok:
            print(f"{NAME}: {d} has no game played yet", file=sys.stderr)
            return 2
    extra: dict[str, Any] = {}
    if other is not None:
        extra["against"] = paired(res.records, other.records)
        extra["against"]["run"] = str(against)
        if not extra["against"]["games"]:
            print(f"{NAME}: {run} and {against} have no game number in common",
                  file=sys.stderr)
            return 2
    print(f"the games recorded in {run} so far", flush=True)
    print(format_table(res.standings()))
    return report(res.records, res.config.players, as_json, extra)


def paired(mine: list[GameRecord], theirs: list[GameRecord]) -> dict[str, Any]:
    """corvid's score (draws half) in the games both runs played well, matched by game
    number: ``games``, each run's mean (``score``, ``their_score``) and the mean of the
    difference game by game with its normal 95 % interval (``difference``, ``ci95``). Two
    runs of one seed give corvid the same colour at each number, so the colours cancel."""
    def scores(records: list[GameRecord]) -> dict[int, float]:
        return {r.index: r.result[r.players.index(CORVID)] for r in records
                if r.status == "ok"}
    a, b = scores(mine), scores(theirs)
    common = sorted(a.keys() & b.keys())
    diff, (lo, hi) = mean_ci95([a[k] - b[k] for k in common], -1.0, 1.0)
    n = len(common)
    return {"games": n,
            "score": round(sum(a[k] for k in common) / n, 4) if n else 0.0,
            "their_score": round(sum(b[k] for k in common) / n, 4) if n else 0.0,
            "difference": round(diff, 4) if n else 0.0, "ci95": [round(lo, 4), round(hi, 4)]}


def report(records: list[GameRecord], players: list[str], as_json: bool,
           extra: dict[str, Any] | None = None) -> int:
    """Print corvid's figures over the records (the last line JSON with ``as_json``, with
    ``extra`` added: the paired difference of ``--against``); 1 when a game could not be
    played."""
    fig = figures(records)
    fig["corvid"] = players[0].partition("=")[2]  # a resumed run's own settings
    fig["opponent"] = players[1].partition("=")[2]
    print(f"corvid: {fig['games']} games, W-D-L {fig['wins']}-{fig['draws']}-{fig['losses']}, "
          f"score {fig['win_rate']:.3f}, Wilson 95 % [{fig['ci95'][0]:.3f}, "
          f"{fig['ci95'][1]:.3f}]; as black {fig['wins_as_black']}/{fig['games_as_black']}"
          + (f"; {fig['failed']} games failed" if fig["failed"] else ""), flush=True)
    print(f"seconds per move: corvid mean {fig['corvid_move_mean']:.3f} max "
          f"{fig['corvid_move_max']:.3f}; opponent mean {fig['opponent_move_mean']:.3f} max "
          f"{fig['opponent_move_max']:.3f}", flush=True)
    print(phase_line(fig), flush=True)
    if extra and "against" in extra:
        d = extra["against"]
        print(f"against {d['run']}: over the {d['games']} game numbers both played, "
              f"{d['score']:.3f} here and {d['their_score']:.3f} there, the difference game "
              f"by game {d['difference']:+.3f} [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]",
              flush=True)
    fig.update(extra or {})
    if as_json:
        emit_json(fig)
    return 0 if not fig["failed"] else 1


def result_text(r: GameRecord) -> str:
    """The SGF RE value of a game: B+3.5, W+R, B+T, W+F, 0."""
    if r.result[0] == r.result[1]:
        return "0"
    w = "B" if r.result[0] > r.result[1] else "W"
    if r.reason in ("score", "max_moves") and r.score is not None:
        return f"{w}+{abs(r.score):g}"
    return {"resign": f"{w}+R", "timeout": f"{w}+T"}.get(r.reason, f"{w}+F")


def game_line(r: GameRecord) -> str:
    if r.status != "ok":
        return f"game {r.index + 1:4d}  not played: {r.error}"
    colour = "B" if r.players[0] == CORVID else "W"
    detail = f" ({r.detail})" if r.detail and r.reason != "score" else ""
    return (f"game {r.index + 1:4d}  corvid as {colour}  {result_text(r):>8}  "
            f"{len(r.moves):3d} moves  {r.reason}{detail}")


def figures(records: list[GameRecord]) -> dict[str, Any]:
    """corvid's games, wins, draws, losses, win rate (draws half) with its Wilson 95 %
    interval, its wins and games as black, the mean and max seconds per move of both sides,
    and the games that could not be played."""
    ok = [r for r in records if r.status == "ok"]
    mine = [r.result[r.players.index(CORVID)] for r in ok]
    black = [r for r in ok if r.players[0] == CORVID]
    games, wins, draws = len(mine), mine.count(1.0), mine.count(0.5)
    score = wins + draws / 2
    lo, hi = wilson(score, games)
    return {"games": games, "wins": wins, "draws": draws, "losses": games - wins - draws,
            "win_rate": round(score / games, 4) if games else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)], "games_as_black": len(black),
            "wins_as_black": sum(1 for r in black if r.result[0] == 1.0),
            **move_times(ok), "failed": len(records) - len(ok)}


# the phases of a game by a side's own move number: 1-10, 11-20, 21-30, 31 and later
PHASES = (0, 10, 20, 30)


def move_times(records: list[GameRecord]) -> dict[str, Any]:
    """Mean and max seconds per move of corvid and of its opponent (0 without moves), and
    each side's mean in each phase of the games (``PHASES``; 0 for a phase no game reached):
    two sides of equal mean time can spend it differently, one on its first moves, where
    the games are decided, and little on the moves of a settled endgame."""
    out: dict[str, Any] = {}
    for side in ("corvid", "opponent"):
        per_game = [r.answer_times[(r.players.index(CORVID) + (side != "corvid")) % 2]
                    for r in records if r.answer_times]
        times = [t for ts in per_game for t in ts]
        out[f"{side}_move_mean"] = round(sum(times) / len(times), 4) if times else 0.0
        out[f"{side}_move_max"] = round(max(times), 4) if times else 0.0
        phases = []
        for lo, hi in zip(PHASES, [*PHASES[1:], None], strict=True):
            part = [t for ts in per_game for t in ts[lo:hi]]
            phases.append(round(sum(part) / len(part), 4) if part else 0.0)
        out[f"{side}_move_mean_by_phase"] = phases
    return out


def phase_line(fig: dict[str, Any]) -> str:
    """The mean seconds per move of each side in each phase, as one line."""
    names = ", ".join(f"{lo + 1}-{hi}" for lo, hi in pairwise(PHASES))
    sides = "; ".join(
        f"{side} " + " ".join(f"{t:.2f}" for t in fig[f"{side}_move_mean_by_phase"])
        for side in ("corvid", "opponent"))
    return f"seconds per move by the side's move number ({names}, {PHASES[-1] + 1}-): {sides}"


if __name__ == "__main__":
    sys.exit(main())
