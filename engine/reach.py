"""Can a goal be reached at all? A breadth-first search over robot poses from the start pose,
trying all seven card kinds with ``play_card`` (never a copy of the rules): a pose is a state,
a card that destroys the robot leads nowhere, a card that ends on a goal proves the goal
reachable. The real game deals cards from a deck, so this is "reachable with a lucky hand":
an unreachable goal is certainly a broken board.

The search runs in slices (``ReachSearch.advance``) so a window can spread a big board's search
over several frames and stay responsive; ``engine.status.board_status`` runs it to the end.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from engine.cards import Card
from engine.events import RobotStatus
from engine.model import Board, Level, Pose
from engine.rules import play_card

#: Poses searched before giving up (a 100x100 board has 40,000).
MAX_POSES = 200_000


@dataclass(frozen=True)
class Reach:
    """Result of the pose search at one level."""

    level: Level
    reachable: bool
    poses: int
    cards: int | None  # fewest cards to a goal when reachable


class ReachSearch:
    """Breadth-first search over poses from ``start`` at ``level``, a slice at a time."""

    def __init__(self, board: Board, level: Level, start: Pose, max_poses: int = MAX_POSES) -> None:
        self.board, self.level, self.start, self.max_poses = board, level, start, max_poses
        self._seen = {start}
        self._queue: deque[tuple[Pose, int]] = deque([(start, 0)])
        cached = board.derived_cache.get(self._key())
        self.result: Reach | None = cached if isinstance(cached, Reach) else None

    def _key(self) -> tuple[object, ...]:
        return ("engine.reach", self.level, self.start, self.max_poses)

    @property
    def done(self) -> bool:
        return self.result is not None

    def advance(self, max_poses: int | None = None) -> bool:
        """Expand up to ``max_poses`` poses (all when None); returns whether the search is finished."""
        budget = max_poses if max_poses is not None else -1
        seen, queue, board, level = self._seen, self._queue, self.board, self.level
        while self.result is None and budget != 0:
            if not queue or len(seen) > self.max_poses:
                self._finish(Reach(level, False, len(seen), None))
                break
            budget -= 1
            pose, depth = queue.popleft()
            for card in Card:
                outcome = play_card(board, level, pose, card)
                if outcome.status is RobotStatus.FINISHED:
                    self._finish(Reach(level, True, len(seen), depth + 1))
                    break
                if outcome.status is RobotStatus.DESTROYED or outcome.pose in seen:
                    continue
                seen.add(outcome.pose)
                queue.append((outcome.pose, depth + 1))
        return self.result is not None

    def _finish(self, result: Reach) -> None:
        self.result = result
        self.board.derived_cache[self._key()] = result
        self._queue.clear()


def goal_reach(board: Board, level: Level, start: Pose, max_poses: int = MAX_POSES) -> Reach:
    """The fewest cards from ``start`` to any goal at ``level`` (a completed :class:`ReachSearch`)."""
    search = ReachSearch(board, level, start, max_poses)
    search.advance()
    assert search.result is not None
    return search.result
