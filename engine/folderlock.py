"""A lock file that lets only one ``robots-engine load``/``start`` work in a game folder at a time.

Two ``start`` run at once in the same folder would both read round N from the state file and
both write round N+1: one round is lost.  Each takes an exclusive ``flock`` on ``.robots-lock``
first; the second waits until the first is done (and says so on stderr), then plays the next
round.  The kernel drops the lock when its holder dies, even by ``kill -9``, so a crashed run
never leaves the folder locked.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

LOCK_FILE = ".robots-lock"


@contextlib.contextmanager
def folder_lock(folder: str | Path, *, waiting: TextIO | None = None, what: str = "robots-engine") -> Iterator[None]:
    """Hold the folder's lock for the ``with`` block; wait for another holder (telling ``waiting``)."""
    path = Path(folder) / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise type(exc)(exc.errno, f"cannot open the lock file: {exc.strerror}", str(path)) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            stream = sys.stderr if waiting is None else waiting
            print(f"{what}: another run is using {Path(folder)}; waiting for it to finish", file=stream, flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
