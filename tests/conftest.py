"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import structlog

from clients.jitcache import drop_stale_caches

drop_stale_caches()  # no test runs a compiled copy of an older source (clients/jitcache.py)


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """For a test that runs a command's main(): it configures structlog onto pytest's captured
    stderr, closed after the test; undo that, so later tests that log do not fail."""
    yield
    structlog.reset_defaults()
