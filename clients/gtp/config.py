"""Settings of the GTP engine (``corvid gtp --config FILE --set key=value``, and
``corvid-param key value`` at runtime)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from clients.config import ConfigError, CoreMap, load_config
from knowledge.go.style import STYLES
from knowledge.style import parse_style, style_help
from protocols.gtp.common import GtpError, parse_vertex

# the decision cores that can play Go (search.*), by the names of every client
GO_CORES = ("uct", "flat", "abucb")


def board_expand_visits(size: int, small: int = 1) -> int:
    """The visits before a leaf is expanded that ``expand_visits=0`` stands for: ``small``
    (the setting ``expand_visits_small``) below 15x15; 4 from 15x15 up, where a leaf's
    priors cost more than a playout: the tree that grows more slowly searches about 1.4
    times the playouts a second, and on 19x19 it beat expansion on the second visit at
    equal time (docs/results/go.md, Larger boards)."""
    return 4 if size >= 15 else small


class GtpConfig(msgspec.Struct, frozen=True):
    # identity
    name: str = "corvid"
    preset: str = ""  # a release's player (PRESETS) beneath the settings given; "" = none
    # the budget per move: seconds (0: none) and an optional cap of playouts (0: none);
    # seconds given without playouts: time only. A clock (time_settings, time_left) takes
    # over from seconds; the playout cap stays
    seconds: Annotated[float, msgspec.Meta(ge=0)] = 0.0
    playouts: Annotated[int, msgspec.Meta(ge=0)] = 3000
    # ... and an optional cap of the root's visits (0: none), those of the subtree kept from
    # the last move included, as Pachi's `-t =N` and KataGo's maxVisits count: a move whose
    # kept subtree holds R visits searches at most visits - R playouts (search.budget)
    visits: Annotated[int, msgspec.Meta(ge=0)] = 0
    # even when the clock is nearly out (about 1 ms each on 9x9)
    min_playouts: Annotated[int, msgspec.Meta(ge=0)] = 16
    seed: int = 1  # the search's random generator (0: fresh randomness)
    # search processes: 1 searches here; N > 1 runs root-parallel UCT in N worker processes
    # (search.parallel), each with its own tree kept across moves, the root visits merged
    workers: Annotated[int, msgspec.Meta(ge=1, le=64)] = 1
    # the decision core: uct (UCT with RAVE and priors), flat (flat Monte Carlo, UCB1-TUNED at
    # the root) or abucb (alpha-beta over UCB bounds, abucb_depth plies, abucb_width moves)
    core: str = "uct"
    compiled: bool = True  # uct on the compiled tree (search.ctree); false: search.uct
    tree_mb: Annotated[float, msgspec.Meta(gt=0)] = 1024.0  # the compiled tree's memory cap
    abucb_depth: Annotated[int, msgspec.Meta(ge=1, le=4)] = 2
    abucb_width: Annotated[int, msgspec.Meta(ge=0)] = 8  # moves per node by prior (0: all)
    # UCT / RAVE / priors (search.UCTConfig)
    rave: bool = True
    rave_k: Annotated[float, msgspec.Meta(gt=0)] = 1000.0
    # RAVE's weight per child by the minimum-MSE schedule, rave_k the equivalence parameter
    # (search.uct.rave_beta); false: the hand-selected schedule, one weight per node
    rave_mse: bool = False
    # the hand-selected schedule per child: n in β = sqrt(k / (3 n + k)) the child's own real
    # visits, not the node's, so that a move the tree has not tried keeps its RAVE value as
    # the node grows (search.uct.rave_beta)
    rave_child: bool = False
    # RAVE's credit along the episode (Fuego's weighted RAVE updates): a move the player made
    # soon after the node counts up to 2, one at the episode's end near 0 (search.uct.rave_weight);
    # false: every later move counts 1
    rave_weighted: bool = False
    # AMAF credits a move only to the player who made it first in the episode (a point the
    # opponent played first, then captured and played by the player, is not the player's
    # move); false: to each player who made it (search.uct.UCTConfig)
    rave_first_player: bool = True
    c: Annotated[float, msgspec.Meta(ge=0)] = 0.0  # UCT's exploration constant
    priors: bool = True
    # the heuristic priors (with learned_priors=false): times the equivalent experience
    # (pseudo-visits) of knowledge.go.priors.PriorWeights, and reading ladders: an escape from
    # atari that a ladder catches gets (0 wins, 30 visits) more, an atari on a group that a
    # ladder captures (15, 15)
    prior_scale: Annotated[float, msgspec.Meta(gt=0)] = 1.0
    ladder_priors: bool = True
    reuse: bool = True
    # the move played from the root's statistics: "visits" the most visited; "lcb" the best
    # lower confidence bound of the mean among the moves with a tenth of the most visited
    # one's visits or more (search.result.final_index); "mean" the best mean
    final: Literal["visits", "lcb", "mean"] = "visits"
    # a leaf of the tree is expanded (its moves and priors made) once the move into it has
    # this many visits; until then the playouts start at it (compiled and Python tree).
    # 0: by the board (board_expand_visits): expand_visits_small below 15x15, 4 from 15x15 up
    expand_visits: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0
    # below 15x15, what expand_visits=0 stands for (2: a leaf is expanded on its third visit)
    expand_visits_small: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 2
    # pseudo-visits a new node takes from its grandfather (0: off)
    grandfather: Annotated[float, msgspec.Meta(ge=0)] = 10.0
    # progressive widening (Coulom): a node's moves are unlocked in prior order, the first
    # widening_initial at once, the n-th more once the node has t_n = t_(n-1) + a * b^n visits
    widening: bool = False
    widening_initial: Annotated[int, msgspec.Meta(ge=1)] = 1
    widening_a: Annotated[float, msgspec.Meta(gt=0)] = 40.0
    widening_b: Annotated[float, msgspec.Meta(gt=0)] = 1.4
    # playouts (knowledge.go.position.PlayoutSettings): 3 learned (weights), 2 MoGo-like + capture
    # anywhere, 1 local, 0 light, 4 as 2 reading ladders, 5 as 2 with the low-liberty rule,
    # 6 as 5 with nakade (the vital point of a small eye space next to the last move), 7 as 6
    # playing a self-atari into a dead shape (knowledge.go.tactics.bad_self_atari)
    playout_policy: Literal[0, 1, 2, 3, 4, 5, 6, 7] = 6
    # last good reply with forgetting in the playouts (knowledge.go.lgrf; compiled uct only):
    # 0 off, 1 the reply to the last move, 2 to the last two moves first, 3 as 2 but after
    # the policy's atari rules (step 1), 4 as 2 but after all its rules that answer the last
    # move (atari, nakade, two liberties); auto: 2 on the compiled tree, else 0 (lgrf_level)
    lgrf: Literal["auto", 0, 1, 2, 3, 4] = "auto"
    # the playouts' reward: this share is the score margin (up to a quarter of the board's
    # points) instead of the win; 0: win/loss only (knowledge.go.playout.black_value)
    score_weight: Annotated[float, msgspec.Meta(ge=0, lt=1)] = 0.0
    # the search plays for a lead of this many points more than the komi asks (the search's
    # komi moves against the engine; 1 on an integer komi: a jigo counts as lost); when the
    # search's value is below margin_below, that lead is out of reach and the move comes from
    # a second search at the game's komi (under a clock, each search has half the move's time)
    komi_margin: Annotated[float, msgspec.Meta(ge=0, le=50)] = 0.0
    margin_below: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.5
    # dynamic komi (Baudiš 2011, value-based situational compensation; clients.gtp.dynkomi):
    # after a search whose value for us is above dynamic_komi_high, the searches ask
    # dynamic_komi points more of us (up to dynamic_komi_max); below dynamic_komi_low, a step
    # less, and never again more than that (the komi ratchet); below dynamic_komi_red (0:
    # never), a step less than the komi asks (down to -dynamic_komi_max), back toward it above
    # one half; the game's komi decides the score and passing; dynamic_komi=0: off
    dynamic_komi: Annotated[float, msgspec.Meta(ge=0, le=50)] = 0.0
    dynamic_komi_high: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.8
    dynamic_komi_low: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.6
    dynamic_komi_red: Annotated[float, msgspec.Meta(ge=0, lt=0.5)] = 0.0
    dynamic_komi_max: Annotated[float, msgspec.Meta(ge=0, le=100)] = 20.0
    # the engine's own value of a jigo in the playouts' reward (0.5: half a win, as the
    # game's score counts it; below 0.5 the search prefers a fight with chances either way
    # to a sure draw, above 0.5 the draw)
    jigo_value: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.5
    # learned knowledge (clients.gtp.player): the weights file of `corvid learn go learn`
    # (a name without "/" or ".npz", such as 9x9-nolarge, the bundled weights-NAME.npz;
    # "A|B": of those bundled names, the one fitted to the board size nearest the game's,
    # knowledge.go.weights.weights_path; the default: the fit to Pachi's moves up to 14x14,
    # to GNU Go's 19x19 games from 15x15; "": the bundled NxN files by the board's size,
    # weights-9x9.npz, fitted to GNU Go's moves, up to 14x14), read when policy 3 or the
    # learned priors use it; the learned priors (on by default) replace the heuristic ones:
    # every move starts with prior_visits pseudo-visits at a value from prior_low (least
    # likely) to prior_high (most likely), by (gamma / max gamma) ** prior_tau
    # (knowledge.go.priors.LearnedPriors); false: the heuristic priors above; large_patterns:
    # the weights' large patterns (the stones within distance 3 of the move) rate the moves
    # too (false: the 3x3 patterns and the other features only)
    weights: str = "9x9-pachi|19x19"
    learned_priors: bool = True
    prior_visits: Annotated[float, msgspec.Meta(gt=0)] = 35.0
    prior_low: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.3
    prior_high: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.9
    prior_tau: Annotated[float, msgspec.Meta(gt=0)] = 0.25
    large_patterns: bool = True
    # pseudo-visits at the TD(0) local-shape value of the weights (corvid learn go td); 0: off
    td_visits: Annotated[float, msgspec.Meta(ge=0)] = 0.0
    # capture reading in the priors (knowledge.go.priors.k_read_priors): a move that saves a
    # group in danger, or captures a group of two liberties by a chase of ataris, gets this
    # many pseudo-visits (all wins) per stone of the group, up to four stones; an extension
    # from atari that the reading shows captured, as many with no win; 0: off
    read_visits: Annotated[float, msgspec.Meta(ge=0)] = 5.0
    # black's first move on an empty 9x9 board: of the points of this one's class (its images
    # under the 8 symmetries; D5: the four beside the centre), the one the search visited
    # most ("": the search's own choice). Against GNU Go level 10 corvid scored 0.59 as black
    # after the centre (E5) and 0.73 after D5 over 900 games, alike in self-play
    # (docs/results/go.md)
    opening_9x9: str = "D5"
    # on boards from 15x15 up, in the game's first opening_corners moves (0: never), while a
    # corner holds no stone (knowledge.go.opening): one of the empty corners' 3-3, 3-4 and
    # 4-4 points, the one the search visited most (its own choice if it is one)
    opening_corners: Annotated[int, msgspec.Meta(ge=0)] = 0
    # a playing style, NAME[:STRENGTH] ("": the plain player): the moves with the style's
    # feature start with STRENGTH (default 1) times knowledge.go.style.BASE_VISITS
    # pseudo-visits, all wins, on top of their priors (Watanabe and Kaneko): territorial
    # (third/fourth line in the opening), influential (fourth/fifth line facing the centre in
    # the opening), fighting (contact and cuts near the opponent's last stone); cores uct and
    # abucb
    style: str = ""
    # decisions
    # resign below this win rate (0: never) ...
    resign_threshold: Annotated[float, msgspec.Meta(ge=0, lt=1)] = 0.02
    # ... and only after this many playouts on the root
    resign_min_playouts: Annotated[int, msgspec.Meta(ge=0)] = 500
    # ... and not before this share of the board's points in moves
    resign_after: Annotated[float, msgspec.Meta(ge=0)] = 0.3
    cleanup: bool = True  # always play as under CGOS: capture dead stones before passing
    # winning this clearly, capture dead stones before passing ...
    cleanup_confidence: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.9
    # ... with a move at most this much worse than the best
    cleanup_tolerance: Annotated[float, msgspec.Meta(ge=0)] = 0.05
    pass_when_won: bool = True  # pass at once after the opponent's pass if we win as is
    # time management (clients.gtp.timecontrol.TimePolicy)
    time_reserve: Annotated[float, msgspec.Meta(ge=0)] = 0.5
    time_reserve_fraction: Annotated[float, msgspec.Meta(ge=0, lt=1)] = 0.05
    time_overhead: Annotated[float, msgspec.Meta(ge=0)] = 0.02
    time_moves_fraction: Annotated[float, msgspec.Meta(gt=0, le=1)] = 0.45
    time_min_moves_left: Annotated[int, msgspec.Meta(ge=1)] = 12
    time_byoyomi_use: Annotated[float, msgspec.Meta(gt=0, le=1)] = 0.7
    time_max_seconds: Annotated[float, msgspec.Meta(ge=0)] = 0.0  # 0: no cap
    # under a game clock: end a move's search once its most visited move cannot be overtaken
    # in the rest of the move's time (the time goes back to the clock; compiled tree, one
    # process) ...
    time_early_stop: bool = False
    # ... and search on for up to this share of the move's time more (main time only) when
    # its most visited move is not the best by value of those with half its visits or more
    # (Huang, Coulom and Lin 2010); 0: never
    time_extend: Annotated[float, msgspec.Meta(ge=0, le=4)] = 0.0
    # in main time, weigh each move's share by 1 + a * max(-1, 1 - 2k / n) (k: our moves
    # played, n: the moves we expect to play): the opening gets up to 1 + a shares, a settled
    # endgame 1 - a; 0: equal shares
    time_shape: Annotated[float, msgspec.Meta(ge=0, lt=1)] = 0.0
    # board
    default_size: int = 19
    default_komi: Annotated[float, msgspec.Meta(gt=-1000, lt=1000)] = 7.5
    min_size: int = 5
    max_size: int = 19
    warmup: bool = True  # load (or compile) the kernels in the background; genmove waits
    # search on the opponent's time: after our move, the position after it, on the tree the
    # reply's search reuses (until the next command; one search process only)
    ponder: bool = False
    # live analysis (lz-analyze, kata-analyze, genmove_analyze): playouts per search slice,
    # for analysis that repeats itself (0: slices of time)
    analyze_playouts: Annotated[int, msgspec.Meta(ge=0)] = 0
    # give up (exit 1) when the controller sends no command for this long (0: wait forever)
    idle_timeout: Annotated[float, msgspec.Meta(ge=0)] = 0.0

    def __post_init__(self) -> None:
        """Every setting checked once, whichever way it came (TOML, --set, corvid-param): a
        bad value or two settings that contradict each other are an error naming them."""
        if self.core not in GO_CORES:
            raise ConfigError(f"core={self.core!r} cannot play Go; the cores that can: "
                              + ", ".join(GO_CORES))
        if not self.name or not self.name.isprintable():
            raise ConfigError(f"name={self.name!r} must be printable text (it is a GTP answer)")
        if not 2 <= self.min_size <= self.max_size <= 25:
            raise ConfigError(f"min_size={self.min_size} and max_size={self.max_size} must "
                              "satisfy 2 <= min_size <= max_size <= 25")
        if not self.min_size <= self.default_size <= self.max_size:
            raise ConfigError(f"default_size={self.default_size} must lie within "
                              f"min_size..max_size ({self.min_size}..{self.max_size})")
        if self.lgrf not in ("auto", 0) and (self.core != "uct" or not self.compiled):
            raise ConfigError(f"lgrf={self.lgrf} needs the compiled tree (core=uct, "
                              "compiled=true): the other cores' playouts keep no reply tables")
        if self.rave_child and self.rave_mse:
            raise ConfigError("rave_child=true sets the hand-selected schedule's n; the "
                              "minimum-MSE schedule (rave_mse=true) has none")
        if self.opening_9x9:
            try:
                point = parse_vertex(self.opening_9x9, 9)
            except GtpError:
                point = None
            if point is None:  # not a vertex, off the board, or pass
                raise ConfigError(f"opening_9x9={self.opening_9x9!r} must be a point of the 9x9 "
                                 'board (such as D5) or "" (the search chooses)')
        if self.dynamic_komi and not (self.dynamic_komi_red < self.dynamic_komi_low
                                      < self.dynamic_komi_high):
            raise ConfigError(f"dynamic_komi_red={self.dynamic_komi_red}, dynamic_komi_low="
                              f"{self.dynamic_komi_low} and dynamic_komi_high="
                              f"{self.dynamic_komi_high} must rise in that order")
        try:
            parse_style(self.style, STYLES)
        except ValueError as e:
            raise ConfigError(str(e)) from None
        if self.style and self.core == "uct" and not self.priors:
            raise ConfigError(f"style={self.style!r} acts through the priors: it needs "
                              "priors=true")

    def expand_visits_on(self, size: int) -> int:
        """``expand_visits`` in force on a board of ``size`` (0: board_expand_visits)."""
        return self.expand_visits or board_expand_visits(size, self.expand_visits_small)

    @property
    def lgrf_level(self) -> int:
        """The playouts' last-good-reply level in force (``lgrf=auto``: 2 where it can run)."""
        if self.lgrf == "auto":
            return 2 if self.core == "uct" and self.compiled else 0
        return self.lgrf


