"""The playout-error measure: the mean squared error of each playout policy's value against
positions labelled with deep-search values (`corvid learn go label`).

    python bench/go_mse.py --labels labels.jsonl --games DIR [--playouts 256]
        [--policies 0,1,2,3,4,5,6] [--weights FILE] [--json]

For each labelled position (a game of DIR and a move number) the value of a policy is the
mean result, for the player to move, of --playouts playouts of that policy from there
(komi of the game); its MSE is the mean of (value - label)^2 over the positions. Also the
mean value and the correlation with the labels. The policies are those of `corvid gtp --set
playout_policy=N` (6, the default: policy 5 with nakade; 5 is policy 2 with the low-liberty
rule); policy 3 reads --weights (default: the bundled file). --json: {"positions": n,
"playouts": p, "mse": {policy: mse, ...}} last.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from _common import emit_json  # also puts the repository on sys.path

from knowledge.go.position import GoPosition
from knowledge.go.weights import load_weights
from training.go.label import position_at, read_labels


def policy_values(labels_path: Path, games: Path, policy: int, playouts: int, seed: int,
                  weights: str) -> tuple[np.ndarray, np.ndarray]:
    """(values of the policy, labels) over the labelled positions."""
    rng = np.random.default_rng(seed)
    w = load_weights(weights) if policy == 3 else None
    values, labels = [], []
    for lab in read_labels(labels_path):
        s = GoPosition(position_at(games / lab.game, lab.move), weights=w)
        values.append(s.win_share(rng, playouts, policy))
        labels.append(lab.value)
    return np.array(values), np.array(labels)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--labels", type=Path, required=True)
    p.add_argument("--games", type=Path, required=True)
    p.add_argument("--playouts", type=int, default=256)
    p.add_argument("--policies", default="0,1,2,3,4,5,6",
                   help="playout policies, comma-separated (default: all, 0-6)")
    p.add_argument("--weights", default="", help="weights of policy 3 (default: bundled)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        policies = [int(x) for x in args.policies.split(",")]
    except ValueError:
        policies = []
    if not policies or any(not 0 <= x <= 6 for x in policies):
        p.error(f"--policies {args.policies}: comma-separated numbers from 0 to 6")
    if not read_labels(args.labels):
        print(f"go_mse: no labelled positions in {args.labels}", file=sys.stderr)
        return 2
    print(f"{'policy':>6} {'MSE':>7} {'mean value':>10} {'corr':>6}")
    mse = {}
    n = 0
    for pol in policies:
        v, lab = policy_values(args.labels, args.games, pol, args.playouts, args.seed,
                               args.weights)
        n = len(v)
        mse[str(pol)] = round(float(np.mean((v - lab) ** 2)), 5)
        corr = float(np.corrcoef(v, lab)[0, 1]) if n > 2 else float("nan")
        print(f"{pol:>6} {mse[str(pol)]:>7.4f} {float(np.mean(v)):>10.3f} {corr:>6.3f}",
              flush=True)
    print(f"({n} positions, {args.playouts} playouts each; labels mean "
          f"{float(np.mean(lab)):.3f})")
    if args.json:
        emit_json({"positions": n, "playouts": args.playouts, "mse": mse})
    return 0


if __name__ == "__main__":
    sys.exit(main())
