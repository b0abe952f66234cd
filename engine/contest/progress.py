"""A plain-text progress bar on stderr: redrawn in place on a terminal, one final line otherwise."""

from __future__ import annotations

import time
from typing import TextIO

BAR_WIDTH = 30


class ProgressBar:
    """``[#######.......]  120/300 games  40%  85.2 games/s  E:1`` redrawn at most 10 times a second."""

    def __init__(self, total: int, stream: TextIO, *, interactive: bool | None = None) -> None:
        self.total = total
        self.stream = stream
        self.interactive = stream.isatty() if interactive is None else interactive
        self.started = time.monotonic()
        self.done = 0
        self.errors = 0
        self._drawn_at = 0.0

    def update(self, done: int, error: bool = False) -> None:
        self.done = done
        self.errors += int(error)
        now = time.monotonic()
        if self.interactive and (now - self._drawn_at >= 0.1 or done == self.total):
            self._drawn_at = now
            self.stream.write("\r" + self.line())
            self.stream.flush()

    def line(self) -> str:
        fraction = self.done / self.total if self.total else 1.0
        filled = round(BAR_WIDTH * fraction)
        elapsed = max(time.monotonic() - self.started, 1e-9)
        errors = f"  AI errors: {self.errors}" if self.errors else ""
        return (
            f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {self.done}/{self.total} games"
            f" {100 * fraction:3.0f}%  {self.done / elapsed:.1f} games/s{errors}"
        )

    def finish(self) -> float:
        """End the bar with a newline (or print the one line when not on a terminal); the elapsed seconds."""
        elapsed = time.monotonic() - self.started
        if self.interactive:
            self.stream.write("\r" + self.line() + "\n")
        else:
            self.stream.write(f"{self.done}/{self.total} games in {elapsed:.2f} s")
            self.stream.write(f", AI errors: {self.errors}\n" if self.errors else "\n")
        self.stream.flush()
        return elapsed
