"""The ``pen`` theme: ink on cream paper. Every line wobbles with seeded noise, shapes are hatched
and washed with watercolour, so the board looks drawn by hand yet regenerates identically."""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Callable

from PIL import Image, ImageDraw

from themes.make.canvas import (
    CENTRE,
    SIZE,
    Point,
    blank,
    ellipses_mask,
    mask_of,
    polygons_mask,
    rects_mask,
    reduce,
    rounded_mask,
    star,
    subtract,
    union,
)
from themes.make.ink import (
    PAPER,
    circle_points,
    hatch,
    ink_on_paper,
    paper,
    sketch_circle,
    sketch_rect,
    stroke,
    wash,
)
from themes.manifest import Manifest

INK = (28, 34, 66, 235)
RED = (176, 42, 36, 235)
GREEN = (34, 116, 58, 235)
BLUE = (38, 82, 168, 235)
PENCIL = (110, 130, 175, 80)
WALL_BAND = 30


def _rng(*parts: object) -> random.Random:
    return random.Random(zlib.crc32(":".join(str(p) for p in ("pen", *parts)).encode()))


def grid_lines(img: Image.Image, rng: random.Random, colour: tuple[int, int, int, int] = PENCIL) -> None:
    """Faint pencil lines along the tile's edges, so an empty board still shows its squares."""
    m = 3
    for a, b in (
        ((0, m), (SIZE, m)),
        ((SIZE - m, 0), (SIZE - m, SIZE)),
        ((0, SIZE - m), (SIZE, SIZE - m)),
        ((m, 0), (m, SIZE)),
    ):
        stroke(img, [a, b], rng, colour, width=3, amplitude=1.0, passes=1)


def _tile(name: str, ink: Image.Image, grid: bool = True) -> Image.Image:
    rng = _rng(name, "paper")
    drawing = blank()
    if grid:
        grid_lines(drawing, rng)
    drawing.alpha_composite(ink)
    return ink_on_paper(drawing, paper(rng))


def _walls(img: Image.Image, bits: int, rng: random.Random) -> None:
    """Hatched bands with a heavy inner line on the walled sides (left 1, right 2, up 4, down 8)."""
    t = WALL_BAND
    sides = []
    if bits & 1:
        sides.append(((0, 0, t, SIZE), [(t, -4), (t, SIZE + 4)]))
    if bits & 2:
        sides.append(((SIZE - t, 0, SIZE, SIZE), [(SIZE - t, -4), (SIZE - t, SIZE + 4)]))
    if bits & 4:
        sides.append(((0, 0, SIZE, t), [(-4, t), (SIZE + 4, t)]))
    if bits & 8:
        sides.append(((0, SIZE - t, SIZE, SIZE), [(-4, SIZE - t), (SIZE + 4, SIZE - t)]))
    band = rects_mask([box for box, _ in sides])
    wash(img, band, (70, 74, 96), rng, alpha=120)
    hatch(img, band, rng, INK, spacing=8, angle_deg=45, width=3)
    for _box, line in sides:
        stroke(img, line, rng, INK, width=10)


def floor() -> Image.Image:
    return _tile("floor", blank())


def wall(bits: int) -> Image.Image:
    ink = blank()
    _walls(ink, bits, _rng("wall", bits))
    return _tile(f"wall-{bits}", ink)


def hole() -> Image.Image:
    """A round pit: its far inner wall hatched in mid-tone, the depth below scribbled solid black."""
    rng = _rng("hole")
    ink = blank()
    outer = (36, 36, SIZE - 37, SIZE - 37)
    pit = ellipses_mask([outer])
    depth = ellipses_mask([(50, 84, SIZE - 51, SIZE - 39)])
    wall = subtract(pit, depth)
    wash(ink, wall, (120, 116, 120), rng, alpha=150)
    hatch(ink, wall, rng, INK, spacing=9, angle_deg=90, width=3)
    wash(ink, depth, (14, 14, 26), rng, alpha=245)
    hatch(ink, depth, rng, INK, spacing=6, angle_deg=30, width=3, cross=True)
    stroke(ink, circle_points((CENTRE, 167), 77, 180, 180, count=40), rng, INK, width=5, passes=1)
    sketch_circle(ink, (CENTRE, CENTRE), 92, rng, INK, width=9)
    return _tile("hole", ink)


