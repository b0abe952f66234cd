"""A breadth-first search over robot poses, driven only by ``engine.rules.play_card``.

Used by the board tests to tell whether a board's goal can be reached from its
start at all (with an unlimited supply of every card). No rule is re-implemented
here: every move is whatever ``play_card`` says the card does.
"""

from __future__ import annotations

from collections import deque

from engine.cards import Card
from engine.events import RobotStatus
from engine.model import Board, Level, Pose
from engine.rules import play_card


def goal_reachable(board: Board, level: Level = Level.NORMAL, start: Pose | None = None) -> bool:
    """True if some sequence of cards takes the robot from ``start`` (default: the start tile) to a goal."""
    first = start if start is not None else board.start
    seen = {first}
    queue = deque([first])
    while queue:
        pose = queue.popleft()
        for card in Card:
            result = play_card(board, level, pose, card)
            if result.status is RobotStatus.FINISHED:
                return True
            if result.status is RobotStatus.ALIVE and result.pose not in seen:
                seen.add(result.pose)
                queue.append(result.pose)
    return False
