"""Tron pictures of the shipped themes (``tron/floor.png``, ``tron/blocked.png``): dark enough that
the bots' glowing light walls stand out on them, each in its theme's hand.

``default``: a dark blue metal floor plate with a faint lit seam at its edges, and a raised steel
block with a bevel and a warning stripe (its light walls stay plain); ``pen``: blueprint paper
with chalk grid lines, a chalk-hatched block, and light walls hatched as if coloured in by hand. Deterministic, like the rest of ``themes.make``.
"""

from __future__ import annotations

import random
import zlib

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from themes.make.canvas import SIZE, blank, hex_colour, layer, mask_of, masked, rects_mask, reduce, vertical_gradient
from themes.make.ink import hatch, sketch_rect
from themes.make.pen import grid_lines

SEAM = hex_colour("#1d5b86")
PLATE = hex_colour("#0f182b")
STEEL_TOP, STEEL_BOTTOM = hex_colour("#5a6478"), hex_colour("#3b4354")
BEVEL_LIGHT, BEVEL_DARK = hex_colour("#8793aa"), hex_colour("#262c38")
STRIPE = hex_colour("#f0a020")
BLUEPRINT = (26, 50, 96)
CHALK = (222, 232, 248, 215)
CHALK_FAINT = (190, 210, 240, 140)


def default_floor() -> Image.Image:
    """A dark plate: a thin lit seam along the edges (the arena's grid) and a faint centre mark."""
    img = blank(SEAM)  # flat colours only: a GIF of a whole game keeps few colours (small files)
    draw = ImageDraw.Draw(img)
    draw.rectangle((6, 6, SIZE - 7, SIZE - 7), fill=PLATE)
    draw.rectangle((10, 10, SIZE - 11, SIZE - 11), outline=hex_colour("#18263f"), width=3)
    c = SIZE // 2
    draw.line((c - 14, c, c + 14, c), fill=hex_colour("#1a2b48"), width=4)
    draw.line((c, c - 14, c, c + 14), fill=hex_colour("#1a2b48"), width=4)
    return img


def default_blocked() -> Image.Image:
    """A steel block seen from above: bevelled edges, a warning stripe across its top."""
    img = vertical_gradient(STEEL_TOP, STEEL_BOTTOM)
    draw = ImageDraw.Draw(img)
    bevel = 18
    draw.polygon([(0, 0), (SIZE, 0), (SIZE - bevel, bevel), (bevel, bevel)], fill=BEVEL_LIGHT)
    draw.polygon([(0, 0), (bevel, bevel), (bevel, SIZE - bevel), (0, SIZE)], fill=BEVEL_LIGHT)
    draw.polygon([(SIZE, 0), (SIZE, SIZE), (SIZE - bevel, SIZE - bevel), (SIZE - bevel, bevel)], fill=BEVEL_DARK)
    draw.polygon([(0, SIZE), (bevel, SIZE - bevel), (SIZE - bevel, SIZE - bevel), (SIZE, SIZE)], fill=BEVEL_DARK)
    stripe = mask_of(lambda d: d.polygon([(bevel, 150), (150, bevel), (190, bevel), (bevel, 190)], fill=255))
    img = layer(img, masked(Image.new("RGBA", (SIZE, SIZE), STRIPE), stripe))
    return img


def _rng(*parts: object) -> random.Random:
    return random.Random(zlib.crc32(":".join(str(p) for p in ("pen-tron", *parts)).encode()))


def _blueprint(rng: random.Random, lighten: float = 0.0) -> Image.Image:
    """Blueprint paper: deep blue with grain and soft blotches (opaque)."""
    np_rng = np.random.default_rng(rng.getrandbits(32))
    grain = np_rng.normal(0.0, 4.0, (SIZE, SIZE))
    blotches = Image.fromarray(np.clip(128 + np_rng.normal(0, 40, (16, 16)), 0, 255).astype(np.uint8), "L")
    soft = np.asarray(blotches.resize((SIZE, SIZE), Image.Resampling.BICUBIC), dtype=np.float64) - 128
    base = np.array(BLUEPRINT, dtype=np.float64) * (1.0 + lighten)
    pixels = base[None, None, :] + (grain + soft * 0.06)[:, :, None]
    img = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB").convert("RGBA")
    return img.filter(ImageFilter.GaussianBlur(0.6))


def pen_floor() -> Image.Image:
    """Blueprint paper with chalk grid lines along the field's edges."""
    rng = _rng("floor")
    img = _blueprint(rng)
    grid_lines(img, rng, CHALK_FAINT)
    return img


def pen_blocked() -> Image.Image:
    """A chalk-outlined, cross-hatched square on slightly lighter paper."""
    rng = _rng("blocked")
    img = _blueprint(rng, lighten=0.35)
    box = rects_mask([(22, 22, SIZE - 22, SIZE - 22)])
    hatch(img, box, rng, CHALK, spacing=16, angle_deg=45, width=4, cross=True)
    sketch_rect(img, (22, 22, SIZE - 22, SIZE - 22), rng, CHALK, width=9)
    return img


def pen_trail() -> Image.Image:
    """The light walls as if coloured in with a chalk pencil: white (the bot's own colour) with
    grey hatching and a darker band at the foot, so the walls read as drawn."""
    rng = _rng("trail")
    img = Image.new("RGBA", (SIZE, SIZE), (255, 255, 255, 255))
    everywhere = rects_mask([(0, 0, SIZE, SIZE)])
    hatch(img, everywhere, rng, (150, 150, 150, 255), spacing=22, angle_deg=60, width=7)
    foot = ImageDraw.Draw(img)
    foot.rectangle((0, SIZE - 40, SIZE, SIZE), fill=(120, 120, 120, 255))
    return img


def default_pictures() -> dict[str, Image.Image]:
    """The default theme's Tron pictures by file stem (under ``tron/``), 64x64 RGBA."""
    return {"tron/floor": reduce(default_floor()), "tron/blocked": reduce(default_blocked())}


def pen_pictures() -> dict[str, Image.Image]:
    """The pen theme's Tron pictures by file stem (under ``tron/``), 64x64 RGBA."""
    return {"tron/floor": reduce(pen_floor()), "tron/blocked": reduce(pen_blocked()), "tron/trail": reduce(pen_trail())}
