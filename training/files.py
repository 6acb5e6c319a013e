"""What the learning pipelines of every game share about their data files."""

from __future__ import annotations

import hashlib
from pathlib import Path


def files_digest(files: list[Path]) -> str:
    """A digest of the games' contents (what a weights manifest names as its data)."""
    h = hashlib.sha256()
    for path in files:
        h.update(path.name.encode())
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:16]
