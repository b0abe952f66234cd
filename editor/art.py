"""Tile pictures for the editor: one 64x64 RGBA Pillow image per board character, from a theme.

The theme draws each tile kind (walls included); start tiles get the theme's start
marker turned to their facing, or a drawn arrow when the theme has none. When no
theme can be loaded the editor still works with the viewer's built-in procedural
pictures, so a broken theme never stops anyone from editing a board.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.model import BOARD_CHARS, Direction, Tile, TileKind
from themes import Theme, list_themes, load_theme
from viewer3d.fallback_theme import key_picture, tile_key

TILE_PX = 64
FALLBACK_THEME = "(plain)"

_ARROW_UP = [(32, 10), (52, 36), (40, 36), (40, 54), (24, 54), (24, 36), (12, 36)]


def _turn(points: list[tuple[int, int]], direction: Direction) -> list[tuple[int, int]]:
    turns = {Direction.UP: 0, Direction.RIGHT: 1, Direction.DOWN: 2, Direction.LEFT: 3}[direction]
    for _ in range(turns):
        points = [(63 - y, x) for x, y in points]
    return points


def start_overlay(direction: Direction) -> Image.Image:
    """A green arrow (the robot's starting facing) on a transparent background."""
    image = Image.new("RGBA", (TILE_PX, TILE_PX), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((6, 6, 57, 57), outline=(40, 200, 90, 255), width=4)
    draw.polygon(_turn(_ARROW_UP, direction), fill=(40, 200, 90, 235))
    return image


def theme_keys() -> list[str]:
    """Names of the installed themes (what F2 cycles through); the plain fallback when none are found."""
    return [info.key for info in list_themes()] or [FALLBACK_THEME]


def tile_images(theme_name: str) -> dict[str, Image.Image]:
    """Every board character's picture in ``theme_name`` (raises ThemeError only when the theme's
    folder cannot be read: missing or broken pictures come from its base theme)."""
    if theme_name == FALLBACK_THEME:
        return plain_tile_images()
    return theme_tile_images(load_theme(theme_name))


def plain_tile_images() -> dict[str, Image.Image]:
    """Every board character's picture from the viewer's built-in procedural theme (the one
    fallback painter), start tiles with the drawn start arrow."""
    images: dict[str, Image.Image] = {}
    for char in BOARD_CHARS:
        tile = Tile.from_char(char)
        image = key_picture(tile_key(char)).copy()
        if tile.kind is TileKind.START and tile.direction is not None:
            image.alpha_composite(start_overlay(tile.direction))
        images[char] = image
    return images


def theme_warning(name: str, warnings: Sequence[str]) -> str:
    """A partial or damaged theme in one status line: its first warning and how many more."""
    from themes.report import theme_line

    return theme_line(name, tuple(warnings))


def theme_tile_images(theme: Theme) -> dict[str, Image.Image]:
    """Every board character's picture in a loaded theme: its composed tiles (transparent pixels
    over the floor, as in the viewer and the contact sheet), start tiles with the start marker."""
    images: dict[str, Image.Image] = {}
    for char in BOARD_CHARS:
        tile = Tile.from_char(char)
        image = theme.tile_for(tile).convert("RGBA")
        if tile.kind is TileKind.START and tile.direction is not None:
            marker = theme.start_marker(tile.direction)
            image.alpha_composite(marker.convert("RGBA") if marker is not None else start_overlay(tile.direction))
        images[char] = image
    return images


BUILTIN_WALL = (255, 150, 40, 220)


def with_builtin_walls(char: str, image: Image.Image) -> Image.Image:
    """A pusher's or crusher's picture with its built-in walls as orange bars, so they read as walls."""
    bits = Tile.from_char(char).builtin_walls()
    if not bits:
        return image
    picture = image.convert("RGBA").resize((TILE_PX, TILE_PX))
    draw = ImageDraw.Draw(picture)
    t = 5
    bars = {
        Direction.LEFT: (0, 0, t, TILE_PX - 1),
        Direction.RIGHT: (TILE_PX - 1 - t, 0, TILE_PX - 1, TILE_PX - 1),
        Direction.UP: (0, 0, TILE_PX - 1, t),
        Direction.DOWN: (0, TILE_PX - 1 - t, TILE_PX - 1, TILE_PX - 1),
    }
    for d, box in bars.items():
        if bits & d.wall_bit:
            draw.rectangle(box, fill=(*BUILTIN_WALL[:3], 255))
    return picture
