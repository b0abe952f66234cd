"""Is the board playable? Exactly one start, at least one goal, and a reachable goal per level.

Reachability is a breadth-first search over robot poses from the start pose, trying
all seven card kinds with the engine's own ``play_card`` (never a copy of the rules):
a pose is a state, a card that destroys the robot leads nowhere, a card that ends on
a goal proves the goal reachable. The real game deals cards from a deck, so this is
"reachable with a lucky hand": an unreachable goal is certainly a broken board.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from engine.cards import Card
from engine.events import RobotStatus
from engine.model import Board, Level, Pose
from engine.rules import play_card

Position = tuple[int, int]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the board, with the tiles to highlight (and the level, if per level)."""

    message: str
    tiles: tuple[Position, ...] = ()
    level: Level | None = None


@dataclass(frozen=True)
class Reach:
    """Result of the pose search at one level."""

    level: Level
    reachable: bool
    poses: int
    cards: int | None  # fewest cards to a goal when reachable


def goal_reach(board: Board, level: Level, start: Pose, max_poses: int = 200_000) -> Reach:
    """Breadth-first search over poses: the fewest cards from ``start`` to any goal."""
    key = ("editor.goal_reach", level, start)
    cached = board.derived_cache.get(key)
    if isinstance(cached, Reach):
        return cached
    seen = {start}
    queue: deque[tuple[Pose, int]] = deque([(start, 0)])
    result = Reach(level, False, 0, None)
    while queue and len(seen) <= max_poses:
        pose, depth = queue.popleft()
        for card in Card:
            outcome = play_card(board, level, pose, card)
            if outcome.status is RobotStatus.FINISHED:
                result = Reach(level, True, len(seen), depth + 1)
                queue.clear()
                break
            if outcome.status is RobotStatus.DESTROYED or outcome.pose in seen:
                continue
            seen.add(outcome.pose)
            queue.append((outcome.pose, depth + 1))
    if not result.reachable:
        result = Reach(level, False, len(seen), None)
    board.derived_cache[key] = result
    return result


def validate(board: Board, levels: tuple[Level, ...] = tuple(Level)) -> list[Problem]:
    """Every problem of the board, most basic first; an empty list means playable at every level."""
    problems: list[Problem] = []
    starts = board.starts
    if not starts:
        problems.append(Problem("no start tile: place one start (S T U V)"))
    elif len(starts) > 1:
        problems.append(Problem(f"{len(starts)} start tiles: a board needs exactly one", tuple((p.x, p.y) for p in starts)))
    if not board.goals:
        problems.append(Problem("no goal tile: place at least one goal (Z)"))
    if len(starts) == 1 and board.goals:
        start = starts[0]
        for level in levels:
            reach = goal_reach(board, level, start)
            if not reach.reachable:
                problems.append(
                    Problem(f"{level.value}: no goal can be reached from the start", ((start.x, start.y), *board.goals), level)
                )
    return problems


def summary(board: Board) -> list[str]:
    """Lines for the validation panel when the board is fine: fewest cards per level."""
    if len(board.starts) != 1 or not board.goals:
        return []
    lines = []
    for level in Level:
        reach = goal_reach(board, level, board.starts[0])
        if reach.reachable:
            lines.append(f"{level.value}: goal reachable in {reach.cards} cards")
    return lines
