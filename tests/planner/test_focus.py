"""Focused value iteration (``engine.ai.plan_focus``): certified at the start, equal to the whole solve."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.ai import plan_focus
from engine.ai.plan_table import build_table, cards_to_goal
from engine.ai.plan_value import EPS, TOLERANCE_GOAL, TOLERANCE_ROUNDS, reachable_states, solve
from engine.ai.planner import BoardPlan, Planner, plan_for
from engine.cards import Card
from engine.deck import generate_deck
from engine.game import play_game
from engine.model import Board, Level, Pose

HOPEFUL = np.array([True] * 4 + [False, False])  # four poses, then ``dead`` and ``goal``
REGION = np.array([True, True, False, False, False, False])


def open_board(seed: int = 3, width: int = 100, height: int = 10) -> Board:
    """An open board with scattered holes and belts, the goal a few tiles from the start: most of
    it is reachable, little of it matters from the start."""
    rng = random.Random(seed)
    rows = [[rng.choices(" H<>^v", [40, 2, 1, 1, 1, 1])[0] for _ in range(width)] for _ in range(height)]
    rows[3][3] = "T"
    rows[5][9] = "Z"
    for x, y in ((4, 3), (5, 3), (9, 4), (9, 6), (8, 5), (10, 5)):
        rows[y][x] = " "
    return Board.from_strings(["".join(row) for row in rows])


@pytest.fixture(scope="module")
def solved() -> tuple[Board, object, object, object, int]:
    board = open_board()
    level = Level("hard")
    table = build_table(board, level)
    start = table.state_of(board.start)
    whole = solve(table, [start], time_limit=600)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plan_focus, "FIRST_ROUNDS", 1)  # so the region has to grow
        patch.setattr(plan_focus, "GROW_ROUNDS", 1)
        focused = plan_focus.solve_planned(table, [start], time_limit=600, focus_from=0)
    return board, table, whole, focused, start


def test_the_focused_solve_is_certified_and_solves_fewer_poses(solved) -> None:  # type: ignore[no-untyped-def]
    _, table, whole, focused, start = solved
    assert focused.converged
    assert focused.exit_mass is not None and focused.exit_mass <= plan_focus.EXIT_MASS
    reachable = int(reachable_states(table, [start]).sum())
    assert int(focused.solved.sum()) < 0.9 * reachable
    assert focused.solved[start]
    assert whole.exit_mass is None


def test_the_start_values_equal_the_whole_solve(solved) -> None:  # type: ignore[no-untyped-def]
    _, _, whole, focused, start = solved
    assert focused.goal[start] == pytest.approx(whole.goal[start], abs=10 * TOLERANCE_GOAL)
    assert focused.won[start] == pytest.approx(whole.won[start], abs=10 * TOLERANCE_ROUNDS)


def test_the_choices_at_the_start_are_as_good_as_the_whole_solves(solved) -> None:  # type: ignore[no-untyped-def]
    board, table, whole, focused, _ = solved
    level = Level("hard")
    whole_plan = BoardPlan(board, level, table, whole, from_cache=False)
    focused_plan = BoardPlan(board, level, table, focused, from_cache=False)
    rng = random.Random(1)
    for _ in range(60):
        hand = tuple(rng.choice(list(Card)) for _ in range(8))
        mine = focused_plan.rank(board.start, hand)[0]
        best = whole_plan.rank(board.start, hand)[0]
        # Judged by the whole solve's values: the same tier, rounds within the tolerance.
        assert np.floor(mine.goal_probability / EPS + 0.5) == np.floor(best.goal_probability / EPS + 0.5)
        assert mine.expected_rounds == pytest.approx(best.expected_rounds, abs=1e-3)


def test_stopped_early_the_values_are_lower_bounds(solved) -> None:  # type: ignore[no-untyped-def]
    _, table, whole, _, start = solved
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plan_focus, "FIRST_ROUNDS", 1)
        stopped = plan_focus.solve_planned(table, [start], time_limit=0.0, focus_from=0)
    assert not stopped.converged
    region = stopped.solved
    assert np.all(stopped.goal[region] <= whole.goal[region] + 1e-12)
    assert stopped.goal[start] > 0.0


def test_small_boards_are_solved_whole(solved) -> None:  # type: ignore[no-untyped-def]
    _, table, whole, _, start = solved
    values = plan_focus.solve_planned(table, [start], time_limit=600)
    assert values.exit_mass is None
    assert np.array_equal(values.solved, whole.solved)


def test_a_pose_outside_the_focus_is_solved_when_asked(solved, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    board, _, whole, _, _ = solved
    monkeypatch.setattr(plan_focus, "FOCUS_FROM", 0)
    monkeypatch.setattr(plan_focus, "FIRST_ROUNDS", 1)
    plan = plan_for(board, Level("hard"), cache_dir=None)
    far = next(
        Pose(x, y, board.start.facing)
        for y in range(board.height - 1, 0, -1)
        for x in range(board.width - 1, 0, -1)
        if not plan.values.solved[plan.table.state_of(Pose(x, y, board.start.facing))]
        and whole.solved[plan.table.state_of(Pose(x, y, board.start.facing))]
    )
    value = plan.value(far)
    state = plan.table.state_of(far)
    assert plan.values.solved[state] and plan.values.solved[plan.table.state_of(board.start)]
    assert value.goal_probability == pytest.approx(whole.goal[state], abs=10 * TOLERANCE_GOAL)


def test_a_focused_planner_plays_a_game(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(plan_focus, "FOCUS_FROM", 0)
    game = play_game(open_board(5), Level("hard"), generate_deck(2), Planner(cache_dir=None))
    assert game.outcome is not None and game.outcome.name == "FINISHED"


# exit_flow and policy_values on a hand-made policy: pose 0 moves to 1 (1/2), leaves the region to
# 2 (1/4) or waits (1/4); pose 1 reaches the goal (state 5) surely.
TARGETS = np.array([1, 2, 0, 5], dtype=np.int64)
FIRST = np.array([0, 3, 4, 4, 4, 4, 4], dtype=np.int64)


@pytest.mark.parametrize(
    ("weights", "exit_mass", "goal", "won"),
    [
        ((0.5, 0.25, 0.25), 1 / 3, 2 / 3, (2 / 3 + 0.5) / 0.75),
        ((0.75, 0.0, 0.25), 0.0, 1.0, (1.0 + 0.75) / 0.75),
        ((0.0, 0.75, 0.25), 1.0, 0.0, 0.0),
    ],
)
def test_exit_flow_and_policy_values_on_a_hand_made_policy(weights, exit_mass, goal, won) -> None:  # type: ignore[no-untyped-def]
    probabilities = np.array([*weights, 1.0])
    exits = plan_focus.exit_flow(np.array([0]), REGION, HOPEFUL, TARGETS, probabilities, FIRST, 4, 1e-15)
    assert exits.sum() == pytest.approx(exit_mass, abs=1e-12)
    g, w = plan_focus.policy_values(np.zeros(6), np.zeros(6), REGION, HOPEFUL, TARGETS, probabilities, FIRST, 5)
    assert g[0] == pytest.approx(goal, abs=1e-12)
    assert w[0] == pytest.approx(won, abs=1e-9)
    assert g[1] == 1.0 and w[1] == 1.0


def test_cards_to_goal_bounds_the_optimistic_rounds(solved) -> None:  # type: ignore[no-untyped-def]
    # The outside's optimistic rounds (cards to the goal / 5) never exceed the true expected rounds.
    _, table, whole, _, _ = solved
    distance = cards_to_goal(table)
    poses = np.nonzero(whole.solved[: table.poses] & (whole.goal[: table.poses] > 0))[0]
    rounds = whole.won[poses] / whole.goal[poses]
    assert np.all(np.ceil(distance[poses] / 5) <= rounds + 1e-9)


def test_a_cached_focused_plan_keeps_its_certificate(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from engine.ai.planner import forget_plans

    monkeypatch.setattr(plan_focus, "FOCUS_FROM", 0)
    board = open_board()
    built = plan_for(board, Level("hard"), cache_dir=tmp_path)
    forget_plans()
    loaded = plan_for(board, Level("hard"), cache_dir=tmp_path)
    assert loaded.from_cache and loaded is not built
    assert loaded.values.exit_mass == built.values.exit_mass is not None
    assert np.array_equal(loaded.values.solved, built.values.solved)
    forget_plans()
