"""Small boards for the planner tests: hand-made ones and seeded random ones."""

from __future__ import annotations

import random
from pathlib import Path

from engine.boardfile import load_board
from engine.model import BOARD_CHARS, Board

ROOT = Path(__file__).resolve().parents[2]
GAMEBOARDS = sorted((ROOT / "gameboards").glob("*.dat"))
CHOP = ROOT / "gameboards" / "chop.dat"

_NON_START = [c for c in BOARD_CHARS if c not in "STUVZ"]


def random_board(seed: int, width: int = 5, height: int = 4) -> Board:
    """A random board with every kind of tile, one start and one or two goals."""
    rng = random.Random(seed)
    weights = [6 if c == " " else 1 for c in _NON_START]
    cells = [rng.choices(_NON_START, weights)[0] for _ in range(width * height)]
    spots = rng.sample(range(width * height), 3)
    cells[spots[0]] = rng.choice("STUV")
    cells[spots[1]] = "Z"
    if seed % 2:
        cells[spots[2]] = "Z"
    return Board.from_strings(["".join(cells[y * width : (y + 1) * width]) for y in range(height)])


def chop() -> Board:
    return load_board(CHOP)


# A corridor: start facing right, a hole two tiles ahead, the goal beyond a wall to the right.
CORRIDOR = Board.from_strings(
    [
        "T H  ",
        "     ",
        "    Z",
    ]
)

# A goal that no card sequence can reach: it is boxed in ('p' = walls on all four sides next to it).
UNREACHABLE = Board.from_strings(
    [
        "T   p",
        "   pZ",
        "    p",
    ]
)
