"""Looks: baked soft shadows (walls, crates, the robot) darken the floor next to them, and the
environment (a ground plane with the board's shadow, fading into the background) is drawn
around the board, not over it."""

from __future__ import annotations

import numpy as np
import pyrr
import pytest

from engine.model import Board
from engine.resources import read_resource_text
from tests.viewer_render.helpers import iso_camera, pixel, top_camera
from viewer3d import coords
from viewer3d.fallback_theme import FallbackTheme
from viewer3d.render import environment
from viewer3d.render.renderer import SceneRenderer
from viewer3d.render.state import CameraMatrices, FrameState, RobotVisual

BIG = (480, 360)
BACKGROUND = tuple(round(c * 255) for c in environment.BACKGROUND)


def floor_at(render, board, points, frame=None, camera=None):
    camera = camera or top_camera(board, BIG)
    image = render(board, camera, frame, size=BIG)
    view_proj = camera.view_proj_columns()
    return [sum(pixel(image, coords.project((x, 0.0, z), view_proj, BIG))) for x, z in points]


def test_wall_darkens_the_floor_on_both_sides(render):
    board = Board.from_strings(["     ", "  c  ", "     "])  # a wall on the edge x = 3 of row 1
    near_left, near_right, open_floor, far_left = floor_at(
        render, board, [(2.9, 1.5), (3.1, 1.5), (0.5, 1.5), (2.35, 1.5)]
    )
    assert near_left < open_floor - 60 and near_right < open_floor - 30
    assert near_left < far_left  # soft: it fades with the distance from the wall


def test_crate_darkens_the_floor_at_its_foot(render):
    board = Board.from_strings(["     ", "  p  ", "     "])
    beside, open_floor = floor_at(render, board, [(1.9, 1.5), (0.3, 1.5)])
    assert beside < open_floor - 30
    bare = floor_at(render, Board.from_strings(["     "] * 3), [(1.9, 1.5)])[0]
    assert bare > beside + 30  # the crate, not the tile, does it


def test_robot_casts_a_soft_shadow_beside_it(render):
    board = Board.from_strings(["     "] * 5)
    point = (2.5 - 0.46, 2.5)  # just off the robot's side, away from the key light
    with_robot = floor_at(render, board, [point], FrameState(robot=RobotVisual(2, 2)))[0]
    without = floor_at(render, board, [point], FrameState())[0]
    assert with_robot < without - 30
    lifted = floor_at(render, board, [point], FrameState(robot=RobotVisual(2, 2, height=0.6)))[0]
    assert lifted > with_robot + 20  # a jumping robot's shadow fades


def wide_top_camera(board: Board, half_height: float) -> CameraMatrices:
    """Straight down on the board's centre, showing ``half_height`` tiles above and below it."""
    centre = np.array([board.width / 2, 0.0, board.height / 2])
    eye = centre + np.array([0.0, 20.0, 0.0])
    view = pyrr.matrix44.create_look_at(eye, centre, [0.0, 0.0, -1.0])
    aspect = BIG[0] / BIG[1]
    projection = pyrr.matrix44.create_orthogonal_projection(
        -half_height * aspect, half_height * aspect, -half_height, half_height, 0.1, 100.0
    )
    return CameraMatrices(view.astype("f4"), projection.astype("f4"), (float(eye[0]), float(eye[1]), float(eye[2])))


@pytest.mark.parametrize("view", ["top", "iso"])
def test_environment_is_drawn_around_the_board(render, ctx, view):
    """Off the board the ground shows (lit: not the flat background), darker in the board's soft
    shadow right next to it, faded into the background far away; the board itself is untouched."""
    board = Board.from_strings(["        "] * 8)
    camera = wide_top_camera(board, 10.0) if view == "top" else iso_camera(board, (1, 1), BIG, zoom=1.6)
    view_proj = camera.view_proj_columns()
    bare = SceneRenderer(ctx, board, FallbackTheme())
    bare.show_environment = False
    with_ground = render(board, camera, size=BIG)
    without = render(board, camera, size=BIG, renderer=bare)

    def ground(x: float) -> tuple[float, float, float]:
        point = coords.project((x, environment.GROUND_Y, 4.0), view_proj, BIG)
        assert 0 <= point[0] < BIG[0] and 0 <= point[1] < BIG[1], x
        return point

    centre = coords.project((4.0, 0.0, 4.0), view_proj, BIG)
    assert pixel(with_ground, centre) == pixel(without, centre)
    edge = 8.0 + environment.RIM
    shadowed, lit, far = ground(edge + 0.3), ground(edge + 2.5), ground(4.0 + 8 * environment.FOG_FAR + 0.5)
    for point in (shadowed, lit, far):
        assert pixel(without, point) == pytest.approx(BACKGROUND, abs=2)  # without it: the flat background
    assert sum(pixel(with_ground, lit)) > sum(BACKGROUND) + 20
    assert sum(pixel(with_ground, shadowed)) < sum(pixel(with_ground, lit)) - 15
    assert pixel(with_ground, far) == pytest.approx(BACKGROUND, abs=3)
    bare.release()


def test_ground_stays_below_a_falling_robot_and_the_pits():
    from viewer3d.playback import SINK_DEPTH

    assert environment.GROUND_Y < -SINK_DEPTH - 0.5
    text = read_resource_text("viewer3d.render", "pit.frag")
    depth = float(text.split("PIT_DEPTH = ")[1].split(";")[0])
    assert -depth - 0.3 > environment.GROUND_Y


def test_ground_grid_does_not_grow_with_the_board():
    """The environment's cost is a small fixed grid however big the board is."""
    for size in (12, 512, 4096):
        vertices, indices = environment.ground_grid(size, size)
        assert len(vertices) <= 48 * 48 and len(indices) // 6 <= 47 * 47, size


def test_no_ground_under_the_middle_of_a_big_board():
    """A close-up in the middle of a big board has no ground cell on screen to depth-test."""
    vertices, indices = environment.ground_grid(512, 512)
    corners = vertices[indices.reshape(-1, 3)]
    centre_x, centre_z = corners[..., 0].mean(axis=1), corners[..., 1].mean(axis=1)
    assert not ((abs(centre_x - 256) < 200) & (abs(centre_z - 256) < 200)).any()
    # a small board keeps its ground where the board's shadow and edge are
    small, _ = environment.ground_grid(12, 12)
    assert ((small[:, 0] > 12) & (small[:, 0] < 13)).any()