def oil() -> Image.Image:
    """An ink blot with splatters and a spot of bare paper as its shine."""
    rng = _rng("oil")
    ink = blank()
    lobes = [(rng.uniform(0, 2 * math.pi), rng.uniform(6, 14), k) for k in (3, 5, 7)]
    pts: list[Point] = []
    for i in range(90):
        a = 2 * math.pi * i / 90
        r = 72 + sum(amp * math.sin(k * a + ph) for ph, amp, k in lobes)
        pts.append((CENTRE + 4 + r * math.cos(a), CENTRE + 6 + r * 0.86 * math.sin(a)))
    blot = mask_of(lambda d: d.polygon(pts, fill=255))
    wash(ink, blot, (18, 18, 30), rng, alpha=240)
    wash(ink, blot, (30, 26, 60), rng, alpha=200)  # a second, bluish coat: ink pooled thick
    stroke(ink, pts, rng, INK, width=6, closed=True, passes=1)
    draw = ImageDraw.Draw(ink)
    for _ in range(7):
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(92, 112)
        r = rng.uniform(4, 9)
        x, y = CENTRE + d * math.cos(a), CENTRE + d * 0.9 * math.sin(a)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=INK)
    shine = Image.new("RGBA", (SIZE, SIZE), (255, 255, 255, 0))
    ImageDraw.Draw(shine).ellipse((90, 82, 140, 104), fill=(255, 255, 255, 235))
    ImageDraw.Draw(shine).ellipse((150, 100, 164, 112), fill=(255, 255, 255, 200))
    ink.alpha_composite(shine)
    return _tile("oil", ink)


def goal() -> Image.Image:
    """A yellow-washed star in a double green circle: the one tile you aim for."""
    rng = _rng("goal")
    ink = blank()
    ring = mask_of(lambda d: d.ellipse((30, 30, SIZE - 31, SIZE - 31), fill=255))
    wash(ink, ring, (110, 190, 110), rng, alpha=120)
    points = star((CENTRE, CENTRE + 6), 72, 30)
    wash(ink, mask_of(lambda d: d.polygon(points, fill=255)), (240, 196, 40), rng, alpha=230)
    stroke(ink, points, rng, GREEN, width=8, closed=True)
    sketch_circle(ink, (CENTRE, CENTRE), 96, rng, GREEN, width=9)
    sketch_circle(ink, (CENTRE, CENTRE), 84, rng, GREEN, width=4)
    return _tile("goal", ink)


def rotator(clockwise: bool) -> Image.Image:
    """A washed disc with a curved arrow drawn round it; blue turns left, orange turns right."""
    rng = _rng("rotator", clockwise)
    ink = blank()
    colour = (236, 140, 50) if clockwise else (80, 140, 220)
    pen_colour = RED if clockwise else BLUE
    wash(ink, mask_of(lambda d: d.ellipse((28, 28, SIZE - 29, SIZE - 29), fill=255)), colour, rng, alpha=150)
    sketch_circle(ink, (CENTRE, CENTRE), 100, rng, INK, width=6)
    sign = 1 if clockwise else -1
    start, sweep = (-100 if clockwise else -80), 285 * sign
    arc = circle_points((CENTRE, CENTRE), 62, start, sweep, count=60)
    stroke(ink, arc, rng, pen_colour, width=18)
    end = math.radians(start + sweep)
    tip = (CENTRE + 62 * math.cos(end), CENTRE + 62 * math.sin(end))
    tangent = (-math.sin(end) * sign, math.cos(end) * sign)
    radial = (math.cos(end), math.sin(end))
    back = 48
    for side in (1, -1):
        wing = (tip[0] - tangent[0] * back + radial[0] * side * 36, tip[1] - tangent[1] * back + radial[1] * side * 36)
        stroke(ink, [wing, (tip[0] + tangent[0] * 8, tip[1] + tangent[1] * 8)], rng, pen_colour, width=18)
    draw = ImageDraw.Draw(ink)
    draw.ellipse((CENTRE - 9, CENTRE - 9, CENTRE + 9, CENTRE + 9), fill=INK)
    return _tile(f"rotator-{clockwise}", ink)


