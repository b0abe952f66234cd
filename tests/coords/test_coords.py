"""Board <-> world <-> screen mapping shared by viewer picking and editor drops."""

import math

import numpy as np
import pyrr
import pytest

from engine.model import Direction
from viewer3d.coords import TopDownMapping, pick_tile, project, tile_center


def _iso_view_proj(width: int = 800, height: int = 600) -> np.ndarray:
    eye = np.array([-6.0, 10.0, -6.0])
    view = pyrr.matrix44.create_look_at(eye, np.array([6.0, 0.0, 6.0]), np.array([0.0, 1.0, 0.0]))
    proj = pyrr.matrix44.create_orthogonal_projection(-10, 10, -7.5, 7.5, 0.1, 100.0)
    # pyrr matrices are row-vector convention; transpose to column-vector for project().
    return (view @ proj).T


@pytest.mark.parametrize("tile", [(0, 0), (3, 7), (11, 11), (5, 0)])
def test_pick_finds_the_tile_whose_centre_was_projected(tile: tuple[int, int]) -> None:
    vp = _iso_view_proj()
    px, py, depth = project(tile_center(*tile), vp, (800, 600))
    assert 0 <= depth <= 1
    assert pick_tile(px, py, vp, (800, 600), (12, 12)) == tile


def test_pick_outside_the_board_is_none() -> None:
    vp = _iso_view_proj()
    px, py, _ = project(tile_center(-3, 4), vp, (800, 600))
    assert pick_tile(px, py, vp, (800, 600), (12, 12)) is None


def test_top_down_round_trip_and_zoom_keeps_anchor() -> None:
    m = TopDownMapping(32, 10, 20)
    left, top, w, h = m.tile_rect(3, 2)
    assert m.tile_at(left + w / 2, top + h / 2) == (3, 2)
    zoomed = m.zoomed(2.0, 200, 150)
    assert zoomed.board_point(200, 150) == pytest.approx(m.board_point(200, 150))
    assert zoomed.tile_px == 64


@pytest.mark.parametrize(
    "offset, side",
    [((2, 16), Direction.LEFT), ((30, 16), Direction.RIGHT), ((16, 1), Direction.UP), ((16, 31), Direction.DOWN)],
)
def test_edge_at_finds_the_nearest_side(offset: tuple[int, int], side: Direction) -> None:
    m = TopDownMapping(32, 0, 0)
    assert m.edge_at(64 + offset[0], 32 + offset[1], tolerance_px=4) == (2, 1, side)
    assert m.edge_at(64 + 16, 32 + 16, tolerance_px=4) is None


def test_fitted_shows_the_whole_board() -> None:
    m = TopDownMapping().fitted((100, 50), (0, 0, 1000, 600))
    left, top, _, _ = m.tile_rect(0, 0)
    right, bottom, w, h = m.tile_rect(99, 49)
    assert left >= 0 and top >= 0 and right + w <= 1000 and bottom + h <= 600
    assert math.isclose(m.tile_px, (1000 - 32) / 100)
