"""A Tron arena as a small top-down picture for the start screen (numpy only, no GL).

Free fields dark blue, blocked fields grey, each start a dot in its bot's light colour; the
picture is at least ``size`` pixels on its long side, so a 10x10 arena is not a blur of 10 pixels.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from engine.tron.arena import Arena
from viewer3d.games.tron.timeline import bot_colour

FREE = (18, 30, 52)
BLOCKED = (150, 158, 172)


def arena_thumbnail(arena: Arena, size: int = 72) -> NDArray[np.uint8]:
    """RGB pixels (top row first) of ``arena``; its starts (or the contest's two default starts)
    are marked, a start on a tiny arena as a whole field."""
    blocked = np.frombuffer(arena.blocked, dtype=np.uint8).reshape(arena.height, arena.width)
    picture = np.empty((arena.height, arena.width, 3), dtype=np.uint8)
    picture[...] = FREE
    picture[blocked > 0] = BLOCKED
    scale = max(1, -(-size // max(arena.width, arena.height)))
    picture = np.repeat(np.repeat(picture, scale, axis=0), scale, axis=1)
    try:
        starts = arena.starts_for(len(arena.starts) or 2)
    except ValueError:  # an arena too narrow for the default starts: drawn without them
        starts = ()
    dot = max(scale, max(arena.width, arena.height) * scale // 24)  # visible at any size
    for number, start in enumerate(starts):
        colour = tuple(int(255 * c) for c in bot_colour(number))
        cx, cy = (start.x - 1) * scale + scale // 2, (start.y - 1) * scale + scale // 2
        top, left = max(0, cy - dot // 2), max(0, cx - dot // 2)
        picture[top : top + max(1, dot), left : left + max(1, dot)] = colour
    return np.ascontiguousarray(picture)
