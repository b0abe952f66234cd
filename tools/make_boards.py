"""Write the project's own boards into ``gameboards/`` (never touches ``chop.dat``).

The small boards are drawn by hand below, row by row. The three large ones are
assembled from hand-drawn 12x12 modules laid out on a grid and joined by belt
highways and floor corridors, so that even the 100x100 board reads like a
factory floor and not like noise. Run ``python3 tools/make_boards.py`` from the
repository root; the committed ``.dat`` files are what count.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.boardfile import write_board  # noqa: E402
from engine.model import WALL_CHARS, Board  # noqa: E402
from engine.wording import counted  # noqa: E402

# --- small hand-drawn boards -------------------------------------------------------------------

TINY = ["TZ"]

CROSSING_5X3 = [
    "V>>vH",
    " OLv ",
    "DR<>Z",
]

OIL_RUNS_12X8 = [
    "V  OOOb  H  ",
    "    OOOH    ",
    "OOO  a  OOOO",
    "  OOO>>v  j ",
    " H     v  Z ",
    "  OOOOO^L   ",
    "^ k H   OOO ",
    "^<<  OOOOZ  ",
]

BELT_MAZE_20X8 = [
    "   >>>>>v   ><   g  ",
    " U ^    v  ^  v  <<<",
    "   ^    >>>^  >>>>v ",
    " >>^ HH       ^   v ",
    "   H<<<<<<    ^OO<< ",
    "    v    ^  R     Z ",
    "  >>v  >>^ >OO^   H ",
    "  ^ L  ^   <<<<<<<< ",
]

PUSHER_WORKS_12X12 = [
    "T DR   FH  E",
    "   Db   O  O",
    " HDHi   O  b",
    "    EL   CH ",
    " i  >N  DOO ",
    "     v  Dp  ",
    " m   M  ^   ",
    "  LC    F  Z",
    " HcC    L   ",
    "    v  DHDR ",
    "  >>N   k   ",
    "  E   F   Z ",
]

WALL_GARDEN_12X12 = [
    "S a b c d e ",
    " f g h i j  ",
    "k l m n o p ",
    "  bc  de  fg",
    "hi  jk  lm  ",
    " no  pa  bc ",
    "    feeeg   ",
    "    b   c   ",
    "    b Z c   ",
    "    jiaik   ",
    " ggg    nnn ",
    "            ",
]

NO_WAY_TO_GOAL = [
    "T   >>>v ",
    "  ppppp v",
    " Dp   pDH",
    "  p Z p  ",
    "  p   p O",
    "  ppppp O",
    "^<<< R  O",
]

MANY_GOALS_16X10 = [
    "Z    H    OOO  Z",
    " ee    R      H ",
    "   >>>>v   L    ",
    " H     v  f  HH ",
    "    S  >>>>Z    ",
    "   L      ^  R  ",
    " OOOO   ^<<     ",
    "      H  e   H  ",
    "  i    DR   <<<<",
    "Z   H      H    ",
]

CRUSHER_ROW_9X5 = [
    "U    v   ",
    " >N  M< Z",
    "  EvOMv  ",
    "   N  E  ",
    " D M  >>Z",
]

# --- 12x12 modules for the large boards (no start or goal inside) ------------------------------

MODULES: list[list[str]] = [
    [  # belt loop with a rotator hub
        "            ",
        " >>>>>>>>v  ",
        " ^       v  ",
        " ^  R L  v  ",
        " ^       v  ",
        " ^<<<<<<<<  ",
        "            ",
        "  OOO  H    ",
        "  O>>v      ",
        "  O  v  DR  ",
        "  ^<<<  E   ",
        "            ",
    ],
    [  # walled rooms with one door each
        "fhhhhg fhhhg",
        "b    c b   c",
        "b  L c b R c",
        "b    c b    ",
        "jiiaik jiiik",
        "            ",
        " fhhg  fhhg ",
        " b  c  b  c ",
        " b  a  b  c ",
        " jiik  jaik ",
        "            ",
        "   p    p   ",
    ],
    [  # oil pond with holes on its far shore
        "            ",
        "   OOOOOO   ",
        "  OOOOOOOO  ",
        " OOOOOOOOOOH",
        " OOOOOOOOOO ",
        " OOOOOOOOOOH",
        "  OOOOOOOO  ",
        "   OOOOOO   ",
        "    H  H    ",
        "            ",
        " >>>>OO>>v  ",
        "         v  ",
    ],
    [  # crusher gate and pushers
        "     v      ",
        "  D  N  C   ",
        "  b     c   ",
        "  >>N  M    ",
        "        F   ",
        " E  H  H  F ",
        "    ^  v    ",
        "  >>^  >>v  ",
        "         M  ",
        "    DH  R   ",
        " L       CL ",
        "            ",
    ],
    [  # chop.dat's layout with start and goal removed (the contest's own style)
        "  e ev^f eF ",
        "<N<<<<^  DH ",
        "b  k LR    c",
        ">>>O>>>>>>>>",
        "b  Rp    ^ g",
        "  HL  ivf^<<",
        "   i<<<L>>>>",
        "je   H^    c",
        "<<<L bRc    ",
        "b  ^  ^DH<<c",
        "   ^  ^   ^ ",
        "  i^k ^i i^ ",
    ],
    [  # a small wall maze with a box in the middle
        "fe e e e eeg",
        "b   i      c",
        "b mm  ioo  c",
        "b   b   b  c",
        "bkk b p b  c",
        "b   b   b  c",
        "b iim  bjj c",
        "b      b   c",
        "bhh e  b   c",
        "b   b      c",
        "b   b  R   c",
        "ji i iii iik",
    ],
    [  # a conveyor spiral that winds inwards onto a crusher
        ">>>>>>>>>>>v",
        "^>>>>>>>>v v",
        "^^       v v",
        "^^ >>>>v v v",
        "^^ ^   v v v",
        "^^ ^ M v v v",
        "^^ ^ ^<< v v",
        "^^ ^     v v",
        "^^ ^<<<<<< v",
        "^^         v",
        "^<<<<<<<<<<<",
        "            ",
    ],
    [  # quiet floor with a few walls (a place to think)
        "            ",
        "  i      i  ",
        "            ",
        "   e    e   ",
        "            ",
        "     L      ",
        "            ",
        "   i    i   ",
        "            ",
        "  e      e  ",
        "            ",
        "            ",
    ],
]


_ROTATE = str.maketrans("<^>vCEDFMNSUTV", "^>v<EDFCNMUTVS")
_MIRROR = str.maketrans("<>CDLRST", "><DCRLTS")


def _wall_char(char: str, bit_map: dict[int, int]) -> str:
    if char not in WALL_CHARS:
        return char
    bits = WALL_CHARS.index(char)
    return WALL_CHARS[sum(new for old, new in bit_map.items() if bits & old)]


def rotate(rows: list[str]) -> list[str]:
    """The module turned 90 degrees clockwise: belts, pushers, crushers, starts and walls turn with it."""
    size = len(rows)
    turned = ["".join(rows[size - 1 - x][y] for x in range(size)) for y in range(size)]
    walls = {1: 4, 4: 2, 2: 8, 8: 1}  # left -> up -> right -> down -> left
    return ["".join(_wall_char(c, walls) for c in row.translate(_ROTATE)) for row in turned]


def mirror(rows: list[str]) -> list[str]:
    """The module mirrored left-right: left and right swap, and so do the rotators' senses."""
    walls = {1: 2, 2: 1, 4: 4, 8: 8}
    return ["".join(_wall_char(c, walls) for c in row[::-1].translate(_MIRROR)) for row in rows]


