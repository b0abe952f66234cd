"""Scene building and culling maths (no GL): walls on shared edges once, crates replace their
edges, animated parts point the right way, chunks outside the view are dropped."""

from __future__ import annotations

import numpy as np
import pytest

from engine.model import Board
from tests.viewer_render.helpers import iso_camera, top_camera
from viewer3d.fallback_theme import TILE_KEYS, FallbackTheme, tile_key
from viewer3d.render.culling import ChunkedInstances
from viewer3d.render.scene import (
    INSTANCE_FLOATS,
    KIND_CONVEYOR,
    KIND_HOLE,
    MATERIAL_CRATE,
    MATERIAL_WALL,
    build_scene,
)


def walls(board: Board) -> np.ndarray:
    rows = build_scene(board).instances
    return rows[rows[:, 14] == MATERIAL_WALL]


@pytest.mark.parametrize(
    ("rows", "edges"),
    [
        (["   "], 0),
        (["c  "], 1),  # right wall of (0,0)
        (["cb "], 1),  # the same edge written by both neighbours: one slab
        (["b c"], 2),
        (["e", "i"], 2),  # (0,0) up wall (top edge), (0,1) down wall (bottom edge)
        (["i", "e"], 1),  # (0,0) down wall and (0,1) up wall: the same edge between them
        (["C"], 1),  # a pusher's back wall
        (["M"], 2),  # a crusher's two jaws' walls
    ],
)
def test_wall_edges_are_counted_once(rows, edges):
    board = Board.from_strings(rows)
    assert build_scene(board).wall_edges == edges
    assert len(walls(board)) == build_scene(board).wall_edges


def test_wall_slab_sits_on_its_edge():
    (row,) = walls(Board.from_strings(["c  "]))
    centre, half = row[0:3], row[3:6]
    assert centre[0] == pytest.approx(1.0) and centre[2] == pytest.approx(0.5)  # the X = 1 edge, middle of row 0
    assert half[0] < 0.1 and half[2] >= 0.5  # thin across the edge, a whole tile along it


def test_crate_replaces_its_walls():
    scene = build_scene(Board.from_strings(["bpc"]))
    materials = scene.instances[:, 14]
    assert (materials == MATERIAL_CRATE).sum() == 1
    # b's left wall and c's right wall stay; the edges shared with the crate belong to the crate
    assert scene.wall_edges == 2


def test_info_texel_kinds_and_edge_bits():
    scene = build_scene(Board.from_strings([" H>", "c  "]))
    assert scene.info[0, 1, 2] & 15 == KIND_HOLE
    assert scene.info[0, 2, 2] & 15 == KIND_CONVEYOR and scene.info[0, 2, 2] >> 4 == 1  # RIGHT
    assert scene.info[1, 0, 1] == 2 and scene.info[1, 1, 1] == 1  # the wall seen from both sides


def test_pusher_plate_moves_in_push_direction():
    rows = build_scene(Board.from_strings(["E"])).instances  # pushes up (-Z)
    moving = rows[rows[:, 12] >= 0]
    assert len(moving) == 2  # plate and rod
    assert all(m[11] < 0 and m[9] == 0 for m in moving)


def test_fallback_theme_matches_the_contract():
    layers, keys = FallbackTheme().texture_array()
    assert layers.shape == (len(TILE_KEYS), 64, 64, 4) and layers.dtype == np.uint8
    assert set(keys) == set(TILE_KEYS) and sorted(keys.values()) == list(range(len(TILE_KEYS)))
    from themes import TILE_KEYS as THEME_TILE_KEYS

    assert set(THEME_TILE_KEYS) <= set(keys)
    for char in " aHOZSTUVLR<>^vCDEFMNbp":
        assert tile_key(char) in keys


def test_chunks_outside_the_view_are_culled():
    big = Board.from_strings(["c" * 64] * 64)
    rows = build_scene(big).instances
    chunked = ChunkedInstances(rows)
    assert len(chunked.rows) == len(rows) and chunked.rows.shape[1] == INSTANCE_FLOATS
    corner = top_camera(Board.from_strings(["    "] * 4))  # looks at tiles (0..4, 0..4)
    seen = chunked.visible(corner.view_proj_columns())
    assert 1 <= seen.sum() <= 4 and len(seen) >= 16
    whole = iso_camera(big, (1, 1))
    assert chunked.visible(whole.view_proj_columns()).all()
    commands = chunked.commands(corner.view_proj_columns(), 30)
    assert commands[:, 1].sum() < len(rows) / 4 and (commands[:, 0] == 30).all()
    # every instance of a visible chunk is inside some command's range
    covered = np.zeros(len(rows), bool)
    for _, count, _, _, first in commands:
        covered[first : first + count] = True
    for (start, count), visible in zip(chunked.ranges, seen, strict=True):
        assert covered[start : start + count].all() == visible


