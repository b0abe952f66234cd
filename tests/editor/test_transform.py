"""Transforms keep meaning: table-driven over all 36 board characters."""

from __future__ import annotations

import pytest

from editor.transform import Transform, rotate_tile, transform_board, transform_tile
from engine.boardfile import load_board, write_board
from engine.model import BOARD_CHARS, WALL_CHARS, Board, Tile

# char -> (rotate clockwise, rotate anticlockwise, mirror left-right, mirror top-bottom)
# Wall bits: left 1, right 2, up 4, down 8; a=0 ... p=15.
REMAP = {
    " ": "    ",
    "H": "HHHH", "O": "OOOO", "Z": "ZZZZ",
    "S": "UVTS", "T": "VUST", "U": "TSUV", "V": "STVU",
    "L": "LLRR", "R": "RRLL",
    "<": "^v><", ">": "v^<>", "^": "><^v", "v": "<>v^",
    "C": "EFDC", "D": "FECD", "E": "DCEF", "F": "CDFE",
    "M": "NNMM", "N": "MMNN",
}  # fmt: skip


def _walls(bits: int, mapping: dict[int, int]) -> str:
    return WALL_CHARS[sum(mapping[b] for b in (1, 2, 4, 8) if bits & b)]


CW = {1: 4, 4: 2, 2: 8, 8: 1}  # left->up->right->down->left
CCW = {v: k for k, v in CW.items()}
MH = {1: 2, 2: 1, 4: 4, 8: 8}
MV = {1: 1, 2: 2, 4: 8, 8: 4}
for bits, char in enumerate(WALL_CHARS):
    REMAP[char] = "".join(_walls(bits, m) for m in (CW, CCW, MH, MV)) if bits else "    "
REMAP["a"] = "aaaa"
REMAP[" "] = "    "
ORDER = (Transform.ROTATE_CW, Transform.ROTATE_CCW, Transform.MIRROR_H, Transform.MIRROR_V)


def test_table_covers_every_char() -> None:
    assert set(REMAP) == set(BOARD_CHARS) and len(REMAP) == 36


@pytest.mark.parametrize("char", BOARD_CHARS)
@pytest.mark.parametrize("index", range(4))
def test_tile_remap(char: str, index: int) -> None:
    expected = REMAP[char][index]
    got = transform_tile(Tile.from_char(char), ORDER[index]).char
    assert got == expected


def test_spot_checks_by_meaning() -> None:
    assert transform_tile(Tile.from_char("b"), Transform.ROTATE_CW).char == "e"  # wall left -> wall up
    assert transform_tile(Tile.from_char("M"), Transform.ROTATE_CW).char == "N"
    assert rotate_tile(Tile.from_char(">")).char == "v"
    assert rotate_tile(Tile.from_char(">"), clockwise=False).char == "^"


CHOP = load_board("gameboards/chop.dat")
RECT = Board.from_strings(["T>vCDEFMN", "LRHOZbcdp", "<^aijklmn"])


@pytest.mark.parametrize("board", [CHOP, RECT])
def test_rotate_four_times_gives_board_back(board: Board) -> None:
    for t in (Transform.ROTATE_CW, Transform.ROTATE_CCW):
        b = board
        for _ in range(4):
            b = transform_board(b, t)
        assert write_board(b) == write_board(board)


@pytest.mark.parametrize("board", [CHOP, RECT])
@pytest.mark.parametrize("t", [Transform.MIRROR_H, Transform.MIRROR_V])
def test_mirror_twice_gives_board_back(board: Board, t: Transform) -> None:
    assert transform_board(transform_board(board, t), t) == board


@pytest.mark.parametrize("board", [CHOP, RECT])
def test_cw_then_ccw_is_identity_and_sizes_swap(board: Board) -> None:
    turned = transform_board(board, Transform.ROTATE_CW)
    assert (turned.width, turned.height) == (board.height, board.width)
    assert transform_board(turned, Transform.ROTATE_CCW) == board


def test_rotation_moves_tiles() -> None:
    board = Board.from_strings(["T ", "  ", " Z"])  # 2 wide, 3 high
    turned = transform_board(board, Transform.ROTATE_CW)
    assert turned.to_strings() == ["  V", "Z  "]
    mirrored = transform_board(board, Transform.MIRROR_H)
    assert mirrored.to_strings() == [" S", "  ", "Z "]
