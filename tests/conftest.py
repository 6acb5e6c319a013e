"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import structlog


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """For a test that runs a command's main(): it configures structlog onto pytest's captured
    stderr, closed after the test; undo that, so later tests that log do not fail."""
    yield
    structlog.reset_defaults()