def transformed(rows: list[str], turn: int) -> list[str]:
    """One of the eight symmetries of the square: ``turn`` 0-3 quarter turns, 4-7 also mirrored."""
    if turn >= 4:
        rows = mirror(rows)
    for _ in range(turn % 4):
        rows = rotate(rows)
    return rows


def _check_module(rows: list[str]) -> list[str]:
    assert len(rows) == 12 and all(len(r) == 12 for r in rows), rows
    assert not set("".join(rows)) & set("STUVZ"), "modules carry no start or goal"
    return rows


def assemble(
    blocks_x: int, blocks_y: int, order: list[int], gap: int, margin: int, turns: list[int] | None = None
) -> list[list[str]]:
    """A grid of modules, ``gap`` tiles apart, ``margin`` tiles from the edge; returns mutable rows.

    ``turns`` (optional, cycled like ``order``) picks a symmetry for each module (see ``transformed``).
    """
    width = 2 * margin + blocks_x * 12 + (blocks_x - 1) * gap
    height = 2 * margin + blocks_y * 12 + (blocks_y - 1) * gap
    grid = [[" "] * width for _ in range(height)]
    for by in range(blocks_y):
        for bx in range(blocks_x):
            index = by * blocks_x + bx
            module = _check_module(MODULES[order[index % len(order)]])
            if turns:
                module = transformed(module, turns[index % len(turns)])
            ox, oy = margin + bx * (12 + gap), margin + by * (12 + gap)
            for y, row in enumerate(module):
                for x, char in enumerate(row):
                    grid[oy + y][ox + x] = char
    return grid


def _put(grid: list[list[str]], x: int, y: int, text: str) -> None:
    for i, char in enumerate(text):
        grid[y][x + i] = char


