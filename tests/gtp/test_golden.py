"""Golden transcript (KataGo style): a committed command script and the exact output of the
engine with a fixed seed and a fixed playout budget. A change of behaviour shows as a diff.

Regenerate after an intended change: ``.venv/bin/python -m tests.gtp.test_golden``.
"""

from __future__ import annotations

import io
from pathlib import Path

from clients.gtp.cli import serve
from clients.gtp.config import GtpConfig

DATA = Path(__file__).parent / "data"
CONFIG = GtpConfig(playouts=100, seed=7, warmup=False, default_size=9, default_komi=7.0)


def transcript() -> bytes:
    out = io.BytesIO()
    serve(io.BytesIO((DATA / "golden.gtp").read_bytes()), out, CONFIG)
    return out.getvalue()


def test_golden_transcript() -> None:
    expected = (DATA / "golden.out").read_bytes()
    got = transcript()
    assert got.decode().split("\n\n") == expected.decode().split("\n\n")


def test_golden_transcript_is_deterministic() -> None:
    assert transcript() == transcript()


if __name__ == "__main__":
    from clients.logs import setup_logging

    setup_logging("warning")
    (DATA / "golden.out").write_bytes(transcript())
    print("wrote", DATA / "golden.out")
