"""A forked helper that plays transition-table rows ahead of the search, on the other core.

Building a board's transition table plays the rules for every reachable pose, in pure Python: one
core's work (1.0-1.2 s of big-100x100's ~10 s precomputation, 7-12 s of an open 256x256 board's
game) while the other waits. A thread cannot help (the rules hold the GIL), and which poses are
reachable is only known once the search has found them. So the search (``plan_table``) forks a
helper that plays rows from the other end of the candidates (the poses it is likely to need
last), and takes every row the helper has finished instead of playing it; it never waits for
the helper, and kills it when done. A helper that plays rows nobody needs (where the candidates
are far more than the reachable poses) costs only the other core's time.

The rows travel through an anonymous shared mapping, written as values + 1 into zeros: a row
counts as ready only once all its numbers are non-zero, so no ordering between the helper's
writes and the search's reads is assumed (each number is one aligned 4-byte store). The table
is the same whatever the helper managed (tests compare it with the one played alone).

A helper is only forked where that is safe: a system with ``fork``, a process running a single
thread (a fork copies only the calling thread, so a lock another thread held would stay locked
in the child: the viewer plans in a background thread, and then there is no helper). It dies
with its parent (``PR_SET_PDEATHSIG`` on Linux) and is killed and reaped when the search ends,
however it ends.
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable

import numpy as np
import numpy.typing as npt


class RowHelper:
    """``with RowHelper(candidates, play, width, states) as helper``: ``helper.ready(state)`` is the
    row the helper played for ``state``, or None (play it yourself).

    ``candidates()`` is called in the helper (so the search does not wait for it) and gives the
    states to play, those the search will need last first; ``play(state)`` returns a row of
    ``width`` numbers in ``0..states - 1`` and must be pure. ``wanted`` False: no helper (too
    few rows to pay for a fork).
    """

    def __init__(
        self,
        candidates: Callable[[], Iterable[int]],
        play: Callable[[int], list[int]],
        width: int,
        states: int,
        *,
        wanted: bool = True,
    ) -> None:
        self.pid: int | None = None
        self.width = width
        self._shared: mmap.mmap | None = None
        self._rows: npt.NDArray[np.int32] | None = None
        self._numbers: memoryview | None = None  # the same numbers, read faster one row at a time
        if not wanted or not can_fork():
            return
        self._shared = mmap.mmap(-1, states * width * 4)
        self._rows = np.frombuffer(self._shared, dtype=np.int32, count=states * width).reshape(states, width)
        self._numbers = memoryview(self._shared).cast("i")
        self.pid = _fork_helper(candidates, play, self._rows)

    def __enter__(self) -> RowHelper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ready(self, state: int) -> list[int] | None:
        """The helper's row for ``state`` if it has finished it, else None."""
        numbers = self._numbers
        if numbers is None:
            return None
        start = state * self.width
        row: list[int] = numbers[start : start + self.width].tolist()
        if 0 in row:
            return None
        return [number - 1 for number in row]

    def close(self) -> None:
        """Kill and reap the helper, release the mapping."""
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
            self.pid = None
        self._rows = None  # no array or view may look into the mapping when it closes
        if self._numbers is not None:
            self._numbers.release()
            self._numbers = None
        if self._shared is not None:
            self._shared.close()
            self._shared = None


def can_fork() -> bool:
    """Whether a helper may be forked here: the system has ``fork`` and this process runs one thread."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _fork_helper(
    candidates: Callable[[], Iterable[int]], play: Callable[[int], list[int]], rows: npt.NDArray[np.int32]
) -> int | None:
    """Fork the helper (it plays ``candidates`` in order into ``rows`` as values + 1, then exits);
    its pid, or None where the fork failed.

    Signals are blocked across the fork, so one that arrives before the helper has put its
    handlers back to the defaults waits for that (then ends it) instead of running a handler of
    the parent's in the copy.
    """
    parent = os.getpid()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    try:
        pid = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        return None
    if pid:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        return pid
    try:
        _die_with_parent(parent)
        _default_signals()
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for state in candidates():
            rows[state] = np.asarray(play(state), dtype=np.int32) + 1
    except BaseException:  # whatever it was, the search plays the rows itself
        pass
    finally:
        os._exit(0)  # never the parent's cleanup (atexit handlers, finally blocks up the stack)


def _default_signals() -> None:
    """Every signal the parent handles in Python back at its default: a Ctrl-C or a SIGTERM sent
    to the process group must end the helper, not run the parent's handlers (which would, say,
    kill the parent's AI programs) in a copy of the parent."""
    for signum in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError):
            if callable(signal.getsignal(signum)):
                signal.signal(signum, signal.SIG_DFL)


def _die_with_parent(parent: int) -> None:
    """Linux: SIGKILL this process when its parent dies (a kill -9 of the planner leaves no helper)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before that: nobody wants these rows
        os._exit(0)
