"""Hand-drawn strokes for the ``pen`` theme: wobbly ink lines from seeded smooth noise, hatching,
watercolour washes and a paper texture. Every function takes its ``random.Random`` so a tile's
look depends only on its seed."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from themes.make.canvas import SIZE, Point, blank

PAPER = (244, 237, 218)


def paper(rng: random.Random) -> Image.Image:
    """Cream paper with grain and a few faint fibres (opaque RGBA)."""
    np_rng = np.random.default_rng(rng.getrandbits(32))
    grain = np_rng.normal(0.0, 5.0, (SIZE, SIZE))
    blotches = Image.fromarray(np.clip(128 + np_rng.normal(0, 40, (16, 16)), 0, 255).astype(np.uint8), "L")
    soft = np.asarray(blotches.resize((SIZE, SIZE), Image.Resampling.BICUBIC), dtype=np.float64) - 128
    shade = grain + soft * 0.08
    base = np.array(PAPER, dtype=np.float64)[None, None, :] + shade[:, :, None] * np.array([1.0, 1.0, 1.15])
    img = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8), "RGB").convert("RGBA")
    img = img.filter(ImageFilter.GaussianBlur(0.6))
    draw = ImageDraw.Draw(img)
    for _ in range(7):
        x, y = rng.uniform(0, SIZE), rng.uniform(0, SIZE)
        angle = rng.uniform(0, math.pi)
        length = rng.uniform(10, 30)
        draw.line(
            (x, y, x + length * math.cos(angle), y + length * math.sin(angle)), fill=(226, 216, 192, 255), width=2
        )
    return img


def wobble(
    points: Sequence[Point], rng: random.Random, amplitude: float = 2.6, step: float = 5.0, closed: bool = False
) -> list[Point]:
    """The polyline resampled every ``step`` pixels and pushed sideways by smooth seeded noise."""
    pts = list(points) + ([points[0]] if closed else [])
    freq1, freq2 = rng.uniform(0.025, 0.045), rng.uniform(0.07, 0.11)
    phase1, phase2 = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
    out: list[Point] = []
    travelled = 0.0
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            continue
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        count = max(1, int(length / step))
        for i in range(count):
            t = i / count
            s = travelled + t * length
            offset = amplitude * (math.sin(s * freq1 + phase1) + 0.45 * math.sin(s * freq2 + phase2))
            out.append((x0 + (x1 - x0) * t + nx * offset, y0 + (y1 - y0) * t + ny * offset))
        travelled += length
    s = travelled
    last = pts[-1]
    out.append((last[0], last[1]))
    return out


def stroke(
    img: Image.Image,
    points: Sequence[Point],
    rng: random.Random,
    colour: tuple[int, int, int, int],
    width: float = 7.0,
    amplitude: float = 2.6,
    closed: bool = False,
    passes: int = 2,
) -> None:
    """A pen stroke along ``points``: a wobbly main line and a lighter, slightly offset second pass."""
    layer = blank()
    draw = ImageDraw.Draw(layer)
    for n in range(passes):
        line = wobble(points, rng, amplitude * (1.0 if n == 0 else 1.4), closed=closed)
        w = width if n == 0 else max(2.0, width * 0.45)
        alpha = colour[3] if n == 0 else int(colour[3] * 0.55)
        c = (*colour[:3], alpha)
        # Pressure: the width swells and thins along the line.
        phase = rng.uniform(0, 2 * math.pi)
        for i, (a, b) in enumerate(itertools.pairwise(line)):
            pressure = 0.85 + 0.25 * math.sin(i * 0.18 + phase)
            wi = max(1, round(w * pressure))
            draw.line((a, b), fill=c, width=wi)
            r = wi / 2
            draw.ellipse((b[0] - r, b[1] - r, b[0] + r, b[1] + r), fill=c)
    img.alpha_composite(layer)


def sketch_rect(
    img: Image.Image,
    box: tuple[float, float, float, float],
    rng: random.Random,
    colour: tuple[int, int, int, int],
    width: float = 7.0,
) -> None:
    """A rectangle drawn as four separate strokes that overshoot the corners a little, like by hand."""
    x0, y0, x1, y1 = box
    over = 5.0
    for a, b in (
        ((x0 - over, y0), (x1 + over, y0)),
        ((x1, y0 - over), (x1, y1 + over)),
        ((x1 + over, y1), (x0 - over, y1)),
        ((x0, y1 + over), (x0, y0 - over)),
    ):
        jitter = (rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5))
        stroke(img, [(a[0] + jitter[0], a[1] + jitter[1]), (b[0] + jitter[0], b[1] + jitter[1])], rng, colour, width)


def circle_points(
    centre: Point, radius: float, start_deg: float = 0.0, sweep_deg: float = 360.0, count: int = 72
) -> list[Point]:
    cx, cy = centre
    out = []
    for i in range(count + 1):
        a = math.radians(start_deg + sweep_deg * i / count)
        out.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return out


def sketch_circle(
    img: Image.Image,
    centre: Point,
    radius: float,
    rng: random.Random,
    colour: tuple[int, int, int, int],
    width: float = 7.0,
) -> None:
    """A circle drawn in one go that does not quite close on itself (it overlaps by a few degrees)."""
    start = rng.uniform(0, 360)
    stroke(img, circle_points(centre, radius, start, 372), rng, colour, width)


def hatch(
    img: Image.Image,
    mask: Image.Image,
    rng: random.Random,
    colour: tuple[int, int, int, int],
    spacing: float = 11.0,
    angle_deg: float = 45.0,
    width: float = 3.0,
    cross: bool = False,
) -> None:
    """Parallel wobbly pen lines clipped to ``mask`` (mode L); ``cross`` adds a second direction."""
    for angle in (angle_deg, angle_deg + 90.0) if cross else (angle_deg,):
        layer = blank()
        a = math.radians(angle)
        dx, dy = math.cos(a), math.sin(a)
        nx, ny = -dy, dx
        reach = SIZE * 0.75
        c = SIZE / 2
        k = -reach
        while k <= reach:
            off = k + rng.uniform(-spacing * 0.2, spacing * 0.2)
            p0 = (c + nx * off - dx * reach, c + ny * off - dy * reach)
            p1 = (c + nx * off + dx * reach, c + ny * off + dy * reach)
            stroke(layer, [p0, p1], rng, colour, width, amplitude=1.2, passes=1)
            k += spacing
        clipped = blank()
        clipped.paste(layer, (0, 0), ImageChops.multiply(mask, layer.getchannel("A")))
        img.alpha_composite(clipped)


def wash(
    img: Image.Image, mask: Image.Image, colour: tuple[int, int, int], rng: random.Random, alpha: int = 110
) -> None:
    """Watercolour: the shape slightly shifted and softened, pooled darker at its edges."""
    shifted = Image.new("L", (SIZE, SIZE), 0)
    shifted.paste(mask, (round(rng.uniform(-4, 4)), round(rng.uniform(-4, 4))))
    soft = shifted.filter(ImageFilter.GaussianBlur(2.5))
    edge = ImageChops.subtract(soft, soft.filter(ImageFilter.GaussianBlur(6))).point(lambda v: min(255, v * 3))
    np_rng = np.random.default_rng(rng.getrandbits(32))
    mottle = Image.fromarray(np.clip(np_rng.normal(200, 30, (24, 24)), 0, 255).astype(np.uint8), "L")
    mottle = mottle.resize((SIZE, SIZE), Image.Resampling.BICUBIC)
    density = ImageChops.add(ImageChops.multiply(soft, mottle), edge.point(lambda v: v // 2))
    layer = Image.new("RGBA", (SIZE, SIZE), (*colour, 0))
    layer.putalpha(density.point(lambda v: v * alpha // 255))
    img.alpha_composite(layer)


def ink_on_paper(drawing: Image.Image, paper_img: Image.Image) -> Image.Image:
    """The drawing (made on white) printed onto paper: multiply keeps the paper grain in the ink."""
    white = Image.new("RGBA", (SIZE, SIZE), (255, 255, 255, 255))
    white.alpha_composite(drawing)
    return ImageChops.multiply(white.convert("RGB"), paper_img.convert("RGB")).convert("RGBA")
