"""Packing a theme's images for the GPU (a texture array) and for 2-D drawing (an atlas)."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from PIL import Image

from themes.images import TILE_SIZE


def pack_texture_array(images: Mapping[str, Image.Image]) -> tuple[np.ndarray, dict[str, int]]:
    """All images stacked as ``(layers, 64, 64, 4)`` uint8 RGBA in mapping order; rows top to bottom.

    The array is read-only because it is cached and shared between callers.
    """
    layers = np.stack([np.asarray(img.convert("RGBA"), dtype=np.uint8) for img in images.values()])
    layers.setflags(write=False)
    return layers, {key: index for index, key in enumerate(images)}


def pack_atlas(
    images: Mapping[str, Image.Image], columns: int = 8
) -> tuple[Image.Image, dict[str, tuple[int, int, int, int]]]:
    """All images on one RGBA sheet, ``columns`` per row in mapping order; boxes are (left, top, right, bottom)."""
    if columns < 1:
        raise ValueError(f"an atlas needs at least one column, not {columns}")
    rows = math.ceil(len(images) / columns)
    sheet = Image.new("RGBA", (columns * TILE_SIZE, rows * TILE_SIZE), (0, 0, 0, 0))
    boxes: dict[str, tuple[int, int, int, int]] = {}
    for index, (key, img) in enumerate(images.items()):
        left, top = (index % columns) * TILE_SIZE, (index // columns) * TILE_SIZE
        sheet.paste(img, (left, top))
        boxes[key] = (left, top, left + TILE_SIZE, top + TILE_SIZE)
    return sheet, boxes
