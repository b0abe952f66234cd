"""ascii-board.txt: every tile drawn, walls on the right sides, the robot where it stands."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.asciiboard import BLOCK_HEIGHT, BLOCK_WIDTH, LEGEND, ROBOT_GLYPH, render_ascii_board, tile_block
from engine.boardfile import load_board
from engine.model import BOARD_CHARS, Board, Direction, Pose, Tile

CHOP = Path(__file__).resolve().parents[2] / "gameboards" / "chop.dat"


def drawing(text: str) -> list[str]:
    """The board rows of the rendered file (between the column-number line and the legend)."""
    lines = text.split("\n")
    end = lines.index("", 3)
    return lines[3:end]


def block_at(text: str, board: Board, x: int, y: int) -> list[str]:
    margin = len(str(board.height - 1)) + 1
    rows = drawing(text)[y * BLOCK_HEIGHT : (y + 1) * BLOCK_HEIGHT]
    return [row[margin + x * BLOCK_WIDTH : margin + (x + 1) * BLOCK_WIDTH] for row in rows]


# What the first inner row shows for each character (walls are checked separately).
EXPECTED_FIRST_ROW = {
    " ": "   ",
    "H": "( )",
    "O": "~~~",
    "Z": "[Z]",
    "L": " L ",
    "R": " R ",
    "S": " S ",
    "T": " S ",
    "U": " S ",
    "V": " S ",
    "<": "<<<",
    ">": ">>>",
    "^": "^^^",
    "v": "vvv",
    "C": "<=P",
    "D": "P=>",
    "E": "^P^",
    "F": "vPv",
    "M": "]M[",
    "N": "vNv",
    **{c: "   " for c in "abcdefghijklmnop"},
}


@pytest.mark.parametrize("char", list(BOARD_CHARS))
def test_every_tile_char_renders_with_its_own_walls(char: str) -> None:
    tile = Tile.from_char(char)
    block = tile_block(tile)
    assert len(block) == BLOCK_HEIGHT and all(len(row) == BLOCK_WIDTH for row in block)
    assert block[1][1:4] == EXPECTED_FIRST_ROW[char]
    walls = tile.all_walls()
    assert (block[0][1:4] == "---") == bool(walls & Direction.UP.wall_bit)
    assert (block[3][1:4] == "---") == bool(walls & Direction.DOWN.wall_bit)
    assert (block[1][0] == "|" and block[2][0] == "|") == bool(walls & Direction.LEFT.wall_bit)
    assert (block[1][4] == "|" and block[2][4] == "|") == bool(walls & Direction.RIGHT.wall_bit)


def test_tiles_of_different_kind_or_direction_look_different() -> None:
    looks = {char: tuple(tile_block(Tile.from_char(char))) for char in BOARD_CHARS}
    assert looks["a"] == looks[" "]  # 'a' is floor with no walls: the same tile as a space
    del looks["a"]
    assert len(set(looks.values())) == len(looks)


@pytest.mark.parametrize(("char", "side"), [("b", "left"), ("c", "right"), ("e", "up"), ("i", "down")])
def test_a_wall_is_drawn_on_the_side_of_the_tile_that_has_it(char: str, side: str) -> None:
    board = Board.from_strings([" " * 3, " " + char + " ", " " * 3])
    text = render_ascii_board(board, None)
    block = block_at(text, board, 1, 1)
    assert {"left": block[1][0], "right": block[1][4], "up": block[0][1:4], "down": block[3][1:4]}[side] in ("|", "---")
    # The neighbour on that side draws no wall of its own.
    nx, ny = {"left": (0, 1), "right": (2, 1), "up": (1, 0), "down": (1, 2)}[side]
    assert "|" not in "".join(block_at(text, board, nx, ny)) and "---" not in "".join(block_at(text, board, nx, ny))


def test_chop_walls_and_pusher_back_walls_are_where_the_board_says() -> None:
    board = load_board(CHOP)
    text = render_ascii_board(board, None)
    # Row 0 of chop.dat is 'V e ev^f eF ': x=7 is 'f' (walls left+up), x=10 'F' (pusher down, wall on top).
    assert board.tile(7, 0).char == "f"
    f_block = block_at(text, board, 7, 0)
    assert f_block[0][1:4] == "---" and f_block[1][0] == "|" and f_block[1][4] == " "
    pusher = block_at(text, board, 10, 0)
    assert pusher[0][1:4] == "---" and pusher[3][1:4] == "   " and pusher[1][1:4] == "vPv"


@pytest.mark.parametrize("facing", list(Direction))
def test_the_robot_is_drawn_at_its_tile_facing_its_way(facing: Direction) -> None:
    board = load_board(CHOP)
    pose = Pose(7, 4, facing)
    text = render_ascii_board(board, pose)
    assert block_at(text, board, 7, 4)[2][1:4] == ROBOT_GLYPH[facing]
    assert sum(line.count(ROBOT_GLYPH[facing]) for line in drawing(text)) == 1
    assert text.startswith(f"Board 12 x 12, robot at 7 4 {facing.value}\n")


def test_a_robot_off_the_board_is_named_in_the_header_and_not_drawn() -> None:
    board = load_board(CHOP)
    text = render_ascii_board(board, Pose(-1, 3, Direction.LEFT))
    assert "robot at -1 3 L (off the board)" in text.splitlines()[0]
    assert not any(glyph in line for glyph in ROBOT_GLYPH.values() for line in drawing(text))


@pytest.mark.parametrize("rows", [["T"], ["TZ"], ["V", "Z"], ["T" + " " * 10 + "Z"] * 12])
def test_every_drawing_line_has_the_same_width(rows: list[str]) -> None:
    board = Board.from_strings(rows)
    text = render_ascii_board(board, board.starts[0])
    lines = drawing(text)
    assert len(lines) == BLOCK_HEIGHT * board.height
    margin = len(str(board.height - 1)) + 1
    widths = {len(line) for line in lines} | {len(text.split("\n")[2])}
    assert widths == {margin + BLOCK_WIDTH * board.width}


def test_the_legend_closes_the_file() -> None:
    board = load_board(CHOP)
    assert render_ascii_board(board, board.start).endswith(LEGEND)
    assert "Legend" in LEGEND


def test_a_note_goes_into_the_header_line() -> None:
    board = load_board(CHOP)
    text = render_ascii_board(board, Pose(2, 5, Direction.RIGHT), note="game over: X (robot destroyed)")
    assert text.splitlines()[0] == "Board 12 x 12, robot at 2 5 R; game over: X (robot destroyed)"
