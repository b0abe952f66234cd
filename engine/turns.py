"""The AI's side of every round: what it was shown, what it chose, how long it took, what it said.

``TurnRecorder`` wraps any chooser and keeps one :class:`Turn` per call -- also for the round in
which the AI failed, which is the one an AI author most wants to see.  It changes nothing in how
the game is played: ``play_game(board, level, deck, TurnRecorder(ai))`` plays the same game.
The output kept per round is bounded (first and last part) and the whole game's kept output
shrinks to the last part only past :data:`GAME_OUTPUT_BUDGET`, so a 700-round game of a chatty
AI stays a few megabytes while every round's last lines (its traceback) survive.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.ai.base import ai_name
from engine.ai.output import shorten
from engine.ai.trace import Trace
from engine.cards import Card
from engine.debugmarks import DebugMarks
from engine.game import AIError, Chooser
from engine.model import Board, Level, Pose

#: Characters of a round's output kept in its record: this many of its start ...
TURN_HEAD = 4 * 1024
#: ... and this many of its end (a traceback).
TURN_TAIL = 12 * 1024
#: Past this much kept output in a game, rounds keep only their last ``TURN_TAIL_LEAN`` characters.
GAME_OUTPUT_BUDGET = 2 * 1024 * 1024
TURN_TAIL_LEAN = 2 * 1024


@dataclass
class Turn:
    """One call of the AI: round number, the pose and hand it got, its answer (or error) and trace."""

    number: int
    pose: Pose
    hand: tuple[Card, ...]
    chosen: tuple[Card, ...] | None = None
    seconds: float = 0.0
    output: str = ""
    output_bytes: int = 0
    debug: DebugMarks = field(default_factory=DebugMarks)
    error: str | None = None


def keep_trace(turn: Turn, trace: Trace, *, lean: bool = False) -> int:
    """Put a round's trace into its turn, bounded (``lean``: only the last part); the characters kept."""
    turn.output, _ = shorten(trace.output, 0, TURN_TAIL_LEAN) if lean else shorten(trace.output, TURN_HEAD, TURN_TAIL)
    turn.output_bytes = trace.output_bytes
    turn.debug = trace.debug
    return len(turn.output)


class TurnRecorder:
    """A chooser that asks ``inner`` and records each round as a :class:`Turn` in ``turns``."""

    def __init__(self, inner: Chooser) -> None:
        self.inner = inner
        self.turns: list[Turn] = []
        self._kept = 0

    @property
    def name(self) -> str:
        return ai_name(self.inner)

    def __call__(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]:
        turn = Turn(len(self.turns) + 1, pose, tuple(hand))
        self.turns.append(turn)
        started = time.perf_counter()
        try:
            chosen = tuple(self.inner(board, level, pose, hand))
        except AIError as exc:
            turn.error = str(exc)
            raise
        finally:
            turn.seconds = time.perf_counter() - started
            self._take_trace(turn)
        turn.chosen = chosen
        return chosen

    def _take_trace(self, turn: Turn) -> None:
        trace = getattr(self.inner, "last_trace", None)
        if isinstance(trace, Trace):
            self._kept += keep_trace(turn, trace, lean=self._kept > GAME_OUTPUT_BUDGET)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()
