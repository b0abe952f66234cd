"""``engine.reach``: the fewest cards to a goal, on any board up to the largest, at every level."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

import engine.reach as reach_module
from engine.boardfile import load_board
from engine.cards import Card
from engine.events import RobotStatus
from engine.model import Board, Level, Pose
from engine.reach import ReachSearch, goal_reach
from engine.rules import play_card

GAMEBOARDS = sorted(
    p for p in (Path(__file__).resolve().parents[2] / "gameboards").glob("*.dat") if "big" not in p.name
)


def fewest_cards_by_play_card(board: Board, level: Level, start: Pose) -> int | None:
    """The same question answered the slow, obvious way: ``play_card`` per card, poses in a set."""
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        pose, depth = queue.popleft()
        for card in Card:
            result = play_card(board, level, pose, card)
            if result.status is RobotStatus.FINISHED:
                return depth + 1
            if result.status is RobotStatus.ALIVE and result.pose not in seen:
                seen.add(result.pose)
                queue.append((result.pose, depth + 1))
    return None


@pytest.mark.parametrize("level", list(Level), ids=lambda level: level.value)
@pytest.mark.parametrize("path", GAMEBOARDS, ids=lambda path: path.stem)
def test_fewest_cards_agree_with_play_card(path: Path, level: Level) -> None:
    board = load_board(path)
    if len(board.starts) != 1:
        pytest.skip("a board without exactly one start has nothing to search")
    found = goal_reach(board, level, board.starts[0])
    assert found.cards == fewest_cards_by_play_card(board, level, board.starts[0])
    assert found.reachable is (found.cards is not None) and found.level is level


def test_a_far_goal_on_a_big_open_board_is_reachable() -> None:
    """The search gave up after 200,000 poses and called the goal unreachable: on an open 512 x 512
    board the editor's panel and ``check --reach`` said "goal unreachable" at every level."""
    side = 230  # 211,600 poses, the goal in the far corner: nearly all of them come first
    rows = [" " * side for _ in range(side)]
    rows[0] = "T" + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "Z"
    board = Board.from_strings(rows)
    found = goal_reach(board, Level.EASY, board.starts[0])
    assert found.reachable and found.poses > 200_000
    assert found.cards is not None and found.cards >= 2 * (side - 1) // 3


def test_sliced_search_matches_the_whole_one() -> None:
    board = load_board(GAMEBOARDS[0])
    whole = goal_reach(board, Level.HARD, board.starts[0])
    sliced = ReachSearch(load_board(GAMEBOARDS[0]), Level.HARD, board.starts[0])
    slices = 0
    while not sliced.advance(3):
        slices += 1
    assert sliced.result == whole and slices > 1


def counting_plays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    plays = [0]
    original = reach_module.play_card_outcomes

    def counted(board: Board, level: Level, pose: Pose) -> list[tuple[int, int, object, RobotStatus]]:
        plays[0] += 1
        return original(board, level, pose)  # type: ignore[return-value]

    monkeypatch.setattr(reach_module, "play_card_outcomes", counted)
    return plays


@pytest.mark.parametrize(
    ("rows", "shared"),
    [
        (["T    ", " b  Z"], True),  # walls only: easy and normal see the same board
        (["T  H ", " b  Z"], False),  # a hole is floor at easy only
        (["T  O ", " b  Z"], False),  # so is oil
    ],
)
def test_a_level_that_sees_the_same_board_takes_the_answer(
    monkeypatch: pytest.MonkeyPatch, rows: list[str], shared: bool
) -> None:
    """Easy and normal differ only on holes, oil and crushers: without them the second search
    would play every pose again for the same answer."""
    plays = counting_plays(monkeypatch)
    board = Board.from_strings(rows)
    easy = goal_reach(board, Level.EASY, board.starts[0])
    before = plays[0]
    normal = goal_reach(board, Level.NORMAL, board.starts[0])
    assert before > 0 and (plays[0] == before) is shared
    assert normal.level is Level.NORMAL
    if shared:
        assert (normal.reachable, normal.poses, normal.cards) == (easy.reachable, easy.poses, easy.cards)
    hard = goal_reach(board, Level.HARD, board.starts[0])  # the edge kills: never shared
    assert plays[0] > before and hard.level is Level.HARD
