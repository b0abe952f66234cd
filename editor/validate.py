"""Is the board playable? Exactly one start, at least one goal, and a reachable goal per level.

Reachability is a breadth-first search over robot poses from the start pose, trying
all seven card kinds with the engine's own ``play_card`` (never a copy of the rules):
a pose is a state, a card that destroys the robot leads nowhere, a card that ends on
a goal proves the goal reachable. The real game deals cards from a deck, so this is
"reachable with a lucky hand": an unreachable goal is certainly a broken board.
"""

from __future__ import annotations

import time
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


class ReachSearch:
    """Breadth-first search over poses from ``start``, run in slices (``advance``) so that a
    window can spread a big board's search over several frames and stay responsive."""

    def __init__(self, board: Board, level: Level, start: Pose, max_poses: int = 200_000) -> None:
        self.board, self.level, self.start, self.max_poses = board, level, start, max_poses
        self._seen = {start}
        self._queue: deque[tuple[Pose, int]] = deque([(start, 0)])
        cached = board.derived_cache.get(self._key())
        self.result: Reach | None = cached if isinstance(cached, Reach) else None

    def _key(self) -> tuple[object, ...]:
        return ("editor.goal_reach", self.level, self.start)

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


def goal_reach(board: Board, level: Level, start: Pose, max_poses: int = 200_000) -> Reach:
    """The fewest cards from ``start`` to any goal at ``level`` (a completed :class:`ReachSearch`)."""
    search = ReachSearch(board, level, start, max_poses)
    search.advance()
    assert search.result is not None
    return search.result


def basic_problems(board: Board) -> list[Problem]:
    """Start and goal counts: instant, no search."""
    problems: list[Problem] = []
    starts = board.starts
    if not starts:
        problems.append(Problem("no start tile: place one start (S T U V)"))
    elif len(starts) > 1:
        problems.append(
            Problem(f"{len(starts)} start tiles: a board needs exactly one", tuple((p.x, p.y) for p in starts))
        )
    if not board.goals:
        problems.append(Problem("no goal tile: place at least one goal (Z)"))
    return problems


def _unreachable(board: Board, reach: Reach) -> Problem:
    start = board.starts[0]
    return Problem(
        f"{reach.level.value}: no goal can be reached from the start", ((start.x, start.y), *board.goals), reach.level
    )


class Validation:
    """All problems of one board, with the reachability searches done a slice at a time."""

    def __init__(self, board: Board, levels: tuple[Level, ...] = tuple(Level)) -> None:
        self.board = board
        self.basic = basic_problems(board)
        playable = len(board.starts) == 1 and bool(board.goals)
        self.searches = [ReachSearch(board, level, board.starts[0]) for level in levels] if playable else []

    @property
    def done(self) -> bool:
        return all(search.done for search in self.searches)

    def advance(self, max_seconds: float | None = None, slice_poses: int = 64) -> bool:
        """Work on the searches for about ``max_seconds`` (to the end when None); returns ``done``."""
        deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        for search in self.searches:
            while not search.done:
                search.advance(None if deadline is None else slice_poses)
                if deadline is not None and time.perf_counter() >= deadline:
                    return self.done
        return True

    @property
    def problems(self) -> list[Problem]:
        """The problems known so far (complete once ``done``)."""
        found = [
            _unreachable(self.board, s.result) for s in self.searches if s.result is not None and not s.result.reachable
        ]
        return self.basic + found

    @property
    def pending(self) -> list[Level]:
        return [s.level for s in self.searches if not s.done]

    def summary(self) -> list[str]:
        """Lines for the panel: fewest cards per level where the goal is reachable."""
        return [
            f"{s.level.value}: goal reachable in {s.result.cards} cards"
            for s in self.searches
            if s.result is not None and s.result.reachable
        ]


def validate(board: Board, levels: tuple[Level, ...] = tuple(Level)) -> list[Problem]:
    """Every problem of the board, most basic first; an empty list means playable at every level."""
    validation = Validation(board, levels)
    validation.advance()
    return validation.problems


def summary(board: Board) -> list[str]:
    """Lines for the validation panel: fewest cards per level where the goal is reachable."""
    validation = Validation(board)
    validation.advance()
    return validation.summary()
