"""``rules.cells_within_walls``: a bound on the cells a robot can reach, that the rules never leave.

The table builder's helper plays the rows of the poses on these cells ahead of the search, so the
bound must hold every pose that playing cards reaches (checked against the search itself, which
plays only the rules), and it should stop at walls, holes, goals and the board's edge.
"""

from __future__ import annotations

import pytest

from engine.ai.plan_table import build_table, state_index
from engine.boardfile import load_board
from engine.model import Board, Level
from engine.rules import cells_within_walls
from gameboards import board_names, board_path
from tests.planner.boards import random_board

BOARDS = [(name, load_board(board_path(name))) for name in board_names() if not name.startswith("big-")] + [
    (f"random-{seed}", random_board(seed, 24, 18)) for seed in (3, 14, 21)
]


@pytest.mark.parametrize(("name", "board"), BOARDS, ids=[name for name, _ in BOARDS])
@pytest.mark.parametrize("level", list(Level))
def test_every_pose_the_cards_reach_lies_within_the_bound(name: str, board: Board, level: Level) -> None:
    starts = [state_index(board, start) for start in board.starts]
    table = build_table(board, level, starts)
    assert table.built is not None
    reached = {state // 4 for state in range(table.poses) if table.built[state]}
    bound = cells_within_walls(board, level, {state // 4 for state in starts})
    assert reached <= set(bound)
    assert len(bound) == len(set(bound))


def test_walls_holes_and_goals_close_the_bound() -> None:
    # The start's room is closed by walls on the right of column 2 ('c') and a row of holes below;
    # the goal itself and what lies beyond it are left out too.
    board = Board.from_strings(
        [
            "T c  ",
            "  c Z",
            "HHH  ",
            "     ",
        ]
    )
    cells = cells_within_walls(board, Level.HARD, [0])
    assert sorted(cells) == [0, 1, 2, 5, 6, 7]
    assert cells[0] == 0  # nearest first: the start itself


def test_nearest_first() -> None:
    board = Board.from_strings(["T    "])
    assert cells_within_walls(board, Level.HARD, [0]) == [0, 1, 2, 3, 4]
