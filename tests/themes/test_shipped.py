"""The shipped themes load cleanly and pack every image where the index says."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from engine.model import BOARD_CHARS, Direction, Tile
from themes import START_MARKER_LAYERS, TILE_KEYS, Theme, check_theme, list_themes, load_theme
from themes.compose import WALL_OVERLAYS
from themes.loader import BUILTIN_DIR

SHIPPED = ["default", "pen"]


def _png(theme: Theme, stem: str) -> np.ndarray:
    """A tile as drawn: the PNG over the floor (walls of an overlay theme: the overlays over the floor)."""
    if stem in TILE_KEYS:
        floor = Image.open(theme.path / "floor.png").convert("RGBA")
        path = theme.path / f"{stem}.png"
        layers = [path] if path.exists() or stem == "floor" else [theme.path / f"{o}.png" for o in WALL_OVERLAYS[stem]]
        for layer in layers if stem != "floor" else []:
            floor.alpha_composite(Image.open(layer).convert("RGBA"))
        return np.asarray(floor)
    with Image.open(theme.path / f"{stem}.png") as img:
        return np.asarray(img.convert("RGBA"))


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_theme_is_valid(name: str) -> None:
    assert check_theme(name) == []
    theme = load_theme(name)
    assert theme.path == (BUILTIN_DIR / name).resolve()
    assert theme.manifest.start_marker is True
    assert theme.manifest.author and theme.manifest.licence


def test_shipped_themes_are_listed_as_builtin() -> None:
    listed = {info.key: info for info in list_themes() if info.origin == "builtin"}
    assert set(listed) == set(SHIPPED)  # the generator package themes/make is not a theme
    assert listed["default"].name == "Default" and listed["pen"].name == "Pen"


@pytest.mark.parametrize("name", SHIPPED)
def test_every_image_is_64x64_rgba_and_sprites_are_transparent(name: str) -> None:
    theme = load_theme(name)
    for key in TILE_KEYS:
        tile = theme.tile(key)
        assert tile.size == (64, 64) and tile.mode == "RGBA"
        assert tile.getchannel("A").getextrema() == (255, 255), f"{key} tile should be opaque"
    for sprite in (theme.robot, theme.cursor):
        alpha = np.asarray(sprite.getchannel("A"))
        assert sprite.size == (64, 64)
        assert (alpha < 255).mean() > 0.25 and (alpha == 0).any() and (alpha == 255).any()


@pytest.mark.parametrize("name", SHIPPED)
def test_texture_array_holds_each_png_at_its_layer(name: str) -> None:
    theme = load_theme(name)
    array, layers = theme.texture_array()
    expected_keys = [*TILE_KEYS, "robot", "cursor", *START_MARKER_LAYERS]
    assert list(layers) == expected_keys
    assert [layers[k] for k in expected_keys] == list(range(len(expected_keys)))
    assert array.shape == (len(expected_keys), 64, 64, 4) and array.dtype == np.uint8
    for key in [*TILE_KEYS, "robot", "cursor"]:
        np.testing.assert_array_equal(array[layers[key]], _png(theme, key), err_msg=key)
    start_up = _png(theme, "start")
    np.testing.assert_array_equal(array[layers["start-up"]], start_up)
    np.testing.assert_array_equal(array[layers["start-down"]], start_up[::-1, ::-1])
    # Pointing right = the up image turned a quarter clockwise: its top row becomes the right column.
    np.testing.assert_array_equal(array[layers["start-right"]][:, -1], start_up[0])
    np.testing.assert_array_equal(array[layers["start-left"]][:, 0], start_up[0][::-1])
    assert not array.flags.writeable
    assert theme.texture_array()[0] is array  # cached


@pytest.mark.parametrize("columns", [1, 5, 8, 40])
def test_atlas_boxes_cut_out_each_image(columns: int) -> None:
    theme = load_theme("default")
    sheet, boxes = theme.atlas(columns)
    array, layers = theme.texture_array()
    assert list(boxes) == list(layers)
    assert sheet.size == (64 * columns, 64 * -(-len(boxes) // columns))
    for key, box in boxes.items():
        left, top, right, bottom = box
        assert right - left == 64 and bottom - top == 64
        index = layers[key]
        assert (left, top) == ((index % columns) * 64, (index // columns) * 64)
        np.testing.assert_array_equal(np.asarray(sheet.crop(box)), array[index], err_msg=key)


def test_atlas_rejects_zero_columns() -> None:
    with pytest.raises(ValueError):
        load_theme("default").atlas(0)


@pytest.mark.parametrize("char", list(BOARD_CHARS))
def test_tile_for_matches_tile(char: str) -> None:
    from themes import tile_key

    theme = load_theme("pen")
    tile = Tile.from_char(char)
    assert theme.tile_for(tile).tobytes() == theme.tile(tile_key(tile)).tobytes()


def test_returned_images_are_copies() -> None:
    theme = load_theme("default")
    theme.tile("floor").paste((255, 0, 0, 255), (0, 0, 64, 64))
    theme.robot.paste((255, 0, 0, 255), (0, 0, 64, 64))
    assert theme.tile("floor").getpixel((32, 32)) != (255, 0, 0, 255)
    assert theme.robot.getpixel((0, 0))[3] == 0


@pytest.mark.parametrize("name", SHIPPED)
def test_robot_facing_turns_the_up_image(name: str) -> None:
    """robot.png points up; robot_facing turns it like Direction does (right = a quarter turn clockwise)."""
    theme = load_theme(name)
    up = np.asarray(theme.robot)
    assert not np.array_equal(up, up[::-1])
    right = np.asarray(theme.robot_facing(Direction.RIGHT))
    np.testing.assert_array_equal(right[:, -1], up[0])
    np.testing.assert_array_equal(np.asarray(theme.robot_facing(Direction.UP)), up)
    assert theme.start_marker(Direction.UP) is not None
