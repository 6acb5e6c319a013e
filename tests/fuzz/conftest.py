"""Fuzzing with hypothesis: every test runs in two modes over the same strategies.

* ``quick`` (the default run): a hundred or so derandomised cases per codec, so the suite
  stays deterministic and fast;
* ``long`` (``./dev test -m fuzz``): ten thousand random cases per property of a codec (two
  hundred for a server on sockets or a process).

A test takes the ``fuzz`` fixture and declares its property with ``@fuzz.check(target,
*strategies)``, which runs it at once; the number of cases each target went through is
printed at the end of the run.
"""

from __future__ import annotations

import functools
import logging
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import structlog
from hypothesis import HealthCheck, given, settings
from hypothesis.strategies import SearchStrategy

CASES: Counter[str] = Counter()

# max_examples per mode: (codecs in memory, servers and processes on real sockets)
BUDGETS = {"quick": (120, 5), "long": (10_000, 200)}


class Fuzz:
    def __init__(self, mode: str) -> None:
        self.mode = mode

    def check(self, target: str, *strategies: SearchStrategy[Any], slow: bool = False,
              share: float = 1.0) -> Callable[[Callable[..., None]], None]:
        """Run the decorated property over ``strategies`` now, counting cases under
        ``target``; ``slow`` for a property that starts servers or processes; ``share``
        scales the number of cases (for a property that plays whole matches)."""
        examples = max(1, round(BUDGETS[self.mode][1 if slow else 0] * share))

        def run(prop: Callable[..., None]) -> None:
            @functools.wraps(prop)
            def counted(*args: Any, **kwargs: Any) -> None:
                CASES[target] += 1
                prop(*args, **kwargs)

            settings(
                max_examples=examples,
                deadline=None,
                derandomize=self.mode == "quick",
                database=None,
                suppress_health_check=list(HealthCheck),
            )(given(*strategies)(counted))()

        return run


@pytest.fixture(autouse=True)
def quiet_logs() -> Iterator[None]:
    """Fuzzed clients log every broken table: keep only errors (formatting thousands of
    warnings costs more than the cases themselves)."""
    saved = structlog.get_config()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    yield
    structlog.configure(**saved)


@pytest.fixture(params=["quick", pytest.param("long", marks=pytest.mark.fuzz)])
def fuzz(request: pytest.FixtureRequest) -> Fuzz:
    return Fuzz(request.param)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if CASES:
        terminalreporter.write_sep("-", "fuzz cases run")
        for target, n in sorted(CASES.items()):
            terminalreporter.write_line(f"{target:<44} {n:>9,}")
