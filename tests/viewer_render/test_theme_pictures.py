"""Every picture a theme holds shows in the 3D view: wall art on the floor under the slabs, the
crate tile on the crate, the hole tile as the pit's rim and floor, the robot picture on its
head, the cursor as the pick marker; theme.json's "3d" settings; pixels as the PNG says."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.model import Board
from tests.themes.test_modes import png16
from tests.viewer_render.helpers import iso_camera, top_camera
from themes import clear_cache, load_theme
from viewer3d import coords
from viewer3d.render.state import FrameState, RobotVisual

WALL, CRATE, HOLE, ROBOT = (220, 30, 30), (230, 40, 230), (40, 60, 230), (40, 220, 40)
BOARD = Board.from_strings(["       ", " b  H  ", " f  p  ", "       ", " o  H  "])
BIG = (480, 360)


@pytest.fixture(autouse=True)
def _no_cache() -> None:
    clear_cache()


def _solid(path: Path, colour: tuple[int, int, int], alpha: bool = False) -> None:
    if alpha:
        image = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
        image.paste((*colour, 255), (8, 8, 56, 56))
    else:
        image = Image.new("RGB", (64, 64), colour)
    image.save(path)


def _matching(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """Pixels of ``colour``'s hue (any brightness above a dim shade): lighting scales colours."""
    pixels = np.asarray(image.convert("RGB"), dtype=np.float64).reshape(-1, 3)
    norm = np.linalg.norm(pixels, axis=1)
    target = np.array(colour, dtype=np.float64)
    cosine = pixels @ target / np.maximum(norm * np.linalg.norm(target), 1e-9)
    return int(((cosine > 0.985) & (norm > 60)).sum())


@pytest.fixture
def solid_theme(tmp_path: Path) -> Path:
    folder = tmp_path / "solid"
    folder.mkdir()
    _solid(folder / "floor.png", (128, 128, 128))
    for char in "bcdefghijklmno":
        _solid(folder / f"wall-{char}.png", WALL)
    _solid(folder / "wall-p.png", CRATE)
    _solid(folder / "hole.png", HOLE)
    _solid(folder / "robot.png", ROBOT, alpha=True)
    # grey slabs and robot body: the colours can only come from the pictures drawn in 3D
    (folder / "theme.json").write_text('{"3d": {"wall_colour": "#606060", "robot_colour": "#606060"}}')
    return folder


@pytest.mark.parametrize("view", ["top", "iso"])
def test_wall_crate_hole_and_robot_colours_each_appear(render, solid_theme: Path, view: str) -> None:
    theme = load_theme(solid_theme)
    camera = top_camera(BOARD, BIG) if view == "top" else iso_camera(BOARD, (1, 1), BIG)
    frame = FrameState(robot=RobotVisual(4, 3))
    shot = render(BOARD, camera, frame, theme=theme, size=BIG)
    control = render(BOARD, camera, frame, theme=load_theme("default"), size=BIG)
    for name, colour in (("wall", WALL), ("crate", CRATE), ("hole", HOLE), ("robot", ROBOT)):
        assert _matching(shot, colour) > 20, name
        assert _matching(control, colour) < 5, name  # the default theme draws none of it


def test_the_robot_picture_lies_on_its_head(render, solid_theme: Path) -> None:
    theme = load_theme(solid_theme)
    board = Board.from_strings(["   ", "   ", "   "])
    camera = top_camera(board, BIG)
    shot = render(board, camera, FrameState(robot=RobotVisual(1, 1)), theme=theme, size=BIG)
    x, y, _ = coords.project(coords.tile_center(1, 1, 0.7), camera.view_proj_columns(), BIG)
    r, g, b, _ = shot.getpixel((math.floor(x), math.floor(y)))
    assert g > 150 and r < 90 and b < 90  # the picture's green, not the body's colour


def test_pink_floor_theme_shows_pink_floor_and_default_walls(render, tmp_path: Path) -> None:
    folder = tmp_path / "pink"
    folder.mkdir()
    _solid(folder / "floor.png", (255, 105, 180))
    pink, default = load_theme(folder), load_theme("default")
    assert len(pink.warnings) == 1
    camera = top_camera(BOARD, BIG)
    shot, control = (render(BOARD, camera, theme=t, size=BIG) for t in (pink, default))
    for tile in ((0, 0), (1, 1), (1, 2), (1, 4)):  # plain floor and wall tiles: pink between the walls
        x, y, _ = coords.project(coords.tile_center(*tile), camera.view_proj_columns(), BIG)
        r, g, b, _ = shot.getpixel((math.floor(x), math.floor(y)))
        assert r > 200 and 80 < g < 130 and 150 < b < 200, tile
    assert _matching(control, (255, 105, 180)) < 5


def _floor_theme(folder: Path, data: bytes | Image.Image) -> object:
    folder.mkdir()
    if isinstance(data, bytes):
        (folder / "floor.png").write_bytes(data)
    else:
        data.save(folder / "floor.png")
    return load_theme(folder)


