"""The Blokus Duo player without sockets: following prompts (both dialects), fallbacks, the
compiled child evaluation against its reference."""

from __future__ import annotations

import time

import numpy as np
import pytest

from clients.blokus.config import PlayerConfig
from clients.blokus.player import BlokusPlayer, Core, fallback_move
from games.blokus_duo import PASS, BlokusState
from knowledge.blokus_duo.evaluation import BlokusEval, blokus_features
from knowledge.blokus_duo.position import BlokusPosition
from knowledge.blokus_duo.settings import BlokusConfig
from protocols.icfpt import FirstMovePrompt, SecondMovePrompt, TurnPrompt
from search.alphabeta import AlphaBetaConfig
from search.selective import LinearEval


def _random_position(rng: np.random.Generator, plies: int, first: int = 0) -> BlokusState:
    s = BlokusState(first=first)
    for _ in range(plies):
        if s.is_terminal():
            break
        moves = s.legal_moves()
        s.play(moves[int(rng.integers(len(moves)))])
    return s


def test_child_values_kernel_matches_reference() -> None:
    rng = np.random.default_rng(5)
    w = rng.normal(size=len(blokus_features(BlokusPosition(BlokusState())))) * 0.2
    fast = BlokusEval(w, 0.02)
    ref = LinearEval(w, 0.02, blokus_features)
    checked = 0
    for plies in (0, 1, 6, 15, 30, 45):
        s = BlokusPosition(_random_position(rng, plies, first=plies % 2))
        if s.is_terminal():
            continue
        moves = s.legal_moves()
        moves = [moves[int(i)] for i in rng.choice(len(moves), min(len(moves), 40),
                                                    replace=False)]
        assert np.allclose(fast.child_values(s, moves), ref.child_values(s, moves))
        checked += 1
    assert checked >= 4
    assert fast.kernel_error is None  # the compiled path was used, not the fallback


class Boom:
    name = "boom"
    weights = ""

    def reset(self) -> None:
        pass

    def search(self, state, budget, rng):  # type: ignore[no-untyped-def]
        raise RuntimeError("kaput")


class Illegal(Boom):
    def search(self, state, budget, rng):  # type: ignore[no-untyped-def]
        from search.result import SearchResult

        return SearchResult(123456, 0.5, [], [], [], 0, 0.0)


@pytest.mark.parametrize("core,why", [(Boom(), "search_failed"),
                                      (Illegal(), "illegal_search_move")])
def test_fallback_is_the_biggest_piece(core: object, why: str) -> None:
    p = BlokusPlayer(PlayerConfig(seconds=0.3, margin=0.1), core=core)  # type: ignore[arg-type]
    code = p.on_prompt(FirstMovePrompt(1))
    s = BlokusState(first=0)
    assert code == s.code(fallback_move(s))
    assert s.geo.ncells[s.geo.parse_code(code)] == 5
    p2 = BlokusPlayer(PlayerConfig(seconds=0.3, margin=0.1), core=core)  # type: ignore[arg-type]
    p2.observe(FirstMovePrompt(2))
    _, info2 = p2.decide()
    assert info2["fallback"] == why


def test_no_time_left_plays_fallback_at_once() -> None:
    p = BlokusPlayer(PlayerConfig(seconds=0.3, margin=0.25), core=Boom())  # type: ignore[arg-type]
    p.observe(SecondMovePrompt(2, "56u0"))
    code, info = p.decide(time.perf_counter() - 1.0)  # the prompt came a second ago
    assert info["fallback"] == "no_time_left"
    assert p.state is not None and p.state.is_legal(p.state.geo.parse_code(code))


def _alphabeta_player(seed: int = 0) -> BlokusPlayer:
    cfg = PlayerConfig(core="alphabeta", seconds=10.0, margin=0.0, seed=seed,
                       alphabeta_depth=1, weights="")
    return BlokusPlayer(cfg)


def test_follows_a_2014_game_and_passes_only_without_moves() -> None:
    """Our player (player 2, moving second) against a scripted first-legal player 1."""
    me = _alphabeta_player()
    ref = BlokusState(first=0)
    ref.play(ref.legal_placements()[0])
    code = me.on_prompt(SecondMovePrompt(2, ref.code(ref.history[-1][1])))
    while True:
        ref.play_code(code)
        if ref.is_terminal():
            break
        opp = ref.legal_placements()
        ref.play(opp[0] if opp else PASS)
        if ref.is_terminal():
            break
        code = me.on_prompt(TurnPrompt((ref.code(ref.history[-1][1]),)))
        if code == "0000":
            assert ref.legal_placements() == []
    assert me.state is not None and me.state.scores() == ref.scores()
    assert me.state.history == ref.history[: len(me.state.history)]


