"""A guard for tests that hand a reader a FIFO: a wrongly blocking reader fails, never hangs."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def never_stuck_on(fifo: Path) -> Iterator[list[bool]]:
    """Should a reader wrongly open ``fifo`` and wait for a writer, one comes now and then and
    leaves at once, so that the reader sees an empty file and the test fails instead of hanging.

    Yields a list that gets an entry each time a writer got in (a reader was waiting).
    """
    stop = threading.Event()
    knocked: list[bool] = []

    def knock() -> None:
        while not stop.wait(1.0):
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # succeeds only while a reader waits
                knocked.append(True)

    thread = threading.Thread(target=knock, daemon=True)
    thread.start()
    try:
        yield knocked
    finally:
        stop.set()
        thread.join()
