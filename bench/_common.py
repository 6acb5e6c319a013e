"""Shared helpers for benchmark scripts: a table printer, the --json last line, the
options and run of a bench that plays on the arena, and the judge benches' engine pipe and
summary."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from servers.arena import GameRecord, RunResult

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # so `python bench/x.py` works from anywhere
    sys.path.insert(0, str(ROOT))

from clients.jitcache import drop_stale_caches  # noqa: E402

drop_stale_caches()  # no bench runs a compiled copy of an older source


def print_table(title: str, rows: list[tuple[str, Any]]) -> None:
    width = max(len(k) for k, _ in rows)
    print(title)
    print("-" * len(title))
    for k, v in rows:
        if isinstance(v, float):
            v = f"{v:,.3f}" if abs(v) < 100 else f"{v:,.0f}"
        print(f"{k:<{width}}  {v}")


def emit_json(figures: dict[str, Any]) -> None:
    print(json.dumps(figures))


def add_arena_arguments(p: Any, name: str) -> None:
    """The options of a bench that plays on the arena: --parallel, --backend,
    --ray-address, --out / --resume (default run directory runs/NAME-TIME)."""
    p.add_argument("--parallel", type=int, default=1, metavar="J", help="games at once")
    p.add_argument("--backend", choices=["inprocess", "ray"], default="inprocess")
    p.add_argument("--ray-address", metavar="ADDR", help="with --backend ray: a cluster")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--out", metavar="DIR", help=f"run directory (default runs/{name}-TIME)")
    where.add_argument("--resume", metavar="DIR", help="continue the run in DIR")


def arena_out(args: Any, name: str) -> str:
    """The run directory: --resume's, --out's, or a new runs/NAME-TIME."""
    import datetime

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return str(args.resume or args.out or f"runs/{name}-{stamp}")


def play_on_arena(args: Any, game: str, players: list[str], options: dict[str, Any],
                  on_game: Callable[[GameRecord], None], name: str) -> RunResult | None:
    """Play (or resume) a bench's run on the arena; None, after saying why on stderr, when
    it cannot be made."""
    from servers.arena import ArenaError, run

    common: dict[str, Any] = {"backend": args.backend, "parallel": args.parallel,
                              "ray_address": args.ray_address, "on_game": on_game}
    try:
        if args.resume:
            return run(game, resume=args.resume, **common)
        return run(game, players, games=args.games, seed=args.seed, options=options,
                   out=arena_out(args, name), **common)
    except ArenaError as e:
        print(f"{name}: {e}", file=sys.stderr)
        return None


class GtpPipe:
    """A GTP engine on pipes, its standard error merged into its output (where engines
    such as Pachi and Pentobi report their searches)."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)

    def ask(self, line: str) -> tuple[str, list[str]]:
        """The engine's answer to one command, and the lines it wrote before it."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        before: list[str] = []
        while True:
            out = self.proc.stdout.readline()
            if not out:
                raise RuntimeError(f"the engine ({self.command}) exited at {line!r}")
            if out.startswith(("= ", "? ")) or out.rstrip("\n") in ("=", "?"):
                self.proc.stdout.readline()  # the blank line that ends a GTP answer
                if out.startswith("?"):
                    raise RuntimeError(f"the engine refused {line!r}: {out.strip()}")
                return out[1:].strip(), before
            before.append(out)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.ask("quit")
            except (RuntimeError, OSError):
                pass
            self.proc.wait(timeout=10)


def judge_report(rows: list[dict[str, Any]], players: Sequence[Any]) -> dict[str, Any]:
    """The judge benches' figures from their judged moves: each player's (``label``,
    ``spec``) mean value, playouts and seconds, and for each after the first the mean paired
    difference from the first over the positions both have, with a 95 % interval, and how
    often the two chose the same move. For a player whose rows hold its own search's value
    of its move (``own``), also that value's mean, its mean error from the judge's value of
    the same move with a 95 % interval (``own_error``, ``own_ci95``: above zero, the player
    thinks its positions better than the judge does), the mean absolute error
    (``own_mae``) and the correlation of the two over the positions (``own_corr``). For a
    player whose rows hold its playouts' value of the position (``playout_value``), the
    same figures against the judge's own value of the position (the ``judge`` player's
    ``own``): ``playout``, ``playout_error``, ``playout_ci95``, ``playout_mae`` and
    ``playout_corr``."""
    by: dict[str, dict[tuple[str, int], dict[str, Any]]] = {p.label: {} for p in players}
    for r in rows:
        if r["value"] is not None and r["label"] in by:
            by[r["label"]][(r["record"], r["ply"])] = r
    base = by[players[0].label]
    judge_own = {k: r["own"] for k, r in by.get("judge", {}).items() if r.get("own") is not None}
    out = []
    for p in players:
        mine = by[p.label]
        fig: dict[str, Any] = {
            "label": p.label, "spec": p.spec,
            "value": round(float(np.mean([r["value"] for r in mine.values()])), 4)
            if mine else None,
            "playouts": round(float(np.mean([r["playouts"] for r in mine.values()])), 1)
            if mine else None,
            "seconds": round(float(np.mean([r["seconds"] for r in mine.values()])), 3)
            if mine else None}
        own = [r for r in mine.values() if r.get("own") is not None]
        fig |= agreement([r["own"] for r in own], [r["value"] for r in own], "own")
        pv = [(r["playout_value"], judge_own[k]) for k, r in mine.items()
              if r.get("playout_value") is not None and k in judge_own]
        fig |= agreement([a for a, _ in pv], [b for _, b in pv], "playout")
        keys = sorted(set(mine) & set(base))
        if p is not players[0] and len(keys) >= 2:
            d = np.array([mine[k]["value"] - base[k]["value"] for k in keys])
            half = 1.96 * float(d.std(ddof=1)) / np.sqrt(len(d))
            fig |= {"diff": round(float(d.mean()), 4),
                    "ci95": [round(float(d.mean()) - half, 4), round(float(d.mean()) + half, 4)],
                    "same_move": round(float(np.mean([mine[k]["move"] == base[k]["move"]
                                                      for k in keys])), 3),
                    "paired": len(keys)}
        out.append(fig)
    return {"positions": len(base), "players": out}


def agreement(values: Sequence[float], reference: Sequence[float], key: str
              ) -> dict[str, Any]:
    """How ``values`` compare with ``reference`` (paired; empty for fewer than two): their
    mean (``key``), the mean error with a 95 % interval (``KEY_error``, ``KEY_ci95``), the
    mean absolute error (``KEY_mae``) and the correlation (``KEY_corr``, None if either is
    constant)."""
    if len(values) < 2:
        return {}
    v = np.array(values, dtype=float)
    ref = np.array(reference, dtype=float)
    err = v - ref
    half = 1.96 * float(err.std(ddof=1)) / np.sqrt(len(err))
    corr = float(np.corrcoef(v, ref)[0, 1]) if v.std() > 0 and ref.std() > 0 else None
    return {key: round(float(v.mean()), 4), f"{key}_error": round(float(err.mean()), 4),
            f"{key}_ci95": [round(float(err.mean()) - half, 4),
                            round(float(err.mean()) + half, 4)],
            f"{key}_mae": round(float(np.abs(err).mean()), 4),
            f"{key}_corr": None if corr is None else round(corr, 3)}


def add_judge_arguments(ap: Any, *, records: str, judge: str, player: str, budget: str,
                        plies: str, plies_help: str = "first-last ply") -> None:
    """The judge benches' options; ``records`` is the records' file pattern, ``judge`` and
    ``player`` the help of --judge and --player, ``budget`` and ``plies`` the defaults."""
    ap.add_argument("--records", type=Path, action="append", required=True, metavar="DIR",
                    help=f"directory of recorded games ({records}, searched recursively)")
    ap.add_argument("--judge", required=True, metavar="CMD", help=judge)
    ap.add_argument("--player", action="append", required=True, metavar="SPEC",
                    help=f"{player} (repeatable; the first is the reference of the "
                    "differences)")
    ap.add_argument("--budget", default=budget,
                    help="a player's budget when its spec has none: playouts, or seconds "
                    "with an s suffix (default %(default)s)")
    ap.add_argument("--positions", type=int, default=200, help="default %(default)s")
    ap.add_argument("--plies", default=plies, help=f"{plies_help} (default %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="default %(default)s")
    ap.add_argument("--out", type=Path, metavar="FILE",
                    help="JSON lines of judged moves (a rerun resumes)")
    ap.add_argument("--json", action="store_true")


def judge_setup(args: Any, parse_player: Callable[[str, str], Any]
                ) -> tuple[tuple[int, int], list[Any]]:
    """The judge benches' ``--plies`` as (first, last) and their ``--player`` specs, each by
    ``parse_player(spec, default_budget)``; ValueError names what is wrong (a malformed
    ``--plies`` or spec, labels that repeat)."""
    try:
        lo, hi = (int(x) for x in args.plies.split("-"))
    except ValueError:
        raise ValueError(f"--plies takes FIRST-LAST, such as 4-60, not {args.plies!r}"
                         ) from None
    if not 0 <= lo <= hi:
        raise ValueError(f"--plies {args.plies}: the first ply must be 0 or more and not "
                         "after the last")
    players = [parse_player(p, args.budget) for p in args.player]
    if len({p.label for p in players}) < len(players):
        raise ValueError("the players' labels must differ")
    return (lo, hi), players


class JudgedMoves:
    """A judge bench's judged moves: those of ``out`` from an earlier run (so that a rerun
    resumes), each new one appended to it."""

    def __init__(self, out: Path | None) -> None:
        self.out = out
        self.rows: list[dict[str, Any]] = []
        if out is not None and out.exists():
            self.rows = [json.loads(line) for line in out.read_text().splitlines() if line]
        self._done = {(r["record"], r["ply"], r["label"]) for r in self.rows}

    def done(self, record: str, ply: int, label: str) -> bool:
        return (record, ply, label) in self._done

    def add(self, row: dict[str, Any]) -> None:
        self.rows.append(row)
        if self.out is not None:
            with self.out.open("a") as f:
                f.write(json.dumps(row) + "\n")

    def progress(self, positions: int, players: Sequence[Any]) -> None:
        """Every 20 positions, each player's mean value so far."""
        if positions % 20 == 0:
            fig = judge_report(self.rows, players)
            print(f"{positions} positions: " + "  ".join(
                f"{q['label']} {q['value']}" for q in fig["players"]), flush=True)

    def finish(self, players: Sequence[Any], extra: dict[str, Any], as_json: bool) -> None:
        """The figures (:func:`judge_report` with ``extra``) as a table, and the --json line."""
        fig = judge_report(self.rows, players) | extra
        for q in fig["players"]:
            line = f"{q['label']:>12}  value {q['value']}  playouts {q['playouts']}  " \
                   f"seconds {q['seconds']}"
            if "diff" in q:
                line += f"  diff {q['diff']:+.4f} [{q['ci95'][0]:+.4f}, " \
                        f"{q['ci95'][1]:+.4f}]  same move {q['same_move']:.2f}"
            print(line)
            for key, name in (("own", "own value"), ("playout", "playouts' value")):
                if f"{key}_error" in q:
                    corr = q[f"{key}_corr"]
                    print(f"{'':>12}  {name} {q[key]}  error {q[f'{key}_error']:+.4f} "
                          f"[{q[f'{key}_ci95'][0]:+.4f}, {q[f'{key}_ci95'][1]:+.4f}]  "
                          f"mean absolute {q[f'{key}_mae']:.4f}  correlation "
                          f"{'-' if corr is None else f'{corr:.2f}'}")
        if as_json:
            emit_json(fig)
