"""Daihinmin strength: corvid against baseline players (and earlier corvids) on the mock
UECda server.

    python bench/daihinmin_strength.py --games 1000 [--set key=value ...] [--json]
    python bench/daihinmin_strength.py --games 1000 --table v1 [--json]
    python bench/daihinmin_strength.py --games 1000 --table alpha --values 0.9,1.0
    python bench/daihinmin_strength.py --games 1000 --player SPEC (x5)
    python bench/daihinmin_strength.py --games 1000 --field strong --json \\
        --peer "paoon=PATH/client -h {host} -p {port} -n paoon"

Tables (players in this order in the report and the JSON):

* ``baselines`` (default): corvid with its defaults (and the ``--set`` settings) against four
  baselines;
* ``v1``: the new default corvid, the ``preset=v1`` corvid and three baselines;
* ``alpha``: one corvid per α in ``--values`` (2 to 4 of them), baselines fill the table;
* ``--field strong``: the new default corvid (with the ``--set`` settings), paoon (a strong
  C client of past tournaments, an external program: ``--peer paoon=CMD`` is required), the
  ``preset=v2`` and ``preset=v1`` corvids and a baseline, named ``corvid``, ``paoon``,
  ``v2``, ``v1``, ``baseline``; the seats rotate (``--rotate``) over matches of
  ``--chunk`` games (default: a fifth of the games, at most 100, so that every player sits
  on every player number);
* ``--player SPEC`` five times: any line-up (the arena's specs).

``--peer NAME=CMD`` (repeatable) is an external UECda client, started once per match with
``{host}``, ``{port}`` and ``{name}`` in CMD filled in: the seat of the field named NAME, or
else the last baseline of the table, is its seat.

Long runs are split into matches of ``--chunk`` games (seeds S, S+1, ...; each a match of
its own, with its rank resets), and with ``--out FILE`` every finished chunk's per-game points
are appended to FILE, so an interrupted run picks up where it stopped when run again with the
same arguments. A chunk in which a stand-in had to play for a client (it crashed or timed
out) is discarded, not saved: running again replays it. The report pools the games: points
per game with 95% confidence intervals, and for two corvids the paired difference (per game,
same deals) with its interval. ``--rotate`` seats the line-up rotated by one more place in
each chunk (player number k plays spec k + i mod 5 in chunk i), so that over a multiple of 5
chunks every spec plays every player number equally often: a difference between two players
then owes nothing to their numbers (an A/A run of two identical corvids without it measured
p0 - p1 = -0.19 [-0.36, -0.02] in 300 games). ``--against FILE`` compares two runs played
on the same seeds: the first player of this line-up against the first player of FILE's (an
``--out`` file of another line-up), game by game. The server draws every game's seating order
and shuffled deck from the chunk's seed whatever the results (the deal starts at the
daifugo's seat), so the two runs share each game's shuffle: the paired difference removes
much of the deal luck, as within a table.

The intervals are batch means over blocks of ``--block`` consecutive games of a match
(default 10; ``--block 1``: per game, as before). The games of a match are not independent:
the ranks, and so the exchange, carry over, and once two runs' games differ the difference
lasts a few games (the paired differences of two runs of the default on the same seeds had a
lag-1 autocorrelation of 0.33): per-game intervals were too narrow by about a third. Even so,
two runs of the same default on seeds 1-6 scored 4.72 and 4.52: differences of a tenth of a
point need thousands of games. With ``--json`` the last
line is ``{"players": [{"name", "spec", "points_per_game", "ci95"}, ...], "games", "seed",
"diff"?, "against"?}``, the players in the line-up's order (a player's ``name`` is its label
where the line-up names it, else ``pN:SPEC``); ``diff`` is the paired difference of the
first two players that are not baselines.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import _common  # noqa: F401  (the repository on sys.path; stale numba caches dropped)

from clients.logs import setup_logging
from servers.arena.backends import PlayerError
from servers.arena.stats import batch_mean_ci95
from servers.arena.uecda import run_arena

Run = dict[int, list[list[int]]]  # a chunk's seed: its games' points, in line-up order

NP = 5
BASELINE = "baseline"
STRONG_PEER = "paoon"  # the external client the strong field needs


def corvid_spec(settings: list[str]) -> str:
    return "corvid" + (":" + ",".join(settings) if settings else "")


def strong_field(extra: list[str]) -> list[str]:
    """The strong field, labelled; the paoon seat waits for its ``--peer``."""
    return [f"corvid={corvid_spec(extra)}", f"{STRONG_PEER}=", "v2=corvid:preset=v2",
            "v1=corvid:preset=v1", f"{BASELINE}={BASELINE}"]


def table(args: argparse.Namespace) -> list[str]:
    """The line-up before the peers take their seats."""
    extra = list(args.set)
    if args.player:
        if len(args.player) != NP:
            raise SystemExit(f"give --player exactly {NP} times")
        return list(args.player)
    if args.field == "strong":
        return strong_field(extra)
    if args.table == "baselines":
        return [corvid_spec(extra)] + [BASELINE] * 4
    if args.table == "v1":
        return [corvid_spec(extra), corvid_spec(["preset=v1"]), BASELINE, BASELINE, BASELINE]
    values = [v for v in args.values.split(",") if v]
    if not 2 <= len(values) <= 4:
        raise SystemExit("--table alpha needs 2 to 4 --values")
    return [corvid_spec(extra + [f"alpha={v}"]) for v in values] + \
        [BASELINE] * (NP - len(values))


def label_of(spec: str) -> str:
    """The label of a line-up entry (``LABEL=SPEC``), or ``""``."""
    head, eq, _ = spec.partition("=")
    return head if eq and ":" not in head and " " not in head else ""


def is_baseline(spec: str) -> bool:
    """A baseline seat, labelled or not."""
    return (spec.partition("=")[2] if label_of(spec) else spec) == BASELINE


def seat_peers(specs: list[str], peers: list[str]) -> list[str]:
    """The line-up with each ``NAME=CMD`` peer on the seat labelled NAME, else on the last
    baseline seat not yet taken; SystemExit when a seat waits for a peer not given or a peer
    finds no seat."""
    out = list(specs)
    for text in peers:
        name, eq, command = text.partition("=")
        name, command = name.strip(), command.strip()
        if not eq or not name or not command or ":" in name or " " in name:
            raise SystemExit(f"--peer {text!r}: give NAME=COMMAND (e.g. \"paoon=PATH/client "
                             "-h {host} -p {port} -n paoon\")")
        spec = f"{name}=cmd:{command}"
        named = [i for i, s in enumerate(out) if label_of(s) == name]
        free = [i for i, s in enumerate(out) if is_baseline(s)]
        if named:
            out[named[0]] = spec
        elif free:
            out[free[-1]] = spec
        else:
            raise SystemExit(f"--peer {name}: no seat for it (the line-up has no baseline "
                             "left to replace)")
    waiting = [label_of(s) for s in out if s.endswith("=")]
    if waiting:
        raise SystemExit(f"the line-up needs an external client for {', '.join(waiting)}: "
                         f"give --peer {waiting[0]}=COMMAND, e.g. --peer \"{waiting[0]}="
                         f"PATH/client -h {{host}} -p {{port}} -n {waiting[0]}\"")
    return out


def lineup(args: argparse.Namespace) -> list[str]:
    return seat_peers(table(args), args.peer)


def default_chunk(args: argparse.Namespace) -> int:
    """Games per match: ``--chunk``; for the strong field by default a fifth of the games
    (at most 100, a tournament's reset), else all of them."""
    if args.chunk:
        return int(args.chunk)
    if args.field == "strong":
        return max(1, min(100, -(-args.games // NP)))
    return int(args.games)


def chunks(games: int, size: int) -> list[int]:
    return [min(size, games - i) for i in range(0, games, size)]


def rotation(chunk: int, rotate: bool) -> int:
    """The line-up's rotation in a chunk: player number k plays spec (k + r) % 5."""
    return chunk % NP if rotate else 0


def load_done(path: Path | None, specs: list[str], rotate: bool
              ) -> dict[int, dict[str, Any]]:
    done: dict[int, dict[str, Any]] = {}
    if path is None or not path.exists():
        return done
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        if rec.get("specs") != specs:
            raise SystemExit(f"{path} holds a run of other players ({rec.get('specs')}); "
                             "use another --out file")
        if ("rotation" in rec) != rotate:
            raise SystemExit(f"{path} holds a run " + ("with" if "rotation" in rec else
                                                       "without") +
                             " --rotate; run it as it was begun, or use another --out file")
        done[int(rec["chunk"])] = rec
    return done


def read_runs(paths: Iterable[str]) -> tuple[list[str], Run]:
    """The line-up's specs and every match of the ``--out`` files in ``paths``, by seed.
    SystemExit for a missing or malformed file, two line-ups, or a seed met twice."""
    specs: list[str] | None = None
    matches: Run = {}
    where: dict[int, str] = {}
    for name in paths:
        path = Path(name)
        if not path.is_file():
            raise SystemExit(f"{name}: no such file")
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                seed, got, points = int(rec["seed"]), list(rec["specs"]), rec["points"]
                games = [[int(p) for p in g] for g in points]
            except (ValueError, KeyError, TypeError) as e:
                raise SystemExit(f"{name}:{n}: not a record of daihinmin_strength.py --out "
                                 f"({e})") from None
            if specs is None:
                specs = got
            elif got != specs:
                raise SystemExit(f"{name}:{n}: a run of other players ({got}); pool the runs "
                                 f"of one line-up ({specs})")
            if any(len(g) != len(specs) for g in games):
                raise SystemExit(f"{name}:{n}: a game without one result per player")
            if seed in matches:
                raise SystemExit(f"{name}:{n}: the match of seed {seed} is in {where[seed]} "
                                 "too; its games would count twice")
            matches[seed] = games
            where[seed] = f"{name}:{n}"
    if specs is None or not matches:
        raise SystemExit("no games in " + ", ".join(paths))
    return specs, matches


def against(mine: Run, theirs: Run, block: int) -> dict[str, Any]:
    """The first player of ``mine`` against the first player of ``theirs``, per game played on
    the same seed (game i of seed s in both)."""
    runs: list[list[float]] = []
    for seed in sorted(set(mine) & set(theirs)):
        a, b = mine[seed], theirs[seed]
        runs.append([float(x[0] - y[0]) for x, y in zip(a, b, strict=False)])
    if not any(runs):
        raise SystemExit("--against: no game on the seeds of these runs (run both with the "
                         "same --seed and --chunk)")
    m, (lo, hi) = batch_mean_ci95(runs, block, -4.0, 4.0)
    return {"games": sum(len(r) for r in runs), "mean": round(m, 4),
            "ci95": [round(lo, 4), round(hi, 4)]}


def paired_diff(runs: list[list[list[int]]], a: int, b: int, block: int) -> dict[str, Any]:
    d = [[float(g[a] - g[b]) for g in run] for run in runs]
    m, (lo, hi) = batch_mean_ci95(d, block, -4.0, 4.0)
    return {"players": [a, b], "mean": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000, help="games in all (default 1000)")
    ap.add_argument("--table", choices=["baselines", "v1", "alpha"], default="baselines",
                    help="the line-up (default baselines)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a setting of the corvid under test (repeatable)")
    ap.add_argument("--values", default="0.9,1.0", help="α values of --table alpha")
    ap.add_argument("--field", choices=["strong"], default=None,
                    help="strong: corvid, paoon (--peer paoon=CMD), preset=v2, preset=v1 "
                    "and a baseline, seats rotating (see above)")
    ap.add_argument("--peer", action="append", default=[], metavar="NAME=CMD",
                    help="an external UECda client ({host}, {port}, {name} filled in): the "
                    "seat named NAME, else the last baseline's (repeatable)")
    ap.add_argument("--player", action="append", default=[], metavar="SPEC",
                    help="five arena specs instead of a table")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first chunk (default 1)")
    ap.add_argument("--chunk", type=int, default=0,
                    help="games per match (default: all games in one match; the strong "
                    "field: a fifth of them, at most 100)")
    ap.add_argument("--out", metavar="FILE", help="append finished chunks here; resume")
    ap.add_argument("--rotate", action="store_true",
                    help="rotate the line-up over the player numbers chunk by chunk")
    ap.add_argument("--against", metavar="FILE",
                    help="another run's --out file on the same seeds: the paired difference "
                    "of the first players, game by game")
    ap.add_argument("--block", type=int, default=10, metavar="N",
                    help="intervals by batch means over N consecutive games of a match "
                    "(default 10; 1: per game)")
    ap.add_argument("--log", metavar="FILE", help="keep the server's game log (one chunk)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.block < 1:
        ap.error(f"--block {args.block}: give N >= 1")
    if args.field and args.player:
        ap.error("--field and --player are two line-ups: give one")
    if args.field == "strong":
        args.rotate = True
    setup_logging("warning")
    specs = lineup(args)
    sizes = chunks(args.games, default_chunk(args))
    out = Path(args.out) if args.out else None
    done = load_done(out, specs, args.rotate)
    bar = None
    try:
        from tqdm import tqdm

        bar = tqdm(total=args.games, file=sys.stderr, unit="game", disable=None,
                   initial=sum(len(done[i]["points"]) for i in done if i < len(sizes)))
    except ImportError:  # pragma: no cover
        pass
    if args.against and not Path(args.against).is_file():
        raise SystemExit(f"--against {args.against}: no such file")
    t0 = time.perf_counter()
    played: dict[int, list[list[int]]] = {}  # chunk: its games' points, in line-up order
    discarded = 0
    try:
        for i, n in enumerate(sizes):
            if i in done:
                played[i] = done[i]["points"]
                continue
            rot = rotation(i, args.rotate)
            seated = specs[rot:] + specs[:rot]  # player number k: specs[(k + rot) % NP]
            try:
                res = run_arena(seated, n, args.seed + i, timeout=120.0,
                                log=args.log if len(sizes) == 1 else None,
                                on_game=(lambda g, r: bar.update(1)) if bar else None)
            except PlayerError as e:
                kept = " (the finished ones are in --out: run again to go on)" if out else ""
                print(f"daihinmin_strength: chunk {i} could not be played: {e}{kept}",
                      file=sys.stderr)
                return 1
            got = [[int(g[(j - rot) % NP]) for j in range(NP)] for g in res.record.points]
            if res.record.drops:  # a stand-in played for a client: not that client's games
                print(f"chunk {i} discarded (run again to replay it): stand-ins: "
                      f"{res.record.drops}", file=sys.stderr)
                discarded += 1
                continue
            if out is not None:
                with out.open("a") as f:
                    rec = {"chunk": i, "seed": args.seed + i, "specs": specs, "points": got}
                    if args.rotate:
                        rec["rotation"] = rot
                    f.write(json.dumps(rec) + "\n")
            played[i] = got
    finally:
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - t0
    runs = [played[i] for i in sorted(played)]
    points = [g for run in runs for g in run]
    rows: list[dict[str, Any]] = []
    for p, spec in enumerate(specs):
        m, (lo, hi) = batch_mean_ci95([[float(g[p]) for g in run] for run in runs],
                                      args.block, 1.0, 5.0)
        rows.append({"name": label_of(spec) or f"p{p}:{spec}", "spec": spec, "player": p,
                     "points_per_game": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)],
                     "games": len(points)})
    print(f"Daihinmin strength: {len(points)} games in {len(sizes)} match(es) from seed "
          f"{args.seed}, {elapsed:.0f} s (baseline expectation: 3.0 points per game)")
    print(f"{'player':<60} {'pts/game':>9} {'95% CI':>17}")
    for r in rows:
        print(f"{r['name']:<60} {r['points_per_game']:>9.3f}   [{r['ci95'][0]:.3f}, "
              f"{r['ci95'][1]:.3f}]")
    figures: dict[str, Any] = {"players": rows, "games": len(points), "seed": args.seed,
                               "rotate": args.rotate,
                               "elapsed_s": round(elapsed, 1), "discarded_chunks": discarded}
    corvids = [p for p, s in enumerate(specs) if not is_baseline(s)]
    if len(corvids) >= 2:
        figures["diff"] = paired_diff(runs, corvids[0], corvids[1], args.block)
        d = figures["diff"]
        print(f"paired difference p{corvids[0]} - p{corvids[1]}: {d['mean']:+.3f} "
              f"[{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}] points per game")
    if args.against:
        their_specs, theirs = read_runs([args.against])
        a = figures["against"] = {
            "file": args.against, "spec": their_specs[0],
            **against({args.seed + i: games for i, games in played.items()}, theirs,
                      args.block)}
        print(f"against {a['file']} ({a['spec']}), {a['games']} games on the same seeds: "
              f"p0 {a['mean']:+.3f} [{a['ci95'][0]:+.3f}, {a['ci95'][1]:+.3f}] points per game")
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
