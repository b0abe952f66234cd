"""A plain-text progress bar on stderr: redrawn in place on a terminal; otherwise (output going
to a file or a pipe) a line at every tenth of the way and at least every ``LINE_EVERY`` seconds,
so a long contest run in the background still says how far it is."""

from __future__ import annotations

import time
from typing import TextIO

BAR_WIDTH = 30
#: Seconds between progress lines when not on a terminal (besides one per tenth of the games).
LINE_EVERY = 30.0


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
        self._lined_at = self.started
        self._tenths = 0

    def update(self, done: int, error: bool = False) -> None:
        self.done = done
        self.errors += int(error)
        now = time.monotonic()
        if self.interactive and (now - self._drawn_at >= 0.1 or done == self.total):
            self._drawn_at = now
            self.stream.write("\r" + self.line())
            self.stream.flush()
        elif not self.interactive and done < self.total:
            tenths = 10 * done // self.total if self.total else 10
            if tenths > self._tenths or now - self._lined_at >= LINE_EVERY:
                self._tenths, self._lined_at = max(self._tenths, tenths), now
                self.stream.write(self.plain_line(now) + "\n")
                self.stream.flush()

    def plain_line(self, now: float) -> str:
        """``120/650 games (18%), 4.1 games/s, about 2 min left`` (for logs)."""
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else None
        eta = (
            "" if left is None else f", about {left:.0f} s left" if left < 120 else f", about {left / 60:.0f} min left"
        )
        errors = f", AI errors: {self.errors}" if self.errors else ""
        percent = 100 * self.done / self.total if self.total else 100.0
        return f"{self.done}/{self.total} games ({percent:.0f}%), {rate:.1f} games/s{eta}{errors}"

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
