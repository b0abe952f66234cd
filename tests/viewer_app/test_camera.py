"""Camera maths without GL: iso views, zoom to cursor, fitting, transitions, pan, projection toggle."""

from __future__ import annotations

import math

import numpy as np
import pytest

from viewer3d import coords
from viewer3d.camera import ISO_PITCH, ISO_YAWS, TRANSITION_SECONDS, Camera


def settle(camera: Camera) -> None:
    for _ in range(200):
        camera.update(1 / 120)


def test_iso_views_differ_by_90_degrees() -> None:
    camera = Camera((12, 12))
    forwards = []
    for number in (1, 2, 3, 4):
        camera.iso_view(number, animate=False)
        assert camera.pose.orthographic and camera.pose.pitch == pytest.approx(35.264, abs=1e-3)
        forwards.append(camera.matrices().forward())
    for a, b in zip(forwards, forwards[1:] + forwards[:1], strict=True):
        ha, hb = a[[0, 2]] / np.linalg.norm(a[[0, 2]]), b[[0, 2]] / np.linalg.norm(b[[0, 2]])
        assert math.degrees(math.acos(float(np.clip(ha @ hb, -1, 1)))) == pytest.approx(90.0)
    assert pytest.approx(math.degrees(math.asin(math.tan(math.radians(30))))) == ISO_PITCH
    assert ISO_YAWS == (45.0, 135.0, 225.0, 315.0)


def test_true_isometric_axes_are_equally_foreshortened() -> None:
    camera = Camera((12, 12))
    camera.iso_view(1, animate=False)
    view = camera.view_matrix()[:3, :3]
    lengths = [np.linalg.norm(view[:2, i]) for i in range(3)]  # screen-plane length of each world axis
    assert lengths[0] == pytest.approx(lengths[1]) and lengths[1] == pytest.approx(lengths[2])


@pytest.mark.parametrize("size", [(1, 1), (12, 12), (100, 100), (512, 512), (40, 7)])
@pytest.mark.parametrize("orthographic", [True, False])
def test_board_centre_projects_to_screen_centre_and_board_fits(size: tuple[int, int], orthographic: bool) -> None:
    camera = Camera(size, (1024, 768))
    if not orthographic:
        camera.toggle_projection()
    camera.fit(animate=False)
    px, py, depth = camera.project(coords.board_center(*size))
    assert 0 <= px <= 1024 and 0 <= py <= 768  # the outline is centred (below), not the middle
    assert 0 < depth < 1
    outline = corners_on_screen(camera)
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    assert (min(xs) + max(xs)) / 2 == pytest.approx(512, abs=2.0)
    assert (min(ys) + max(ys)) / 2 == pytest.approx(384, abs=2.0)
    for x in (0, size[0]):
        for z in (0, size[1]):
            cx, cy, cd = camera.project((x, 0.0, z))
            assert -1 <= cx <= 1025 and -1 <= cy <= 769 and 0 < cd < 1


@pytest.mark.parametrize("orthographic", [True, False])
@pytest.mark.parametrize("factor", [1.25, 0.8, 3.0])
def test_zoom_keeps_the_point_under_the_cursor(orthographic: bool, factor: float) -> None:
    camera = Camera((12, 12), (800, 600))
    if not orthographic:
        camera.toggle_projection()
    cursor = (200.0, 380.0)
    before = camera.pick_floor(*cursor)
    tile = coords.pick_tile(*cursor, camera.view_proj_columns(), camera.viewport, (12, 12))
    distance = camera.pose.distance
    camera.zoom(factor, *cursor)
    after = camera.pick_floor(*cursor)
    assert before is not None and after is not None
    assert after == (pytest.approx(before[0], abs=1e-6), pytest.approx(before[1], abs=1e-6))
    assert coords.pick_tile(*cursor, camera.view_proj_columns(), camera.viewport, (12, 12)) == tile
    assert camera.pose.distance == pytest.approx(distance / factor)


def test_pan_drags_the_floor() -> None:
    camera = Camera((12, 12), (800, 600))
    grabbed = camera.pick_floor(400, 300)
    camera.pan((400, 300), (450, 250))
    assert camera.pick_floor(450, 250) == (pytest.approx(grabbed[0]), pytest.approx(grabbed[1]))  # type: ignore[index]


def test_orbit_rotates_and_clamps_pitch() -> None:
    camera = Camera((12, 12))
    yaw = camera.pose.yaw
    camera.orbit(100, 0)
    assert camera.pose.yaw == pytest.approx((yaw - 40) % 360)
    camera.orbit(0, -10_000)
    assert camera.pose.pitch == 90.0
    camera.orbit(0, 10_000)
    assert camera.pose.pitch == 5.0


def test_transitions_ease_and_end_exactly_at_target() -> None:
    camera = Camera((12, 12))
    camera.iso_view(1, animate=False)
    camera.iso_view(4)  # 45 -> 315: the short way is -90 degrees
    assert camera.animating
    camera.update(TRANSITION_SECONDS / 2)
    assert camera.pose.yaw == pytest.approx(0.0) or camera.pose.yaw == pytest.approx(360.0)
    camera.update(TRANSITION_SECONDS / 4)
    camera.update(TRANSITION_SECONDS)
    assert not camera.animating
    assert camera.pose.yaw == 315.0 and camera.pose.pitch == ISO_PITCH and camera.pose.orthographic