# Named players, one per release: a preset's settings lie beneath the file's and the --set
# ones, and it names every setting of how its engine plays (search, playouts, knowledge,
# decisions) literally, so that later changes of the defaults leave it as it was. The
# budget (playouts, seconds, the clock), the time management, the board and the engine's
# name and start-up are not part of a player. The newest preset is the default player.
PRESETS: dict[str, dict[str, Any]] = {
    # the first release: UCT in Python over policy-2 playouts with no reply tables, the win
    # alone as reward, the heuristic priors without ladders, no opening rule
    "v1": {"core": "uct", "compiled": False, "playout_policy": 2, "lgrf": 0,
           "score_weight": 0.0, "learned_priors": False, "td_visits": 0.0, "read_visits": 0.0,
           "komi_margin": 0.0, "dynamic_komi": 0.0, "jigo_value": 0.5, "ladder_priors": False,
           "rave_mse": False, "rave_child": False, "rave_weighted": False,
           "rave_first_player": False, "opening_9x9": "", "opening_corners": 0,
           "style": ""},
    # the second release: the compiled tree, priors learned from GNU Go's moves (the bundled
    # 9x9 weights with their large patterns) at 35 pseudo-visits, last good reply, nakade
    # and the low-liberty rule in the playouts, black's first 9x9 move beside the centre
    "v2": {"core": "uct", "compiled": True, "tree_mb": 1024.0, "abucb_depth": 2,
           "abucb_width": 8, "rave": True, "rave_k": 1000.0, "rave_mse": False,
           "rave_child": False, "rave_weighted": False, "rave_first_player": False, "c": 0.0,
           "priors": True, "prior_scale": 1.0,
           "ladder_priors": True, "reuse": True, "final": "visits", "expand_visits": 1,
           "expand_visits_small": 1, "grandfather": 10.0, "widening": False,
           "widening_initial": 1, "widening_a": 40.0, "widening_b": 1.4,
           "playout_policy": 6, "lgrf": "auto", "score_weight": 0.0, "komi_margin": 0.0,
           "margin_below": 0.5, "dynamic_komi": 0.0, "dynamic_komi_high": 0.8,
           "dynamic_komi_low": 0.6, "dynamic_komi_red": 0.0, "dynamic_komi_max": 20.0,
           "jigo_value": 0.5, "weights": "9x9", "learned_priors": True,
           "prior_visits": 35.0, "prior_low": 0.3, "prior_high": 0.9, "prior_tau": 0.25,
           "large_patterns": True, "td_visits": 0.0, "read_visits": 0.0, "opening_9x9": "D5",
           "opening_corners": 0, "resign_threshold": 0.08, "resign_min_playouts": 500,
           "resign_after": 0.3, "cleanup": True, "cleanup_confidence": 0.9,
           "cleanup_tolerance": 0.05, "pass_when_won": True, "style": ""},
}
# the third release: the second with the bundled weights of the board's size (the 19x19
# weights on boards from 15x15 up)
PRESETS["v3"] = PRESETS["v2"] | {"weights": ""}
# the fourth release: the third with the leaves expanded later on large boards (on their
# fourth visit from 15x15 up, board_expand_visits)
PRESETS["v4"] = PRESETS["v3"] | {"expand_visits": 0}
# the fifth release: the fourth with capture reading in the priors (5 pseudo-visits a stone)
# and the leaves expanded on their third visit below 15x15
PRESETS["v5"] = PRESETS["v4"] | {"read_visits": 5.0, "expand_visits_small": 2}
# the sixth release: the fifth with the priors fitted to Pachi's moves below 15x15
PRESETS["v6"] = PRESETS["v5"] | {"weights": "9x9-pachi|19x19"}
# the seventh release: the sixth resigning below a win rate of 0.02, not 0.08
PRESETS["v7"] = PRESETS["v6"] | {"resign_threshold": 0.02}
# the eighth release: the seventh with AMAF by the point's first player
PRESETS["v8"] = PRESETS["v7"] | {"rave_first_player": True}


