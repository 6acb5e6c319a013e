"""Where the tests find the shared recordings: ``../shared/data`` beside the repository."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