def test_2013_second_mover_replays_simultaneous_first_moves() -> None:
    me = _alphabeta_player()
    mine = me.on_prompt(FirstMovePrompt(2))  # 2013: both players got 2S at once
    ref = BlokusState(first=0)
    ref.play_code("56u0")  # the opponent's first move (made at the same time)
    ref.play_code(mine)
    ref.play(ref.legal_placements()[0])
    second = ref.code(ref.history[-1][1])
    code = me.on_prompt(TurnPrompt(("56u0", second)))
    assert me.state is not None
    assert me.state.history[:3] == ref.history
    assert ref.is_legal(ref.geo.parse_code(code))


@pytest.mark.parametrize("settings", [{"core": "uct"}, {"core": "uct", "compiled": False},
                                      {"core": "flat"}, {"core": "abucb"}])
def test_every_playout_core_plays(settings: dict[str, object]) -> None:
    from search.abucb import ABUCB
    from search.budget import Budget
    from search.ctree import CompiledUCT
    from search.flat import FlatMC
    from search.uct import UCT

    cfg = PlayerConfig(seconds=0.3, margin=0.1, seed=3, **settings)  # type: ignore[arg-type]
    p = BlokusPlayer(cfg)
    want = {"flat": FlatMC, "abucb": ABUCB}.get(str(settings["core"]),
                                                 CompiledUCT if cfg.compiled else UCT)
    assert isinstance(p.core.searcher, want)
    s = _random_position(np.random.default_rng(8), 5)
    res = p.core.search(s, Budget(playouts=60), np.random.default_rng(1))
    assert res.playouts >= 60 and s.is_legal(int(res.move))  # type: ignore[call-overload]
    code = p.on_prompt(FirstMovePrompt(1))  # and through the player, on its clock
    assert BlokusState(first=0).is_legal(BlokusState().geo.parse_code(code))


def test_cores_and_workers_that_cannot_serve_are_refused() -> None:
    from clients.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="'minimax' cannot play Blokus Duo; the cores that "
                                          "can: uct, flat, abucb, alphabeta, greedy"):
        load_config(PlayerConfig, overrides=["core=minimax"])
    with pytest.raises(ConfigError, match="workers=2 needs core uct, flat, abucb"):
        load_config(PlayerConfig, overrides=["workers=2", "core=alphabeta"])
    assert load_config(PlayerConfig, overrides=["workers=2"]).workers == 2  # default: uct
    with pytest.raises(ConfigError, match="rave_child=true sets the hand-selected schedule"):
        load_config(PlayerConfig, overrides=["rave_child=true", "rave_mse=true"])


