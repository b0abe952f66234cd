"""Tile image names and the board-character -> image mapping."""

from __future__ import annotations

import pytest

from engine.model import BOARD_CHARS, Tile
from themes import TILE_KEYS, tile_key

EXPECTED = {
    " ": "floor",
    "a": "floor",
    "S": "floor",
    "T": "floor",
    "U": "floor",
    "V": "floor",
    "b": "wall-b",
    "c": "wall-c",
    "d": "wall-d",
    "e": "wall-e",
    "f": "wall-f",
    "g": "wall-g",
    "h": "wall-h",
    "i": "wall-i",
    "j": "wall-j",
    "k": "wall-k",
    "l": "wall-l",
    "m": "wall-m",
    "n": "wall-n",
    "o": "wall-o",
    "p": "wall-p",
    "H": "hole",
    "O": "oil",
    "Z": "goal",
    "L": "rotator-left",
    "R": "rotator-right",
    "<": "conveyor-left",
    ">": "conveyor-right",
    "^": "conveyor-up",
    "v": "conveyor-down",
    "C": "pusher-left",
    "D": "pusher-right",
    "E": "pusher-up",
    "F": "pusher-down",
    "M": "crusher-lr",
    "N": "crusher-ud",
}


def test_expected_table_covers_every_board_char() -> None:
    assert set(EXPECTED) == set(BOARD_CHARS) and len(EXPECTED) == 36


@pytest.mark.parametrize("char", list(EXPECTED))
def test_tile_key(char: str) -> None:
    assert tile_key(Tile.from_char(char)) == EXPECTED[char]


def test_tile_keys_are_the_31_drawn_tiles_in_documented_order() -> None:
    assert len(TILE_KEYS) == 31 == len(set(TILE_KEYS))
    assert set(TILE_KEYS) == set(EXPECTED.values())
    assert TILE_KEYS[:16] == ("floor", *(f"wall-{c}" for c in "bcdefghijklmnop"))
    assert TILE_KEYS[16:] == (
        "hole",
        "oil",
        "goal",
        "rotator-left",
        "rotator-right",
        "conveyor-left",
        "conveyor-right",
        "conveyor-up",
        "conveyor-down",
        "pusher-left",
        "pusher-right",
        "pusher-up",
        "pusher-down",
        "crusher-lr",
        "crusher-ud",
    )


def test_wall_key_letter_is_the_wall_bitcode() -> None:
    for bits, letter in enumerate("abcdefghijklmnop"):
        if bits:
            assert tile_key(Tile.floor(bits)) == f"wall-{letter}"
