"""Geometric transforms of tiles and boards that keep each tile's *meaning*.

Turning a board is not just moving characters: a conveyor that ran right must run
down after a clockwise quarter turn, a left-right crusher (``M``) becomes a
top-bottom one (``N``), wall bits move to the turned sides, and a mirror swaps
left and right rotators. Everything here is a pure function on the engine's
immutable values, so commands can use them for do and undo alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import TypeVar

from editor.games.base import Transform
from engine.model import (
    CONVEYOR_CHARS,
    PUSHER_CHARS,
    START_CHARS,
    Board,
    Direction,
    Tile,
    TileKind,
)

__all__ = [
    "Transform",
    "remap_tile",
    "remap_walls",
    "rotate_tile",
    "transform_board",
    "transform_rows",
    "transform_tile",
]

DirectionMap = Callable[[Direction], Direction]

_START_BY_DIR = {d: c for c, d in START_CHARS.items()}
_CONVEYOR_BY_DIR = {d: c for c, d in CONVEYOR_CHARS.items()}
_PUSHER_BY_DIR = {d: c for c, d in PUSHER_CHARS.items()}
_HORIZONTAL = (Direction.LEFT, Direction.RIGHT)


def _mirror_h(d: Direction) -> Direction:
    return d.opposite if d in _HORIZONTAL else d


def _mirror_v(d: Direction) -> Direction:
    return d if d in _HORIZONTAL else d.opposite


_DIRECTION_MAPS: dict[Transform, DirectionMap] = {
    Transform.ROTATE_CW: lambda d: d.turned(1),
    Transform.ROTATE_CCW: lambda d: d.turned(-1),
    Transform.MIRROR_H: _mirror_h,
    Transform.MIRROR_V: _mirror_v,
}


def remap_walls(bits: int, mapping: DirectionMap) -> int:
    """Wall bits with every side moved through ``mapping``."""
    return sum(mapping(d).wall_bit for d in Direction if bits & d.wall_bit)


def remap_tile(tile: Tile, mapping: DirectionMap, mirrored: bool) -> Tile:
    """The tile whose meaning is ``tile``'s seen through ``mapping``.

    ``mirrored`` says whether the map reverses handedness (a mirror): then a left
    rotator becomes a right one.
    """
    kind = tile.kind
    if kind is TileKind.FLOOR:
        # ' ' and 'a' both mean "no walls": keep whichever the file used, so transforms round-trip bytes.
        return tile if tile.walls == 0 else Tile.floor(remap_walls(tile.walls, mapping))
    if kind in (TileKind.ROTATOR_LEFT, TileKind.ROTATOR_RIGHT):
        if not mirrored:
            return tile
        return Tile.from_char("R" if kind is TileKind.ROTATOR_LEFT else "L")
    if tile.direction is None:  # hole, oil, goal: no orientation
        return tile
    turned = mapping(tile.direction)
    if kind is TileKind.START:
        return Tile.from_char(_START_BY_DIR[turned])
    if kind is TileKind.CONVEYOR:
        return Tile.from_char(_CONVEYOR_BY_DIR[turned])
    if kind is TileKind.PUSHER:
        return Tile.from_char(_PUSHER_BY_DIR[turned])
    # Crusher: only the axis matters (M presses along left-right, N along up-down).
    return Tile.from_char("M" if turned in _HORIZONTAL else "N")


def transform_tile(tile: Tile, transform: Transform) -> Tile:
    mirrored = transform in (Transform.MIRROR_H, Transform.MIRROR_V)
    return remap_tile(tile, _DIRECTION_MAPS[transform], mirrored)


def rotate_tile(tile: Tile, clockwise: bool = True) -> Tile:
    """The tile turned a quarter in place (the editor's R key)."""
    return transform_tile(tile, Transform.ROTATE_CW if clockwise else Transform.ROTATE_CCW)


T = TypeVar("T")
_char = attrgetter("char")


def transform_rows(rows: Sequence[Sequence[T]], transform: Transform) -> list[list[T]]:
    """The cells of any grid moved by a transform (their meaning is the caller's business): a quarter
    turn makes a ``w`` x ``h`` grid ``h`` x ``w``."""
    # zip transposes in C: no Python work per cell (a 512x512 board is 262,144 cells).
    if transform is Transform.ROTATE_CW:
        # new (nx, ny) came from old (ny, h - 1 - nx): new row ny is old column ny, bottom up.
        return [list(column) for column in zip(*reversed(rows), strict=True)]
    if transform is Transform.ROTATE_CCW:
        # new (nx, ny) came from old (w - 1 - ny, nx): new row ny is old column w - 1 - ny.
        return [list(column) for column in reversed(list(zip(*rows, strict=True)))]
    if transform is Transform.MIRROR_H:
        return [list(reversed(row)) for row in rows]
    return [list(row) for row in reversed(rows)]


def transform_board(board: Board, transform: Transform) -> Board:
    """The whole board turned or mirrored, every tile remapped."""
    source = transform_rows(board.rows, transform)
    turned = _Turned(transform)  # one remap per kind of tile, then C loops over the cells
    return Board(tuple(tuple(map(turned.__getitem__, map(_char, row))) for row in source))


class _Turned(dict[str, Tile]):
    """char -> the tile turned by ``transform``, worked out the first time a char is asked for
    (tiles are identified by their char)."""

    def __init__(self, transform: Transform) -> None:
        super().__init__()
        self.transform = transform

    def __missing__(self, char: str) -> Tile:
        tile = self[char] = transform_tile(Tile.from_char(char), self.transform)
        return tile
