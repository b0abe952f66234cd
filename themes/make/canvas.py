"""Drawing helpers shared by the theme generators: a 4x supersampled canvas and a few primitives.

Everything is drawn at 256x256 and reduced to 64x64 at the end, which anti-aliases
every edge without relying on Pillow's (aliased) primitive drawing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter

SCALE = 4
SIZE = 64 * SCALE
CENTRE = SIZE / 2

Colour = tuple[int, int, int] | tuple[int, int, int, int]
Point = tuple[float, float]


def hex_colour(text: str, alpha: int = 255) -> tuple[int, int, int, int]:
    text = text.lstrip("#")
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16), alpha)


def blank(colour: Colour = (0, 0, 0, 0)) -> Image.Image:
    return Image.new("RGBA", (SIZE, SIZE), colour)


def reduce(image: Image.Image) -> Image.Image:
    """The 64x64 result: a premultiplied-alpha box filter, so transparent edges get no dark fringe."""
    small = image.convert("RGBa").resize((SIZE // SCALE, SIZE // SCALE), Image.Resampling.BOX)
    return small.convert("RGBA")


def layer(base: Image.Image, top: Image.Image) -> Image.Image:
    return Image.alpha_composite(base, top)


def vertical_gradient(top: Colour, bottom: Colour, size: int = SIZE) -> Image.Image:
    """A size x size image fading from ``top`` to ``bottom`` colour."""
    t = np.linspace(0.0, 1.0, size, dtype=np.float64)[:, None, None]
    a = np.array(_rgba(top), dtype=np.float64)[None, None, :]
    b = np.array(_rgba(bottom), dtype=np.float64)[None, None, :]
    pixels = np.broadcast_to(a + (b - a) * t, (size, size, 4))
    return Image.fromarray(np.round(pixels).astype(np.uint8), "RGBA")


def radial_gradient(inner: Colour, outer: Colour, centre: Point, radius: float) -> Image.Image:
    """A size x size image fading from ``inner`` at ``centre`` to ``outer`` at ``radius`` and beyond."""
    ys, xs = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64)
    t = np.clip(np.hypot(xs + 0.5 - centre[0], ys + 0.5 - centre[1]) / radius, 0.0, 1.0)[:, :, None]
    a = np.array(_rgba(inner), dtype=np.float64)
    b = np.array(_rgba(outer), dtype=np.float64)
    return Image.fromarray(np.round(a + (b - a) * t).astype(np.uint8), "RGBA")


def masked(fill: Image.Image, mask: Image.Image) -> Image.Image:
    """``fill`` kept only where ``mask`` (mode L) is set; transparent elsewhere."""
    out = blank()
    out.paste(fill, (0, 0), mask)
    return out


def mask_of(draw_fn: Callable[[ImageDraw.ImageDraw], object]) -> Image.Image:
    """A mode-L mask drawn by ``draw_fn(ImageDraw)`` in white."""
    mask = Image.new("L", (SIZE, SIZE), 0)
    draw_fn(ImageDraw.Draw(mask))
    return mask


Box = tuple[float, float, float, float]


def rects_mask(boxes: Sequence[Box]) -> Image.Image:
    mask = Image.new("L", (SIZE, SIZE), 0)
    draw = ImageDraw.Draw(mask)
    for box in boxes:
        draw.rectangle(box, fill=255)
    return mask


def rounded_mask(boxes: Sequence[Box], radius: float) -> Image.Image:
    mask = Image.new("L", (SIZE, SIZE), 0)
    draw = ImageDraw.Draw(mask)
    for box in boxes:
        draw.rounded_rectangle(box, radius=radius, fill=255)
    return mask


def ellipses_mask(boxes: Sequence[Box]) -> Image.Image:
    mask = Image.new("L", (SIZE, SIZE), 0)
    draw = ImageDraw.Draw(mask)
    for box in boxes:
        draw.ellipse(box, fill=255)
    return mask


def polygons_mask(polygons: Sequence[Sequence[Point]]) -> Image.Image:
    mask = Image.new("L", (SIZE, SIZE), 0)
    draw = ImageDraw.Draw(mask)
    for points in polygons:
        draw.polygon(list(points), fill=255)
    return mask


def union(*masks: Image.Image) -> Image.Image:
    out = masks[0]
    for mask in masks[1:]:
        out = ImageChops.lighter(out, mask)
    return out


def subtract(mask: Image.Image, cut: Image.Image) -> Image.Image:
    return ImageChops.subtract(mask, cut)


def shadow(mask: Image.Image, offset: Point, blur: float, alpha: int) -> Image.Image:
    """A soft dark shadow of ``mask`` shifted by ``offset``."""
    shifted = Image.new("L", (SIZE, SIZE), 0)
    shifted.paste(mask, (round(offset[0]), round(offset[1])))
    soft = shifted.filter(ImageFilter.GaussianBlur(blur)).point(lambda v: v * alpha // 255)
    out = Image.new("RGBA", (SIZE, SIZE), (10, 14, 20, 0))
    out.putalpha(soft)
    return out


def stripes(colour_a: Colour, colour_b: Colour, width: float, angle_deg: float = 45.0) -> Image.Image:
    """Diagonal hazard stripes across the whole canvas."""
    ys, xs = np.mgrid[0:SIZE, 0:SIZE].astype(np.float64)
    angle = math.radians(angle_deg)
    u = xs * math.cos(angle) + ys * math.sin(angle)
    band = (np.floor(u / width).astype(np.int64) % 2)[:, :, None]
    a = np.array(_rgba(colour_a), dtype=np.uint8)
    b = np.array(_rgba(colour_b), dtype=np.uint8)
    return Image.fromarray(np.where(band == 0, a, b).astype(np.uint8), "RGBA")


def star(centre: Point, outer: float, inner: float, points: int = 5, phase_deg: float = -90.0) -> list[Point]:
    out = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.radians(phase_deg + i * 180.0 / points)
        out.append((centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)))
    return out


def scaled(colour: Colour, factor: float) -> tuple[int, int, int, int]:
    """``colour`` lightened (factor > 1) or darkened (factor < 1), opaque."""
    r, g, b, _ = _rgba(colour)
    return (min(255, int(r * factor)), min(255, int(g * factor)), min(255, int(b * factor)), 255)


def _rgba(colour: Colour) -> tuple[int, int, int, int]:
    if len(colour) == 4:
        return colour
    r, g, b = colour[:3]
    return (r, g, b, 255)
