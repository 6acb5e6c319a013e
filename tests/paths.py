"""Where the tests find the repository and its recordings of the real servers (``tests/data``)."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
