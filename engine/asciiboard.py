"""``ascii-board.txt``: a large, readable ASCII drawing of a board and the robot (not meant to be read back).

The contest wrote this file before every round so that a human can follow where the
robot is. Every tile is a block of 4 rows x 5 columns drawn on its own::

    +---+     corners are '+' next to a wall, else '.'; an edge is '---' / '|' where the tile has a wall
    |>>>|     first inner row: what the tile is (3 characters)
    | R>|     second inner row: the robot if it stands here, else more of the tile
    +   +     (a tile without walls has '.' corners and blank edges)

Walls belong to a tile in the board file (``a``-``p`` bit sets, plus the built-in walls of
pushers and crushers), so each block draws exactly its own walls: a wall on the right side
of tile (0, 0) is the ``|`` at the right edge of its block, not the left edge of (1, 0).
The legend is written at the bottom of the file.
"""

from __future__ import annotations

from engine.model import Board, Direction, Pose, Tile, TileKind

BLOCK_WIDTH = 5
BLOCK_HEIGHT = 4

_ARROW = {Direction.LEFT: "<", Direction.RIGHT: ">", Direction.UP: "^", Direction.DOWN: "v"}
#: The robot, drawn in the second inner row of its tile: an ``R`` with an arrow on the side it faces.
ROBOT_GLYPH = {Direction.LEFT: "<R ", Direction.RIGHT: " R>", Direction.UP: " R^", Direction.DOWN: " Rv"}
_PUSHER = {Direction.LEFT: "<=P", Direction.RIGHT: "P=>", Direction.UP: "^P^", Direction.DOWN: "vPv"}


def tile_interior(tile: Tile) -> tuple[str, str]:
    """The two inner rows (3 characters each) that show what ``tile`` is."""
    kind, direction = tile.kind, tile.direction
    if kind is TileKind.FLOOR:
        return "   ", "   "
    if kind is TileKind.HOLE:
        return "( )", "###"
    if kind is TileKind.OIL:
        return "~~~", "~~~"
    if kind is TileKind.GOAL:
        return "[Z]", "   "
    if kind is TileKind.ROTATOR_LEFT:
        return " L ", "<-'"
    if kind is TileKind.ROTATOR_RIGHT:
        return " R ", "'->"
    assert direction is not None
    if kind is TileKind.START:
        return " S ", f" {_ARROW[direction]} "
    if kind is TileKind.CONVEYOR:
        return _ARROW[direction] * 3, _ARROW[direction] * 3
    if kind is TileKind.PUSHER:
        return _PUSHER[direction], _PUSHER[direction]
    # Crushers: M presses from left and right, N from top and bottom; their jaws are also walls.
    if tile.char == "M":
        return "]M[", "]M["
    return "vNv", "^N^"


def _corner(walled: bool) -> str:
    return "+" if walled else "."


def tile_block(tile: Tile, robot: Direction | None = None) -> list[str]:
    """The 4 x 5 block of one tile, its own walls on its edges, the robot inside if given."""
    walls = tile.all_walls()
    up, down = bool(walls & Direction.UP.wall_bit), bool(walls & Direction.DOWN.wall_bit)
    left_wall, right_wall = bool(walls & Direction.LEFT.wall_bit), bool(walls & Direction.RIGHT.wall_bit)
    top = _corner(up or left_wall) + ("---" if up else "   ") + _corner(up or right_wall)
    bottom = _corner(down or left_wall) + ("---" if down else "   ") + _corner(down or right_wall)
    left = "|" if left_wall else " "
    right = "|" if right_wall else " "
    first, second = tile_interior(tile)
    if robot is not None:
        second = ROBOT_GLYPH[robot]
    return [top, left + first + right, left + second + right, bottom]


LEGEND = """\
Legend (each tile is a block of 4 x 5 characters; it draws its own walls):
  +---+  |  wall on that side of the tile ('.' marks the corners of unwalled sides)
  ( ) ###  hole            ~~~  oil               [Z]  goal
   S  + arrow: start tile facing that way
  >>> <<< ^^^ vvv  conveyor belt running that way
  P=> <=P ^P^ vPv  pusher pushing that way (its back side is a wall)
  ]M[  crusher pressing from left and right (walls left and right)
  vNv/^N^  crusher pressing from top and bottom (walls top and bottom)
   L  <-'  rotator turning 90 degrees left     R  '->  rotator turning 90 degrees right
   R> <R   R^  Rv  the robot, facing right / left / up / down
"""


def render_ascii_board(board: Board, pose: Pose | None, *, note: str | None = None) -> str:
    """The whole ``ascii-board.txt`` text: header, numbered drawing, legend.

    ``pose`` may lie off the board (a robot that fell off the edge on the hard level);
    the drawing then shows no robot and the header says where it is. ``note`` is added
    to the header line (e.g. how the game ended).
    """
    margin = len(str(board.height - 1)) + 1
    lines: list[str] = []
    if pose is None:
        lines.append(f"Board {board.width} x {board.height}, no robot")
    else:
        where = "" if board.in_bounds(pose.x, pose.y) else " (off the board)"
        lines.append(f"Board {board.width} x {board.height}, robot at {pose.x} {pose.y} {pose.facing.value}{where}")
    if note:
        lines[0] += f"; {note}"
    lines.append("")
    lines.append(" " * margin + "".join(str(x).center(BLOCK_WIDTH) for x in range(board.width)))
    for y in range(board.height):
        blocks = []
        for x in range(board.width):
            here = pose is not None and pose.x == x and pose.y == y
            blocks.append(tile_block(board.tile(x, y), pose.facing if here and pose is not None else None))
        for row in range(BLOCK_HEIGHT):
            label = str(y).rjust(margin - 1) + " " if row == 1 else " " * margin
            lines.append(label + "".join(block[row] for block in blocks))
    lines.append("")
    return "\n".join(line.rstrip() if i < 2 else line for i, line in enumerate(lines)) + "\n" + LEGEND