# which cores read a setting (the others are read by every core)
CORE_KEYS: CoreMap = {
    key: ("uct",) for key in (
        "compiled", "tree_mb", "rave", "rave_k", "rave_mse", "rave_child", "rave_weighted",
        "rave_first_player", "c", "priors",
        "reuse", "final", "expand_visits", "expand_visits_small", "grandfather", "widening",
        "widening_initial", "widening_a", "widening_b", "lgrf")
} | {"abucb_depth": ("abucb",), "abucb_width": ("abucb",), "style": ("uct", "abucb")}


PRESET_DOCS = {
    "v1": "the first release's engine: UCT in Python over policy-2 playouts, heuristic "
          "priors, no reply tables",
    "v2": "the second release's engine: the compiled tree, the learned priors "
          "of the bundled 9x9 weights, policy-6 playouts with last good reply, D5 opening",
    "v3": "the third release's engine: v2 with the bundled weights of the board's size "
          "(fitted to 19x19 games on boards from 15x15 up, to 9x9 games below)",
    "v4": "the fourth release's engine: v3 with a leaf of the tree expanded on its fourth "
          "visit on boards from 15x15 up (its second below)",
    "v5": "the fifth release's engine: v4 with capture reading in the priors "
          "(read_visits=5) and a leaf expanded on its third visit below 15x15",
    "v6": "the sixth release's engine: v5 with the priors fitted to Pachi's moves on boards "
          "up to 14x14 (weights=9x9-pachi|19x19)",
    "v7": "the seventh release's engine: v6 resigning below a win rate of 0.02 "
          "(resign_threshold=0.02), not 0.08",
    "v8": "the eighth release's engine (the defaults): v7 with AMAF by the point's first "
          "player (rave_first_player=true)",
}


def preset_help() -> str:
    """One line per preset, for --help."""
    return "\n".join(f"preset={name}: {PRESET_DOCS[name]}" for name in PRESETS)


def styles_help() -> str:
    """The playing styles' paragraph of --help."""
    return style_help(STYLES, cores="uct, abucb")


def load_gtp_config(path: str | Path | None = None, overrides: Iterable[str] = ()
                    ) -> GtpConfig:
    """The engine's settings: defaults <- preset <- TOML file <- ``--set`` overrides, a
    setting of a core not in use refused."""
    return load_config(GtpConfig, path, overrides, presets=PRESETS, cores=CORE_KEYS)
