"""Learned Go knowledge: move-feature strengths (priors) and playout-policy weights.

A weights file is an ``.npz`` (made by ``corvid learn go learn``) holding

* ``prior_levels`` float64 (NG, MAXLEVEL + 1): γ of each level of each feature group of
  :mod:`knowledge.go.features` (column 0, "no feature", is 1), ``prior_codes`` int32 (sorted
  canonical 3x3 codes, :func:`knowledge.go.patterns.canonical20`) and ``prior_gammas`` their γ;
  ``prior_large_codes`` int64 (sorted large-pattern codes, :func:`knowledge.go.features.
  large_codes`) and ``prior_large_gammas`` their γ (optional: none in older files);
* ``playout_levels``, ``playout_codes``, ``playout_gammas``: the same for the playout policy
  (policy 3 of :mod:`knowledge.go.playout`, which reads only some of the groups), and
  ``playout_scalars`` (``[0]``: the mean γ of a move away from the last two moves);
* ``td_theta`` (optional): the weights θ of a TD(0) value over the local shapes of
  :mod:`knowledge.go.shapes`, Q = σ(φᵀθ) (``corvid learn go td``);
* ``manifest``: JSON (data, command, seed, date, figures), also written beside the file.

Patterns a file does not list have γ = 1, and so do the levels of feature groups added after
the file was made (its ``prior_levels`` has fewer rows). At run time each pattern table is
expanded to a float32 array indexed by the raw 20-bit code of
:func:`knowledge.go.features.pattern20`, so the kernels need no canonical lookup.
"""

from __future__ import annotations

import functools
import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from knowledge.bundled import bundled_names, bundled_path
from knowledge.go.features import NG, large_hash_table, large_images, large_with_parts
from knowledge.go.patterns import canonical20

MAXLEVEL = 10
DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_WEIGHTS = DATA_DIR / "weights-9x9.npz"


def bundled_weights() -> list[str]:
    """The names of the bundled weights files: ``NAME`` for ``data/weights-NAME.npz``."""
    return bundled_names(DATA_DIR, "weights", "npz")


def board_weights(size: int) -> Path:
    """The bundled weights for a board of ``size``: of the files fitted to games on one board
    (``data/weights-NxN.npz``), the one of the nearest size (the smaller on a tie)."""
    names = [n for n in bundled_weights() if re.fullmatch(r"(\d+)x\1", n)]
    return _nearest_of(names, size) if names else DEFAULT_WEIGHTS


def weights_path(path: str = "", size: int = 9) -> Path:
    """The file that ``path`` names: "" the bundled weights of the board's ``size``
    (:func:`board_weights`), a name of :func:`bundled_weights` (a value without a path
    separator or ``.npz``) that bundled file, ``A|B|...`` (bundled names of files fitted to
    games on one board, ``NxN`` or ``NxN-VARIANT``) the one of them of the nearest board size
    (the smaller on a tie), anything else a path. ValueError for a name that is not bundled
    or, in a list, not of one board."""
    if not path:
        return board_weights(size)
    if "|" in path:
        return _nearest_of(path.split("|"), size)
    return bundled_path(path, DATA_DIR, "weights", "npz")


def _nearest_of(names: list[str], size: int) -> Path:
    """Of the bundled ``names`` (each ``NxN[-VARIANT]``), the file of the board size nearest
    to ``size`` (the smaller on a tie)."""
    boards = {}
    for name in names:
        m = re.fullmatch(r"(\d+)x\1(-.+)?", name)
        if m is None:
            raise ValueError(f"{name!r} in {'|'.join(names)!r} is not the name of weights "
                             "fitted to one board (NxN or NxN-VARIANT)")
        n = int(m.group(1))
        if n in boards:
            raise ValueError(f"{'|'.join(names)!r} names two weights of {n}x{n}")
        boards[n] = bundled_path(name, DATA_DIR, "weights", "npz")
    return boards[min(boards, key=lambda n: (abs(n - size), n))]


@dataclass(frozen=True, eq=False)
class FeatureGammas:
    """γ per level of each feature group and per canonical 3x3 pattern."""

    levels: np.ndarray  # float64 (NG, MAXLEVEL + 1), levels[:, 0] == 1
    codes: np.ndarray  # int32, sorted canonical codes
    gammas: np.ndarray  # float64, γ of each code
    # the playout policy's scalars: [0] the mean γ of a move away from the last two moves
    scalars: np.ndarray = field(default_factory=lambda: np.ones(1))
    # the large patterns (knowledge.go.features.large_gamma): sorted int64 codes and their γ
    large_codes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    large_gammas: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __reduce__(self) -> tuple[Any, ...]:  # pickled without the expanded tables
        return (FeatureGammas, (self.levels, self.codes, self.gammas, self.scalars,
                                self.large_codes, self.large_gammas))

    @functools.cached_property
    def pattern_table(self) -> np.ndarray:
        """float32[2^20]: γ by raw pattern code (1 for codes not listed). Read-only."""
        canon = canonical20()
        table = np.ones(1 << 20, dtype=np.float32)
        if len(self.codes):
            i = np.searchsorted(self.codes, canon)
            i = np.minimum(i, len(self.codes) - 1)
            hit = (canon >= 0) & (self.codes[i] == canon)
            table[hit] = self.gammas[i[hit]]
        table.setflags(write=False)
        return table

    @functools.cached_property
    def large_table(self) -> tuple[np.ndarray, np.ndarray]:
        """The large patterns as the kernels read them: a hash table (keys, γ) of every
        symmetric image of each code (:func:`knowledge.go.features.large_images`,
        :func:`knowledge.go.features.large_hash_table`, with the distance-2 parts that
        :func:`knowledge.go.features.large_with_parts` adds; empty if there are none). Read-only."""
        if not len(self.large_codes):
            keys, gammas = np.zeros(0, dtype=np.int64), np.zeros(0)
        else:
            listed, values = large_with_parts(self.large_codes, self.large_gammas)
            images = large_images(listed)
            codes, first = np.unique(images.ravel(), return_index=True)
            keys, gammas = large_hash_table(codes, np.tile(values, 8)[first])
        for a in (keys, gammas):
            a.setflags(write=False)
        return keys, gammas

    @functools.cached_property
    def policy_levels(self) -> np.ndarray:
        """The ``plv`` array of the playout kernels: ``levels`` and one more row holding
        ``scalars``. Read-only."""
        extra = np.zeros((1, MAXLEVEL + 1))
        extra[0, :len(self.scalars)] = self.scalars
        out = np.vstack([self.levels, extra])
        out.setflags(write=False)
        return out