def _palette() -> Image.Image:
    image = Image.new("P", (64, 64), 1)
    image.putpalette([0, 0, 0, 30, 160, 90] + [0] * 762)
    return image


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("grey16", png16(np.full((64, 64, 1), 0x7A40, np.uint16), 0), (0x7A, 0x7A, 0x7A)),
        ("colour16", png16(np.full((64, 64, 3), (0x2000, 0x9000, 0xD000), np.uint16), 2), (0x20, 0x90, 0xD0)),
        ("palette", _palette(), (30, 160, 90)),
        ("greyalpha", Image.new("LA", (64, 64), (200, 255)), (200, 200, 200)),
        ("big", Image.new("RGB", (128, 128), (90, 40, 160)), (90, 40, 160)),
    ],
)
def test_tiles_draw_as_their_pixels_say(
    render, tmp_path: Path, name: str, data: bytes | Image.Image, expected: tuple[int, int, int]
) -> None:
    theme = _floor_theme(tmp_path / name, data)
    board = Board.from_strings(["   ", "   ", "   "])
    camera = top_camera(board, BIG)
    shot = render(board, camera, theme=theme, size=BIG)
    x, y, _ = coords.project(coords.tile_center(1, 1), camera.view_proj_columns(), BIG)
    got = np.array(shot.getpixel((math.floor(x), math.floor(y)))[:3], dtype=int)
    assert np.abs(got - np.array(expected) * 0.97).max() <= 4, (name, tuple(got))


def test_transparent_floor_shows_the_backdrop_in_viewer_editor_and_sheet(render, tmp_path: Path) -> None:
    folder = tmp_path / "clear"
    folder.mkdir()
    Image.new("RGBA", (64, 64), (255, 0, 0, 0)).save(folder / "floor.png")
    (folder / "theme.json").write_text('{"backdrop": "#3060a0"}')
    theme = load_theme(folder)
    board = Board.from_strings(["   ", "   ", "   "])
    camera = top_camera(board, BIG)
    shot = render(board, camera, theme=theme, size=BIG)
    x, y, _ = coords.project(coords.tile_center(1, 1), camera.view_proj_columns(), BIG)
    viewer = np.array(shot.getpixel((math.floor(x), math.floor(y)))[:3], dtype=int)
    assert np.abs(viewer - np.array([0x30, 0x60, 0xA0]) * 0.97).max() <= 3
    from editor.art import tile_images
    from themes.sheet import contact_sheet

    editor = np.asarray(tile_images(str(folder))[" "])
    assert (editor == (0x30, 0x60, 0xA0, 255)).all()
    sheet = np.asarray(contact_sheet(theme, columns=8, scale=1))
    assert tuple(sheet[44 + 20, 10 + 20]) == (0x30, 0x60, 0xA0)


def test_the_cursor_marks_the_tile_under_the_mouse(render) -> None:
    theme = load_theme("default")
    board = Board.from_strings(["   ", "   ", "   "])
    camera = top_camera(board, BIG)
    plain = np.asarray(render(board, camera, theme=theme, size=BIG).convert("RGB"), dtype=int)
    marked = np.asarray(render(board, camera, FrameState(pointer=(2, 0)), theme=theme, size=BIG).convert("RGB"))
    changed = np.argwhere(np.abs(marked.astype(int) - plain).sum(axis=2) > 30)
    assert len(changed) > 100
    x0, y0, _ = coords.project((2.0, 0.0, 0.0), camera.view_proj_columns(), BIG)
    x1, y1, _ = coords.project((3.0, 0.0, 1.0), camera.view_proj_columns(), BIG)
    assert changed[:, 1].min() >= x0 - 1 and changed[:, 1].max() <= x1 + 1  # only on tile (2, 0)
    assert changed[:, 0].min() >= y0 - 1 and changed[:, 0].max() <= y1 + 1
    assert _matching(Image.fromarray(marked.astype(np.uint8)), (40, 200, 240)) > 20  # the cursor's cyan


def test_theme_json_sets_wall_colour_and_height(render, tmp_path: Path) -> None:
    folder = tmp_path / "tall"
    folder.mkdir()
    (folder / "theme.json").write_text('{"base": "default", "3d": {"wall_colour": "#10c0c0", "wall_height": 1.2}}')
    tall, default = load_theme(folder), load_theme("default")
    assert tall.look.wall_colour == pytest.approx((16 / 255, 192 / 255, 192 / 255))
    board = Board.from_strings(["   ", " b ", "   "])
    camera = iso_camera(board, (1, 1), BIG)
    shot, control = (render(board, camera, theme=t, size=BIG) for t in (tall, default))
    assert _matching(shot, (16, 192, 192)) > 3 * max(1, _matching(control, (16, 192, 192)))
    # a taller wall covers more of the picture
    differs = np.abs(np.asarray(shot, dtype=int) - np.asarray(control, dtype=int)).sum(axis=2) > 30
    assert differs.sum() > 2000


def test_thumbnails_show_every_tile_and_the_sprites_in_3d() -> None:
    from themes.keys import TILE_KEYS
    from viewer3d.render.thumbnails import render_thumbnails

    shots = render_thumbnails(load_theme("default"), 64)
    assert set(shots) == {*TILE_KEYS, "robot", "cursor", "start"}
    floor = np.asarray(shots["floor"], dtype=int)
    for key in ("robot", "cursor", "start", "hole", "wall-p", "wall-f", "goal"):
        assert np.abs(np.asarray(shots[key], dtype=int) - floor).mean() > 3, key  # each shows its picture
