"""The four iso views, board sizes from 1x1 to 512x512, theme switching and element animation."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from engine.boardfile import load_board
from engine.model import Board
from tests.viewer_render.helpers import ISO_CORNERS, SIZE, iso_camera, pixel, top_camera
from viewer3d import coords
from viewer3d.fallback_theme import FallbackTheme
from viewer3d.render.renderer import SceneRenderer
from viewer3d.render.state import FrameState, RobotVisual

CHOP = Path(__file__).resolve().parents[2] / "gameboards" / "chop.dat"


def as_array(image):
    return np.asarray(image.convert("RGB"), dtype=np.int16)


def test_four_iso_views_differ_and_projections_rotate(render):
    board = load_board(CHOP)
    robot = RobotVisual(4, 2)
    goal = board.goals[0]
    images, robot_points, goal_points = [], [], []
    for corner in ISO_CORNERS:
        camera = iso_camera(board, corner)
        image = render(board, camera, FrameState(robot=robot))
        images.append(as_array(image))
        view_proj = camera.view_proj_columns()
        robot_points.append(coords.project(coords.tile_center(4, 2, 0.3), view_proj, SIZE))
        goal_points.append(coords.project(coords.tile_center(*goal, 0.0), view_proj, SIZE))
        r, g, b = pixel(image, robot_points[-1])
        assert b > r + 40, corner  # the robot is where the maths says in every view
        # The goal's flag pole (about one pixel wide here) stands on the tile's centre and, by
        # sub-pixel chance, covers the centre's pixel in some views; a floor point of the goal
        # tile a quarter tile towards the camera lies in front of the pole and the flag.
        near = coords.tile_center(goal[0] + 0.25 * corner[0], goal[1] + 0.25 * corner[1], 0.0)
        r, g, b = pixel(image, coords.project(near, view_proj, SIZE))
        assert g > r + 30 and g > b, corner  # the goal is green (target and beacon) in every view
    for i in range(4):
        for j in range(i + 1, 4):
            assert np.abs(images[i] - images[j]).mean() > 8, (i, j)
    # Orbiting the camera a quarter turn around the board's centre moves each point a quarter
    # turn around the screen's centre (the orthographic iso projection keeps distances).
    centre = np.array(SIZE) / 2
    for points in (robot_points, goal_points):
        angles = [math.atan2(p[1] - centre[1], (p[0] - centre[0]) * 1.0) for p in points]
        radii = [math.hypot(p[0] - centre[0], p[1] - centre[1]) for p in points]
        assert max(radii) - min(radii) < 0.6 * max(radii) + 1  # same distance up to iso foreshortening
        assert len({round(a, 1) for a in angles}) == 4  # four distinct screen positions
    # The goal (11, 11) is the board's +X+Z corner: nearest the viewer from (+1, +1) (bottom of the
    # screen), farthest from (-1, -1) (top), on the right from (-1, +1), on the left from (+1, -1).
    (_x0, y0, _), (x1, _, _), (_x2, y2, _), (x3, _, _) = goal_points
    assert y0 > SIZE[1] * 0.7 and y2 < SIZE[1] * 0.3
    assert x1 > SIZE[0] * 0.7 and x3 < SIZE[0] * 0.3


@pytest.mark.parametrize("size", [1, 2, 37])
def test_small_and_odd_boards_render(render, size):
    board = Board.from_strings(["Z" + " " * (size - 1)] + [" " * size] * (size - 1))
    camera = iso_camera(board, (1, 1))
    image = render(board, camera, FrameState(robot=RobotVisual(size - 1, size - 1)))
    point = coords.project(coords.tile_center(size - 1, size - 1, 0.3), camera.view_proj_columns(), SIZE)
    r, _g, b = pixel(image, point)
    assert b > r + 40


def test_512_board_renders(render, ctx):
    rng = np.random.default_rng(3)
    chars = np.array(list(" abcdHOZLR<>^vCDEFMNp"))
    rows = ["".join(row) for row in rng.choice(chars, size=(512, 512), p=[0.6] + [0.4 / 20] * 20)]
    board = Board.from_strings(rows)
    renderer = SceneRenderer(ctx, board, FallbackTheme())
    camera = iso_camera(board, (1, 1), size=(512, 384))
    image = render(board, camera, FrameState(robot=RobotVisual(100, 300)), size=(512, 384), renderer=renderer)
    assert not renderer.props_drawn  # tiles are ~1 px: walls painted flat, the box pass is skipped
    # the robot grows to stay visible: its colour where it stands, although a tile is under a pixel
    r, _, b = pixel(image, coords.project(coords.tile_center(100, 300), camera.view_proj_columns(), (512, 384)))
    assert b > r + 40
    centre = as_array(image)[192, 256]
    background = as_array(image)[5, 5]
    assert np.abs(centre - background).sum() > 60
    close = top_camera(Board.from_strings(["    "] * 4), size=(512, 384))
    render(board, close, FrameState(), size=(512, 384), renderer=renderer)
    assert renderer.props_drawn  # zoomed in on the corner, the 3D boxes are drawn
    total = sum(len(chunked.rows) for chunked in renderer.chunks)
    assert 0 < renderer.instances_drawn < total * 0.01  # ... but only those near the corner


def test_chunk_culling_draws_the_same_picture(render, ctx):
    rng = np.random.default_rng(5)
    rows = ["".join(row) for row in rng.choice(list("   bcdepCM"), size=(80, 80))]
    board = Board.from_strings(rows)
    centre = Board.from_strings(["      "] * 6)
    camera = top_camera(centre)  # looks at tiles (0..6, 0..6) of the big board
    culled = SceneRenderer(ctx, board)
    assert culled.indirect  # Mesa gives 4.3+ when asked (create_headless_context asks for it first)
    copied = SceneRenderer(ctx, board)
    copied.indirect = False  # as on an OpenGL 4.1 context: visible chunks' rows copied, one draw
    everything = SceneRenderer(ctx, board)
    everything.culling = False
    active = {(1, 1): 0.5, (2, 3): 0.5}
    a = as_array(render(board, camera, FrameState(active=active), renderer=culled))
    b = as_array(render(board, camera, FrameState(active=active), renderer=everything))
    c = as_array(render(board, camera, FrameState(active=active), renderer=copied))
    assert culled.instances_drawn < everything.instances_drawn / 5
    assert copied.instances_drawn == culled.instances_drawn
    assert np.abs(a - b).max() <= 1 and np.abs(c - b).max() <= 1


def test_copied_rows_follow_the_camera_and_back_to_indirect(render, ctx):
    """The copy is redone when other chunks come into view, and switching back to indirect draws
    restores the full rows the commands index."""
    rng = np.random.default_rng(6)
    board = Board.from_strings(["".join(row) for row in rng.choice(list("   bcdepCM"), size=(80, 80))])
    near = top_camera(Board.from_strings(["      "] * 6))
    wider = iso_camera(Board.from_strings([" " * 24] * 24), (1, 1))  # tiles (0..24, 0..24): four chunks
    reference = SceneRenderer(ctx, board)
    copied = SceneRenderer(ctx, board)
    copied.indirect = False
    drawn = []
    for camera in (near, wider, near):
        expected = as_array(render(board, camera, FrameState(), renderer=reference))
        got = as_array(render(board, camera, FrameState(), renderer=copied))
        assert copied.props_drawn and copied.instances_drawn == reference.instances_drawn
        assert np.abs(got - expected).max() <= 1
        drawn.append(copied.instances_drawn)
    assert drawn[0] == drawn[2] < drawn[1]
    copied.indirect = True
    got = as_array(render(board, wider, FrameState(), renderer=copied))
    expected = as_array(render(board, wider, FrameState(), renderer=reference))
    assert np.abs(got - expected).max() <= 1


class TintedTheme:
    """A second theme: the fallback textures with red and blue swapped."""

    def texture_array(self):
        layers, keys = FallbackTheme().texture_array()
        swapped = layers.copy()
        swapped[..., 0], swapped[..., 2] = layers[..., 2], layers[..., 0]
        return swapped, keys


def test_default_theme_comes_from_the_themes_package(render, ctx):
    from themes import load_theme

    board = load_board(CHOP)
    camera = iso_camera(board, (1, 1))
    default = as_array(render(board, camera, renderer=SceneRenderer(ctx, board)))
    themed = as_array(render(board, camera, renderer=SceneRenderer(ctx, board, load_theme("default"))))
    builtin = as_array(render(board, camera, renderer=SceneRenderer(ctx, board, FallbackTheme())))
    assert np.abs(default - themed).max() <= 2
    assert (np.abs(default - builtin).sum(axis=2) > 30).mean() > 0.05


def test_theme_switch_changes_pixels(render, ctx):
    board = load_board(CHOP)
    camera = iso_camera(board, (1, 1))
    renderer = SceneRenderer(ctx, board, FallbackTheme())
    before = as_array(render(board, camera, renderer=renderer))
    renderer.set_theme(TintedTheme())
    after = as_array(render(board, camera, renderer=renderer))
    changed = np.abs(before - after).sum(axis=2) > 30
    assert changed.mean() > 0.05
    renderer.set_theme(FallbackTheme())
    again = as_array(render(board, camera, renderer=renderer))
    assert np.abs(again - before).max() <= 2


@pytest.mark.parametrize("row", [">  ", "D  ", "M  ", "L  "])
def test_active_elements_animate(render, ctx, row):
    board = Board.from_strings([row, "   "])
    camera = iso_camera(board, (1, 1))
    renderer = SceneRenderer(ctx, board)
    idle = as_array(render(board, camera, FrameState(active={}), renderer=renderer))
    acting = as_array(render(board, camera, FrameState(active={(0, 0): 0.5}), renderer=renderer))
    tile = [coords.project(coords.tile_center(0, 0), camera.view_proj_columns(), SIZE)]
    x, y = int(tile[0][0]), int(tile[0][1])
    assert np.abs(idle - acting)[y - 20 : y + 20, x - 20 : x + 20].sum(axis=2).max() > 60
    back = as_array(render(board, camera, FrameState(active={}), renderer=renderer))
    assert np.abs(back - idle).max() <= 2  # the phase texel was reset


def test_trail_tints_visited_tiles_green(render, ctx):
    board = Board.from_strings(["   "] * 3)
    camera = top_camera(board)
    trail = np.zeros((3, 3), np.float32)
    trail[1, 2] = 1.0
    image = render(board, camera, FrameState(trail=trail))
    visited = pixel(image, coords.project(coords.tile_center(2, 1), camera.view_proj_columns(), SIZE))
    other = pixel(image, coords.project(coords.tile_center(0, 1), camera.view_proj_columns(), SIZE))
    assert visited[1] > visited[0] + 40 and abs(other[1] - other[0]) < 25
