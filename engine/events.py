"""What happens while a card is played: the events the rules emit.

Events are the single source of truth: sequence files, statistics, AIs and the
viewer's animation are all derived from them, so no consumer re-implements a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.model import Direction, Pose, Rotation


class Cause(Enum):
    """Who made the robot act: its card (oil slides and doubled turns included) or a board element."""

    CARD = "card"
    CONVEYOR = "conveyor"
    PUSHER = "pusher"
    CRUSHER = "crusher"
    ROTATOR = "rotator"


class EventKind(Enum):
    MOVE = "move"  # a one-tile step (card step, belt or pusher step)
    SLIDE = "slide"  # a one-tile step made sliding on oil
    TURN = "turn"  # a 90 or 180 degree turn
    BLOCKED = "blocked"  # a step that a wall or the board's edge stopped (writes no sequence line)
    DESTROYED = "destroyed"
    GOAL = "goal"


class DeathReason(Enum):
    HOLE = "hole"
    EDGE = "edge"  # stepped off the board (hard level)
    CRUSHER = "crusher"


class RobotStatus(Enum):
    ALIVE = "alive"
    DESTROYED = "destroyed"
    FINISHED = "finished"  # standing on a goal


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, with the pose after it.

    ``direction`` is set for MOVE, SLIDE and BLOCKED; ``rotation`` for TURN;
    ``reason`` for DESTROYED.
    """

    kind: EventKind
    cause: Cause
    pose: Pose
    direction: Direction | None = None
    rotation: Rotation | None = None
    reason: DeathReason | None = None

    @property
    def sequence_line(self) -> str | None:
        """The line this event writes in ``sequence.txt``, or None (a blocked step writes nothing)."""
        kind = self.kind
        if kind is EventKind.MOVE or kind is EventKind.SLIDE:
            assert self.direction is not None
            return "M" + self.direction.value
        if kind is EventKind.TURN:
            assert self.rotation is not None
            return self.rotation.value
        if kind is EventKind.DESTROYED:
            return "X"
        if kind is EventKind.GOAL:
            return "Z"
        return None

    @property
    def counts_as_move(self) -> bool:
        """Whether the event is a move or turn line counted in ``Card Moves``/``Board Moves``."""
        return self.kind in (EventKind.MOVE, EventKind.SLIDE, EventKind.TURN)
