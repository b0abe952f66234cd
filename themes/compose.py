"""How pictures become the tiles every tool draws: one rule, used by the viewer, the editor, the
contact sheet and board exports alike.

* a tile is drawn over the floor, and the floor over the theme's backdrop colour, so transparent
  pixels of any tile show the floor (and a transparent floor shows the backdrop);
* a wall tile the theme does not draw whole is its floor with the overlay of each walled edge on
  top (``wall-left``, ``wall-right``, ``wall-up``, ``wall-down``, in that order).
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from engine.model import WALL_CHARS, Direction
from themes.images import TILE_SIZE
from themes.keys import OVERLAY_KEYS, TILE_KEYS

#: wall-b .. wall-p -> the overlays of its edges (bit order left 1, right 2, up 4, down 8).
WALL_OVERLAYS: dict[str, tuple[str, ...]] = {
    f"wall-{WALL_CHARS[bits]}": tuple(
        overlay for overlay, direction in zip(OVERLAY_KEYS, Direction, strict=True) if bits & direction.wall_bit
    )
    for bits in range(1, 16)
}


def backdrop_image(colour: tuple[int, int, int]) -> Image.Image:
    return Image.new("RGBA", (TILE_SIZE, TILE_SIZE), (*colour, 255))


def compose_tiles(pictures: Mapping[str, Image.Image], backdrop: tuple[int, int, int]) -> dict[str, Image.Image]:
    """Every one of the 31 tiles, opaque, from ``pictures`` (which must hold floor, and for each
    tile either its picture or, for walls, the overlays its edges need)."""
    floor = backdrop_image(backdrop)
    floor.alpha_composite(pictures["floor"])
    tiles: dict[str, Image.Image] = {}
    for key in TILE_KEYS:
        tile = floor.copy()
        if key == "floor":
            pass
        elif key in pictures:
            tile.alpha_composite(pictures[key])
        else:
            for overlay in WALL_OVERLAYS[key]:
                tile.alpha_composite(pictures[overlay])
        tiles[key] = tile
    return tiles
