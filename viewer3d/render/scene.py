"""Turn a board into GPU-ready arrays (numpy only, no GL), vectorised so a 512x512 board
builds in a fraction of a second.

* the per-tile info texel (theme layer, walls on the tile's four edges, kind code, phase),
* one instance row per static or animated box (wall slabs, crates, pusher plates, crusher
  jaws, goal flags, the board's rim),
* one light column per goal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engine.model import BOARD_CHARS, Board, Direction, Tile, TileKind
from viewer3d.fallback_theme import tile_key

WALL_HEIGHT = 0.42
FLAG_CORNER = 0.08  # the flag pole's distance from the goal tile's back (-x, -z) edges
FLAG_TOP = 1.15  # the cloth hangs from 0.99 to this, above the robot (0.88 high)
WALL_HALF_THICKNESS = 0.06
INSTANCE_FLOATS = 15  # center3 half3 colour3 move3 tile2 material1

MATERIAL_PLAIN, MATERIAL_WALL, MATERIAL_CRATE, MATERIAL_HAZARD, MATERIAL_EMISSIVE = 0.0, 1.0, 2.0, 3.0, 4.0

KIND_FLOOR, KIND_HOLE, KIND_CONVEYOR, KIND_ROTATOR_LEFT, KIND_ROTATOR_RIGHT = 0, 1, 2, 3, 4
KIND_PUSHER, KIND_CRUSHER, KIND_GOAL, KIND_OIL = 5, 6, 7, 8
#: The info texel's blue byte: the kind in the low KIND_BITS bits, the direction code above them.
KIND_BITS = 4
KIND_MASK = (1 << KIND_BITS) - 1
DIRECTION_CODE = {Direction.LEFT: 0, Direction.RIGHT: 1, Direction.UP: 2, Direction.DOWN: 3}
_KIND_CODE = {
    TileKind.FLOOR: KIND_FLOOR,
    TileKind.START: KIND_FLOOR,
    TileKind.HOLE: KIND_HOLE,
    TileKind.OIL: KIND_OIL,
    TileKind.GOAL: KIND_GOAL,
    TileKind.ROTATOR_LEFT: KIND_ROTATOR_LEFT,
    TileKind.ROTATOR_RIGHT: KIND_ROTATOR_RIGHT,
    TileKind.CONVEYOR: KIND_CONVEYOR,
    TileKind.PUSHER: KIND_PUSHER,
    TileKind.CRUSHER: KIND_CRUSHER,
}
CRATE_CHAR = "p"


def _char_table(value: object) -> NDArray[np.int64]:
    table = np.zeros(256, dtype=np.int64)
    for char in BOARD_CHARS:
        table[ord(char)] = value(Tile.from_char(char))  # type: ignore[operator]
    return table


_WALLS = _char_table(lambda t: t.all_walls())
_KINDS = _char_table(
    lambda t: (
        _KIND_CODE[t.kind]
        | (DIRECTION_CODE[t.direction] << KIND_BITS if t.direction and t.kind is not TileKind.START else 0)
    )
)
_DX = _char_table(lambda t: t.direction.dx if t.direction else 0)
_DY = _char_table(lambda t: t.direction.dy if t.direction else 0)


def board_chars(board: Board) -> NDArray[np.uint8]:
    """The board as a (height, width) array of character codes."""
    text = "".join(board.to_strings()).encode("ascii")
    return np.frombuffer(text, dtype=np.uint8).reshape(board.height, board.width)


def layer_table(keys: dict[str, int]) -> NDArray[np.uint8]:
    """char code -> texture layer: every tile draws its own picture on the floor, so a wall tile's
    art lies under its 3D slabs (the theme's meaning of ``wall-b``..``wall-p``, see docs/themes.md)."""
    table = np.zeros(256, dtype=np.uint8)
    for char in BOARD_CHARS:
        table[ord(char)] = keys.get(tile_key(char), keys.get("floor", 0))
    return table


@dataclass(frozen=True)
class SceneArrays:
    chars: NDArray[np.uint8]  # (h, w) character codes
    info: NDArray[np.uint8]  # (h, w, 4) layer (filled per theme), edge walls, kind|dir<<4, phase
    instances: NDArray[np.float32]  # (n, INSTANCE_FLOATS)
    glows: NDArray[np.float32]  # (g, 6) centre, half
    wall_edges: int


def _rows(
    center: NDArray[np.float64],
    half: NDArray[np.float64],
    colour: tuple[float, float, float],
    material: float,
    move: NDArray[np.float64] | None = None,
    tiles: NDArray[Any] | None = None,
) -> NDArray[np.float32]:
    count = len(center)
    rows = np.zeros((count, INSTANCE_FLOATS), dtype=np.float32)
    rows[:, 0:3] = center
    rows[:, 3:6] = half
    rows[:, 6:9] = colour
    rows[:, 9:12] = 0.0 if move is None else move
    rows[:, 12:14] = -1.0 if tiles is None else tiles
    rows[:, 14] = material
    return rows


def build_scene(board: Board) -> SceneArrays:
    chars = board_chars(board)
    height, width = chars.shape
    walls = _WALLS[chars]
    kinds = _KINDS[chars]
    crate = chars == ord(CRATE_CHAR)

    vertical = np.zeros((height, width + 1), dtype=bool)  # edge at X = column index
    horizontal = np.zeros((height + 1, width), dtype=bool)  # edge at Z = row index
    vertical[:, :width] |= (walls & Direction.LEFT.wall_bit) != 0
    vertical[:, 1:] |= (walls & Direction.RIGHT.wall_bit) != 0
    horizontal[:height, :] |= (walls & Direction.UP.wall_bit) != 0
    horizontal[1:, :] |= (walls & Direction.DOWN.wall_bit) != 0
    edge_bits = (
        vertical[:, :width] * Direction.LEFT.wall_bit
        + vertical[:, 1:] * Direction.RIGHT.wall_bit
        + horizontal[:height, :] * Direction.UP.wall_bit
        + horizontal[1:, :] * Direction.DOWN.wall_bit
    )
    # a crate fills its tile: the edges around it belong to the crate, not to slabs
    vertical[:, :width] &= ~crate
    vertical[:, 1:] &= ~crate
    horizontal[:height, :] &= ~crate
    horizontal[1:, :] &= ~crate

    info = np.zeros((height, width, 4), dtype=np.uint8)
    info[..., 1] = edge_bits
    info[..., 2] = kinds

    parts: list[NDArray[np.float32]] = []
    h2, t = WALL_HEIGHT / 2, WALL_HALF_THICKNESS
    vy, vx = np.nonzero(vertical)
    parts.append(
        _rows(
            np.stack([vx, np.full(len(vx), h2), vy + 0.5], axis=1), np.array([t, h2, 0.5 + t]), (0, 0, 0), MATERIAL_WALL
        )
    )
    hy, hx = np.nonzero(horizontal)
    parts.append(
        _rows(
            np.stack([hx + 0.5, np.full(len(hx), h2), hy], axis=1), np.array([0.5 + t, h2, t]), (0, 0, 0), MATERIAL_WALL
        )
    )

    cy, cx = np.nonzero(crate)
    parts.append(
        _rows(
            np.stack([cx + 0.5, np.full(len(cx), 0.3), cy + 0.5], axis=1),
            np.array([0.5, 0.3, 0.5]),
            (0.66, 0.45, 0.24),
            MATERIAL_CRATE,
        )
    )

    kind_low = kinds & KIND_MASK
    py, px = np.nonzero(kind_low == KIND_PUSHER)
    if len(px):
        dx, dy = _DX[chars[py, px]].astype(np.float64), _DY[chars[py, px]].astype(np.float64)
        centre = np.stack([px + 0.5 - dx * 0.36, np.full(len(px), 0.2), py + 0.5 - dy * 0.36], axis=1)
        half = np.stack([np.where(dx != 0, 0.05, 0.36), np.full(len(px), 0.15), np.where(dy != 0, 0.05, 0.36)], axis=1)
        move = np.stack([dx * 0.5, np.zeros(len(px)), dy * 0.5], axis=1)
        tiles = np.stack([px, py], axis=1)
        parts.append(_rows(centre, half, (0.82, 0.22, 0.16), MATERIAL_PLAIN, move, tiles))
        rod_centre = np.stack([px + 0.5 - dx * 0.43, np.full(len(px), 0.2), py + 0.5 - dy * 0.43], axis=1)
        rod_half = np.stack(
            [np.where(dx != 0, 0.04, 0.05), np.full(len(px), 0.05), np.where(dy != 0, 0.04, 0.05)], axis=1
        )
        parts.append(_rows(rod_centre, rod_half, (0.7, 0.72, 0.76), MATERIAL_PLAIN, move * 0.5, tiles))

    ky, kx = np.nonzero(kind_low == KIND_CRUSHER)
    if len(kx):
        dx, dy = _DX[chars[ky, kx]].astype(np.float64), _DY[chars[ky, kx]].astype(np.float64)
        tiles = np.stack([kx, ky], axis=1)
        half = np.stack([np.where(dx != 0, 0.07, 0.44), np.full(len(kx), 0.17), np.where(dy != 0, 0.07, 0.44)], axis=1)
        for side in (-1.0, 1.0):
            centre = np.stack(
                [kx + 0.5 + side * dx * 0.37, np.full(len(kx), 0.25), ky + 0.5 + side * dy * 0.37], axis=1
            )
            move = np.stack([-side * dx * 0.3, np.zeros(len(kx)), -side * dy * 0.3], axis=1)
            parts.append(_rows(centre, half, (0.5, 0.5, 0.5), MATERIAL_HAZARD, move, tiles))

    # The goal's flag stands in the tile's back corner and flies above the robot's head, so a
    # robot on the goal (up to FLAG_CLEARANCE from the centre, 0.88 high) never has the pole
    # sticking through it, whichever way it faces or spins.
    gy, gx = np.nonzero(kind_low == KIND_GOAL)
    pole_x, pole_z = gx + FLAG_CORNER, gy + FLAG_CORNER
    parts.append(
        _rows(
            np.stack([pole_x, np.full(len(gx), FLAG_TOP / 2), pole_z], axis=1),
            np.array([0.025, FLAG_TOP / 2, 0.025]),
            (0.85, 0.86, 0.9),
            MATERIAL_PLAIN,
        )
    )
    parts.append(
        _rows(
            np.stack([pole_x + 0.17, np.full(len(gx), FLAG_TOP - 0.09), pole_z], axis=1),
            np.array([0.16, 0.08, 0.012]),
            (0.15, 0.85, 0.35),
            MATERIAL_EMISSIVE,
        )
    )
    glows = np.zeros((len(gx), 6), dtype=np.float32)
    glows[:, 0:3] = np.stack([gx + 0.5, np.full(len(gx), 1.4), gy + 0.5], axis=1) if len(gx) else np.zeros((0, 3))
    glows[:, 3:6] = (0.32, 1.4, 0.32)

    rim, rim_colour = 0.12, (0.2, 0.22, 0.27)
    rim_y, rim_h = -0.2, 0.22
    parts.append(
        _rows(
            np.array(
                [
                    [width / 2, rim_y, -rim],
                    [width / 2, rim_y, height + rim],
                    [-rim, rim_y, height / 2],
                    [width + rim, rim_y, height / 2],
                ]
            ),
            np.array(
                [
                    [width / 2 + 2 * rim, rim_h, rim],
                    [width / 2 + 2 * rim, rim_h, rim],
                    [rim, rim_h, height / 2],
                    [rim, rim_h, height / 2],
                ]
            ),
            rim_colour,
            MATERIAL_PLAIN,
        )
    )

    instances = np.concatenate(parts).astype(np.float32)
    return SceneArrays(chars, info, instances, glows, int(vertical.sum() + horizontal.sum()))
