"""The start screen's pyglet window: draws ``viewer3d.start.StartScreen`` and forwards clicks.

``robots-view`` without arguments opens it; Start closes it and the caller opens the viewer on
the chosen game. No logic here beyond drawing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyglet

from viewer3d import coords
from viewer3d.start import StartScreen, board_thumbnail


class StartWindow(pyglet.window.Window):  # type: ignore[misc]
    def __init__(self, screen: StartScreen, width: int = 1024, height: int = 768, visible: bool = True) -> None:
        super().__init__(
            width=width, height=height, caption="robots-view - start", resizable=True, visible=visible, file_drops=True
        )
        self.start = screen
        self._thumbs: dict[str, Any] = {}
        for name in screen.boards:
            try:
                from engine.boardfile import load_board
                from gameboards import board_path

                pixels = board_thumbnail(load_board(board_path(name)))
                height_px, width_px = pixels.shape[:2]
                image = pyglet.image.ImageData(width_px, height_px, "RGB", pixels[::-1].tobytes())
                self._thumbs[name] = image
            except Exception:  # an unreadable shipped board: listed without a picture
                continue

    def on_draw(self) -> None:
        self.clear()
        width, height = self.get_framebuffer_size()
        batch = pyglet.graphics.Batch()
        keep: list[Any] = [
            pyglet.text.Label(
                "robots-view: choose a board and a new game", x=24, y=height - 36, font_size=16, batch=batch
            )
        ]
        boxes = self.start.layout((width, height))
        for box in boxes:
            bottom = height - box.top - box.height
            lit = self.start.selected(box) or box.action == "start"
            colour = (70, 110, 170, 255) if lit else (38, 46, 60, 255)
            keep.append(pyglet.shapes.Rectangle(box.left, bottom, box.width, box.height, color=colour, batch=batch))
            if box.action.startswith("board:"):
                name = box.action[6:]
                keep.append(pyglet.text.Label(name, x=box.left + 4, y=bottom + 6, font_size=9, batch=batch))
            else:
                keep.append(
                    pyglet.text.Label(
                        box.text,
                        x=box.left + box.width / 2,
                        y=bottom + box.height / 2,
                        anchor_x="center",
                        anchor_y="center",
                        font_size=12 if box.action == "start" else 10,
                        batch=batch,
                    )
                )
        labels_top = boxes[len(self.start.boards)].top if len(boxes) > len(self.start.boards) else 0
        for offset, text in enumerate(("AI", "level", f"deck seed {self.start.seed}", "theme, window")):
            keep.append(
                pyglet.text.Label(text, x=24, y=height - labels_top - offset * 40 - 19, font_size=11, batch=batch)
            )
        batch.draw()
        for box in boxes:
            image = self._thumbs.get(box.action[6:]) if box.action.startswith("board:") else None
            if image is not None:
                scale = min(72 / image.width, 72 / image.height)
                image.blit(
                    box.left + (box.width - image.width * scale) / 2,
                    height - box.top - 8 - image.height * scale,
                    width=image.width * scale,
                    height=image.height * scale,
                )

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        scale = self.get_framebuffer_size()[0] / max(1, self.width)
        height = self.get_framebuffer_size()[1]
        self.start.click(self.get_framebuffer_size(), x * scale, coords.from_pyglet_y(y * scale, height))
        if self.start.chosen is not None:
            self.close()
            pyglet.app.exit()

    def on_file_drop(self, x: int, y: int, paths: list[str]) -> None:
        """A game folder or board file dropped on the start screen opens it."""
        if paths:
            self.start.dropped = paths[0]
            self.close()
            pyglet.app.exit()

    def save_screenshot(self, path: Path) -> None:
        self.switch_to()
        self.on_draw()
        pyglet.image.get_buffer_manager().get_color_buffer().save(str(path))


def run_start_screen(screen: StartScreen, screenshot: Path | None = None) -> StartScreen:
    """Show the start screen until Start (``screen.chosen``) or the window is closed."""
    window = StartWindow(screen)
    if screenshot is not None:

        def shoot(dt: float) -> None:
            window.save_screenshot(screenshot)
            window.close()
            pyglet.app.exit()

        pyglet.clock.schedule_once(shoot, 0.2)
    pyglet.app.run()
    return screen
