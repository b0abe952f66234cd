"""Pictures of arena fields for the editor and its exports: free, blocked, and each bot's start as an
arrow in that bot's colour (the viewer's colours, so a bot looks the same in both) with its number.

Free and blocked fields come from the theme's ``tron/`` pictures (``floor.png``, ``blocked.png``:
``themes.Theme.game``), the ones the viewer shows; a theme that cannot be loaded, or the plain
fallback, gets pictures drawn here. 64 pixels square like the robot game's tiles, so the shared
board texture, palette and exporter take them unchanged.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw, ImageFont

from editor.games.tron.grid import BLOCKED, CHARS, FREE, cell_of
from engine.tron.arena import Heading
from viewer3d.games.tron.timeline import bot_colour as light_colour

PX = 64
FREE_RGB, BLOCKED_RGB, EDGE_RGB, LIGHT_RGB = (14, 20, 34), (78, 86, 106), (28, 40, 60), (120, 130, 150)


def bot_colour(bot: int) -> tuple[int, int, int]:
    r, g, b = light_colour(bot - 1)
    return round(r * 255), round(g * 255), round(b * 255)


def _free() -> Image.Image:
    image = Image.new("RGBA", (PX, PX), (*FREE_RGB, 255))
    ImageDraw.Draw(image).rectangle((0, 0, PX - 1, PX - 1), outline=(*EDGE_RGB, 255), width=2)
    return image


def _blocked() -> Image.Image:
    image = Image.new("RGBA", (PX, PX), (*BLOCKED_RGB, 255))
    draw = ImageDraw.Draw(image)
    draw.line([(0, PX - 1), (0, 0), (PX - 1, 0)], fill=(*LIGHT_RGB, 255), width=4)
    draw.line([(0, PX - 1), (PX - 1, PX - 1), (PX - 1, 0)], fill=(40, 44, 56, 255), width=4)
    return image


def _start(bot: int, heading: Heading, floor: Image.Image) -> Image.Image:
    image = floor.copy()
    draw = ImageDraw.Draw(image)
    colour = (*bot_colour(bot), 255)
    c, r = PX / 2, PX * 0.42
    dx, dy = heading.dx, heading.dy
    tip = (c + dx * r, c + dy * r)
    left = (c - dx * r * 0.7 + dy * r * 0.8, c - dy * r * 0.7 - dx * r * 0.8)
    right = (c - dx * r * 0.7 - dy * r * 0.8, c - dy * r * 0.7 + dx * r * 0.8)
    draw.polygon([tip, left, right], fill=colour)
    font = ImageFont.load_default(size=22)
    draw.text((c - dx * 6, c - dy * 6), str(bot), fill=(10, 12, 20, 255), font=font, anchor="mm")
    return image


def theme_fields(theme: str) -> tuple[Image.Image, Image.Image] | None:
    """The theme's free and blocked field pictures at 64 pixels, or None when it has none to give."""
    try:
        from themes import load_theme

        pictures = load_theme(theme).game("tron")
        floor, blocked = pictures["floor"], pictures["blocked"]
    except Exception:  # no such theme, unreadable, or no Tron pictures anywhere: draw them here
        return None
    size = (PX, PX)
    return (
        floor.convert("RGBA").resize(size, Image.Resampling.LANCZOS),
        blocked.convert("RGBA").resize(size, Image.Resampling.LANCZOS),
    )


@cache
def _pictures(theme: str) -> dict[str, Image.Image]:
    free, blocked = theme_fields(theme) or (_free(), _blocked())
    pictures = {FREE: free, BLOCKED: blocked}
    for char in CHARS[2:]:
        cell = cell_of(char)
        assert cell.bot is not None and cell.heading is not None
        pictures[char] = _start(cell.bot, cell.heading, free)
    return pictures


def cell_pictures(theme: str) -> dict[str, Image.Image]:
    """A picture for every char an arena grid may hold in ``theme`` (copies: callers may draw on them)."""
    return {char: image.copy() for char, image in _pictures(theme).items()}
