"""Validation: start/goal counts and goal reachability per level, via the engine's play_card."""

from __future__ import annotations

from editor.validate import goal_reach, summary, validate
from engine.boardfile import load_board
from engine.model import Board, Level


def _messages(rows: list[str]) -> list[str]:
    return [p.message for p in validate(Board.from_strings(rows))]


def test_good_board_has_no_problems() -> None:
    board = load_board("gameboards/chop.dat")
    assert validate(board) == []
    assert len(summary(board)) == 3


def test_missing_start() -> None:
    problems = validate(Board.from_strings(["  Z"]))
    assert [p.message for p in problems] == ["no start tile (S, T, U or V): a board needs exactly one"]


def test_two_starts_highlights_both() -> None:
    problems = validate(Board.from_strings(["T Z", "  U"]))
    assert problems[0].message == "2 start tiles (at 0 0, 2 1): a board needs exactly one"
    assert problems[0].tiles == ((0, 0), (2, 1))


def test_no_goal() -> None:
    assert _messages(["T  "]) == ["no goal tile (Z): a board needs at least one"]


def test_walled_off_goal_is_unreachable_at_every_level() -> None:
    # The goal at (2, 2) is boxed in: walls below j, right of c, left of b, above f.
    board = Board.from_strings(["T   ", "  j ", " cZb", "  f "])
    problems = validate(board)
    assert [p.level for p in problems] == [Level.EASY, Level.NORMAL, Level.HARD]
    assert all((2, 2) in p.tiles and (0, 0) in p.tiles for p in problems)


def test_goal_behind_holes_is_reachable_only_on_easy() -> None:
    # Holes are plain floor on easy; on normal and hard the goal's corridor is cut.
    board = Board.from_strings(["HHHHHHH", "HT H ZH", "HHHHHHH"])
    problems = validate(board)
    assert [p.level for p in problems] == [Level.NORMAL, Level.HARD]
    assert goal_reach(board, Level.EASY, board.start).reachable


def test_edge_kills_only_on_hard() -> None:
    # The start faces the left edge; the goal is behind it: turn round, then move 2.
    board = Board.from_strings(["S Z"])
    assert validate(board) == []
    assert goal_reach(board, Level.HARD, board.start).cards == 2  # turn round, then move 2


def test_sliced_search_matches_the_full_one() -> None:
    from editor.validate import Validation

    board = Board.from_strings(["HHHHHHH", "HT H ZH", "HHHHHHH"])
    sliced = Validation(Board(board.rows))  # a fresh board: no cached results
    steps = 0
    while not sliced.advance(max_seconds=0.0, slice_poses=1):
        steps += 1
        assert sliced.pending
    assert steps > 1
    assert sliced.problems == validate(board)
    assert sliced.summary() == summary(board) == ["easy: goal reachable in 2 cards"]  # MF 3, MF 1


def test_one_card_is_said_in_the_singular() -> None:
    """ "Z S": the panel said "goal reachable in 1 cards"."""
    assert summary(Board.from_strings(["Z S"])) == [
        f"{level}: goal reachable in 1 card" for level in ("easy", "normal", "hard")
    ]
