"""The board on screen at any size: one texture for the whole board, sprites only when zoomed in.

A 256x256 board has 65,536 tiles; moving that many sprites on every zoom or pan step
takes most of a second. Instead the board is composed once (numpy) into one
texture with ``res`` pixels per tile (so the texture stays <= 2048 pixels a side) and
drawn as a single sprite: zoom and pan only change that sprite's position and scale.
An edit recomposes just the bounding box of the tiles (or the box) the document's ``BoardChanged``
event names and uploads it with one ``glTexSubImage2D``. (No mipmaps: regenerating them
after every edit costs ~80 ms for a 2048-pixel texture on Mesa's llvmpipe.)

When the view is zoomed in past the texture's resolution and few tiles are visible,
the visible tiles are drawn as sprites of the full-size pictures on top, so close-ups
stay sharp (``BoardSprites``). No per-frame work depends on the board's size.
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter

import numpy as np
import pyglet
from PIL import Image

from editor.games.base import Grid
from editor.spans import Box
from viewer3d.coords import TopDownMapping

MAX_TEXTURE_PX = 2048
MAX_SPRITES = 1600

Position = tuple[int, int]
_char = attrgetter("char")


def tile_resolution(board: Grid, full_px: int) -> int:
    """Pixels per tile in the board texture: the full pictures when they fit, else smaller."""
    return max(4, min(full_px, MAX_TEXTURE_PX // max(board.width, board.height)))


class BoardTexture:
    """The whole board in one texture; ``update`` redraws only the tiles an edit touched."""

    def __init__(self, board: Grid, images: dict[str, Image.Image], full_px: int) -> None:
        self.res = tile_resolution(board, full_px)
        self.chars = sorted(images)
        self._index = {char: i for i, char in enumerate(self.chars)}
        self._atlas = np.stack(
            [
                np.asarray(images[c].convert("RGBA").resize((self.res, self.res), Image.Resampling.BOX))
                for c in self.chars
            ]
        )
        self.board = board
        self.shape = (board.width, board.height)
        self.tiles_read = 0  # tiles looked at by the last update (tests count work, not time)
        self.uploads = 0
        self.pixels_uploaded = 0
        self._codes = self._codes_of(board)
        height, width = self._codes.shape
        pixels = self._compose(self._codes)
        data = pyglet.image.ImageData(width * self.res, height * self.res, "RGBA", pixels, pitch=-width * self.res * 4)
        self.texture = data.get_texture()
        self.sprite = pyglet.sprite.Sprite(self.texture, x=0, y=0)

    def _codes_of(self, board: Grid, ys: range | None = None, xs: range | None = None) -> np.ndarray:
        """The picture index of every tile in the block ``ys`` x ``xs`` (default: the whole board).

        The tiles are read by C loops (``map`` over the rows' slices into ``np.fromiter``): a whole
        512x512 board takes milliseconds, where a Python loop over its tiles took a tenth of a second."""
        ys = ys if ys is not None else range(board.height)
        xs = xs if xs is not None else range(board.width)
        rows = board.rows[ys.start : ys.stop]
        cells = chain.from_iterable(row[xs.start : xs.stop] for row in rows)
        flat = np.fromiter(map(self._index.__getitem__, map(_char, cells)), dtype=np.intp, count=len(ys) * len(xs))
        codes: np.ndarray = flat.reshape(len(ys), len(xs))
        return codes

    def _compose(self, codes: np.ndarray) -> bytes:
        """Tile pictures for a block of codes, as RGBA rows from the top."""
        h, w = codes.shape
        r = self.res
        block = self._atlas[codes]  # (h, w, r, r, 4)
        pixels: bytes = block.transpose(0, 2, 1, 3, 4).reshape(h * r, w * r, 4).tobytes()
        return pixels

    def update(self, board: Grid, positions: frozenset[Position] | None, box: Box | None = None) -> None:
        """Redraw the tiles in ``positions`` and inside ``box`` (x0, y0, x1, y1, all included) for
        ``board``; ``positions`` None: compare the whole board. Only the bounding box of what
        changed is recomposed and uploaded."""
        self.tiles_read = 0
        width, height = board.width, board.height
        if positions is None:
            box = (0, 0, width - 1, height - 1)
            positions = frozenset()
        bounds: list[Box] = []
        if box is not None:
            x0, y0 = max(box[0], 0), max(box[1], 0)
            x1, y1 = min(box[2], width - 1), min(box[3], height - 1)
            if x0 <= x1 and y0 <= y1:
                codes = self._codes_of(board, range(y0, y1 + 1), range(x0, x1 + 1))
                self.tiles_read += codes.size
                changed = np.argwhere(codes != self._codes[y0 : y1 + 1, x0 : x1 + 1])
                if changed.size:
                    self._codes[y0 : y1 + 1, x0 : x1 + 1] = codes
                    (cy0, cx0), (cy1, cx1) = changed.min(axis=0), changed.max(axis=0)
                    bounds.append((x0 + int(cx0), y0 + int(cy0), x0 + int(cx1), y0 + int(cy1)))
        inside = [(x, y) for x, y in positions if 0 <= x < width and 0 <= y < height]
        if inside:
            xs, ys = zip(*inside, strict=True)
            index, rows = self._index, board.rows
            self._codes[list(ys), list(xs)] = [index[rows[y][x].char] for x, y in inside]
            self.tiles_read += len(inside)
            bounds.append((min(xs), min(ys), max(xs), max(ys)))
        self.board = board
        if not bounds:
            return
        x0, y0 = min(b[0] for b in bounds), min(b[1] for b in bounds)
        x1, y1 = max(b[2] for b in bounds), max(b[3] for b in bounds)
        r = self.res
        block = self._codes[y0 : y1 + 1, x0 : x1 + 1]
        h, w = block.shape
        data = pyglet.image.ImageData(w * r, h * r, "RGBA", self._compose(block), pitch=-w * r * 4)
        bottom = (self._codes.shape[0] - 1 - int(y1)) * r
        self.texture.blit_into(data, int(x0) * r, bottom, 0)
        self.uploads += 1
        self.pixels_uploaded += w * r * h * r

    def place(self, mapping: TopDownMapping, window_height: int) -> None:
        scale = mapping.tile_px / self.res
        height_px = self.board.height * mapping.tile_px
        x, y = mapping.origin_x, window_height - mapping.origin_y - height_px
        if (self.sprite.x, self.sprite.y, self.sprite.scale) != (x, y, scale):
            self.sprite.update(x=x, y=y, scale=scale)

    def delete(self) -> None:
        self.sprite.delete()
        self.texture.delete()
