"""``corvid learn go ...``: the Go learning pipeline's commands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

SELFPLAY = """\
Play games of a GTP engine against itself (or --white another) and write one SGF per game
into --out (game-00001.sgf, ...) with an index games.jsonl. "{seed}" in a command line is
replaced by a seed per game and side (--seed + 2 x game for black, + 1 for white) and the
engine is restarted for each game, so deterministic engines play different games. Resumable:
games already in --out are skipped, so the same command picks up an interrupted run.
Run long ones in the background under nice; a GNU Go level-10 game on 9x9 takes about 20 s.

Example:
  corvid learn go selfplay --engine "gnugo --mode gtp --level 10 --chinese-rules \\
      --capture-all-dead --positional-superko --seed {seed}" --games 2000 --out data/gnugo10
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    go = subparsers.add_parser("go", help="Go learning pipeline: training games, weights",
                               description="The Go learning pipeline (docs/go.md, Knowledge).")
    sub = go.add_subparsers(dest="go_command", metavar="STEP")
    p = sub.add_parser("selfplay", help="play training games of an engine against itself",
                       description=SELFPLAY,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", required=True, metavar="CMD",
                   help="engine command line (black; also white unless --white)")
    p.add_argument("--white", metavar="CMD", help="white's command line (default: --engine)")
    p.add_argument("--games", type=int, required=True, help="games wanted in --out in all")
    p.add_argument("--out", type=Path, required=True, metavar="DIR")
    p.add_argument("--size", type=int, default=9, help="board size (default %(default)s)")
    p.add_argument("--komi", type=float, default=7.0, help="komi (default %(default)s)")
    p.add_argument("--seed", type=int, default=1,
                   help="{seed} in a command line becomes seed + 2*game (black), + 1 "
                   "(white) (default %(default)s)")
    p.add_argument("--parallel", type=int, default=1, metavar="J",
                   help="games played at once (default 1)")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds an engine may take for one move (default 120)")
    p.set_defaults(func=run_selfplay_command)
    q = sub.add_parser("learn", help="fit the weights (priors, playout policy) to games",
                       description=LEARN, formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("--games", type=Path, action="append", required=True, metavar="DIR",
                   help="directory of .sgf games (repeatable)")
    q.add_argument("--out", type=Path, required=True, metavar="FILE", help="weights .npz")
    q.add_argument("--iterations", type=int, default=30, help="MM sweeps (default 30)")
    q.add_argument("--prior", type=float, default=1.0,
                   help="virtual wins and losses per feature (default 1)")
    q.add_argument("--test-share", type=float, default=0.1,
                   help="share of the games (the last ones) held out (default 0.1)")
    q.add_argument("--player", metavar="NAME",
                   help="learn only the moves of the side the records name NAME (SGF PB/PW), "
                        "e.g. gnugo in the records of bench/go_strength.py (default: every "
                        "move)")
    q.add_argument("--large-min", type=int, default=3, metavar="N",
                   help="large patterns (the stones within distance 3 or 2 of the move) "
                        "played at least N times in the training games become features of "
                        "the prior model (default 3; 0: none)")
    q.add_argument("--drop", action="append", default=[], metavar="GROUP",
                   help="leave a feature group out of the prior model (repeatable; e.g. "
                        "libs, the capturing-race group, to refit weights without "
                        "it)")
    q.set_defaults(func=run_learn_command)
    b = sub.add_parser("balance", help="tune the playout policy's weights by simulation "
                       "or UCT balancing", description=BALANCE,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--weights", required=True, metavar="FILE", help="weights to start from")
    b.add_argument("--games", type=Path, action="append", required=True, metavar="DIR",
                   help="directory of .sgf games whose positions and results train "
                        "(repeatable)")
    b.add_argument("--out", type=Path, required=True, metavar="FILE")
    b.add_argument("--positions", type=int, default=0,
                   help="training positions drawn from the games (default: all)")
    b.add_argument("--iterations", type=int, default=1, help="passes over them (default 1)")
    b.add_argument("--step", type=float, default=1.0, help="step size (default 1)")
    b.add_argument("--m", type=int, default=16, help="playouts estimating V (default 16)")
    b.add_argument("--n", type=int, default=16,
                   help="playouts estimating the gradient (default 16)")
    b.add_argument("--batch", type=int, default=8, help="positions per update (default 8)")
    b.add_argument("--test-share", type=float, default=0.1,
                   help="share of the games (the last ones) held out (default 0.1)")
    b.add_argument("--levels-only", action="store_true",
                   help="tune only the feature levels and the far moves, not the patterns")
    b.add_argument("--target", choices=("result", "uct"), default="result",
                   help="the value the playouts are balanced towards: the game's result "
                        "(simulation balancing) or a UCT search's (UCT balancing) "
                        "(default %(default)s)")
    b.add_argument("--target-playouts", type=int, default=1000, metavar="N",
                   help="playouts of each UCT search of --target uct (default %(default)s)")
    b.add_argument("--seed", type=int, default=1, help="random seed (default %(default)s)")
    b.set_defaults(func=run_balance_command)
    lab = sub.add_parser("label", help="label positions of games with deep-search values",
                         description=LABEL,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    lab.add_argument("--games", type=Path, required=True, metavar="DIR")
    lab.add_argument("--out", type=Path, required=True, metavar="FILE",
                     help="labels, one JSON line per position (appended; resumable)")
    lab.add_argument("--positions", type=int, default=200,
                     help="positions drawn from the games (default %(default)s)")
    lab.add_argument("--playouts", type=int, default=20000,
                     help="search per position (default %(default)s)")
    lab.add_argument("--seed", type=int, default=1, help="random seed (default %(default)s)")
    lab.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                     help="corvid gtp setting of the labelling search (repeatable)")
    lab.set_defaults(func=run_label_command)
    td = sub.add_parser("td", help="learn a TD(0) local-shape value by self-play",
                        description=TD, formatter_class=argparse.RawDescriptionHelpFormatter)
    td.add_argument("--weights", required=True, metavar="FILE",
                    help="weights file the value is added to (a copy is written)")
    td.add_argument("--out", type=Path, required=True, metavar="FILE")
    td.add_argument("--games", type=int, required=True, help="self-play games in all")
    td.add_argument("--size", type=int, default=9, help="board size (default %(default)s)")
    td.add_argument("--komi", type=float, default=7.0, help="komi (default %(default)s)")
    td.add_argument("--step", type=float, default=0.1, help="TD step size alpha (default 0.1)")
    td.add_argument("--epsilon", type=float, default=0.1, help="exploration (default 0.1)")
    td.add_argument("--seed", type=int, default=1, help="random seed (default %(default)s)")
    td.set_defaults(func=run_td_command)
    go.set_defaults(func=lambda _args: go.print_help(sys.stderr) or 2)


LEARN = """\
Fit Go weights to recorded games (Coulom 2007): the move-feature strengths of the
priors and of the playout policy, by minorization-maximization, on every position of the
games in --games (each a directory of .sgf files, e.g. from `corvid learn go selfplay`), and write
them to --out (.npz, with its manifest beside it as .json: data, command, date, figures).
The features of the positions are kept in DIR/contests.npz for the next run. The last
--test-share of the games is held out and the prediction rate on it reported. With
--player NAME only the moves of the side named NAME are learned: the records of
bench/go_strength.py (RUN/sgf) hold games of corvid against GNU Go, of which only GNU Go's
moves are worth imitating.

Examples:
  corvid learn go learn --games data/gnugo10 --out knowledge/go/data/weights-9x9.npz
  corvid learn go learn --games runs/s1/sgf --games runs/s2/sgf --player gnugo --out w.npz
"""


BALANCE = """\
Simulation balancing (Silver and Tesauro 2009) of the learned playout policy (policy 3): starting
from --weights, tune the playout part so that the mean result of playouts from a position
matches a target value V* of the position, over positions of the games in --games (every 4th
from move 6 to the first pass; the last --test-share held out, the MSE of the playouts' value
against the games' results on them reported before and after). The prior part is kept.
Writes --out with the manifest extended (the target kind included).

The target, for the player to move (--target):
  result  the result of the recorded game from the position (simulation balancing);
  uct     the value of the most visited move of a UCT search of the position by the default
          engine with --target-playouts playouts, as `corvid learn go label` searches, seeded
          by game and move (UCT balancing: Watanabe and Kaneko, "Realizing individuality in
          UCT with prior knowledge and policy learning"). Each search is appended to
          OUT.uct-N.jsonl beside --out (N: the playouts) and read back, so the same command
          resumes an interrupted run without searching again.

Examples:
  corvid learn go balance --weights knowledge/go/data/weights-9x9.npz --games data/gnugo10 \\
      --out balanced.npz --positions 20000 --step 0.5
  corvid learn go balance --weights knowledge/go/data/weights-9x9.npz --games data/gnugo10 \\
      --out uct-balanced.npz --positions 300 --target uct --target-playouts 1000
"""


LABEL = """\
Label positions of recorded games with deep-search values, for the MSE measure of the
playout policies (each policy's value against them, bench/go_mse.py): --positions positions
drawn from the games in --games (seeded), each searched by corvid gtp's UCT with --playouts
playouts (its default settings, or --set ones); the label is the value, for the player to
move, of the root move the search chooses (its most visited).
Appends one JSON line per position to --out, so the same command resumes.

Example:
  corvid learn go label --games data/bench-games --out labels.jsonl --positions 300
"""


def run_label_command(args: argparse.Namespace) -> int:
    from clients.config import ConfigError
    from training.go.label import label_positions

    if not args.games.is_dir() or args.positions < 1 or args.playouts < 1:
        print("corvid learn go label: --games must be a directory, --positions and --playouts "
              "at least 1", file=sys.stderr)
        return 2
    try:
        labels = label_positions(args.games, args.out, positions=args.positions,
                                 playouts=args.playouts, seed=args.seed, settings=args.set,
                                 log=lambda m: print(m, flush=True))
    except ConfigError as e:
        print(f"corvid learn go label: {e}", file=sys.stderr)
        return 2
    print(f"{len(labels)} labelled positions in {args.out}")
    return 0


TD = """\
Learn a value of local shapes by TD(0) in self-play (RLGO: Silver, Sutton and Müller 2007):
Q(s, a) = sigmoid(phi(s after a) . theta) over 1x1 (by location), 2x2 and 3x3 shapes seen
by the mover, self-play epsilon-greedy on Q. Writes a copy of --weights with the value
(td_theta), saved every 100 games; the same command resumes from --out. corvid gtp uses it
with --set td_visits=N (pseudo-visits at Q for every move).
"""


def run_td_command(args: argparse.Namespace) -> int:
    from training.go.td import td_weights

    if args.games < 1 or args.step <= 0 or not 0 <= args.epsilon <= 1:
        print("corvid learn go td: need --games >= 1, --step > 0, 0 <= --epsilon <= 1",
              file=sys.stderr)
        return 2
    try:
        td_weights(args.weights, args.out, games=args.games, size=args.size, komi=args.komi,
                   step=args.step, epsilon=args.epsilon, seed=args.seed,
                   command=_command("td"), log=lambda m: print(m, flush=True))
    except (FileNotFoundError, ValueError) as e:
        print(f"corvid learn go td: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0


def _command(name: str) -> str:
    import shlex

    argv = sys.argv[1:]
    for i in range(len(argv) - 2):
        if argv[i:i + 3] == ["learn", "go", name]:
            return f"corvid learn go {name} " + " ".join(shlex.quote(a) for a in argv[i + 3:])
    return f"corvid learn go {name}"


def run_balance_command(args: argparse.Namespace) -> int:
    from training.go.balance import balance_weights

    if any(not d.is_dir() for d in args.games):
        print("corvid learn go balance: --games must be directories", file=sys.stderr)
        return 2
    if min(args.iterations, args.m, args.n, args.batch, args.target_playouts) < 1 or \
            args.positions < 0:
        print("corvid learn go balance: --iterations, --m, --n, --batch, --target-playouts "
              "must be at least 1", file=sys.stderr)
        return 2
    try:
        balance_weights(args.weights, args.games, args.out, iterations=args.iterations,
                        step=args.step, m_playouts=args.m, n_playouts=args.n,
                        batch=args.batch, positions=args.positions,
                        test_share=args.test_share, seed=args.seed,
                        patterns=not args.levels_only, target=args.target,
                        target_playouts=args.target_playouts, command=_command("balance"),
                        log=lambda m: print(m, flush=True))
    except (FileNotFoundError, ValueError) as e:
        print(f"corvid learn go balance: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0


def run_learn_command(args: argparse.Namespace) -> int:
    from training.go.learn import learn_weights

    for d in args.games:
        if not d.is_dir():
            print(f"corvid learn go learn: {d} is not a directory", file=sys.stderr)
            return 2
    if args.iterations < 1 or not 0 <= args.test_share < 1 or args.prior < 0 or \
            args.large_min < 0:
        print("corvid learn go learn: need --iterations >= 1, 0 <= --test-share < 1, "
              "--prior >= 0, --large-min >= 0", file=sys.stderr)
        return 2
    command = _command("learn")
    try:
        w = learn_weights(args.games, args.out, iterations=args.iterations, prior=args.prior,
                          test_share=args.test_share, player=args.player,
                          large_min=args.large_min, drop=tuple(args.drop),
                          command=command,
                          log=lambda m: print(m, flush=True))
    except ValueError as e:
        print(f"corvid learn go learn: {e}", file=sys.stderr)
        return 2
    figures = w.manifest["prior_model"]
    print(f"wrote {args.out}: test prediction rate "
          f"{figures.get('test_prediction_rate', float('nan')):.3f}")
    return 0


def run_selfplay_command(args: argparse.Namespace) -> int:
    from training.go.selfplay import SelfplayConfig, pending_games, run_selfplay

    if args.games < 1 or args.parallel < 1:
        print("corvid learn go selfplay: --games and --parallel must be at least 1",
              file=sys.stderr)
        return 2
    cfg = SelfplayConfig(black=args.engine, white=args.white or args.engine, games=args.games,
                         out=args.out, size=args.size, komi=args.komi, seed=args.seed,
                         parallel=args.parallel, timeout=args.timeout)
    todo = len(pending_games(cfg)) if args.out.is_dir() else args.games
    print(f"{args.games - todo} of {args.games} games already in {args.out}; playing {todo}",
          flush=True)

    def on_game(g: int, result: object, took: float) -> None:
        r = result  # servers.gtp.match.GameResult
        print(f"game {g:5d}  {r.result_text:>8}  {len(r.moves):3d} moves  "  # type: ignore[attr-defined]
              f"{r.reason}  {took:.1f} s", flush=True)  # type: ignore[attr-defined]

    run_selfplay(cfg, on_game)
    return 0
