"""Stopping a command cleanly on SIGTERM and SIGHUP as on Ctrl-C.

Python turns SIGINT into KeyboardInterrupt, which unwinds the stack: ``finally`` blocks kill
the AI program of the turn in progress and remove its scratch folder.  SIGTERM (``kill``,
a batch system) and SIGHUP (the terminal closed) would end the process at once instead and
leave the AI running; :func:`raise_on_signals` makes them unwind the same way.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterable

DEFAULT_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """A stop asked for by a signal other than SIGINT; ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise(signum: int, frame: object) -> None:
    raise Stopped(signum)


def raise_on_signals(signals: Iterable[int] = DEFAULT_SIGNALS) -> None:
    """Make ``signals`` raise :class:`Stopped` in the main thread (nothing happens in other threads)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in signals:
        signal.signal(signum, _raise)


def exit_status(stop: KeyboardInterrupt) -> int:
    """The shell's status for a process ended by the signal: 128 + its number (130 for Ctrl-C)."""
    return 128 + getattr(stop, "signum", signal.SIGINT)


def describe(stop: KeyboardInterrupt) -> str:
    """``interrupted`` for Ctrl-C, ``stopped by SIGTERM`` for the others."""
    signum = getattr(stop, "signum", None)
    return "interrupted" if signum is None else f"stopped by {signal.Signals(signum).name}"
