"""Progress of an AI's long precomputation (the planner's table and values of a new board), told to
whoever wants to show it: the viewer's HUD says "building moves 40%" instead of a silent wait.

The reporting code calls ``report(stage, fraction)``; a listener is set for one thread with
``listening(callback)`` (a context variable, so games played in other threads, and code with no
listener, are unaffected and pay one lookup per report). A listener may raise to abandon the
computation (the viewer's Cancel does, with an ``Abandoned``): nothing half-built is kept, the
exception reaches the caller of the AI.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Listener = Callable[[str, float], None]


class Abandoned(Exception):
    """What a listener raises to abandon the computation (the viewer's Cancel): it must reach the
    AI's caller untouched, so an AI that turns its own exceptions into AI errors
    (``engine.ai.base.BaseAI``) lets it through."""


_LISTENER: ContextVar[Listener | None] = ContextVar("ai_progress_listener", default=None)


def report(stage: str, fraction: float) -> None:
    """Say that ``stage`` (a few words) is ``fraction`` (0..1) done, if anyone listens here."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(stage, min(max(fraction, 0.0), 1.0))


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send this thread's reports to ``listener`` for the ``with`` block."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
