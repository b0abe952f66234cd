"""The one place that maps board coordinates to world and screen coordinates and back.

Both the viewer's picking (3D, through a view-projection matrix) and the editor's
drops and wall edges (2-D, top-down with zoom and pan) use this module, so a tile
is always where both of them think it is. No GL here: plain maths, unit-tested.

Conventions
-----------
* Board: tile ``(x, y)``, ``x`` to the right, ``y`` downwards, ``(0, 0)`` top-left.
* World (3D, right-handed, Y up): tile ``(x, y)`` covers ``X in [x, x+1]``,
  ``Z in [y, y+1]`` on the floor plane ``Y = 0``. So board "up" is world ``-Z``.
* Screen: pixels with the origin at the TOP-left, ``y`` downwards (pyglet reports
  mouse ``y`` from the bottom: use :func:`from_pyglet_y`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from engine.model import Direction

Vec3 = tuple[float, float, float]


def from_pyglet_y(y: float, window_height: int) -> float:
    """Convert a pyglet mouse ``y`` (from the bottom) to screen ``y`` (from the top)."""
    return window_height - y


def tile_center(x: float, y: float, height: float = 0.0) -> Vec3:
    """World position of the centre of tile ``(x, y)`` at ``height`` above the floor."""
    return (x + 0.5, height, y + 0.5)


def board_center(width: int, height: int) -> Vec3:
    return (width / 2.0, 0.0, height / 2.0)


def world_to_tile(world_x: float, world_z: float) -> tuple[int, int]:
    """The tile under a world floor point (may be off the board)."""
    return math.floor(world_x), math.floor(world_z)


def facing_yaw(direction: Direction) -> float:
    """Rotation (radians, about world +Y, counter-clockwise seen from above) turning the
    model's forward axis (world ``-Z``, i.e. board up) to face ``direction``."""
    return {Direction.UP: 0.0, Direction.LEFT: math.pi / 2, Direction.DOWN: math.pi, Direction.RIGHT: -math.pi / 2}[
        direction
    ]


def project(point: Vec3, view_proj: NDArray[np.floating], viewport: tuple[int, int]) -> tuple[float, float, float]:
    """Screen position ``(px, py, depth)`` of a world point; ``view_proj`` is column-vector
    convention (``clip = view_proj @ [x, y, z, 1]``); depth in [0, 1] when visible."""
    clip = np.asarray(view_proj, dtype=np.float64) @ np.array([*point, 1.0])
    ndc = clip[:3] / clip[3]
    width, height = viewport
    return ((ndc[0] + 1.0) * 0.5 * width, (1.0 - ndc[1]) * 0.5 * height, (ndc[2] + 1.0) * 0.5)


def screen_ray(
    px: float, py: float, view_proj: NDArray[np.floating], viewport: tuple[int, int]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The world ray (origin on the near plane, unit direction) under screen pixel ``(px, py)``."""
    width, height = viewport
    ndc_x = 2.0 * px / width - 1.0
    ndc_y = 1.0 - 2.0 * py / height
    inverse = np.linalg.inv(np.asarray(view_proj, dtype=np.float64))
    near = inverse @ np.array([ndc_x, ndc_y, -1.0, 1.0])
    far = inverse @ np.array([ndc_x, ndc_y, 1.0, 1.0])
    near = near[:3] / near[3]
    far = far[:3] / far[3]
    direction = far - near
    return near, direction / np.linalg.norm(direction)


def pick_floor(
    px: float, py: float, view_proj: NDArray[np.floating], viewport: tuple[int, int], plane_height: float = 0.0
) -> tuple[float, float] | None:
    """World ``(X, Z)`` where the ray under the pixel meets the plane ``Y = plane_height``, or None."""
    origin, direction = screen_ray(px, py, view_proj, viewport)
    if abs(direction[1]) < 1e-9:
        return None
    t = (plane_height - origin[1]) / direction[1]
    if t < 0:
        return None
    hit = origin + t * direction
    return float(hit[0]), float(hit[2])


def pick_tile(
    px: float, py: float, view_proj: NDArray[np.floating], viewport: tuple[int, int], board_size: tuple[int, int]
) -> tuple[int, int] | None:
    """The board tile under a screen pixel (3D view), or None when the pixel misses the board."""
    hit = pick_floor(px, py, view_proj, viewport)
    if hit is None:
        return None
    x, y = world_to_tile(*hit)
    width, height = board_size
    return (x, y) if 0 <= x < width and 0 <= y < height else None


@dataclass(frozen=True)
class TopDownMapping:
    """A 2-D top-down view of the board: ``tile_px`` screen pixels per tile, board origin at
    screen ``(origin_x, origin_y)`` (top-left of tile (0, 0))."""

    tile_px: float = 64.0
    origin_x: float = 0.0
    origin_y: float = 0.0

    def board_point(self, px: float, py: float) -> tuple[float, float]:
        """Fractional board coordinates under a screen pixel."""
        return (px - self.origin_x) / self.tile_px, (py - self.origin_y) / self.tile_px

    def tile_at(self, px: float, py: float) -> tuple[int, int]:
        """The tile under a screen pixel (may be off the board: check with ``Board.in_bounds``)."""
        bx, by = self.board_point(px, py)
        return math.floor(bx), math.floor(by)

    def tile_rect(self, x: int, y: int) -> tuple[float, float, float, float]:
        """Screen rectangle ``(left, top, width, height)`` of a tile."""
        return (self.origin_x + x * self.tile_px, self.origin_y + y * self.tile_px, self.tile_px, self.tile_px)

    def edge_at(self, px: float, py: float, tolerance_px: float = 8.0) -> tuple[int, int, Direction] | None:
        """The tile edge within ``tolerance_px`` of a pixel, as (tile, side of that tile), or None.

        Of the two tiles sharing an edge, the one under the pointer is reported."""
        bx, by = self.board_point(px, py)
        x, y = math.floor(bx), math.floor(by)
        fx, fy = (bx - x) * self.tile_px, (by - y) * self.tile_px
        distances = {
            Direction.LEFT: fx,
            Direction.RIGHT: self.tile_px - fx,
            Direction.UP: fy,
            Direction.DOWN: self.tile_px - fy,
        }
        side = min(distances, key=lambda d: distances[d])
        return (x, y, side) if distances[side] <= tolerance_px else None

    def zoomed(self, factor: float, anchor_px: float, anchor_py: float) -> TopDownMapping:
        """Zoom by ``factor`` keeping the board point under the anchor pixel fixed."""
        bx, by = self.board_point(anchor_px, anchor_py)
        tile_px = self.tile_px * factor
        return TopDownMapping(tile_px, anchor_px - bx * tile_px, anchor_py - by * tile_px)

    def panned(self, dx: float, dy: float) -> TopDownMapping:
        return TopDownMapping(self.tile_px, self.origin_x + dx, self.origin_y + dy)

    def fitted(
        self, board_size: tuple[int, int], viewport: tuple[float, float, float, float], margin_px: float = 16.0
    ) -> TopDownMapping:
        """The mapping that shows the whole board centred in ``viewport`` = (left, top, width, height)."""
        left, top, vw, vh = viewport
        width, height = board_size
        tile_px = max(1.0, min((vw - 2 * margin_px) / width, (vh - 2 * margin_px) / height))
        return TopDownMapping(tile_px, left + (vw - width * tile_px) / 2, top + (vh - height * tile_px) / 2)