def test_preset_v1_is_the_first_release_player(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from clients.blokus.config import load_player_config
    from clients.config import ConfigError

    v1 = load_player_config(None, ["preset=v1"])
    assert v1.core == "alphabeta" and v1.weights == "" and v1.margin == 0.25
    assert v1.book == "none" and v1.game == BlokusConfig()  # the first release's game
    assert v1.alphabeta == AlphaBetaConfig(max_depth=8, width=12, root_width=24)
    # what the user sets lies above the preset, in a file or an override
    assert load_player_config(None, ["preset=v1", "alphabeta_width=16"]).alphabeta.width == 16
    f = tmp_path / "b.toml"
    f.write_text('preset = "v1"\nmargin = 0.3\n')
    c = load_player_config(f, ["seed=4"])
    assert (c.core, c.margin, c.seed, c.alphabeta.root_width) == ("alphabeta", 0.3, 4, 24)
    with pytest.raises(ConfigError, match="preset=v0: unknown preset; known: v1, v2"):
        load_player_config(None, ["preset=v0"])
    with pytest.raises(ConfigError, match="workers=2 needs core"):
        load_player_config(None, ["preset=v1", "workers=2"])


def test_preset_v3_is_the_default_player_written_out() -> None:
    """v3, the newest preset, loads to exactly the default settings, and names every setting
    of the UCT player literally (all but the host's time, the playout cap, the seed, the
    team code, the workers, the start-up and the other cores' settings), so that a later
    change of a default leaves it as it is."""
    import msgspec

    from clients.blokus.config import CORE_KEYS, PRESETS, PlayerConfig, load_player_config

    assert list(PRESETS)[-1] == "v3"
    v3 = load_player_config(None, ["preset=v3"])
    assert v3 == msgspec.structs.replace(PlayerConfig(), preset="v3")
    other_cores = {k for k, cores in CORE_KEYS.items() if "uct" not in cores} - {"weights"}
    not_a_player = {"preset", "seconds", "playouts", "seed", "team_code", "workers",
                    "warmup"} | other_cores
    fields = {f.name for f in msgspec.structs.fields(PlayerConfig)}
    assert set(PRESETS["v3"]) == fields - not_a_player
    # v2, the player before the learned priors, differs from it in the priors alone
    assert {k for k in PRESETS["v2"] if PRESETS["v2"][k] != PRESETS["v3"][k]} == {"prior_kind"}
    v2 = load_player_config(None, ["preset=v2"])
    assert v2.prior_kind == "knowledge" and v2.game.priors == "knowledge"


def test_flat_settings_build_the_search_configs() -> None:
    """The defaults build the search configs the player had before its settings were flat,
    and each flat setting reaches its field of the config it belongs to."""
    from clients.blokus.config import load_player_config
    from search.abucb import ABUCBConfig
    from search.flat import FlatConfig
    from search.uct import UCTConfig

    cfg = PlayerConfig()
    assert cfg.uct == UCTConfig(c=0.0, rave=True, rave_k=300.0, priors=True, reuse=True)
    assert cfg.alphabeta == AlphaBetaConfig(max_depth=8, width=12, root_width=24)
    assert cfg.abucb == ABUCBConfig(depth=2, width=12)
    assert cfg.flat == FlatConfig()
    assert cfg.game == BlokusConfig(priors="learned")
    fields = {  # a flat setting, the config it builds and that config's field, a new value
        "c": ("uct", "c", 0.3), "uct_prior_count": ("uct", "prior_count", 5.0),
        "uct_final": ("uct", "final", "mean"), "uct_max_depth": ("uct", "max_depth", 40),
        "rave_k": ("uct", "rave_k", 50.0), "tree_mb": ("uct", "tree_mb", 64.0),
        "rave_child": ("uct", "rave_child", True),
        "alphabeta_depth": ("alphabeta", "max_depth", 3),
        "alphabeta_root_width": ("alphabeta", "root_width", 7),
        "alphabeta_check_every": ("alphabeta", "check_every", 4),
        "abucb_depth": ("abucb", "depth", 3), "abucb_c": ("abucb", "c", 0.5),
        "abucb_bounds": ("abucb", "bounds", "ucb1"), "abucb_batch": ("abucb", "batch", 2),
        "flat_c": ("flat", "c", 0.5), "flat_final": ("flat", "final", "visits"),
        "flat_batch": ("flat", "batch", 4), "alpha": ("flat", "alpha", 0.8),
        "prune": ("flat", "prune", 0.5), "min_arms": ("flat", "min_arms", 2),
        "prior_kind": ("game", "priors", "size"), "prior_count": ("game", "prior_count", 3.0),
        "playout": ("game", "playout", "weighted"), "open_pieces": ("game", "open_pieces", 2),
        "score_weight": ("game", "score_weight", 0.5), "prior_tau": ("game", "prior_tau", 0.5),
        "expand_visits": ("uct", "expand_visits", 8),
        "space_weight": ("game", "space_weight", 0.3), "space_scale": ("game", "space_scale", 5.0),
    }
    for key, (built, field, value) in fields.items():
        core = built if built in ("uct", "alphabeta", "abucb", "flat") else "uct"
        text = (f'"{value}"' if isinstance(value, str)
                else str(value).lower() if isinstance(value, bool) else str(value))
        cfg = load_player_config(None, [f"core={core}", f"{key}={text}"])
        assert getattr(getattr(cfg, built), field) == value, key


def test_seconds_and_a_playout_cap_make_the_budget() -> None:
    """``seconds`` is the host's limit per move (the search gets it less the margin);
    ``playouts`` caps the search (0: no cap)."""
    from clients.blokus.config import load_player_config

    budgets = []

    class Record(Boom):
        def search(self, state, budget, rng):  # type: ignore[no-untyped-def]
            budgets.append(budget)
            return super().search(state, budget, rng)

    for sets in (["seconds=0.5"], ["seconds=0.5", "playouts=40"]):
        cfg = load_player_config(None, [*sets, "margin=0.1"])
        p = BlokusPlayer(cfg, core=Record())  # type: ignore[arg-type]
        p.on_prompt(FirstMovePrompt(1))
    assert [b.playouts for b in budgets] == [None, 40]
    assert all(0 < b.seconds <= 0.5 - 0.1 for b in budgets)  # the margin kept back


def test_the_book_lookup_spends_the_searchs_time() -> None:
    """A lookup that finds nothing (here one that takes 0.3 s of an injected clock) leaves
    the search the budget's seconds less the lookup's: the move is not late by it."""
    from search.budget import Budget

    now = [100.0]
    seen: list[Budget] = []

    class SlowMiss:
        def lookup(self, state: BlokusState) -> None:
            now[0] += 0.3
            return None

    class Record:
        def search(self, position, to_move, budget, rng):  # type: ignore[no-untyped-def]
            seen.append(budget)
            return Boom().search(position, budget, rng)

    core = Core(PlayerConfig())
    core.book, core.searcher = SlowMiss(), Record()  # type: ignore[assignment]
    with pytest.raises(RuntimeError, match="kaput"):
        core.search(BlokusState(), Budget(seconds=0.7, clock=lambda: now[0]),
                    np.random.default_rng(0))
    assert seen[0].seconds == pytest.approx(0.4)
    core.book = None  # without a book, the whole budget
    with pytest.raises(RuntimeError, match="kaput"):
        core.search(BlokusState(), Budget(seconds=0.7, clock=lambda: now[0]),
                    np.random.default_rng(0))
    assert seen[1].seconds == pytest.approx(0.7)


def test_the_warm_up_makes_the_books_table_of_symmetries() -> None:
    """The book's first lookup builds the table of the board's symmetries (about 0.1 s,
    seconds before it was computed at once); the warm-up does it before the clock runs."""
    from clients.blokus.cli import warm_up
    from knowledge.blokus_duo.book import symmetries

    symmetries.cache_clear()
    warm_up(BlokusPlayer(PlayerConfig()))
    assert symmetries.cache_info().currsize == 1


@pytest.mark.integration
def test_root_parallel_workers_and_their_failure() -> None:
    from search.budget import Budget

    cfg = PlayerConfig(core="uct", workers=2, seed=3)
    core = Core(cfg)
    s = _random_position(np.random.default_rng(2), 4)
    try:
        core.start()
        assert core.pool is not None and len(core.pool.procs) == 2
        res = core.search(s, Budget(playouts=100), np.random.default_rng(1))
        assert res.info["workers"] == 2 and res.playouts == 100
        for proc in core.pool.procs:
            proc.kill()
            proc.join(timeout=5)
        res = core.search(s, Budget(playouts=100), np.random.default_rng(1))
        # the workers are dead: this process searched alone, with the whole budget
        assert core.workers_failed and core.pool is None and res.playouts == 100
        assert s.is_legal(int(res.move))  # type: ignore[call-overload]
    finally:
        core.close()


def test_bundled_weights_load_and_fit_the_features() -> None:
    from clients.blokus.player import load_eval
    from knowledge.blokus_duo.evaluation import DEFAULT_WEIGHTS

    assert DEFAULT_WEIGHTS.exists()
    ev, where = load_eval("")
    assert where == str(DEFAULT_WEIGHTS)
    assert len(ev.w) == len(blokus_features(BlokusPosition(BlokusState())))
    with pytest.raises(FileNotFoundError):
        load_eval("/nonexistent/weights.npz")


def test_learn_command_writes_weights_the_player_loads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import argparse

    from clients.blokus.cli import register
    from clients.blokus.player import load_eval
    from search.selective import load_weights

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    out = tmp_path / "w.npz"
    args = parser.parse_args(["blokus", "learn", "--out", str(out), "--updates", "1", "--m",
                              "1", "--positions", "2", "--n", "2", "--selfplay-n", "4",
                              "--prior-score", "5", "--seed", "1"])
    assert args.func(args) == 0
    w, k, meta = load_weights(out)
    assert meta["updates"] == 1 and meta["n"] == 2 and k == 0.02
    assert meta["simulations"] == "compiled" and meta["seed"] == 1
    assert abs(w[1764] - 5.0) < 1.0 and abs(w[3537] + 5.0) < 1.0  # the prior, one step on
    ev, where = load_eval(str(out))
    assert where == str(out) and len(ev.w) == len(w)
