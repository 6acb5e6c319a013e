"""``corvid learn daihinmin generate|imitate|balance``."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

# imitate's --out: the bundled fit to strong play with every feature, which it refits
DEFAULT_WEIGHTS = "knowledge/daihinmin/data/policy-strong-context.json"


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "daihinmin",
        help="Daihinmin: games on the mock server, a learned playout and opponent policy",
        description="Stages: `generate` plays games through the arena into game logs; "
        "`imitate` fits the softmax policy to the decisions in the logs; `balance` tunes it "
        "by simulation balancing. The weights file carries its manifest (data, command, "
        "seed, date).",
    )
    sub = p.add_subparsers(dest="stage", metavar="STAGE", required=True)
    g = sub.add_parser("generate", help="play games on the mock server, one log per chunk",
                       description="Play --games games through `corvid arena uecda` in "
                       "chunks; a chunk whose log is complete is skipped (resume).")
    g.add_argument("--out", required=True, metavar="DIR", help="directory of the game logs")
    g.add_argument("--games", type=int, default=300, help="games in all (default 300)")
    g.add_argument("--chunk", type=int, default=10, help="games per match (default 10)")
    g.add_argument("--seed", type=int, default=1, help="seed of the first chunk (default 1)")
    g.add_argument("--player", action="append", default=[], metavar="SPEC",
                   help="five arena specs (default: five corvid preset=v1, 3000 playouts)")
    g.set_defaults(func=run_generate)
    i = sub.add_parser("imitate", help="fit the softmax policy to the decisions of game logs",
                       description="Maximum-likelihood softmax over move features "
                       "(search.learn.fit_softmax), with a held-out report.")
    i.add_argument("logs", nargs="+", metavar="LOG", help="game logs (or directories)")
    i.add_argument("--out", default=DEFAULT_WEIGHTS, help=f"weights file (default "
                   f"{DEFAULT_WEIGHTS})")
    i.add_argument("--name", action="append", default=None, metavar="NAME",
                   help="only the decisions of the players of this name in each log's header "
                   "(repeat for several; default: every player's)")
    i.add_argument("--l2", type=float, default=1.0, help="L2 penalty (default 1.0)")
    i.add_argument("--holdout", type=float, default=0.1,
                   help="share of decisions held out for the report (default 0.1)")
    i.add_argument("--dense", action="store_true",
                   help="fit the dense features only (a file without the shape table and the "
                   "context: their weights then are 0)")
    i.add_argument("--no-context", action="store_true",
                   help="fit the dense features and the shape table, not the context (a file "
                   "as made before it: the context's weights then are 0)")
    i.add_argument("--seed", type=int, default=1,
                   help="seed of the held-out split (default %(default)s)")
    i.set_defaults(func=run_imitate)
    b = sub.add_parser("balance", help="tune the policy by simulation balancing",
                       description="Simulation balancing (search.learn): positions from the "
                       "game logs, target = the return the player to move really got; "
                       "θ moves so that the policy's own playouts match it on average.")
    b.add_argument("logs", nargs="+", metavar="LOG", help="game logs (or directories)")
    b.add_argument("--weights", default="", help="starting weights (default: bundled)")
    b.add_argument("--out", required=True, help="weights file to write")
    b.add_argument("--every", type=int, default=20,
                   help="a position every N plays (default %(default)s)")
    b.add_argument("--games", type=int, default=0, help="use at most N games (default 0: all)")
    b.add_argument("--iterations", type=int, default=1,
                   help="passes over the positions (default %(default)s)")
    b.add_argument("--m-playouts", type=int, default=8, help="playouts for V̂ (default 8)")
    b.add_argument("--n-playouts", type=int, default=8,
                   help="playouts for the gradient (default 8)")
    b.add_argument("--step", type=float, default=10.0, help="step size (default 10)")
    b.add_argument("--seed", type=int, default=1, help="random seed (default %(default)s)")
    b.set_defaults(func=run_balance)


def _logs(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.glob("*.log")) if p.is_dir() else [p]
    return out


def _data_manifest(args: list[str], logs: list[Path]) -> dict[str, object]:
    """Where the games came from: the logs, and how each directory was generated."""
    generated = {}
    for a in map(Path, args):
        g = a / "generate.json"
        if a.is_dir() and g.exists():
            spec = json.loads(g.read_text())
            generated[a.name] = {**spec, "command": "corvid learn daihinmin generate --out DIR "
                                 f"--games {spec['games']} --chunk {spec['chunk']} --seed "
                                 f"{spec['seed']} " + " ".join(f"--player {shlex.quote(p)}"
                                                              for p in spec["players"])}
    return {"logs": len(logs), "games_dirs": generated}


def _command() -> str:
    return "corvid " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def run_generate(args: argparse.Namespace) -> int:
    from training.daihinmin.generate import DEFAULT_PLAYER, generate

    players = args.player or [DEFAULT_PLAYER] * 5
    if len(players) != 5:
        print("corvid learn daihinmin generate: give --player five times", file=sys.stderr)
        return 2
    generate(Path(args.out), args.games, args.chunk, args.seed, players,
             on_chunk=lambda i, path: print(f"chunk {i}: {path}", flush=True))
    return 0


def run_imitate(args: argparse.Namespace) -> int:
    from training.daihinmin.dataset import decisions_from_logs
    from training.daihinmin.imitate import imitate, write_weights

    logs = _logs(args.logs)
    if not logs:
        print("corvid learn daihinmin imitate: no game logs", file=sys.stderr)
        return 2
    d = decisions_from_logs(logs, names=args.name)
    if len(d) == 0:
        print("corvid learn daihinmin imitate: no decisions"
              + (f" of a player named {' or '.join(args.name)}" if args.name else ""),
              file=sys.stderr)
        return 2
    if args.dense:
        d = d.dense()
    elif args.no_context:
        d = d.without_context()
    theta, report = imitate(d, args.l2, args.holdout, args.seed)
    write_weights(args.out, theta, {
        "data": _data_manifest(args.logs, logs), "command": _command(), "seed": args.seed,
        "stage": "imitate", "l2": args.l2,
        **({"names": args.name} if args.name else {}), "fit": report})
    print(json.dumps(report))
    return 0


def run_balance(args: argparse.Namespace) -> int:
    from knowledge.daihinmin.learned import DEFAULT_POLICY, load_policy
    from training.daihinmin.balance import balance
    from training.daihinmin.imitate import write_weights

    logs = _logs(args.logs)
    theta0 = load_policy(args.weights or None)
    theta, info = balance(logs, theta0, every=args.every, iterations=args.iterations,
                          m_playouts=args.m_playouts, n_playouts=args.n_playouts,
                          step=args.step, seed=args.seed, games=args.games)
    write_weights(args.out, theta, {
        "data": _data_manifest(args.logs, logs), "command": _command(), "seed": args.seed,
        "stage": "balance", "start": args.weights or str(DEFAULT_POLICY), **info})
    print(json.dumps({**info, "change": [round(float(x), 4) for x in theta - theta0]}))
    return 0
