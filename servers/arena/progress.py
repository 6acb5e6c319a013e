"""Live progress on stderr: a tqdm bar with the current standings on a terminal, and when
the output is not a terminal (a file, a pipe, CI) one plain line every ``every`` games, so a
long run is never silent until its end."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else \
        f"{s // 60}:{s % 60:02d}"


class Progress:
    """``update(done, text)`` after each game; ``close()`` at the end. ``every``: games
    between plain lines (default: about 20 lines over the run, at least every 50 games)."""

    def __init__(self, total: int, label: str = "arena", stream: TextIO | None = None,
                 every: int | None = None, tty: bool | None = None, done: int = 0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.label = label
        self.start_done = done
        self.done = done
        self.t0 = time.monotonic()
        self.every = every or max(1, min(50, total // 20))
        self._last_line = done
        self.tty = self.stream.isatty() if tty is None else tty
        self.bar: Any = None
        if self.tty:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=done, file=self.stream, unit="game",
                            desc=label, dynamic_ncols=True)

    def update(self, done: int, text: str = "") -> None:
        step = done - self.done
        self.done = done
        if self.bar is not None:
            self.bar.update(step)
            if text:
                self.bar.set_postfix_str(text, refresh=True)
            return
        if done - self._last_line >= self.every or (done == self.total and
                                                    done != self._last_line):
            self._last_line = done
            self.stream.write(self.line(text) + "\n")
            self.stream.flush()

    def line(self, text: str = "") -> str:
        elapsed = time.monotonic() - self.t0
        pct = 100.0 * self.done / self.total if self.total else 100.0
        out = f"{self.label}: {self.done}/{self.total} games ({pct:.0f}%), {_clock(elapsed)}"
        played = self.done - self.start_done
        if 0 < played and self.done < self.total:
            out += f", about {_clock(elapsed / played * (self.total - self.done))} left"
        return out + (f" | {text}" if text else "")

    def write(self, message: str) -> None:
        """A message that does not break the bar."""
        if self.bar is not None:
            self.bar.write(message, file=self.stream)
        else:
            self.stream.write(message + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
