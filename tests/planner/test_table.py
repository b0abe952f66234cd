"""The transition table is exactly ``play_card`` on every pose, card and level (sampled tiles on boards over 1,100 tiles)."""

from __future__ import annotations

import random

import pytest

from engine.ai.plan_table import CARDS, DIRECTIONS, build_table, cards_to_goal
from engine.boardfile import load_board
from engine.events import RobotStatus
from engine.model import Board, Level, Pose
from engine.rules import play_card, play_card_outcome
from tests.planner.boards import CORRIDOR, GAMEBOARDS, UNREACHABLE, random_board

#: Boards up to this many tiles are checked on every pose; bigger ones (100x100 takes ~40 s of
#: play_card calls per level) on every pose of a seeded sample of tiles, to keep the suite fast.
FULL_CHECK_TILES = 1100
SAMPLED_TILES = 600


def assert_table_matches_rules(board: Board, level: Level) -> None:
    table = build_table(board, level)
    assert table.next.shape == (len(CARDS), board.width * board.height * 4 + 2)
    tiles = [(x, y) for y in range(board.height) for x in range(board.width)]
    if len(tiles) > FULL_CHECK_TILES:
        tiles = random.Random(f"{board.width}x{board.height}{level}").sample(tiles, SAMPLED_TILES)
    for x, y in tiles:
        for facing in DIRECTIONS:
            pose = Pose(x, y, facing)
            state = table.state_of(pose)
            assert table.pose_of(state) == pose
            for c, card in enumerate(CARDS):
                result = play_card(board, level, pose, card)
                assert play_card_outcome(board, level, pose, card) == (result.pose, result.status), (pose, card)
                got = int(table.next[c, state])
                if result.status is RobotStatus.DESTROYED:
                    assert got == table.dead, (pose, card)
                elif result.status is RobotStatus.FINISHED:
                    assert got == table.goal, (pose, card)
                else:
                    assert got == table.state_of(result.pose), (pose, card)
    assert (table.next[:, table.dead] == table.dead).all()
    assert (table.next[:, table.goal] == table.goal).all()


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("path", GAMEBOARDS, ids=lambda p: p.name)
def test_table_equals_play_card_on_every_gameboard(path: object, level: Level) -> None:
    assert GAMEBOARDS, "gameboards/*.dat must hold at least chop.dat"
    assert_table_matches_rules(load_board(path), level)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("seed", range(6))
def test_table_equals_play_card_on_random_boards(seed: int, level: Level) -> None:
    assert_table_matches_rules(random_board(seed, 6, 5), level)


def test_cards_to_goal_counts_cards_and_marks_unreachable() -> None:
    table = build_table(CORRIDOR, Level.NORMAL)
    distance = cards_to_goal(table)
    assert distance[table.goal] == 0
    assert distance[table.dead] == -1
    # From (4, 1) facing down one MF 1 reaches the goal at (4, 2).
    assert distance[table.state_of(Pose(4, 1, DIRECTIONS[3]))] == 1
    hopeless = build_table(UNREACHABLE, Level.NORMAL)
    hopeless_distance = cards_to_goal(hopeless)
    for y in range(UNREACHABLE.height):
        for x in range(UNREACHABLE.width):
            if (x, y) not in UNREACHABLE.goals:  # a robot never starts a card on a goal
                for facing in DIRECTIONS:
                    assert hopeless_distance[hopeless.state_of(Pose(x, y, facing))] == -1


@pytest.mark.parametrize("seed", range(4))
def test_occupiable_states_are_exactly_where_games_can_be(seed: int) -> None:
    board = random_board(seed, 6, 5)
    table = build_table(board, Level.HARD)
    live_results = set()
    for y in range(board.height):
        for x in range(board.width):
            for facing in DIRECTIONS:
                for card in CARDS:
                    result = play_card(board, Level.HARD, Pose(x, y, facing), card)
                    if result.status is RobotStatus.ALIVE:
                        live_results.add(table.state_of(result.pose))
    expected = live_results | {table.state_of(p) for p in board.starts}
    assert {int(s) for s in table.occupiable.nonzero()[0]} == expected
    for x, y in board.goals:
        assert not table.occupiable[table.state_of(Pose(x, y, DIRECTIONS[0]))]
