"""A guard for tests that hand a reader a FIFO: a wrongly blocking reader fails, never hangs."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def never_stuck_on(fifo: Path, *, writers: bool = False) -> Iterator[list[bool]]:
    """Should a reader wrongly open ``fifo`` and wait for a writer, one comes now and then and
    leaves at once, so that the reader sees an empty file and the test fails instead of hanging.
    With ``writers`` it is the other way round: a writer wrongly waiting on ``fifo`` (a log, a
    save) gets a reader that leaves at once, so its write fails (a broken pipe) instead of hanging.

    Yields a list that gets an entry each time a writer got in (a reader was waiting; not with ``writers``).
    """
    stop = threading.Event()
    knocked: list[bool] = []

    def knock() -> None:
        while not stop.wait(1.0):
            with contextlib.suppress(OSError):
                if writers:  # a writer waiting in open() gets in once a reader has come, even one gone again
                    os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
                    continue
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # succeeds only while a reader waits
                knocked.append(True)

    thread = threading.Thread(target=knock, daemon=True)
    thread.start()
    try:
        yield knocked
    finally:
        stop.set()
        thread.join()
