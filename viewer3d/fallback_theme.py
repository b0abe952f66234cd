"""A built-in tile theme drawn procedurally (numpy + Pillow), used when the ``themes`` package
cannot be loaded (a damaged install), and by the editor for the same reason. It honours the same contract as ``themes.Theme``:
``texture_array() -> (uint8 (layers, 64, 64, 4), {key: layer})`` with the same keys."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFilter

from engine.model import WALL_CHARS, Direction, Tile
from themes.keys import TILE_KEYS as THEME_TILE_KEYS
from themes.keys import direction_word
from themes.keys import tile_key as theme_tile_key

SIZE = 64
DIRECTION_NAMES = {d: direction_word(d) for d in Direction}
#: The theme's 31 tile keys, then the robot and cursor layers (the themes contract's layer order).
TILE_KEYS: tuple[str, ...] = (*THEME_TILE_KEYS, "robot", "cursor")


def tile_key(char: str) -> str:
    """The texture key of a board character (start tiles are plain floor): the themes package's mapping."""
    return theme_tile_key(Tile.from_char(char))


def _floor() -> Image.Image:
    rng = np.random.default_rng(7)
    noise = rng.normal(0, 4, (SIZE, SIZE, 1))
    base = np.clip(np.array([150, 156, 164], dtype=np.float64) + noise, 0, 255)
    image = Image.fromarray(base.astype(np.uint8), "RGB").convert("RGBA")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, SIZE - 1, SIZE - 1), outline=(112, 118, 128, 255), width=2)
    draw.line((2, 2, SIZE - 3, 2), fill=(182, 188, 196, 255))
    draw.line((2, 2, 2, SIZE - 3), fill=(182, 188, 196, 255))
    for cx, cy in ((7, 7), (SIZE - 8, 7), (7, SIZE - 8), (SIZE - 8, SIZE - 8)):
        draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=(120, 126, 134, 255), outline=(96, 100, 108, 255))
    return image


def _rotated(image: Image.Image, direction: Direction) -> Image.Image:
    """Rotate an image drawn for RIGHT to face ``direction`` (board y grows downwards)."""
    angle = {Direction.RIGHT: 0, Direction.UP: 90, Direction.LEFT: 180, Direction.DOWN: 270}[direction]
    return image.rotate(angle)


def _wall(bits: int) -> Image.Image:
    image = _floor()
    draw = ImageDraw.Draw(image)
    colour = (196, 120, 52, 255)
    band = 6
    if bits & Direction.LEFT.wall_bit:
        draw.rectangle((0, 0, band, SIZE - 1), fill=colour)
    if bits & Direction.RIGHT.wall_bit:
        draw.rectangle((SIZE - 1 - band, 0, SIZE - 1, SIZE - 1), fill=colour)
    if bits & Direction.UP.wall_bit:
        draw.rectangle((0, 0, SIZE - 1, band), fill=colour)
    if bits & Direction.DOWN.wall_bit:
        draw.rectangle((0, SIZE - 1 - band, SIZE - 1, SIZE - 1), fill=colour)
    return image


def _hole() -> Image.Image:
    image = Image.new("RGBA", (SIZE, SIZE), (16, 14, 18, 255))
    draw = ImageDraw.Draw(image)
    for i in range(6):
        shade = 60 - i * 9
        draw.rectangle(
            (i * 3, i * 3, SIZE - 1 - i * 3, SIZE - 1 - i * 3), outline=(shade, shade - 4, shade, 255), width=3
        )
    return image


def _oil() -> Image.Image:
    image = _floor()
    blob = Image.new("L", (SIZE, SIZE), 0)
    draw = ImageDraw.Draw(blob)
    draw.ellipse((10, 14, 46, 44), fill=255)
    draw.ellipse((28, 24, 56, 54), fill=255)
    draw.ellipse((14, 36, 30, 52), fill=255)
    blob = blob.filter(ImageFilter.GaussianBlur(1.5))
    slick = Image.new("RGBA", (SIZE, SIZE), (20, 18, 30, 255))
    image.paste(slick, (0, 0), blob)
    shine = ImageDraw.Draw(image)
    shine.arc((16, 18, 40, 40), 200, 280, fill=(110, 90, 170, 255), width=2)
    shine.arc((32, 30, 52, 50), 200, 260, fill=(70, 140, 150, 255), width=2)
    return image


def _goal() -> Image.Image:
    image = _floor()
    draw = ImageDraw.Draw(image)
    for radius, colour in (
        (27, (30, 150, 70, 255)),
        (21, (240, 240, 240, 255)),
        (15, (30, 150, 70, 255)),
        (9, (240, 240, 240, 255)),
        (4, (30, 150, 70, 255)),
    ):
        draw.ellipse((32 - radius, 32 - radius, 32 + radius, 32 + radius), fill=colour)
    return image