def _conveyor_right(rng: random.Random) -> Image.Image:
    ink = blank()
    top, bottom = 40, SIZE - 40
    wash(ink, mask_of(lambda d: d.rectangle((0, top, SIZE, bottom), fill=255)), (120, 150, 200), rng, alpha=130)
    stroke(ink, [(-4, top), (SIZE + 4, top)], rng, INK, width=8)
    stroke(ink, [(-4, bottom), (SIZE + 4, bottom)], rng, INK, width=8)
    for x in (22, 86, 150, 214):
        stroke(ink, [(x, top - 20), (x, top - 4)], rng, INK, width=4, passes=1)
        stroke(ink, [(x, bottom + 4), (x, bottom + 20)], rng, INK, width=4, passes=1)
    for tip_x in (122, 214):
        stroke(ink, [(tip_x - 56, CENTRE - 60), (tip_x, CENTRE), (tip_x - 56, CENTRE + 60)], rng, BLUE, width=20)
    return ink


def _pusher_right(rng: random.Random) -> Image.Image:
    ink = blank()
    _walls(ink, 1, rng)
    t = WALL_BAND
    box = (t + 6, 74, t + 54, SIZE - 75)
    plate = (t + 96, 48, t + 118, SIZE - 49)
    parts = rects_mask([box, plate])
    wash(ink, parts, (220, 80, 60), rng, alpha=190)
    hatch(ink, mask_of(lambda d: d.rectangle(box, fill=255)), rng, RED, spacing=10, angle_deg=-45, width=3)
    sketch_rect(ink, box, rng, INK, width=6)
    stroke(ink, [(t + 54, CENTRE - 12), (t + 96, CENTRE - 12)], rng, INK, width=6)
    stroke(ink, [(t + 54, CENTRE + 12), (t + 96, CENTRE + 12)], rng, INK, width=6)
    sketch_rect(ink, plate, rng, INK, width=6)
    stroke(ink, [(t + 132, CENTRE), (236, CENTRE)], rng, RED, width=12)
    stroke(ink, [(206, CENTRE - 34), (240, CENTRE), (206, CENTRE + 34)], rng, RED, width=12)
    return ink


def _crusher_lr(rng: random.Random) -> Image.Image:
    ink = blank()
    _walls(ink, 1 | 2, rng)
    t = WALL_BAND
    teeth, top, bottom = 4, 36, SIZE - 36
    span = bottom - top
    for side in (0, 1):
        face = t + 44
        pts: list[Point] = [(t, top), (face, top)]
        for i in range(teeth):
            y0 = top + span * i / teeth
            pts += [(face + 34, y0 + span / teeth / 2), (face, y0 + span / teeth)]
        pts.append((t, bottom))
        if side:
            pts = [(SIZE - x, y) for x, y in pts]
        jaw = polygons_mask([pts])
        wash(ink, jaw, (200, 60, 50), rng, alpha=200)
        hatch(ink, jaw, rng, RED, spacing=9, angle_deg=60 if side else -60, width=3)
        stroke(ink, pts, rng, INK, width=7, closed=True)
    return ink


_FROM_RIGHT = {
    "right": None,
    "up": Image.Transpose.ROTATE_90,
    "left": Image.Transpose.ROTATE_180,
    "down": Image.Transpose.ROTATE_270,
}


def _directional(name: str, direction: str, draw_right: Callable[[random.Random], Image.Image]) -> Image.Image:
    """Draw the right-facing version with this tile's own seed, then turn the ink (not the paper)."""
    ink = draw_right(_rng(name, direction))
    transpose = _FROM_RIGHT[direction]
    if transpose is not None:
        ink = ink.transpose(transpose)
    return _tile(f"{name}-{direction}", ink)


