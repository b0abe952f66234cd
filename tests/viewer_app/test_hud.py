"""HUD text (pure functions): each cause and reason named once."""

from __future__ import annotations

from engine.events import Cause, DeathReason, Event, EventKind
from engine.model import Direction, Pose
from viewer3d.hud import event_text

POSE = Pose(1, 1, Direction.UP)


def test_a_crusher_death_names_the_crusher_once() -> None:
    event = Event(EventKind.DESTROYED, Cause.CRUSHER, POSE, reason=DeathReason.CRUSHER)
    assert event_text(event) == "destroyed (crusher)"


def test_cause_and_different_reason_are_both_named() -> None:
    assert event_text(Event(EventKind.DESTROYED, Cause.CONVEYOR, POSE, reason=DeathReason.HOLE)) == (
        "destroyed (conveyor) (hole)"
    )
    assert event_text(Event(EventKind.DESTROYED, Cause.CARD, POSE, reason=DeathReason.EDGE)) == "destroyed (edge)"
    assert event_text(Event(EventKind.MOVE, Cause.CARD, POSE, direction=Direction.UP)) == "moves"
    assert event_text(Event(EventKind.MOVE, Cause.PUSHER, POSE, direction=Direction.UP)) == "moves (pusher)"
