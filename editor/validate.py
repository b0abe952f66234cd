"""Is the board playable? The engine's board status (``engine.status``: exactly one start, at
least one goal, a reachable goal per level), with the reachability searches (``engine.reach``)
run a slice at a time so the window stays responsive while the panel fills in.
"""

from __future__ import annotations

import time

from engine.model import Board, Level
from engine.reach import ReachSearch, goal_reach
from engine.status import BoardProblem, BoardStatus, board_problems, form_status, reach_status

#: One problem of the board, with the tiles to highlight (and the level, if per level).
Problem = BoardProblem

__all__ = ["Problem", "Validation", "basic_problems", "goal_reach", "summary", "validate"]


def basic_problems(board: Board) -> list[Problem]:
    """Start and goal counts: instant, no search."""
    return board_problems(board, form_status(board))


class Validation:
    """All problems of one board, with the reachability searches done a slice at a time."""

    def __init__(self, board: Board, levels: tuple[Level, ...] = tuple(Level)) -> None:
        self.board = board
        self.form = form_status(board)
        playable = not self.form  # one start and a goal: there is something to search for
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
    def status(self) -> BoardStatus:
        """The board status known so far (complete once ``done``)."""
        status = self.form
        for search in self.searches:
            if search.result is not None:
                status |= reach_status(search.result)
        return status

    @property
    def problems(self) -> list[Problem]:
        """The problems known so far, most basic first (complete once ``done``)."""
        return board_problems(self.board, self.status)

    @property
    def pending(self) -> list[Level]:
        return [s.level for s in self.searches if not s.done]

    def summary(self) -> list[str]:
        """Lines for the panel: fewest cards per level where the goal is reachable."""
        return [
            f"{s.level.value}: goal reachable in {s.result.cards} card{'' if s.result.cards == 1 else 's'}"
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