def robot() -> Image.Image:
    """A little sketched robot seen from above, pointing UP: treads, a body, eyes and a red nose arrow."""
    rng = _rng("robot")
    img = blank()
    body = (66, 62, SIZE - 67, SIZE - 46)
    tracks = [(36, 72, 70, SIZE - 56), (SIZE - 71, 72, SIZE - 37, SIZE - 56)]
    nose = [(CENTRE, 22), (CENTRE + 40, 70), (CENTRE - 40, 70)]
    solid = union(rounded_mask([body], 30), rects_mask(tracks), polygons_mask([nose]))
    base = Image.new("RGBA", (SIZE, SIZE), (*PAPER, 255))
    img.paste(base, (0, 0), solid)
    for r in tracks:
        track = rects_mask([r])
        wash(img, track, (60, 60, 70), rng, alpha=150)
        hatch(img, track, rng, INK, spacing=9, angle_deg=0, width=4)
        sketch_rect(img, r, rng, INK, width=6)
    wash(img, mask_of(lambda d: d.rounded_rectangle(body, radius=30, fill=255)), (90, 150, 230), rng, alpha=215)
    x0, y0, x1, y1 = body
    outline = [
        (x0 + 30, y0),
        (x1 - 30, y0),
        (x1, y0 + 30),
        (x1, y1 - 30),
        (x1 - 30, y1),
        (x0 + 30, y1),
        (x0, y1 - 30),
        (x0, y0 + 30),
    ]
    stroke(img, outline, rng, INK, width=9, closed=True)
    for ex in (CENTRE - 26, CENTRE + 26):
        sketch_circle(img, (ex, 100), 13, rng, INK, width=5)
        ImageDraw.Draw(img).ellipse((ex - 5, 96, ex + 5, 106), fill=(*INK[:3], 255))
    stroke(img, [(CENTRE - 30, 150), (CENTRE + 30, 150)], rng, INK, width=5, passes=1)
    stroke(img, [(CENTRE - 30, 170), (CENTRE + 30, 170)], rng, INK, width=5, passes=1)
    wash(img, polygons_mask([nose]), (220, 70, 50), rng, alpha=230)
    stroke(img, nose, rng, RED, width=8, closed=True)
    return img


def cursor() -> Image.Image:
    """Red pencil corner marks, like a proof-reader's crop marks."""
    rng = _rng("cursor")
    img = blank()
    arm, m = 74, 14
    for sx, sy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        x = m if sx == 0 else SIZE - m
        y = m if sy == 0 else SIZE - m
        dx, dy = (1 if sx == 0 else -1), (1 if sy == 0 else -1)
        stroke(img, [(x + dx * arm, y), (x, y), (x, y + dy * arm)], rng, (255, 255, 255, 200), width=26, passes=1)
        stroke(img, [(x + dx * arm, y), (x, y), (x, y + dy * arm)], rng, (196, 30, 36, 255), width=15)
    return img


def start_marker() -> Image.Image:
    """The start overlay pointing UP: a green arrow in a hand-drawn circle."""
    rng = _rng("start")
    img = blank()
    sketch_circle(img, (CENTRE, CENTRE), 88, rng, GREEN, width=9)
    stroke(img, [(CENTRE, 190), (CENTRE, 66)], rng, GREEN, width=16)
    stroke(img, [(CENTRE - 46, 112), (CENTRE, 60), (CENTRE + 46, 112)], rng, GREEN, width=16)
    return img


def draw_theme() -> dict[str, Image.Image]:
    """Every image of the theme by file stem, 64x64 RGBA."""
    from engine.model import WALL_CHARS

    images: dict[str, Image.Image] = {"floor": reduce(floor())}
    for bits in range(1, 16):
        images[f"wall-{WALL_CHARS[bits]}"] = reduce(wall(bits))
    images["hole"] = reduce(hole())
    images["oil"] = reduce(oil())
    images["goal"] = reduce(goal())
    images["rotator-left"] = reduce(rotator(clockwise=False))
    images["rotator-right"] = reduce(rotator(clockwise=True))
    for direction in ("left", "right", "up", "down"):
        images[f"conveyor-{direction}"] = reduce(_directional("conveyor", direction, _conveyor_right))
    for direction in ("left", "right", "up", "down"):
        images[f"pusher-{direction}"] = reduce(_directional("pusher", direction, _pusher_right))
    images["crusher-lr"] = reduce(_directional("crusher", "right", _crusher_lr))
    images["crusher-ud"] = reduce(_directional("crusher", "up", _crusher_lr))
    images["robot"] = reduce(robot())
    images["cursor"] = reduce(cursor())
    images["start"] = reduce(start_marker())
    from themes.make.tron import pen_pictures  # here: it draws with this module's grid lines

    images.update(pen_pictures())  # the Tron pictures, in the theme's tron/ folder
    return images


MANIFEST = Manifest(name="Pen", author="robots project", licence="GPL-3.0-or-later", start_marker=True)
