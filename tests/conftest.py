"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import structlog

from clients.jitcache import drop_stale_caches

drop_stale_caches()  # no test runs a compiled copy of an older source (clients/jitcache.py)


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """A command's main() configures structlog onto pytest's captured stderr, closed after the
    test: undo that after every test, so a later test that logs does not write to a closed
    stream."""
    yield
    structlog.reset_defaults()
