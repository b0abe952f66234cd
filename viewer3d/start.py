"""The start screen's model (no GL): which shipped board, AI, level, deck seed and theme a new
game uses, the clickable boxes that change them, and what Start opens.

``StartScreen.click(px, py)`` (top-left pixels) changes a choice or, on Start, sets ``chosen``;
``layout`` places every box for a window size, so the pyglet window (``start_window.py``) only
draws boxes and forwards clicks, and tests choose and start a game with clicks alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from engine.model import Board, Level

AIS = ("reference", "planner")
LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)
THUMB = 72.0  # board thumbnail size, pixels
COLUMNS = 5


@dataclass(frozen=True)
class Box:
    """A clickable rectangle (top-left pixels) with what a click on it does."""

    left: float
    top: float
    width: float
    height: float
    action: str  # "board:NAME", "ai:NAME", "level:NAME", "seed:+1", "seed:-1", "theme", "window", "start"
    text: str

    def contains(self, px: float, py: float) -> bool:
        return self.left <= px <= self.left + self.width and self.top <= py <= self.top + self.height


@dataclass(frozen=True)
class Choice:
    """What Start opens: a new game on a shipped board."""

    board: str
    ai: str
    level: Level
    seed: int
    theme: str | None
    fullscreen: bool


@dataclass
class StartScreen:
    boards: list[str]
    themes: list[str] = field(default_factory=lambda: ["default"])
    board: str = "chop.dat"
    ai: str = "reference"
    level: Level = Level.HARD
    seed: int = 1
    theme: str = "default"
    fullscreen: bool = False
    chosen: Choice | None = None
    dropped: str | None = None  # a game folder or board file dropped on the window: open that

    def layout(self, viewport: tuple[int, int]) -> list[Box]:
        """Every clickable box: the boards as a grid of thumbnails, then the option rows and Start."""
        boxes: list[Box] = []
        cell_w, cell_h = THUMB + 48.0, THUMB + 26.0
        for index, name in enumerate(self.boards):
            row, column = divmod(index, COLUMNS)
            boxes.append(Box(24 + column * cell_w, 64 + row * cell_h, cell_w - 8, cell_h - 6, f"board:{name}", name))
        top = 64 + ((len(self.boards) + COLUMNS - 1) // COLUMNS) * cell_h + 16

        def row_of(label_y: float, items: list[tuple[str, str]], width: float = 96.0) -> None:
            for number, (action, text) in enumerate(items):
                boxes.append(Box(140 + number * (width + 8), label_y, width, 28, action, text))

        row_of(top, [(f"ai:{name}", name) for name in AIS])
        row_of(top + 40, [(f"level:{level.value}", level.value) for level in LEVELS])
        row_of(top + 80, [("seed:-1", "-"), ("seed:+1", "+")], 40.0)
        row_of(top + 120, [("theme", self.theme), ("window", "fullscreen" if self.fullscreen else "window")])
        boxes.append(Box(viewport[0] - 180, viewport[1] - 70, 150, 44, "start", "Start"))
        return boxes

    def selected(self, box: Box) -> bool:
        """Whether a box shows the current choice (drawn highlighted)."""
        kind, _, value = box.action.partition(":")
        return (
            (kind == "board" and value == self.board)
            or (kind == "ai" and value == self.ai)
            or (kind == "level" and value == self.level.value)
        )

    def click(self, viewport: tuple[int, int], px: float, py: float) -> bool:
        """Apply a click; True if it hit a box."""
        box = next((b for b in self.layout(viewport) if b.contains(px, py)), None)
        if box is None:
            return False
        kind, _, value = box.action.partition(":")
        if kind == "board":
            self.board = value
        elif kind == "ai":
            self.ai = value
        elif kind == "level":
            self.level = Level(value)
        elif kind == "seed":
            self.seed = max(0, self.seed + int(value))
        elif kind == "theme":
            at = self.themes.index(self.theme) if self.theme in self.themes else -1
            self.theme = self.themes[(at + 1) % len(self.themes)]
        elif kind == "window":
            self.fullscreen = not self.fullscreen
        elif kind == "start":
            self.chosen = Choice(self.board, self.ai, self.level, self.seed, self.theme, self.fullscreen)
        return True


#: Thumbnail colours by tile kind code (viewer3d.render.scene KIND_*) and for walls.
_KIND_RGB = np.array(
    [
        (205, 208, 214),  # floor
        (20, 20, 26),  # hole
        (70, 70, 80),  # conveyor
        (60, 170, 190),  # rotator left
        (230, 140, 50),  # rotator right
        (200, 60, 50),  # pusher
        (150, 150, 40),  # crusher
        (60, 210, 110),  # goal
        (40, 50, 110),  # oil
    ],
    dtype=np.uint8,
)


def board_thumbnail(board: Board, size: int = int(THUMB)) -> NDArray[np.uint8]:
    """A top-down picture of a board, ``size`` pixels on its long side (RGB, top row first):
    one colour per tile kind, walls dark; cheap enough for every shipped board at start-up."""
    from viewer3d.render.scene import build_scene

    info = build_scene(board).info
    kinds = np.minimum(info[..., 2] & 15, len(_KIND_RGB) - 1)
    picture = _KIND_RGB[kinds].copy()
    picture[info[..., 1] > 0] = (picture[info[..., 1] > 0] * 0.55).astype(np.uint8)  # tiles with walls
    scale = max(1, size // max(board.width, board.height))
    return np.ascontiguousarray(np.repeat(np.repeat(picture, scale, axis=0), scale, axis=1))