def _rotator(clockwise: bool) -> Image.Image:
    image = _floor()
    draw = ImageDraw.Draw(image)
    draw.ellipse((5, 5, SIZE - 6, SIZE - 6), fill=(60, 64, 74, 255), outline=(30, 30, 36, 255), width=2)
    colour = (70, 170, 240, 255) if clockwise else (240, 150, 40, 255)
    draw.arc((14, 14, SIZE - 15, SIZE - 15), 20, 160, fill=colour, width=5)
    draw.arc((14, 14, SIZE - 15, SIZE - 15), 200, 340, fill=colour, width=5)
    for start in (160, 340) if clockwise else (20, 200):
        angle = math.radians(start)
        cx, cy = 32 + 18.5 * math.cos(angle), 32 + 18.5 * math.sin(angle)
        tangent = angle + (math.pi / 2 if clockwise else -math.pi / 2)
        tip = (cx + 8 * math.cos(tangent), cy + 8 * math.sin(tangent))
        normal = (math.cos(angle) * 7, math.sin(angle) * 7)
        draw.polygon([tip, (cx + normal[0], cy + normal[1]), (cx - normal[0], cy - normal[1])], fill=colour)
    return image


def _conveyor(direction: Direction) -> Image.Image:
    image = Image.new("RGBA", (SIZE, SIZE), (48, 50, 56, 255))
    draw = ImageDraw.Draw(image)
    for y in range(0, SIZE, 4):
        draw.line((0, y, SIZE - 1, y), fill=(42, 44, 50, 255))
    for offset in (0, 32):
        x = offset + 8
        draw.polygon(
            [(x, 14), (x + 12, 14), (x + 24, 32), (x + 12, 50), (x, 50), (x + 12, 32)], fill=(240, 196, 40, 255)
        )
    draw.rectangle((0, 0, SIZE - 1, 4), fill=(90, 94, 102, 255))
    draw.rectangle((0, SIZE - 5, SIZE - 1, SIZE - 1), fill=(90, 94, 102, 255))
    return _rotated(image, direction)


def _hazard(image: Image.Image, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    stripes = Image.new("RGBA", (x1 - x0, y1 - y0), (240, 196, 40, 255))
    draw = ImageDraw.Draw(stripes)
    for k in range(-SIZE, SIZE * 2, 12):
        draw.polygon([(k, 0), (k + 6, 0), (k + 6 - SIZE, SIZE), (k - SIZE, SIZE)], fill=(30, 30, 30, 255))
    image.paste(stripes, (x0, y0))


def _pusher(direction: Direction) -> Image.Image:
    image = _floor()
    _hazard(image, (0, 0, 12, SIZE))
    draw = ImageDraw.Draw(image)
    draw.polygon([(22, 20), (44, 32), (22, 44)], fill=(220, 60, 50, 255))
    draw.rectangle((14, 28, 24, 36), fill=(220, 60, 50, 255))
    return _rotated(image, direction)


def _crusher(vertical: bool) -> Image.Image:
    image = _floor()
    _hazard(image, (0, 0, 12, SIZE))
    _hazard(image, (SIZE - 12, 0, SIZE, SIZE))
    draw = ImageDraw.Draw(image)
    for y in range(10, SIZE - 8, 12):
        draw.polygon([(14, y), (22, y + 5), (14, y + 10)], fill=(200, 40, 40, 255))
        draw.polygon([(SIZE - 15, y), (SIZE - 23, y + 5), (SIZE - 15, y + 10)], fill=(200, 40, 40, 255))
    return image.rotate(90) if vertical else image


def _robot() -> Image.Image:
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((12, 12, 52, 52), 8, fill=(60, 130, 230, 255), outline=(20, 50, 110, 255), width=3)
    draw.polygon([(32, 6), (44, 20), (20, 20)], fill=(250, 250, 250, 255))
    return image


def _cursor() -> Image.Image:
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    ImageDraw.Draw(image).rectangle((1, 1, SIZE - 2, SIZE - 2), outline=(255, 230, 60, 255), width=4)
    return image


def _draw(key: str) -> Image.Image:
    if key == "floor":
        return _floor()
    if key.startswith("wall-"):
        return _wall(WALL_CHARS.index(key[-1]))
    simple = {"hole": _hole, "oil": _oil, "goal": _goal, "robot": _robot, "cursor": _cursor}
    if key in simple:
        return simple[key]()
    if key.startswith("rotator-"):
        return _rotator(key.endswith("right"))
    if key.startswith("crusher-"):
        return _crusher(key.endswith("ud"))
    kind, name = key.split("-")
    direction = next(d for d, n in DIRECTION_NAMES.items() if n == name)
    return _conveyor(direction) if kind == "conveyor" else _pusher(direction)


@lru_cache(maxsize=64)
def key_picture(key: str) -> Image.Image:
    """The built-in picture of one texture key (e.g. ``"conveyor-up"``), 64x64 RGBA; shared with
    the editor's fallback, so there is one procedural tile painter. Do not modify the result."""
    return _draw(key).convert("RGBA")


@lru_cache(maxsize=1)
def _texture_array() -> tuple[NDArray[np.uint8], dict[str, int]]:
    layers = np.stack([np.asarray(key_picture(key), dtype=np.uint8) for key in TILE_KEYS])
    layers.setflags(write=False)
    return layers, {key: index for index, key in enumerate(TILE_KEYS)}


class FallbackTheme:
    """The built-in procedural theme."""

    name = "builtin"

    def texture_array(self) -> tuple[NDArray[np.uint8], dict[str, int]]:
        layers, index = _texture_array()
        return layers, dict(index)
