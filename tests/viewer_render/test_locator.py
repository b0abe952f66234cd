"""The robot locator: a ring of fixed screen size around the robot when tiles are small."""

from __future__ import annotations

import math

import numpy as np

from engine.model import Board
from tests.viewer_render.helpers import SIZE, iso_camera, top_camera
from viewer3d import coords
from viewer3d.render.renderer import LOCATOR_RADIUS_PX, SceneRenderer
from viewer3d.render.state import FrameState, RobotVisual


def yellow(image: object) -> np.ndarray:
    pixels = np.asarray(image.convert("RGB"), dtype=np.int16)  # type: ignore[attr-defined]
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return (r > 180) & (g > 150) & (b < 140)


def test_ring_around_a_far_robot_on_a_big_board(render, ctx) -> None:
    board = Board.from_strings([" " * 200] * 200)
    renderer = SceneRenderer(ctx, board)
    camera = iso_camera(board, (1, 1))
    robot = RobotVisual(60, 140)
    with_ring = yellow(render(board, camera, FrameState(robot=robot), renderer=renderer))
    assert renderer.locator_drawn
    px, py, _ = coords.project(coords.tile_center(60, 140, 0.2), camera.view_proj_columns(), SIZE)
    ys, xs = np.nonzero(with_ring)
    distances = np.hypot(xs - px, ys - py)
    assert len(xs) > 40
    assert np.median(distances) == np.clip(np.median(distances), LOCATOR_RADIUS_PX * 0.6, LOCATOR_RADIUS_PX * 1.05)
    renderer.show_locator = False
    without = yellow(render(board, camera, FrameState(robot=robot), renderer=renderer))
    assert without.sum() < with_ring.sum() / 4


def test_no_ring_close_up(render, ctx) -> None:
    board = Board.from_strings(["    "] * 4)
    renderer = SceneRenderer(ctx, board)
    render(board, top_camera(board), FrameState(robot=RobotVisual(1, 1)), renderer=renderer)
    assert not renderer.locator_drawn


def test_ring_held_at_the_edge_towards_an_off_screen_robot(render, ctx) -> None:
    board = Board.from_strings([" " * 300] * 300)
    renderer = SceneRenderer(ctx, board)
    corner = Board.from_strings([" " * 60] * 60)  # the camera looks at tiles 0..60 of the big board
    camera = top_camera(corner)
    ring = yellow(render(board, camera, FrameState(robot=RobotVisual(250, 30)), renderer=renderer))
    assert renderer.locator_drawn
    ys, xs = np.nonzero(ring)
    assert len(xs) > 20
    assert xs.min() > SIZE[0] - 2 * LOCATOR_RADIUS_PX - 12  # at the right edge, where the robot is
    assert math.isclose(float(np.mean(ys)), SIZE[1] / 2, abs_tol=SIZE[1] / 3)
