"""bot.txt: one line ``x y F`` (contest text, "Die Roboterdatei bot.txt")."""

from __future__ import annotations

import pytest

from engine.errors import InputError
from engine.model import Direction, Pose
from engine.protocol import parse_pose, write_pose


@pytest.mark.parametrize(
    ("text", "pose"),
    [
        ("7 8 D\n", Pose(7, 8, Direction.DOWN)),
        ("0 0 L", Pose(0, 0, Direction.LEFT)),
        ("  3   11  U  \r\n", Pose(3, 11, Direction.UP)),
        ("\n5 6 R\n\n", Pose(5, 6, Direction.RIGHT)),
    ],
)
def test_bot_line_parses(text: str, pose: Pose) -> None:
    assert parse_pose(text) == pose


@pytest.mark.parametrize("pose", [Pose(7, 8, Direction.DOWN), Pose(0, 11, Direction.LEFT)])
def test_bot_line_round_trip(pose: Pose) -> None:
    assert write_pose(pose) == f"{pose.x} {pose.y} {pose.facing.value}\n"
    assert parse_pose(write_pose(pose)) == pose


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("", 1, "found 0 lines"),
        ("7 8\n", 1, "X Y FACING"),
        ("7 8 D E\n", 1, "X Y FACING"),
        ("a 8 D\n", 1, "whole numbers"),
        ("7 8 X\n", 5, "L R U D"),
        ("7 8 d\n", 5, "L R U D"),
        ("7 8 D\n1 2 U\n", 1, "found 2 lines"),
    ],
)
def test_bad_bot_line(text: str, column: int, words: str) -> None:
    with pytest.raises(InputError) as info:
        parse_pose(text, "bot.txt")
    assert info.value.column == column
    assert words in info.value.message
    assert str(info.value).startswith("bot.txt:")
