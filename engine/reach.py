"""Can a goal be reached at all? A breadth-first search over robot poses from the start pose,
trying all seven card kinds with the engine's rules (never a copy of them): a pose is a state,
a card that destroys the robot leads nowhere, a card that ends on a goal proves the goal
reachable. The real game deals cards from a deck, so this is "reachable with a lucky hand":
an unreachable goal is certainly a broken board.

The search runs in slices (``ReachSearch.advance``) so a window can spread a big board's search
over several frames and stay responsive; ``engine.status.board_status`` runs it to the end.
It plays a pose's seven cards with ``play_card_outcomes`` (the planner's table rows), about three
times faster than seven ``play_card`` calls with their event records.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import RobotStatus
from engine.model import Board, Direction, Level, Pose
from engine.rules import level_view, play_card_outcomes

#: Facings in the order a pose's state number counts them (``state = (y * width + x) * 4 + facing``).
_FACINGS: tuple[Direction, ...] = tuple(Direction)


@dataclass(frozen=True)
class Reach:
    """Result of the pose search at one level."""

    level: Level
    reachable: bool
    poses: int
    cards: int | None  # fewest cards to a goal when reachable


class ReachSearch:
    """Breadth-first search over poses from ``start`` at ``level``, a slice at a time.

    Poses are numbered as the planner's tables number them, ``seen`` is one byte per pose of the
    board (1 MiB at 512 x 512) and the search runs depth by depth, so it always ends, and ends
    right: every pose is looked at at most once, with no cap that could call a far goal
    unreachable (a cap of 200,000 poses did, on an open 512 x 512 board).
    """

    def __init__(self, board: Board, level: Level, start: Pose) -> None:
        self.board, self.level, self.start = board, level, start
        first = self._state(start.x, start.y, start.facing)
        self._seen = bytearray(board.width * board.height * 4)
        self._seen[first] = 1
        self._count = 1
        self._layer = [first]  # the poses ``depth`` cards from the start, expanded from ``_next_in_layer``
        self._next_in_layer = 0
        self._following: list[int] = []
        self._depth = 0
        cached = board.derived_cache.get(self._key())
        self.result: Reach | None = cached if isinstance(cached, Reach) else None

    def _key(self) -> tuple[object, ...]:
        return ("engine.reach", self.level, self.start)

    def _state(self, x: int, y: int, facing: Direction) -> int:
        return (y * self.board.width + x) * 4 + _FACINGS.index(facing)  # no Enum.__hash__

    @property
    def done(self) -> bool:
        return self.result is not None

    def advance(self, max_poses: int | None = None) -> bool:
        """Expand up to ``max_poses`` poses (all when None); returns whether the search is finished."""
        budget = max_poses if max_poses is not None else -1
        if self.result is None and self._count == 1:
            self._adopt_same_rules()
        board, level, seen, width = self.board, self.level, self._seen, self.board.width
        while self.result is None and budget != 0:
            if self._next_in_layer == len(self._layer):
                if not self._following:
                    self._finish(Reach(level, False, self._count, None))
                    break
                self._layer, self._following, self._next_in_layer = self._following, [], 0
                self._depth += 1
            budget -= 1
            state = self._layer[self._next_in_layer]
            self._next_in_layer += 1
            cell, facing = divmod(state, 4)
            y, x = divmod(cell, width)
            for to_x, to_y, to_facing, status in play_card_outcomes(board, level, Pose(x, y, _FACINGS[facing])):
                if status is RobotStatus.FINISHED:
                    self._finish(Reach(level, True, self._count, self._depth + 1))
                    break
                if status is RobotStatus.DESTROYED:
                    continue
                reached = (to_y * width + to_x) * 4 + _FACINGS.index(to_facing)
                if not seen[reached]:
                    seen[reached] = 1
                    self._count += 1
                    self._following.append(reached)
        return self.result is not None

    def _adopt_same_rules(self) -> None:
        """Take another level's finished search when the rules see the board alike at both (easy
        and normal on a board without holes, oil or crushers): the same poses, the same answer."""
        view = level_view(self.board, self.level)
        for other in Level:
            found = self.board.derived_cache.get(("engine.reach", other, self.start))
            if other is not self.level and isinstance(found, Reach) and level_view(self.board, other) == view:
                self._finish(Reach(self.level, found.reachable, found.poses, found.cards))
                return

    def _finish(self, result: Reach) -> None:
        self.result = result
        self.board.derived_cache[self._key()] = result
        self._layer, self._following = [], []
        self._seen = bytearray()


def goal_reach(board: Board, level: Level, start: Pose) -> Reach:
    """The fewest cards from ``start`` to any goal at ``level`` (a completed :class:`ReachSearch`)."""
    search = ReachSearch(board, level, start)
    search.advance()
    assert search.result is not None
    return search.result
