"""The ``default`` theme: clean, flat-modern tiles with strong shapes that stay readable when small
or seen from an isometric angle (thick wall bars, arrows on every moving element)."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from themes.make import tron
from themes.make.canvas import (
    CENTRE,
    SIZE,
    Point,
    blank,
    ellipses_mask,
    hex_colour,
    layer,
    mask_of,
    masked,
    polygons_mask,
    radial_gradient,
    rects_mask,
    reduce,
    rounded_mask,
    scaled,
    shadow,
    star,
    stripes,
    union,
    vertical_gradient,
)
from themes.manifest import Manifest

GROUT = hex_colour("#9aa3ae")
PLATE_TOP = hex_colour("#e6e9ee")
PLATE_BOTTOM = hex_colour("#d0d5dc")
SCREW = hex_colour("#b3bac4")
WALL = hex_colour("#343b48")
WALL_TOP = hex_colour("#535d6e")
WALL_ACCENT = hex_colour("#f4b223")
INK = hex_colour("#1f2430")
WHITE = hex_colour("#ffffff")
HAZARD_YELLOW = hex_colour("#f5c211")
HAZARD_BLACK = hex_colour("#23262d")
BELT = hex_colour("#3a404c")
BELT_DARK = hex_colour("#2b3039")
RAIL = hex_colour("#8d97a5")
ARROW = hex_colour("#ffcc1a")
PUSHER_RED = hex_colour("#d8413a")
PUSHER_DARK = hex_colour("#8f2320")
STEEL = hex_colour("#8a94a2")
STEEL_LIGHT = hex_colour("#b9c1cc")
STEEL_DARK = hex_colour("#4c5461")
GOAL_GREEN = hex_colour("#1fa355")
GOAL_DARK = hex_colour("#137a3e")
ROTATOR_LEFT = hex_colour("#139e9b")
ROTATOR_RIGHT = hex_colour("#e2761b")
ROBOT_BODY = hex_colour("#2f5fe0")
ROBOT_LIGHT = hex_colour("#6c93ff")
ROBOT_TRACK = hex_colour("#1d2129")

WALL_THICKNESS = 42  # in supersampled pixels: 10.5 px of the final 64


def floor_plate() -> Image.Image:
    """A light metal floor plate with a grout line, so a board reads as a grid even when empty."""
    img = blank(GROUT)
    plate = mask_of(lambda d: d.rounded_rectangle((5, 5, SIZE - 6, SIZE - 6), radius=20, fill=255))
    img = layer(img, masked(vertical_gradient(PLATE_TOP, PLATE_BOTTOM), plate))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((5, 5, SIZE - 6, SIZE - 6), radius=20, outline=hex_colour("#f4f6f9"), width=3)
    for x in (26, SIZE - 27):
        for y in (26, SIZE - 27):
            draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=SCREW)
            draw.line((x - 4, y - 4, x + 4, y + 4), fill=hex_colour("#9099a5"), width=3)
    return img


def wall_rects(bits: int) -> list[tuple[int, int, int, int]]:
    t = WALL_THICKNESS
    rects = []
    if bits & 1:
        rects.append((0, 0, t, SIZE))
    if bits & 2:
        rects.append((SIZE - t, 0, SIZE, SIZE))
    if bits & 4:
        rects.append((0, 0, SIZE, t))
    if bits & 8:
        rects.append((0, SIZE - t, SIZE, SIZE))
    return rects


def with_walls(base: Image.Image, bits: int) -> Image.Image:
    """Thick dark wall bars with a yellow centre stripe on the sides in ``bits`` (left 1, right 2, up 4, down 8)."""
    if not bits:
        return base
    rects = wall_rects(bits)
    wall_mask = rects_mask(rects)
    img = layer(base, shadow(wall_mask, (0, 0), 9, 150))
    img = layer(img, masked(Image.new("RGBA", (SIZE, SIZE), WALL), wall_mask))
    draw = ImageDraw.Draw(img)
    t = WALL_THICKNESS
    for r in rects:
        x0, y0, x1, y1 = r
        horizontal = (x1 - x0) > (y1 - y0)
        if horizontal:
            draw.rectangle((x0, y0 + 5, x1, y0 + 11), fill=WALL_TOP)
            mid = (y0 + y1) // 2 + 2
            draw.rectangle((x0, mid - 6, x1, mid + 6), fill=WALL_ACCENT)
        else:
            draw.rectangle((x0 + 5, y0, x0 + 11, y1), fill=WALL_TOP)
            mid = (x0 + x1) // 2 + 2
            draw.rectangle((mid - 6, y0, mid + 6, y1), fill=WALL_ACCENT)
    # Re-draw the dark bar ends at corners so crossing accent stripes do not form a plus sign.
    for cx, cy, need in ((0, 0, 1 | 4), (SIZE - t, 0, 2 | 4), (0, SIZE - t, 1 | 8), (SIZE - t, SIZE - t, 2 | 8)):
        if bits & need == need:
            draw.rectangle((cx, cy, cx + t - 1, cy + t - 1), fill=WALL)
            draw.rectangle((cx + 9, cy + 9, cx + t - 10, cy + t - 10), fill=WALL_ACCENT)
    return img


def hole() -> Image.Image:
    """A square pit with a hazard-striped rim; the far (top) inner wall is lit so it reads as depth."""
    img = floor_plate()
    rim = mask_of(lambda d: d.rounded_rectangle((26, 26, SIZE - 27, SIZE - 27), radius=26, fill=255))
    img = layer(img, shadow(rim, (0, 6), 8, 120))
    img = layer(img, masked(stripes(HAZARD_YELLOW, HAZARD_BLACK, 17), rim))
    pit_box = (48, 48, SIZE - 49, SIZE - 49)
    pit = mask_of(lambda d: d.rounded_rectangle(pit_box, radius=14, fill=255))
    depth = vertical_gradient(hex_colour("#4a5262"), hex_colour("#06080c"))
    img = layer(img, masked(depth, pit))
    inner = mask_of(
        lambda d: d.rounded_rectangle(
            (pit_box[0] + 10, pit_box[1] + 44, pit_box[2] - 10, pit_box[3] - 6), radius=10, fill=255
        )
    )
    img = layer(img, masked(radial_gradient(hex_colour("#000000"), hex_colour("#0b0e14"), (CENTRE, 150), 90), inner))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(pit_box, radius=14, outline=INK, width=4)
    draw.rounded_rectangle((26, 26, SIZE - 27, SIZE - 27), radius=26, outline=INK, width=4)
    return img


def oil() -> Image.Image:
    """A glossy dark puddle: a blobby union of ellipses with a coloured sheen and white highlights."""
    img = floor_plate()
    blobs = [(52, 70, 172, 176), (100, 50, 206, 150), (118, 118, 214, 212), (40, 128, 130, 206), (160, 180, 196, 214)]
    puddle = ellipses_mask(blobs)
    img = layer(img, shadow(puddle, (0, 5), 7, 110))
    img = layer(img, masked(radial_gradient(hex_colour("#3b3566"), hex_colour("#0d0e14"), (118, 110), 110), puddle))
    sheen = blank()
    sd = ImageDraw.Draw(sheen)
    sd.arc((70, 78, 190, 190), 200, 290, fill=hex_colour("#b04cd8", 110), width=6)
    sd.arc((78, 86, 182, 182), 200, 290, fill=hex_colour("#3cc1d8", 110), width=5)
    img = layer(img, masked(sheen, puddle))
    gloss = blank()  # translucent marks go on their own layer: ImageDraw would overwrite the alpha
    draw = ImageDraw.Draw(gloss)
    draw.ellipse((92, 74, 138, 96), fill=hex_colour("#ffffff", 210))
    draw.ellipse((146, 92, 160, 104), fill=hex_colour("#ffffff", 170))
    draw.ellipse((64, 146, 78, 156), fill=hex_colour("#ffffff", 120))
    return layer(img, gloss)


def goal() -> Image.Image:
    """A green target pad with a white star: unmistakable, and round so it reads from any angle."""
    img = floor_plate()
    pad = mask_of(lambda d: d.ellipse((26, 26, SIZE - 27, SIZE - 27), fill=255))
    img = layer(img, shadow(pad, (0, 6), 8, 120))
    img = layer(img, masked(radial_gradient(hex_colour("#34c46f"), GOAL_GREEN, (110, 100), 130), pad))
    draw = ImageDraw.Draw(img)
    draw.ellipse((26, 26, SIZE - 27, SIZE - 27), outline=GOAL_DARK, width=5)
    draw.ellipse((50, 50, SIZE - 51, SIZE - 51), outline=WHITE, width=12)
    draw.polygon(star((CENTRE, CENTRE + 4), 58, 24), fill=WHITE, outline=GOAL_DARK, width=3)
    return img


def arc_arrow(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    radius: float,
    start: float,
    end: float,
    width: float,
    colour: tuple[int, int, int, int],
) -> None:
    """A clockwise arc (screen angles, degrees) from ``start`` to ``end`` ending in an arrow head."""
    cx, cy = centre
    head_len = width * 1.7
    arc_end = end - math.degrees(head_len / radius) * 0.6
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    draw.arc(box, start, arc_end, fill=colour, width=int(width))
    inner, outer = radius - width, radius
    mid = (inner + outer) / 2
    a = math.radians(arc_end)
    tip_angle = math.radians(end)
    radial = (math.cos(a), math.sin(a))
    tangent = (-math.sin(a), math.cos(a))
    half = width * 1.15
    base1 = (cx + (mid + half) * radial[0], cy + (mid + half) * radial[1])
    base2 = (cx + (mid - half) * radial[0], cy + (mid - half) * radial[1])
    tip = (
        cx + mid * math.cos(tip_angle) + tangent[0] * head_len * 0.35,
        cy + mid * math.sin(tip_angle) + tangent[1] * head_len * 0.35,
    )
    draw.polygon([base1, tip, base2], fill=colour)


def rotator(clockwise: bool) -> Image.Image:
    """A turntable disc with two curved arrows; clockwise is orange, anticlockwise teal."""
    img = floor_plate()
    colour = ROTATOR_RIGHT if clockwise else ROTATOR_LEFT
    dark = scaled(colour, 0.62)
    disc = mask_of(lambda d: d.ellipse((22, 22, SIZE - 23, SIZE - 23), fill=255))
    img = layer(img, shadow(disc, (0, 6), 8, 120))
    light = scaled(colour, 1.25)
    img = layer(img, masked(radial_gradient(light, colour, (104, 96), 150), disc))
    arrows = blank()
    ad = ImageDraw.Draw(arrows)
    for offset in (0, 180):
        arc_arrow(ad, (CENTRE, CENTRE), 78, 200 + offset, 335 + offset, 24, WHITE)
    if not clockwise:
        arrows = arrows.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    img = layer(img, arrows)
    draw = ImageDraw.Draw(img)
    draw.ellipse((22, 22, SIZE - 23, SIZE - 23), outline=dark, width=6)
    draw.ellipse((CENTRE - 13, CENTRE - 13, CENTRE + 13, CENTRE + 13), fill=dark)
    return img


def chevron(tip_x: float, cy: float, height: float, depth: float, thickness: float) -> list[Point]:
    """A right-pointing chevron outline polygon."""
    h = height / 2
    return [
        (tip_x - depth, cy - h),
        (tip_x - depth + thickness, cy - h),
        (tip_x + thickness, cy),
        (tip_x - depth + thickness, cy + h),
        (tip_x - depth, cy + h),
        (tip_x, cy),
    ]


def conveyor_right() -> Image.Image:
    """A belt running right with rails on both sides and two bold yellow chevrons."""
    img = blank(GROUT)
    draw = ImageDraw.Draw(img)
    rail = 30
    draw.rectangle((0, 0, SIZE, rail), fill=RAIL)
    draw.rectangle((0, SIZE - rail, SIZE, SIZE), fill=RAIL)
    draw.rectangle((0, rail - 6, SIZE, rail), fill=hex_colour("#6b7482"))
    draw.rectangle((0, SIZE - rail, SIZE, SIZE - rail + 6), fill=hex_colour("#6b7482"))
    for x in range(16, SIZE, 64):
        for y in (rail // 2, SIZE - rail // 2):
            draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=hex_colour("#5d6573"))
    belt = (0, rail, SIZE, SIZE - rail)
    img = layer(img, masked(vertical_gradient(BELT, BELT_DARK), mask_of(lambda d: d.rectangle(belt, fill=255))))
    draw = ImageDraw.Draw(img)
    for x in range(0, SIZE, 32):
        draw.line((x, rail, x, SIZE - rail), fill=hex_colour("#23272f"), width=4)
    chevrons = [chevron(tip, CENTRE, 132, 58, 34) for tip in (118, 210)]
    img = layer(img, shadow(polygons_mask(chevrons), (3, 5), 3, 120))
    draw = ImageDraw.Draw(img)
    for pts in chevrons:
        draw.polygon(pts, fill=ARROW, outline=hex_colour("#b8920c"), width=3)
    return img


def pusher_right() -> Image.Image:
    """A red piston on the back wall (left) pushing right, with a white arrow; an overlay on the floor."""
    img = with_walls(blank(), 1)
    t = WALL_THICKNESS
    body = mask_of(lambda d: d.rounded_rectangle((t - 4, 66, t + 48, SIZE - 67), radius=10, fill=255))
    img = layer(img, shadow(body, (3, 6), 6, 130))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((t - 4, 66, t + 48, SIZE - 67), radius=10, fill=PUSHER_RED, outline=PUSHER_DARK, width=4)
    draw.rectangle((t + 46, 110, t + 92, 146), fill=STEEL_LIGHT, outline=STEEL_DARK, width=4)
    plate = (t + 88, 44, t + 112, SIZE - 45)
    draw.rounded_rectangle(plate, radius=6, fill=PUSHER_RED, outline=PUSHER_DARK, width=4)
    arrow = [(160, 96), (196, 96), (196, 70), (244, 128), (196, 186), (196, 160), (160, 160)]
    img = layer(img, shadow(mask_of(lambda d: d.polygon(arrow, fill=255)), (3, 5), 3, 110))
    ImageDraw.Draw(img).polygon(arrow, fill=WHITE, outline=PUSHER_DARK, width=5)
    return img


def crusher_lr() -> Image.Image:
    """Two heavy steel jaws with sharp teeth, mounted on walls left and right, closing on a red danger strip."""
    img = floor_plate()
    danger = mask_of(lambda d: d.rectangle((0, 44, SIZE, SIZE - 45), fill=255))
    img = layer(img, masked(stripes(hex_colour("#e05a4f", 150), hex_colour("#e05a4f", 40), 14, -45), danger))
    img = with_walls(img, 1 | 2)
    t = WALL_THICKNESS
    teeth, top, bottom = 4, 36, SIZE - 36
    span = bottom - top
    block_w, tooth = 40, 30
    for side in (0, 1):
        face = t + block_w
        outline: list[Point] = [(t - 2, top), (face, top)]
        for i in range(teeth):
            y0 = top + span * i / teeth
            outline += [(face + tooth, y0 + span / teeth / 2), (face, y0 + span / teeth)]
        outline.append((t - 2, bottom))
        block = (t - 2, top, face, bottom)
        if side:
            outline = [(SIZE - x, y) for x, y in outline]
            block = (SIZE - face, top, SIZE - t + 2, bottom)
        jaw = polygons_mask([outline])
        img = layer(img, shadow(jaw, (0, 8), 6, 150))
        img = layer(img, masked(vertical_gradient(STEEL_LIGHT, STEEL), jaw))
        plate = rects_mask([(block[0] + 8, block[1] + 10, block[2] - 8, block[3] - 10)])
        img = layer(img, masked(stripes(HAZARD_YELLOW, HAZARD_BLACK, 14), plate))
        draw = ImageDraw.Draw(img)
        draw.polygon(outline, outline=INK, width=5)
        draw.rectangle((block[0] + 8, block[1] + 10, block[2] - 8, block[3] - 10), outline=INK, width=3)
    return img


def robot() -> Image.Image:
    """The robot seen from above, pointing UP: tracks on both sides, a sensor head and a white arrow at the front."""
    img = blank()
    body_box = (62, 50, SIZE - 63, SIZE - 42)
    tracks = [(34, 62, 72, SIZE - 50), (SIZE - 73, 62, SIZE - 35, SIZE - 50)]
    silhouette = union(rounded_mask([body_box], 34), rounded_mask(tracks, 12))
    img = layer(img, shadow(silhouette, (6, 10), 8, 150))
    draw = ImageDraw.Draw(img)
    for r in tracks:
        draw.rounded_rectangle(r, radius=12, fill=ROBOT_TRACK)
        for y in range(r[1] + 12, r[3] - 6, 16):
            draw.line((r[0] + 6, y, r[2] - 6, y), fill=hex_colour("#4a515e"), width=5)
    body = mask_of(lambda d: d.rounded_rectangle(body_box, radius=34, fill=255))
    img = layer(img, masked(radial_gradient(ROBOT_LIGHT, ROBOT_BODY, (110, 90), 150), body))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(body_box, radius=34, outline=hex_colour("#16307a"), width=5)
    # Front sensor bar with two glowing eyes: the face is at the top.
    draw.rounded_rectangle((84, 60, SIZE - 85, 96), radius=16, fill=hex_colour("#10192e"))
    for ex in (108, SIZE - 109):
        draw.ellipse((ex - 11, 67, ex + 11, 89), fill=hex_colour("#7ff3ff"))
        draw.ellipse((ex - 5, 72, ex + 3, 80), fill=WHITE)
    arrow = [
        (CENTRE, 108),
        (CENTRE + 46, 168),
        (CENTRE + 18, 168),
        (CENTRE + 18, 198),
        (CENTRE - 18, 198),
        (CENTRE - 18, 168),
        (CENTRE - 46, 168),
    ]
    draw.polygon(arrow, fill=WHITE, outline=hex_colour("#16307a"), width=4)
    return img


def cursor() -> Image.Image:
    """Four cyan corner brackets with a dark outline: a colour no tile uses, visible on light and dark tiles."""
    img = blank()
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((17, 17, SIZE - 18, SIZE - 18), radius=20, fill=hex_colour("#ffffff", 48))
    arm, m = 74, 17
    for sx, sy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        x = m if sx == 0 else SIZE - m
        y = m if sy == 0 else SIZE - m
        dx = 1 if sx == 0 else -1
        dy = 1 if sy == 0 else -1
        pts = [(x + dx * arm, y), (x, y), (x, y + dy * arm)]
        draw.line(pts, fill=INK, width=30, joint="curve")
        draw.line(pts, fill=hex_colour("#2fe3ff"), width=16, joint="curve")
    return img


def start_marker() -> Image.Image:
    """The start-tile overlay pointing UP: a green ring with a chevron towards the start facing."""
    img = blank()
    draw = ImageDraw.Draw(img)
    green = hex_colour("#1fa355", 235)
    draw.ellipse((38, 38, SIZE - 39, SIZE - 39), outline=hex_colour("#ffffff", 200), width=22)
    draw.ellipse((42, 42, SIZE - 43, SIZE - 43), outline=green, width=14)
    pts = [
        (CENTRE, 60),
        (CENTRE + 54, 124),
        (CENTRE + 26, 124),
        (CENTRE + 26, 176),
        (CENTRE - 26, 176),
        (CENTRE - 26, 124),
        (CENTRE - 54, 124),
    ]
    draw.polygon(pts, fill=green, outline=hex_colour("#ffffff", 220), width=5)
    return img


_FROM_RIGHT = {
    "right": None,
    "up": Image.Transpose.ROTATE_90,
    "left": Image.Transpose.ROTATE_180,
    "down": Image.Transpose.ROTATE_270,
}


def _turned(image: Image.Image, direction: str) -> Image.Image:
    transpose = _FROM_RIGHT[direction]
    return image if transpose is None else image.transpose(transpose)


def draw_theme() -> dict[str, Image.Image]:
    """Every image of the theme by file stem, 64x64 RGBA."""
    images: dict[str, Image.Image] = {"floor": reduce(floor_plate())}
    for bits, direction in ((1, "left"), (2, "right"), (4, "up"), (8, "down")):
        # walls are transparent overlays: the loader composes every wall-b .. wall-p over the floor
        images[f"wall-{direction}"] = reduce(with_walls(blank(), bits))
    images["hole"] = reduce(hole())
    images["oil"] = reduce(oil())
    images["goal"] = reduce(goal())
    images["rotator-left"] = reduce(rotator(clockwise=False))
    images["rotator-right"] = reduce(rotator(clockwise=True))
    belt = reduce(conveyor_right())
    push = reduce(pusher_right())
    for direction in ("left", "right", "up", "down"):
        images[f"conveyor-{direction}"] = _turned(belt, direction)
    for direction in ("left", "right", "up", "down"):
        images[f"pusher-{direction}"] = _turned(push, direction)
    crusher = reduce(crusher_lr())
    images["crusher-lr"] = crusher
    images["crusher-ud"] = crusher.transpose(Image.Transpose.ROTATE_90)
    images["robot"] = reduce(robot())
    images["cursor"] = reduce(cursor())
    images["start"] = reduce(start_marker())
    images.update(tron.default_pictures())  # the Tron pictures, in the theme's tron/ folder
    return images


MANIFEST = Manifest(name="Default", author="robots project", licence="GPL-3.0-or-later", start_marker=True)
