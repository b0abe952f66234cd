"""The board file format (RULES.md: Board file): header, rows, padding, line ends, no-break spaces,
errors naming line and column, and what a playable board needs."""

from __future__ import annotations

import pytest

from engine.boardfile import parse_board, write_board
from engine.errors import BoardError, InputError
from engine.model import BOARD_CHARS, Board, Direction, Pose, Tile, TileKind


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        ("2 1\nTZ\n", ["TZ"]),
        ("3 1\nTZ\n", ["TZ "]),  # a short row is padded with floor (editors strip trailing spaces)
        ("3 2\nT\nZ\n", ["T  ", "Z  "]),
        ("3 2\nT\n\n", ["T  ", "   "]),  # an empty row is a row of floor
        ("2 1\r\nTZ\r\n", ["TZ"]),  # \r\n line ends
        ("2 1\nTZ", ["TZ"]),  # no newline after the last row
        ("2  1 \nTZ\n", ["TZ"]),  # any white space between width and height
        ("2 1\nT\u00a0\n", ["T "]),  # a no-break space reads as floor
        ("2 1\nTZ\n\n\n", ["TZ"]),  # blank lines after the board are ignored
        ("36 1\n" + BOARD_CHARS + "\n", [BOARD_CHARS]),
    ],
)
def test_board_text_parses(text: str, rows: list[str]) -> None:
    assert parse_board(text).to_strings() == rows


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("", 1, 1, "empty"),
        ("x 1\nT\n", 1, 1, "WIDTH HEIGHT"),
        ("2\nTZ\n", 1, 1, "WIDTH HEIGHT"),
        ("0 1\n\n", 1, 1, "out of range"),
        ("2 1\nTZX\n", 2, 3, "3 characters long"),
        ("2 1\nTX\n", 2, 2, "unknown board character 'X'"),
        ("3 2\nT Z\n a\t\n", 3, 3, "unknown board character '\\t'"),
        ("2 2\nTZ\n", 3, 1, "missing row 2 of 2"),
        ("2 1\nTZ\n\nZ\n", 4, 1, "after the board"),
        ("2 1\rTZ\r", 1, 4, "lone carriage return (CR, as on old Macs)"),  # was "not '2 1\\rTZ'"
    ],
)
def test_bad_board_text_names_line_and_column(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(InputError) as info:
        parse_board(text, "b.dat")
    error = info.value
    assert (error.path, error.line, error.column) == ("b.dat", line, column)
    assert words in error.message
    assert str(error).startswith(f"b.dat:{line}:{column}: ")
    assert "\n" not in str(error)


def test_writer_gives_canonical_text() -> None:
    board = parse_board("3 2\r\nT\r\n Z\r\n")
    assert write_board(board) == "3 2\nT  \n Z \n"


@pytest.mark.parametrize(
    ("char", "walls"),
    [(c, i) for i, c in enumerate("abcdefghijklmnop")],
)
def test_wall_letters_are_bit_sets(char: str, walls: int) -> None:
    tile = Tile.from_char(char)
    assert tile.kind is TileKind.FLOOR
    assert tile.walls == walls
    assert Tile.floor(walls).walls == walls


@pytest.mark.parametrize(
    ("char", "kind", "direction", "builtin_walls"),
    [
        (" ", TileKind.FLOOR, None, 0),
        ("H", TileKind.HOLE, None, 0),
        ("O", TileKind.OIL, None, 0),
        ("Z", TileKind.GOAL, None, 0),
        ("S", TileKind.START, Direction.LEFT, 0),
        ("T", TileKind.START, Direction.RIGHT, 0),
        ("U", TileKind.START, Direction.UP, 0),
        ("V", TileKind.START, Direction.DOWN, 0),
        ("L", TileKind.ROTATOR_LEFT, None, 0),
        ("R", TileKind.ROTATOR_RIGHT, None, 0),
        ("<", TileKind.CONVEYOR, Direction.LEFT, 0),
        (">", TileKind.CONVEYOR, Direction.RIGHT, 0),
        ("^", TileKind.CONVEYOR, Direction.UP, 0),
        ("v", TileKind.CONVEYOR, Direction.DOWN, 0),
        ("C", TileKind.PUSHER, Direction.LEFT, 2),  # pushes left, wall on its right
        ("D", TileKind.PUSHER, Direction.RIGHT, 1),
        ("E", TileKind.PUSHER, Direction.UP, 8),
        ("F", TileKind.PUSHER, Direction.DOWN, 4),
        ("M", TileKind.CRUSHER, Direction.RIGHT, 1 | 2),  # jaws left and right
        ("N", TileKind.CRUSHER, Direction.DOWN, 4 | 8),  # jaws top and bottom
    ],
)
def test_character_meanings(char: str, kind: TileKind, direction: Direction | None, builtin_walls: int) -> None:
    tile = Tile.from_char(char)
    assert (tile.kind, tile.direction, tile.builtin_walls()) == (kind, direction, builtin_walls)


@pytest.mark.parametrize(
    ("rows", "playable"),
    [(["TZ"], True), (["T Z Z"], True), (["  Z"], False), (["TSZ"], False), (["T"], True)],
)
def test_a_playable_board_has_exactly_one_start(rows: list[str], playable: bool) -> None:
    board = Board.from_strings(rows)
    if playable:
        assert isinstance(board.start, Pose)
    else:
        with pytest.raises(BoardError, match="a board needs exactly one"):
            _ = board.start
