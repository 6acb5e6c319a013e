"""What root-parallel worker processes buy at a fixed time per move.

    python bench/workers.py --game go|blokus|uecda [--seconds 1] [--moves 6] [--workers 2]
                            [--json]

For each worker count (1, then ``--workers``), the client's own decision path plays a short
game against itself from the empty board at ``--seconds`` per move (``corvid gtp`` with
`seconds`; ``corvid blokus --set core=uct`` with its time limit) and counts the playouts each
move searched. Daihinmin (``corvid uecda``'s default player with ``seconds`` and no playout
cap; a UECda decision is short, try ``--seconds 0.1``): the first lead of ``--moves`` fresh
deals, the inference's time included in the decision's. Prints playouts per move for both
and their ratio; with ``--json`` the last line is
``{"game":..,"seconds":..,"playouts_1":..,"playouts_n":..,"workers":..,"gain":..}``.
Wall-clock figures: on a machine busy with other work they say what that machine gives.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from _common import emit_json  # also puts the repository on sys.path


def go_moves(workers: int, seconds: float, moves: int) -> list[int]:
    from clients.gtp.config import GtpConfig
    from clients.gtp.engine import GtpEngine
    from clients.gtp.player import SearchPlayer

    cfg = GtpConfig(playouts=0, seconds=seconds, workers=workers, default_size=9,
                    default_komi=7.0, resign_threshold=0.0)
    player = SearchPlayer(cfg)
    engine = GtpEngine(cfg, player)
    try:
        player.warm_up()
        player.start()
        out = []
        for i in range(moves):
            engine.handle_line(f"genmove {'b' if i % 2 == 0 else 'w'}")
            out.append(int(engine.last_stats["playouts"]))
        return out
    finally:
        player.close()


def blokus_moves(workers: int, seconds: float, moves: int) -> list[int]:
    from clients.blokus.cli import warm_up
    from clients.blokus.config import PlayerConfig
    from clients.blokus.player import BlokusPlayer
    from protocols.icfpt import FirstMovePrompt

    cfg = PlayerConfig(core="uct", workers=workers, seconds=seconds + 0.25, margin=0.25,
                       book="none")  # searched moves only
    player = BlokusPlayer(cfg)
    try:
        warm_up(player)
        player.core.start()
        player.observe(FirstMovePrompt(1))
        out = []
        for _ in range(moves):
            code, info = player.decide(time.perf_counter())
            out.append(int(info.get("playouts", 0)))
            assert player.state is not None
            player.state.play_code(code)
        return out
    finally:
        player.core.close()


def uecda_moves(workers: int, seconds: float, moves: int) -> list[int]:
    import numpy as np

    from clients.uecda.config import ClientConfig
    from clients.uecda.decide import Decider
    from games.daihinmin.match import Match, MatchConfig

    dec = Decider(ClientConfig(playouts=0, seconds=seconds, workers=workers),
                  np.random.default_rng(1))
    try:
        dec.warm_up()
        out = []
        for game in range(moves):
            st = Match(MatchConfig(seed=100 + game)).deal().state()
            res = dec.decide(st, st.to_move, game, time.perf_counter())
            out.append(int(res.playouts))
        return out
    finally:
        dec.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=("go", "blokus", "uecda"), required=True)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--moves", type=int, default=6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    play = {"go": go_moves, "blokus": blokus_moves, "uecda": uecda_moves}[args.game]
    print(f"{args.game}: {args.seconds:g} s per move, {args.moves} moves, "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    one = play(1, args.seconds, args.moves)
    many = play(args.workers, args.seconds, args.moves)
    m1, mn = statistics.median(one), statistics.median(many)
    print(f"1 process:  {one} playouts per move (median {m1:.0f})")
    print(f"{args.workers} workers: {many} playouts per move (median {mn:.0f})")
    print(f"gain: {mn / m1:.2f}x")
    if args.json:
        emit_json({"game": args.game, "seconds": args.seconds, "playouts_1": m1,
                   "playouts_n": mn, "workers": args.workers, "gain": round(mn / m1, 3)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