@dataclass(frozen=True, eq=False)
class GoWeights:
    """The contents of a weights file."""

    prior: FeatureGammas
    playout: FeatureGammas
    manifest: dict[str, Any] = field(default_factory=dict)
    path: str = ""
    td_theta: np.ndarray | None = None

    def __reduce__(self) -> tuple[Any, ...]:  # a file's weights travel as its path
        if self.path and Path(self.path).exists():
            return (load_weights, (self.path,))
        return (GoWeights, (self.prior, self.playout, self.manifest, self.path,
                            self.td_theta))


def save_weights(path: Path, weights: GoWeights) -> None:
    """Write ``path`` (.npz) and the manifest beside it (.json)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    manifest = json.dumps(weights.manifest, indent=1, sort_keys=True)
    arrays: dict[str, Any] = {"manifest": np.array(manifest)}
    for name, fg in (("prior", weights.prior), ("playout", weights.playout)):
        arrays[f"{name}_levels"] = fg.levels
        arrays[f"{name}_codes"] = fg.codes.astype(np.int32)
        arrays[f"{name}_gammas"] = fg.gammas
        arrays[f"{name}_scalars"] = fg.scalars
        if len(fg.large_codes):
            arrays[f"{name}_large_codes"] = fg.large_codes.astype(np.int64)
            arrays[f"{name}_large_gammas"] = fg.large_gammas
    if weights.td_theta is not None:
        arrays["td_theta"] = weights.td_theta
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)
    path.with_suffix(".json").write_text(manifest + "\n", encoding="utf-8")


def load_weights(path: str = "", size: int = 9) -> GoWeights:
    """The weights in ``path`` (:func:`weights_path`: "" the bundled weights of a board of
    ``size``, a bundled name, or a file). Cached by the file, once for every name and board
    that lead to it: the arrays are read-only. Raises FileNotFoundError or ValueError (an
    unknown name, not a weights file)."""
    return _load_weights_file(weights_path(path, size))


def forget_weights() -> None:
    """Empty :func:`load_weights`' cache (after a file was written anew)."""
    _load_weights_file.cache_clear()


@functools.lru_cache(maxsize=8)
def _load_weights_file(p: Path) -> GoWeights:
    if not p.exists():
        raise FileNotFoundError(f"Go weights file {p} not found")
    try:
        with np.load(p) as z:
            parts = {}
            for name in ("prior", "playout"):
                levels = np.asarray(z[f"{name}_levels"], dtype=np.float64)
                codes = np.asarray(z[f"{name}_codes"], dtype=np.int32)
                gammas = np.asarray(z[f"{name}_gammas"], dtype=np.float64)
                scalars = np.asarray(z[f"{name}_scalars"], dtype=np.float64)
                large = (np.asarray(z[f"{name}_large_codes"], dtype=np.int64),
                         np.asarray(z[f"{name}_large_gammas"], dtype=np.float64)
                         ) if f"{name}_large_codes" in z else (np.zeros(0, dtype=np.int64),
                                                                np.zeros(0))
                if levels.ndim == 2 and levels.shape[0] < NG:  # a file from before a group
                    levels = np.vstack([levels, np.ones((NG - levels.shape[0],
                                                         levels.shape[1]))])
                if levels.shape != (NG, MAXLEVEL + 1) or codes.shape != \
                        gammas.shape or np.any(np.diff(codes) <= 0) or large[0].shape != \
                        large[1].shape or np.any(np.diff(large[0]) <= 0):
                    raise ValueError("inconsistent arrays")
                for a in (levels, codes, gammas, scalars, *large):
                    a.setflags(write=False)
                parts[name] = FeatureGammas(levels, codes, gammas, scalars, *large)
            manifest = json.loads(str(z["manifest"]))
            td = np.asarray(z["td_theta"], dtype=np.float64) if "td_theta" in z else None
            if td is not None:
                td.setflags(write=False)
    except (KeyError, OSError, ValueError, zipfile.BadZipFile) as e:
        raise ValueError(f"{p} is not a Go weights file: {e}") from e
    return GoWeights(parts["prior"], parts["playout"], manifest, str(p), td)
