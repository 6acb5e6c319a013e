"""Shared helpers for benchmark scripts: a table printer and the --json last line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # so `python bench/x.py` works from anywhere
    sys.path.insert(0, str(ROOT))


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
