"""The files of learned feature strengths γ of Blokus Duo (the priors' move weights,
:mod:`knowledge.blokus_duo.moves`; the playouts' weights,
:mod:`knowledge.blokus_duo.playout_features`): an .npz of ``gamma``, the features' readable
``names`` and the ``manifest`` (JSON: data, command, date, figures)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np


def save_strengths(path: str | Path, gamma: np.ndarray, names: list[str],
                   manifest: dict[str, Any]) -> None:
    """Write the strengths file ``path``."""
    with open(path, "wb") as f:
        np.savez(f, gamma=gamma, names=np.array(names),
                 manifest=np.array(json.dumps(manifest, sort_keys=True)))


def load_strengths(where: Path, setting: str, n: int) -> tuple[np.ndarray, dict[str, Any]]:
    """(γ read-only, manifest) of the strengths file ``where`` of ``n`` features; ValueError
    naming the ``setting`` and the file when it cannot be read or is not a file of these
    features."""
    kind = setting.replace("_", "-")
    try:
        with np.load(where) as data:
            gamma = np.asarray(data["gamma"], dtype=np.float64)
            manifest = json.loads(str(data["manifest"]))
    except (OSError, KeyError, ValueError) as e:
        raise ValueError(f"{setting} {str(where)!r}: not a {kind} file of corvid blokus "
                         f"({type(e).__name__}: {e})") from None
    if gamma.shape != (n,) or not np.all(np.isfinite(gamma)) or gamma.min() <= 0:
        raise ValueError(f"{setting} {str(where)!r}: {gamma.shape} strengths, not {n} "
                         f"positive ones (a file of other features?)")
    gamma.setflags(write=False)
    return gamma, manifest