def factory_32x32() -> list[str]:
    grid = assemble(2, 2, [0, 3, 2, 4], gap=4, margin=2)  # 2 + 12 + 4 + 12 + 2 = 32
    # A belt ring around the outside, running clockwise; each corner turns the robot right.
    for i in range(32):
        grid[0][i], grid[31][i], grid[i][0], grid[i][31] = ">", "<", "^", "v"
    grid[0][0], grid[0][31], grid[31][31], grid[31][0] = ">", "v", "<", "^"
    # The cross corridor: an oil strip with holes at one end, and a goal at the centre.
    _put(grid, 14, 15, "OO")
    _put(grid, 14, 16, "HZ")
    grid[1][1] = "T"
    return ["".join(r) for r in grid]


def corridor_64x16() -> list[str]:
    # Five modules of 12 with gaps of 1: 60 + 4 = 64 wide, 12 high, plus two lanes above and below.
    grid = assemble(5, 1, [1, 0, 3, 2, 5], gap=1, margin=0)
    lanes = [[" "] * 64 for _ in range(4)]
    # Top lanes: an eastbound belt meeting a westbound one head-on in the middle.
    lanes[0] = list(">" * 31 + "<" * 33)
    lanes[1] = list(" " * 64)
    # Bottom lanes: westbound belt with oil patches, and a hole row at the far end.
    lanes[2] = list(" " * 64)
    lanes[3] = list(("<<<<OOO<<<<<<<<<OOO" + "<" * 22 + "OO" + "<" * 18 + "HHH").ljust(64, "<"))
    assert len(lanes[3]) == 64
    rows = [lanes[0], lanes[1], *grid, lanes[2], lanes[3]]
    rows[1][0] = "U"
    rows[14][63] = "Z"
    return ["".join(r) for r in rows]


def big_100x100() -> list[str]:
    # Every module kind in every row and column, each placed in one of the eight symmetries.
    order = [(bx * 3 + by * 5) % len(MODULES) for by in range(7) for bx in range(7)]
    turns = [(bx * 5 + by * 3 + bx * by) % 8 for by in range(7) for bx in range(7)]
    order[3 * 7 + 3], turns[3 * 7 + 3] = 2, 0  # the centre is the oil pond, upright (a goal goes in it)
    order[6 * 7 + 6], turns[6 * 7 + 6] = 3, 0  # the far corner is the crusher gate, upright
    grid = assemble(7, 7, order, gap=2, margin=3, turns=turns)  # 3 + 7 * 12 + 6 * 2 = 99 wide, plus margin
    grid = [row[:100] for row in grid[:100]]  # the ring below takes the last row and column
    # An outer belt ring running anticlockwise, two tiles in from the edge.
    for x in range(1, 99):
        grid[0][x] = "<"
        grid[99][x] = ">"
    for y in range(1, 99):
        grid[y][0] = "v"
        grid[y][99] = "^"
    grid[0][0] = "v"
    grid[99][0] = ">"
    grid[99][99] = "^"
    grid[0][99] = "<"
    # Two oil rivers in the gaps between modules: one runs across the board into the belt ring,
    # one runs down between the modules into a hole.
    for x in range(1, 99):
        grid[43][x] = "O"
    for y in range(17, 71):
        if grid[y][58] == " ":
            grid[y][58] = "O"
    grid[71][58] = "H"
    # Goals: one in the middle of an oil pond (a slide across it stops there), one in the far
    # corner module next to a hole and under a crusher.
    grid[48][48] = "Z"
    grid[96][96] = "Z"
    grid[96][95] = "H"
    grid[2][2] = "S"
    return ["".join(r) for r in grid]


BOARDS: dict[str, list[str]] = {
    "tiny-2x1.dat": TINY,
    "crossing-5x3.dat": CROSSING_5X3,
    "crusher-row-9x5.dat": CRUSHER_ROW_9X5,
    "no-way-to-goal.dat": NO_WAY_TO_GOAL,
    "oil-runs-12x8.dat": OIL_RUNS_12X8,
    "pusher-works-12x12.dat": PUSHER_WORKS_12X12,
    "wall-garden-12x12.dat": WALL_GARDEN_12X12,
    "many-goals-16x10.dat": MANY_GOALS_16X10,
    "belt-maze-20x8.dat": BELT_MAZE_20X8,
}


def all_boards() -> dict[str, list[str]]:
    boards = dict(BOARDS)
    boards["factory-32x32.dat"] = factory_32x32()
    boards["corridor-64x16.dat"] = corridor_64x16()
    boards["big-100x100.dat"] = big_100x100()
    return boards


def main() -> None:
    # Arguments are parsed only so that --help answers (it rewrote every file) and a typo is refused.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    out = ROOT / "gameboards"
    for name, rows in all_boards().items():
        widths = {len(r) for r in rows}
        if len(widths) != 1:
            raise SystemExit(f"{name}: rows of different widths {sorted(widths)}")
        board = Board.from_strings(rows)
        (out / name).write_text(write_board(board), encoding="utf-8", newline="")
        print(
            f"{name}: {board.width}x{board.height}, {counted(len(board.starts), 'start')}, {counted(len(board.goals), 'goal')}"
        )


if __name__ == "__main__":
    main()
