"""The Tron arena editor's window: the arena as one image (one pixel block per field), starts as
arrows in their bot's colour, a status line and the validation list; all edits go to the controller."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyglet
from PIL import Image
from pyglet.window import key, mouse

from editor.games.tron.controller import HELP, TronController
from viewer3d.window import save_window_screenshot

COLOURS = (
    (26, 217, 255),
    (255, 140, 26),
    (255, 51, 204),
    (77, 255, 89),
    (255, 242, 51),
    (89, 115, 255),
    (255, 51, 51),
    (230, 230, 242),
)
FREE, BLOCKED, GRID = (10, 16, 28), (70, 78, 96), (24, 36, 54)
PANEL = 150  # pixels for status and problems at the bottom


class TronEditorWindow(pyglet.window.Window):  # type: ignore[misc]
    def __init__(self, controller: TronController, size: tuple[int, int] = (1000, 800), visible: bool = True) -> None:
        kwargs: dict[str, Any] = dict(
            width=size[0], height=size[1], caption="robots-edit - Tron arena", resizable=True, visible=visible
        )
        super().__init__(**kwargs)
        self.controller = controller
        self.batch = pyglet.graphics.Batch()
        self.labels: list[pyglet.text.Label] = []

    # -- geometry -----------------------------------------------------------------------------
    def cell_size(self) -> int:
        doc = self.controller.document
        fit = min((int(self.width) - 20) // doc.width, (int(self.height) - PANEL - 20) // doc.height)
        return max(1, fit)

    def origin(self) -> tuple[int, int]:
        """Screen position of the arena's top-left corner (pyglet's y grows upwards)."""
        return 10, self.height - 10

    def field_at(self, px: int, py: int) -> tuple[int, int] | None:
        doc, size = self.controller.document, self.cell_size()
        ox, oy = self.origin()
        x, y = (px - ox) // size + 1, (oy - py) // size + 1
        return (x, y) if 1 <= x <= doc.width and 1 <= y <= doc.height else None

    # -- drawing ------------------------------------------------------------------------------
    def arena_image(self) -> Image.Image:
        doc, size = self.controller.document, self.cell_size()
        blocked = np.frombuffer(doc.arena().blocked, dtype=np.uint8).reshape(doc.height, doc.width)
        pixels = np.where(blocked[..., None] == 1, np.array(BLOCKED, np.uint8), np.array(FREE, np.uint8)).astype(
            np.uint8
        )
        big = np.repeat(np.repeat(pixels, size, axis=0), size, axis=1)
        if size >= 6:  # field borders
            big[::size, :] = GRID
            big[:, ::size] = GRID
        image = Image.fromarray(big, "RGB")
        from PIL import ImageDraw

        draw = ImageDraw.Draw(image)
        for bot, start in enumerate(doc.starts):
            colour = COLOURS[bot % len(COLOURS)]
            cx, cy = (start.x - 0.5) * size, (start.y - 0.5) * size
            r = max(2.0, size * 0.45)
            dx, dy = start.heading.dx, start.heading.dy
            tip = (cx + dx * r, cy + dy * r)
            left = (cx - dx * r * 0.6 + dy * r * 0.7, cy - dy * r * 0.6 - dx * r * 0.7)
            right = (cx - dx * r * 0.6 - dy * r * 0.7, cy - dy * r * 0.6 + dx * r * 0.7)
            draw.polygon([tip, left, right], fill=colour)
        return image

    def on_draw(self) -> None:
        self.clear()
        image = self.arena_image()
        data = image.transpose(Image.Transpose.FLIP_TOP_BOTTOM).tobytes()
        picture = pyglet.image.ImageData(image.width, image.height, "RGB", data)
        ox, oy = self.origin()
        picture.blit(ox, oy - image.height)
        for label in self.labels:
            label.delete()
        lines = [self.controller.status, HELP]
        lines += [f"{p.level}: {p.message}" for p in self.controller.problems][:6]
        self.labels = [
            pyglet.text.Label(line, x=10, y=PANEL - 18 - 17 * i, font_size=10, batch=self.batch,
                              color=(255, 120, 120, 255) if line.startswith("error") else (220, 225, 235, 255))
            for i, line in enumerate(lines)
        ]  # fmt: skip
        self.batch.draw()

    # -- input --------------------------------------------------------------------------------
    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        field = self.field_at(x, y)
        if field is not None:
            self.controller.press(*field, right=bool(button & mouse.RIGHT))

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        field = self.field_at(x, y)
        if field is not None:
            self.controller.drag(*field)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.controller.release()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol == key.ESCAPE and not self.controller.document.modified:
            self.close()
            return
        self.controller.key(
            key.symbol_string(symbol), ctrl=bool(modifiers & key.MOD_CTRL), shift=bool(modifiers & key.MOD_SHIFT)
        )

    def save_screenshot(self, path: Path) -> Path:
        return save_window_screenshot(self, path)
