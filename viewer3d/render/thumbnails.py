"""Each tile of a theme as the 3D viewer draws it: small iso renderings for contact sheets.

All tiles stand on one board (a row, floor between them) drawn by one renderer, so a whole
theme costs one shader compile and 31 small renders.
"""

from __future__ import annotations

import numpy as np
import pyrr
from PIL import Image

from engine.model import BOARD_CHARS, Board, Tile
from themes.keys import TILE_KEYS, tile_key
from viewer3d.render.offscreen import OffscreenTarget, create_headless_context
from viewer3d.render.renderer import SceneRenderer, ThemeLike
from viewer3d.render.state import CameraMatrices, FrameState, RobotVisual

THUMB_PX = 96


def _char_for(key: str) -> str:
    return next(c for c in BOARD_CHARS if c != "a" and tile_key(Tile.from_char(c)) == key)


def tile_camera(x: int, y: int, size: int = THUMB_PX) -> CameraMatrices:
    """Orthographic, from the south-east corner above, framing tile (x, y) and its walls."""
    centre = np.array([x + 0.5, 0.15, y + 0.5])
    eye = centre + np.array([4.0, 5.5, 5.0])
    view = pyrr.matrix44.create_look_at(eye, centre, [0.0, 1.0, 0.0])
    extent = 0.95
    projection = pyrr.matrix44.create_orthogonal_projection(-extent, extent, -extent, extent, 0.1, 30.0)
    return CameraMatrices(view.astype("f4"), projection.astype("f4"), (float(eye[0]), float(eye[1]), float(eye[2])))


#: Shots of the pictures that are not tiles: the robot on a floor tile, the cursor marking a floor
#: tile (the pick marker), a start tile facing up (the start marker).
SPRITE_SHOTS = {"robot": " ", "cursor": " ", "start": "U"}


def render_thumbnails(theme: ThemeLike, size: int = THUMB_PX) -> dict[str, Image.Image]:
    """Picture key -> an RGBA iso rendering of how the viewer shows it, ``size`` pixels square:
    every tile, and the robot, cursor and start marker as in :data:`SPRITE_SHOTS`."""
    chars = [_char_for(key) for key in TILE_KEYS] + list(SPRITE_SHOTS.values())
    row = "".join(f" {char}" for char in chars) + " "
    board = Board.from_strings([" " * len(row), row, " " * len(row)])
    ctx = create_headless_context()
    renderer = SceneRenderer(ctx, board, theme)
    target = OffscreenTarget(ctx, (size, size))
    try:
        shots: dict[str, Image.Image] = {}
        for index, key in enumerate([*TILE_KEYS, *SPRITE_SHOTS]):
            x = 1 + 2 * index
            frame = FrameState(
                robot=RobotVisual(x, 1) if key == "robot" else None, pointer=(x, 1) if key == "cursor" else None
            )

            camera = tile_camera(x, 1, size)

            def draw(camera: CameraMatrices = camera, frame: FrameState = frame) -> None:
                renderer.render(camera, frame, (size, size))

            shots[key] = target.render(draw)
        return shots
    finally:
        target.release()
        renderer.release()
        ctx.release()
