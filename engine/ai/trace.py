"""What an AI left besides its cards in one round: its output (bounded) and its debug marks.

Choosers may expose the trace of their last round as ``last_trace`` (``ExternalAI`` and
``BaseAI`` do); the engine's round record (``engine.turns``) picks it up.  A chooser without
one only gets its time recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.debugmarks import DebugMarks


@dataclass
class Trace:
    """One round of one AI: its output text (first and last part kept) and its debug marks."""

    output: str = ""
    #: Bytes the program wrote in all (``output`` may hold fewer: the middle is left out).
    output_bytes: int = 0
    debug: DebugMarks = field(default_factory=DebugMarks)
    #: Raw ``debug.txt`` as read (bounded); parsed into ``debug`` by whoever knows the board.
    debug_text: str | None = None
    debug_cut: bool = False
