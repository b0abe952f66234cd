"""Tables built from start poses play exactly the poses reachable from them, and grow on demand."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.ai import planner as planner_module
from engine.ai.plan_table import build_table, extend_table, state_index
from engine.ai.plan_value import reachable_states, solve
from engine.ai.planner import plan_for
from engine.model import Board, Direction, Level, Pose
from tests.planner.boards import chop, random_board

# The start is walled into the left room (column 2 has walls on its right side, 'c'); the right
# room has a goal the robot can never reach.
ROOMS = Board.from_strings(
    [
        "T c    ",
        "  c  Z ",
        "  c    ",
    ]
)


@pytest.mark.parametrize("board", [chop(), random_board(12, 8, 8), random_board(5, 9, 7), ROOMS])
@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_rows_of_reachable_poses_equal_the_full_table(board: Board, level: Level) -> None:
    full = build_table(board, level)
    starts = [state_index(board, start) for start in board.starts]
    part = build_table(board, level, starts)
    assert part.built is not None
    reachable = reachable_states(full, starts)
    assert np.array_equal(part.built[: full.poses], reachable[: full.poses])
    rows = part.built
    assert np.array_equal(part.next[:, rows], full.next[:, rows])
    unbuilt = np.nonzero(~rows)[0]
    assert np.array_equal(part.next[:, unbuilt], np.broadcast_to(unbuilt, (len(part.next), len(unbuilt))))
    # The values from the start are the same as with the whole table.
    a, b = solve(full, starts), solve(part, starts)
    assert np.array_equal(a.solved, b.solved)
    assert np.array_equal(a.goal, b.goal) and np.array_equal(a.won, b.won)


def test_walled_in_start_plays_only_its_room() -> None:
    starts = [state_index(ROOMS, start) for start in ROOMS.starts]
    part = build_table(ROOMS, Level.HARD, starts)
    assert part.built is not None
    assert int(part.built[: part.poses].sum()) <= 3 * 3 * 4
    wider = extend_table(ROOMS, Level.HARD, part, [state_index(ROOMS, Pose(5, 1, Direction.RIGHT))])
    assert wider.built is not None and part.built is not None
    assert int(wider.built.sum()) > int(part.built.sum())
    assert extend_table(ROOMS, Level.HARD, wider, starts) is wider  # nothing new to play
    full = build_table(ROOMS, Level.HARD)
    assert np.array_equal(wider.next[:, wider.built], full.next[:, wider.built])


def test_plan_solves_a_pose_outside_the_start_region_on_first_use(tmp_path: Path) -> None:
    planner_module.forget_plans()
    plan = plan_for(ROOMS, Level.NORMAL, cache_dir=tmp_path)
    outside = Pose(4, 1, Direction.RIGHT)
    assert not plan.values.solved[plan.table.state_of(outside)]
    value = plan.value(outside)
    full = build_table(ROOMS, Level.NORMAL)
    expected = solve(full, [full.state_of(outside)])
    assert value.goal_probability == pytest.approx(float(expected.goal[full.state_of(outside)]), abs=1e-9)
    assert value.goal_probability > 0.9
    # The cache file keeps the extended table and values: a fresh process starts from them.
    planner_module.forget_plans()
    again = plan_for(ROOMS, Level.NORMAL, cache_dir=tmp_path)
    assert again.from_cache and again.values.solved[again.table.state_of(outside)]
    assert again.value(outside).goal_probability == value.goal_probability
    planner_module.forget_plans()