def test_top_view_looks_straight_down_with_board_up_on_top() -> None:
    camera = Camera((10, 6), (800, 600))
    camera.top_view()
    settle(camera)
    assert camera.pose.pitch == 90.0
    assert camera.matrices().forward() == pytest.approx([0, -1, 0], abs=1e-9)
    top_left = camera.project((0.0, 0.0, 0.0))
    bottom_right = camera.project((10.0, 0.0, 6.0))
    assert top_left[0] < bottom_right[0] and top_left[1] < bottom_right[1]


def test_follow_mode_moves_the_target_towards_the_robot() -> None:
    camera = Camera((12, 12))
    camera.toggle_follow()
    camera.set_follow_point(coords.tile_center(0, 0))
    for _ in range(600):
        camera.update(1 / 120)
    assert camera.pose.target[0] == pytest.approx(0.5, abs=1e-3)
    assert camera.pose.target[2] == pytest.approx(0.5, abs=1e-3)


def test_projection_toggle_and_matrices_convention() -> None:
    camera = Camera((12, 12))
    assert camera.matrices().is_orthographic
    camera.toggle_projection()
    matrices = camera.matrices()
    assert not matrices.is_orthographic
    assert matrices.view.dtype == np.float32
    assert np.allclose(matrices.view_proj_columns(), camera.view_proj_columns(), atol=1e-4)
    assert matrices.eye == pytest.approx(camera.eye())


def corners_on_screen(camera: Camera) -> list[tuple[float, float, float]]:
    width, height = camera.board_size
    return [camera.project((x, y, z)) for x in (0, width) for z in (0, height) for y in (-0.2, 0.9)]


def assert_inside_free_rect(camera: Camera) -> None:
    left, top, right, bottom = camera.free_rect()
    for px, py, depth in corners_on_screen(camera):
        assert left - 0.5 <= px <= right + 0.5 and top - 0.5 <= py <= bottom + 0.5 and 0 < depth < 1


@pytest.mark.parametrize("size", [(12, 12), (40, 7), (512, 512)])
@pytest.mark.parametrize("view", ["iso1", "iso2", "iso3", "iso4", "top", "persp", "persp-then-iso"])
def test_every_view_frames_the_whole_board_outside_the_hud(size: tuple[int, int], view: str) -> None:
    """The HUD's strips (insets) stay off the board in every view, perspective included: P used to
    keep the orthographic framing (near corner cut off), and 1-4 after Home in perspective clipped."""
    camera = Camera(size, (1024, 768))
    camera.insets = (90.0, 0.0, 150.0, 0.0)
    if view.startswith("iso"):
        camera.iso_view(int(view[3]), animate=False)
    elif view == "top":
        camera.top_view(animate=False)
    else:
        camera.toggle_projection()
        camera.fit(animate=False)
        if view == "persp-then-iso":
            camera.iso_view(2)
            settle(camera)
    camera.fit(animate=False) if view == "persp" else None
    assert_inside_free_rect(camera)
    # ... and fills it: one side of the board's outline nearly touches the free rectangle
    left, top, right, bottom = camera.free_rect()
    xs = [p[0] for p in corners_on_screen(camera)]
    ys = [p[1] for p in corners_on_screen(camera)]
    assert max((max(xs) - min(xs)) / (right - left), (max(ys) - min(ys)) / (bottom - top)) > 0.9


def test_p_refits_a_fitted_view_but_keeps_a_zoomed_one() -> None:
    camera = Camera((12, 12), (1024, 768))
    camera.fit(animate=False)
    camera.toggle_projection()
    assert not camera.pose.orthographic
    assert_inside_free_rect(camera)  # the near corner is no longer cut off
    camera.toggle_projection()
    camera.zoom(2.0, 512, 384)
    distance = camera.pose.distance
    camera.toggle_projection()
    assert camera.pose.distance == distance  # a chosen zoom is the user's


def test_zoom_is_limited_both_ways() -> None:
    camera = Camera((12, 12), (1024, 768))
    camera.fit(animate=False)
    fitted = camera.pose.distance
    for _ in range(200):
        camera.zoom(1.5, 512, 384)
    assert 2.9 <= 2 * camera.half_height() <= 3.1  # three tiles from top to bottom at the closest
    for _ in range(200):
        camera.zoom(1 / 1.5, 512, 384)
    assert camera.pose.distance == pytest.approx(2.0 * fitted, rel=0.01)


def test_zoom_to_span_and_tile_pixels() -> None:
    camera = Camera((512, 512), (1024, 768))
    camera.zoom_to_span(200.0, animate=False)
    assert camera.tiles_across() == pytest.approx(200.0)
    assert camera.tile_pixels() == pytest.approx(1024 / 200)
