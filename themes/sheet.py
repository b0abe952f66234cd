"""Contact sheets: every image of a theme, enlarged and labelled with its name and board characters."""

from __future__ import annotations

import math
from collections.abc import Mapping

from PIL import Image, ImageDraw, ImageFont

from themes.compose import WALL_OVERLAYS
from themes.keys import GAME_FOLDERS, START_MARKER_KEY, START_MARKER_LAYERS, TILE_KEYS, board_chars_for
from themes.theme import Theme

_BACKGROUND = (38, 42, 50, 255)
_TEXT = (235, 238, 242, 255)
_DIM = (160, 168, 180, 255)


def _checkerboard(size: int, square: int = 8) -> Image.Image:
    """The usual light/dark checks behind transparent images, so their transparency is visible."""
    img = Image.new("RGBA", (size, size), (205, 205, 205, 255))
    draw = ImageDraw.Draw(img)
    for y in range(0, size, square):
        for x in range(0, size, square):
            if (x // square + y // square) % 2:
                draw.rectangle((x, y, x + square - 1, y + square - 1), fill=(245, 245, 245, 255))
    return img


def label_for(key: str) -> str:
    """The caption under an image: its name and, for tiles, the board characters it draws."""
    if key not in TILE_KEYS:
        return key
    chars = board_chars_for(key)
    shown = " ".join("' '" if c == " " else c for c in chars)
    return f"{key}  [{shown}]"


def _borrowed(theme: Theme, key: str) -> str:
    """``  (default)`` after the label of a picture the theme takes from its base (missing, or
    broken and replaced): only the other games' pictures were marked, so a broken ``goal.png``
    showed the base's goal as if it were the theme maker's own. A wall composed from overlays
    is the base's when one of its overlays is."""
    if key in START_MARKER_LAYERS:
        key = START_MARKER_KEY
    where = [theme.sources.get(key)]
    if where == [None] and key in WALL_OVERLAYS:
        where = [theme.sources.get(overlay) for overlay in WALL_OVERLAYS[key]]
    others = [w for w in where if w not in (None, "own")]
    return f"  ({others[0]})" if others else ""


def _entries(theme: Theme, thumbnails: Mapping[str, Image.Image] | None) -> list[tuple[str, Image.Image]]:
    """(label, picture) per cell: each tile as drawn (and as the viewer draws it, when given);
    transparent pictures on checks (to see the alpha) and over the floor (to see them in use)."""
    images = theme.layer_images()
    entries: list[tuple[str, Image.Image]] = []
    floor = images["floor"]
    for key, img in images.items():
        if key in TILE_KEYS:
            entries.append((label_for(key) + _borrowed(theme, key), _beside(img, thumbnails, key)))
        else:
            on_checks = _checkerboard(64)
            on_checks.alpha_composite(img)
            on_floor = floor.copy()
            on_floor.alpha_composite(img)
            mark = _borrowed(theme, key)
            entries.append((f"{key}  (alpha){mark}", on_checks))
            shot_key = "start" if key == "start-up" else key  # the viewer's shot of a start tile faces up
            entries.append((f"{key}  on floor{mark}", _beside(on_floor, thumbnails, shot_key)))
    for game, sub in GAME_FOLDERS.items():  # other games' pictures, after the robot game's
        for key, img in theme.game(game).items() if sub else ():
            where = theme.sources.get(f"{sub}/{key}", "own")
            entries.append((f"{sub}/{key}" + ("" if where == "own" else f"  ({where})"), img))
    return entries


def _beside(img: Image.Image, thumbnails: Mapping[str, Image.Image] | None, key: str) -> Image.Image:
    """``img`` with the viewer's 3D shot of the same picture to its right, when there is one."""
    shot = thumbnails.get(key) if thumbnails else None
    if shot is None:
        return img
    pair = Image.new("RGBA", (2 * img.width + 2, img.height), _BACKGROUND)
    pair.paste(img, (0, 0))
    pair.paste(shot.convert("RGBA").resize(img.size, Image.Resampling.LANCZOS), (img.width + 2, 0))
    return pair


def contact_sheet(
    theme: Theme, columns: int = 8, scale: int = 2, thumbnails: Mapping[str, Image.Image] | None = None
) -> Image.Image:
    """An RGB sheet of every tile, the robot and cursor (and start markers), then other games'
    pictures (``tron/floor``: from the base theme when marked so), ``scale`` times enlarged.

    ``thumbnails`` (key -> the viewer's 3D rendering of that tile) are shown beside the flat
    tiles. Columns are as wide as the widest label, so labels never run into each other.
    """
    entries = _entries(theme, thumbnails)
    font = ImageFont.load_default(size=12)
    title_font = ImageFont.load_default(size=18)
    cell_w = max(round(img.width * scale) for _, img in entries)
    cell_h = 64 * scale
    pad, label_h, header_h = 10, 18, 44
    column_w = max(cell_w, *(math.ceil(font.getlength(label)) for label, _ in entries))
    rows = math.ceil(len(entries) / columns)
    width = pad + columns * (column_w + pad)
    height = header_h + rows * (cell_h + label_h + pad) + pad
    sheet = Image.new("RGBA", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    manifest = theme.manifest
    draw.text((pad, 8), f"{manifest.name}", font=title_font, fill=_TEXT)
    credits = "  ·  ".join(part for part in (manifest.author, manifest.licence) if part)
    draw.text((pad, 28), f"{theme.path.name}{'  ·  ' + credits if credits else ''}", font=font, fill=_DIM)
    for index, (label, img) in enumerate(entries):
        col, row = index % columns, index // columns
        x = pad + col * (column_w + pad)
        y = header_h + row * (cell_h + label_h + pad)
        sheet.paste(img.resize((img.width * scale, cell_h), Image.Resampling.NEAREST), (x, y))
        draw.text((x, y + cell_h + 3), label, font=font, fill=_TEXT)
    return sheet.convert("RGB")
