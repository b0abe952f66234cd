"""Cameras built with pyrr directly (as the app side would) and pixel helpers for the render tests."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pyrr
from PIL import Image

from engine.model import Board
from viewer3d.render.state import CameraMatrices

SIZE = (320, 240)
ISO_CORNERS = ((1, 1), (-1, 1), (-1, -1), (1, -1))

Render = Callable[..., Image.Image]


def iso_camera(
    board: Board, corner: tuple[int, int], size: tuple[int, int] = SIZE, zoom: float = 0.62
) -> CameraMatrices:
    """Orthographic camera looking at the board centre from one of its four diagonal corners."""
    centre = np.array([board.width / 2, 0.0, board.height / 2])
    distance = max(board.width, board.height) * 2.0 + 4.0
    eye = centre + np.array([corner[0] * distance, distance * 1.15, corner[1] * distance])
    view = pyrr.matrix44.create_look_at(eye, centre, [0.0, 1.0, 0.0])
    aspect = size[0] / size[1]
    extent = max(board.width, board.height) * zoom + 0.5
    projection = pyrr.matrix44.create_orthogonal_projection(
        -extent * aspect, extent * aspect, -extent, extent, 0.1, distance * 4
    )
    return CameraMatrices(view.astype("f4"), projection.astype("f4"), (float(eye[0]), float(eye[1]), float(eye[2])))


def top_camera(board: Board, size: tuple[int, int] = SIZE) -> CameraMatrices:
    """Straight down, board up (world -Z) at the top of the screen, whole board visible."""
    centre = np.array([board.width / 2, 0.0, board.height / 2])
    eye = centre + np.array([0.0, 20.0, 0.0])
    view = pyrr.matrix44.create_look_at(eye, centre, [0.0, 0.0, -1.0])
    aspect = size[0] / size[1]
    extent = max(board.width, board.height) * 0.55
    projection = pyrr.matrix44.create_orthogonal_projection(
        -extent * aspect, extent * aspect, -extent, extent, 0.1, 100.0
    )
    return CameraMatrices(view.astype("f4"), projection.astype("f4"), (float(eye[0]), float(eye[1]), float(eye[2])))


def perspective_camera(board: Board, size: tuple[int, int] = SIZE) -> CameraMatrices:
    centre = np.array([board.width / 2, 0.0, board.height / 2])
    eye = centre + np.array([0.4, 1.0, 1.0]) * max(board.width, board.height) * 1.1
    view = pyrr.matrix44.create_look_at(eye, centre, [0.0, 1.0, 0.0])
    projection = pyrr.matrix44.create_perspective_projection(45.0, size[0] / size[1], 0.1, 500.0)
    return CameraMatrices(view.astype("f4"), projection.astype("f4"), (float(eye[0]), float(eye[1]), float(eye[2])))


def pixel(image: Image.Image, point: tuple[float, float, float]) -> tuple[int, int, int]:
    r, g, b, _ = image.getpixel((math.floor(point[0]), math.floor(point[1])))  # type: ignore[misc]
    return int(r), int(g), int(b)