def test_close_up_of_a_512x512_board_tests_few_chunks():
    """Culling a close-up tests the chunk groups, then only the chunks of the groups on screen: its
    work follows the screen, not the board (before, all 4,000+ chunk boxes every pass, every frame).
    The chunks it finds are exactly those a test of every chunk finds."""
    from viewer3d.render.culling import _outside

    rows = ["".join("c" if (x * 7 + y * 3) % 5 == 0 else " " for x in range(512)) for y in range(512)]
    chunked = ChunkedInstances(build_scene(Board.from_strings(rows)).instances)
    assert len(chunked.ranges) >= 4000
    for camera in (
        top_camera(Board.from_strings(["      "] * 6)),
        iso_camera(Board.from_strings([" " * 8] * 8), (1, 1)),
    ):
        view_proj = camera.view_proj_columns()
        seen = chunked.visible(view_proj)
        assert 1 <= seen.sum() <= 16
        # the 64 groups, then the chunks of the few groups on screen (the board's long edge walls
        # stretch two more groups over the whole side): a few hundred, not the 4,000+ chunks
        assert chunked.boxes_tested <= 300
        assert np.array_equal(seen, ~_outside(chunked._chunk_corners, view_proj))


@pytest.mark.parametrize("pattern", ["none", "all", "corner", "alternate", "first-and-last"])
def test_visible_rows_are_the_rows_the_commands_draw(pattern):
    """Without indirect draws (OpenGL < 4.3) the visible chunks' rows are copied instead: the same
    rows, in the same order, as the indirect commands would draw."""
    rows = build_scene(Board.from_strings(["cbe" * 20] * 50)).instances
    chunked = ChunkedInstances(rows)
    count = len(chunked.ranges)
    seen = {
        "none": np.zeros(count, bool),
        "all": np.ones(count, bool),
        "corner": np.arange(count) == 0,
        "alternate": np.arange(count) % 2 == 0,
        "first-and-last": np.isin(np.arange(count), (0, count - 1)),
    }[pattern]
    expected = [
        chunked.rows[start : start + size] for (start, size), shown in zip(chunked.ranges, seen, strict=True) if shown
    ]
    picked = chunked.visible_rows(seen)
    assert picked.shape[1] == INSTANCE_FLOATS
    assert np.array_equal(picked, np.concatenate(expected) if expected else chunked.rows[:0])


def test_goal_flag_never_pierces_a_robot_on_the_goal():
    """The pole used to stand on the tile's centre, through the robot; now every box of the goal
    is outside the circle the robot sweeps when it turns, or above its head."""
    from viewer3d.render.meshes import robot_mesh
    from viewer3d.render.renderer import ROBOT_SCALE

    mesh = robot_mesh((0.2, 0.4, 0.8)).reshape(-1, 12)
    radius = float(np.hypot(mesh[:, 0], mesh[:, 2]).max()) * ROBOT_SCALE
    top = float(mesh[:, 1].max()) * ROBOT_SCALE
    rows = build_scene(Board.from_strings(["   ", " Z ", "   "])).instances
    centre, half = rows[:, 0:3], rows[:, 3:6]
    on_goal = (np.abs(centre[:, 0] - 1.5) < 0.5) & (np.abs(centre[:, 2] - 1.5) < 0.5)
    assert on_goal.sum() >= 2  # pole and cloth
    for (x, y, z), (hx, hy, hz) in zip(centre[on_goal], half[on_goal], strict=True):
        nearest_x = np.clip(1.5, x - hx, x + hx)
        nearest_z = np.clip(1.5, z - hz, z + hz)
        clear_sideways = np.hypot(nearest_x - 1.5, nearest_z - 1.5) > radius
        clear_above = y - hy > top
        assert clear_sideways or clear_above, (x, y, z)
