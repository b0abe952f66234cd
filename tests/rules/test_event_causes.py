"""Every event names its cause: slides from a card are CARD, from a belt CONVEYOR, from a pusher PUSHER;
destruction names what destroyed the robot (RULES.md: Playing one card; Output files, stats)."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.events import Cause, DeathReason, EventKind
from engine.model import Direction, Level, Pose, Rotation
from engine.rules import play_card

from .cases import board_of, pose_of

K = EventKind
C = Cause


@pytest.mark.parametrize(
    ("rows", "level", "start", "card", "expected"),
    [
        (" OO ", "normal", "0 0 R", "MF 1", [(K.MOVE, C.CARD), (K.SLIDE, C.CARD), (K.SLIDE, C.CARD)]),
        ("O", "normal", "0 0 U", "RL", [(K.TURN, C.CARD), (K.TURN, C.CARD)]),
        (
            ">OOv",
            "normal",
            "0 0 U",
            "RL",
            [
                (K.TURN, C.CARD),
                (K.MOVE, C.CONVEYOR),
                (K.SLIDE, C.CONVEYOR),
                (K.SLIDE, C.CONVEYOR),
                (K.TURN, C.CONVEYOR),
            ],
        ),
        ("DO ", "normal", "0 0 U", "RL", [(K.TURN, C.CARD), (K.MOVE, C.PUSHER), (K.SLIDE, C.PUSHER)]),
        (" R", "normal", "0 0 R", "MF 1", [(K.MOVE, C.CARD), (K.TURN, C.ROTATOR)]),
        ("c ", "normal", "0 0 R", "MF 2", [(K.BLOCKED, C.CARD)]),
        (">b", "normal", "0 0 U", "RR", [(K.TURN, C.CARD), (K.BLOCKED, C.CONVEYOR)]),
        (" H", "normal", "0 0 R", "MF 1", [(K.MOVE, C.CARD), (K.DESTROYED, C.CARD)]),
        (">H", "normal", "0 0 U", "RR", [(K.TURN, C.CARD), (K.MOVE, C.CONVEYOR), (K.DESTROYED, C.CONVEYOR)]),
        ("DH", "normal", "0 0 U", "RR", [(K.TURN, C.CARD), (K.MOVE, C.PUSHER), (K.DESTROYED, C.PUSHER)]),
        ("N", "normal", "0 0 U", "RR", [(K.TURN, C.CARD), (K.DESTROYED, C.CRUSHER)]),
        (" ", "hard", "0 0 L", "MF 1", [(K.MOVE, C.CARD), (K.DESTROYED, C.CARD)]),
        (" Z", "normal", "0 0 R", "MF 3", [(K.MOVE, C.CARD), (K.GOAL, C.CARD)]),
        (">Z", "normal", "0 0 U", "RR", [(K.TURN, C.CARD), (K.MOVE, C.CONVEYOR), (K.GOAL, C.CONVEYOR)]),
        ("DZ", "normal", "0 0 U", "RR", [(K.TURN, C.CARD), (K.MOVE, C.PUSHER), (K.GOAL, C.PUSHER)]),
    ],
)
def test_event_kinds_and_causes(
    rows: str, level: str, start: str, card: str, expected: list[tuple[EventKind, Cause]]
) -> None:
    result = play_card(board_of(rows), Level(level), pose_of(start), Card.parse(card))
    assert [(e.kind, e.cause) for e in result.events] == expected


@pytest.mark.parametrize(
    ("rows", "level", "start", "card", "reason"),
    [
        (" H", "normal", "0 0 R", "MF 1", DeathReason.HOLE),
        (" ", "hard", "0 0 U", "MF 1", DeathReason.EDGE),
        ("M", "normal", "0 0 U", "RL", DeathReason.CRUSHER),
        (" OH", "normal", "0 0 R", "MF 1", DeathReason.HOLE),
    ],
)
def test_death_reason(rows: str, level: str, start: str, card: str, reason: DeathReason) -> None:
    result = play_card(board_of(rows), Level(level), pose_of(start), Card.parse(card))
    assert result.events[-1].kind is EventKind.DESTROYED
    assert result.events[-1].reason is reason


def test_events_carry_the_pose_after_them_and_their_details() -> None:
    result = play_card(board_of(">Ov"), Level.NORMAL, Pose(0, 0, Direction.UP), Card.RL)
    turn, move, slide, belt_turn = result.events
    assert (turn.pose, turn.rotation) == (Pose(0, 0, Direction.LEFT), Rotation.LEFT)
    assert (move.pose, move.direction) == (Pose(1, 0, Direction.LEFT), Direction.RIGHT)
    assert (slide.pose, slide.direction) == (Pose(2, 0, Direction.LEFT), Direction.RIGHT)
    assert (belt_turn.pose, belt_turn.rotation) == (Pose(2, 0, Direction.UP), Rotation.RIGHT)
    assert [e.sequence_line for e in result.events] == ["RL", "MR", "MR", "RR"]


def test_blocked_event_names_its_direction_and_writes_no_line() -> None:
    result = play_card(board_of("c "), Level.NORMAL, Pose(0, 0, Direction.RIGHT), Card.MF1)
    (blocked,) = result.events
    assert blocked.direction is Direction.RIGHT
    assert blocked.sequence_line is None
    assert result.sequence_lines == []
