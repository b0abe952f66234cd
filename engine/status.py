"""Is this board playable? One answer for every tool, in the spirit of python-chess's
``Board.status()``: a flag enum where ``VALID`` (no flag) means a game can be played and won
at every level that was searched, and each flag names one problem.

Every front end asks here (``robots-engine check``, ``play``, ``load``, the contest, the oracle,
the viewer and the editor), so a board with no start or several starts gets the same message
everywhere. Whether a goal can be reached is a search (``engine.reach``), done only for the
levels asked for.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.errors import BoardError
from engine.model import Board, Level, Pose
from engine.reach import Reach, goal_reach

Position = tuple[int, int]
START_CHARS = "S, T, U or V"
#: Start tiles named in the message about several starts before it says "...".
SHOWN_STARTS = 4


class BoardStatus(enum.IntFlag):
    """What is wrong with a board; ``VALID`` when nothing is."""

    VALID = 0
    NO_START = enum.auto()
    SEVERAL_STARTS = enum.auto()
    NO_GOAL = enum.auto()
    UNREACHABLE_EASY = enum.auto()
    UNREACHABLE_NORMAL = enum.auto()
    UNREACHABLE_HARD = enum.auto()

    #: No game can even start on the board.
    NO_GAME = NO_START | SEVERAL_STARTS
    #: A game can start but never be won (at some level).
    UNWINNABLE = NO_GOAL | UNREACHABLE_EASY | UNREACHABLE_NORMAL | UNREACHABLE_HARD


UNREACHABLE = {
    Level.EASY: BoardStatus.UNREACHABLE_EASY,
    Level.NORMAL: BoardStatus.UNREACHABLE_NORMAL,
    Level.HARD: BoardStatus.UNREACHABLE_HARD,
}


def form_status(board: Board) -> BoardStatus:
    """The flags that need no search: the start and goal counts."""
    status = BoardStatus.VALID
    if not board.starts:
        status |= BoardStatus.NO_START
    elif len(board.starts) > 1:
        status |= BoardStatus.SEVERAL_STARTS
    if not board.goals:
        status |= BoardStatus.NO_GOAL
    return status


def reach_status(reach: Reach) -> BoardStatus:
    """The flag a finished reachability search adds (``VALID`` when a goal was reached)."""
    return BoardStatus.VALID if reach.reachable else UNREACHABLE[reach.level]


def board_status(board: Board, reach: Iterable[Level] = ()) -> BoardStatus:
    """Every problem of ``board``; the goal is searched for at the levels in ``reach``
    (only when the board has one start and a goal: otherwise there is nothing to search)."""
    status = form_status(board)
    if not status:
        for level in reach:
            status |= reach_status(goal_reach(board, level, board.starts[0]))
    return status


@dataclass(frozen=True)
class BoardProblem:
    """One flag of a status in words, with the tiles it concerns (and its level, if per level)."""

    flag: BoardStatus
    message: str
    tiles: tuple[Position, ...] = ()
    level: Level | None = None

    def error(self, path: str | Path | None = None) -> BoardError:
        """The problem as a located error: the tile it concerns (for several starts, the second)."""
        where = self.tiles[1] if self.flag is BoardStatus.SEVERAL_STARTS else None
        if where is None:
            return BoardError(self.message, path)
        x, y = where
        return BoardError(self.message, path, y + 2, x + 1)  # line 1 is the size line


def _positions(poses: Iterable[Pose]) -> tuple[Position, ...]:
    return tuple((p.x, p.y) for p in poses)


def board_problems(board: Board, status: BoardStatus) -> list[BoardProblem]:
    """``status`` in words, one problem per flag, most basic first."""
    problems: list[BoardProblem] = []
    if BoardStatus.NO_START in status:
        problems.append(BoardProblem(BoardStatus.NO_START, f"no start tile ({START_CHARS}): a board needs exactly one"))
    if BoardStatus.SEVERAL_STARTS in status:
        starts = _positions(board.starts)
        shown = ", ".join(f"{x} {y}" for x, y in starts[:SHOWN_STARTS]) + (
            ", ..." if len(starts) > SHOWN_STARTS else ""
        )
        problems.append(
            BoardProblem(
                BoardStatus.SEVERAL_STARTS,
                f"{len(starts)} start tiles (at {shown}): a board needs exactly one",
                starts,
            )
        )
    if BoardStatus.NO_GOAL in status:
        problems.append(BoardProblem(BoardStatus.NO_GOAL, "no goal tile (Z): a board needs at least one"))
    for level, flag in UNREACHABLE.items():
        if flag in status:
            tiles = _positions(board.starts[:1]) + board.goals
            problems.append(BoardProblem(flag, f"{level.value}: no goal can be reached from the start", tiles, level))
    return problems


def require_goal(board: Board, path: str | Path | None = None) -> None:
    """BoardError when the board has no goal (a game on it could never be won)."""
    if not board.goals:
        raise board_problems(board, BoardStatus.NO_GOAL)[0].error(path)


def game_start(board: Board, start: Pose | None = None, path: str | Path | None = None, what: str = "--start") -> Pose:
    """Where a game on ``board`` (read from ``path``) begins: ``start``, given by the user as
    ``what``, when it lies on the board; without one, the board's one start tile. BoardError otherwise."""
    if start is None:
        return require_start(board, path)
    if not board.in_bounds(start.x, start.y):
        raise BoardError(f"{what} {start.to_bot_line()} lies outside the {board.width}x{board.height} board")
    return start


def require_start(board: Board, path: str | Path | None = None, need_goal: bool = False) -> Pose:
    """The start pose of a board a game is to be played on; BoardError (the first problem)
    when it has no start or several (and, with ``need_goal``, when it has no goal)."""
    status = form_status(board)
    if not need_goal:
        status &= ~BoardStatus.NO_GOAL
    if status:
        raise board_problems(board, status)[0].error(path)
    return board.starts[0]
