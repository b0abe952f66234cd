"""The board status (one implementation, in engine.status): each flag, its words, its location."""

from __future__ import annotations

import pytest

from engine.boardfile import parse_board
from engine.errors import BoardError, InputError
from engine.model import Board, Level
from engine.status import UNREACHABLE, BoardStatus, board_problems, board_status, form_status, require_start

S = BoardStatus


@pytest.mark.parametrize(
    ("rows", "status"),
    [
        (["S Z"], S.VALID),
        (["  Z"], S.NO_START),
        (["T Z", "  U"], S.SEVERAL_STARTS),
        (["T  "], S.NO_GOAL),
        (["   "], S.NO_START | S.NO_GOAL),
        (["TSZ", "   "], S.SEVERAL_STARTS),
        (["TS "], S.SEVERAL_STARTS | S.NO_GOAL),
    ],
)
def test_form_flags(rows: list[str], status: BoardStatus) -> None:
    board = Board.from_strings(rows)
    assert form_status(board) == status
    assert board_status(board, Level) == status  # no reachability search without one start and a goal
    assert [p.flag for p in board_problems(board, status)] == [flag for flag in S if flag in status and flag.name]


def test_unreachable_flags_per_level() -> None:
    walled = Board.from_strings(["T   ", "  j ", " cZb", "  f "])  # the goal is boxed in by walls
    assert board_status(walled) == S.VALID  # no level asked for: no search
    assert board_status(walled, Level) == S.UNREACHABLE_EASY | S.UNREACHABLE_NORMAL | S.UNREACHABLE_HARD
    holes = Board.from_strings(["HHHHHHH", "HT H ZH", "HHHHHHH"])  # holes are floor on easy only
    assert board_status(holes, Level) == S.UNREACHABLE_NORMAL | S.UNREACHABLE_HARD
    assert board_status(holes, [Level.EASY]) == S.VALID
    edge = Board.from_strings(["S Z"])  # facing the edge: hard kills a careless move, but a turn saves it
    assert board_status(edge, Level) == S.VALID
    assert set(UNREACHABLE) == set(Level) and S.UNWINNABLE & S.NO_GAME == S.VALID


def test_every_flag_has_its_own_message() -> None:
    board = Board.from_strings(["TS "])
    everything = S.NO_START | S.SEVERAL_STARTS | S.NO_GOAL | S.UNWINNABLE
    problems = board_problems(board, everything)
    assert [p.flag for p in problems] == [
        S.NO_START,
        S.SEVERAL_STARTS,
        S.NO_GOAL,
        S.UNREACHABLE_EASY,
        S.UNREACHABLE_NORMAL,
        S.UNREACHABLE_HARD,
    ]
    assert len({p.message for p in problems}) == len(problems)
    assert [p.level for p in problems[3:]] == [Level.EASY, Level.NORMAL, Level.HARD]
    assert problems[3].message == "easy: no goal can be reached from the start"


def test_require_start_gives_one_located_line() -> None:
    with pytest.raises(BoardError) as none:
        require_start(parse_board("2 1\n Z\n"), "b.dat")
    assert str(none.value) == "b.dat: no start tile (S, T, U or V): a board needs exactly one"
    with pytest.raises(BoardError) as two:
        require_start(parse_board("3 2\nT Z\n  S\n"), "b.dat")
    assert str(two.value) == "b.dat:3:3: 2 start tiles (at 0 0, 2 1): a board needs exactly one"
    many = parse_board("6 1\nSSSSSZ\n")
    with pytest.raises(BoardError, match=r"5 start tiles \(at 0 0, 1 0, 2 0, 3 0, \.\.\.\)"):
        require_start(many)
    assert require_start(parse_board("2 1\n Z\n").with_tile(0, 0, parse_board("1 1\nS\n").tile(0, 0))).x == 0
    no_goal = parse_board("2 1\nT \n")
    assert require_start(no_goal) == no_goal.start
    with pytest.raises(BoardError, match="no goal tile"):
        require_start(no_goal, need_goal=True)


def test_board_start_uses_the_same_words() -> None:
    with pytest.raises(InputError, match=r"^no start tile \(S, T, U or V\): a board needs exactly one$"):
        _ = Board.from_strings(["  Z"]).start


def test_game_start_is_the_given_pose_on_the_board_or_the_start_tile() -> None:
    from engine.model import Direction, Pose
    from engine.status import game_start

    board = parse_board("3 1\nT Z\n")
    assert game_start(board) == board.start
    assert game_start(board, Pose(1, 0, Direction.LEFT)) == Pose(1, 0, Direction.LEFT)
    with pytest.raises(BoardError, match=r"^--start 5 0 L lies outside the 3x1 board$"):
        game_start(board, Pose(5, 0, Direction.LEFT))
    with pytest.raises(BoardError, match=r"^b\.dat: no start tile"):
        game_start(parse_board("3 1\n  Z\n"), None, "b.dat")
    assert game_start(parse_board("3 1\n  Z\n"), Pose(0, 0, Direction.UP)).x == 0  # --start needs no start tile
