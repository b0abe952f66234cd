"""The Tron replay window (pyglet + moderngl): draws ``TronPlayer``'s moment and HUD; no logic here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import moderngl
import numpy as np
import pyglet
from pyglet.window import key, mouse

from engine.tron.record import GameRecord
from viewer3d.games.tron.player import TronPlayer
from viewer3d.games.tron.render import TronRenderer
from viewer3d.games.tron.timeline import COLOURS
from viewer3d.window import _config, read_window_pixels, save_window_screenshot, window_samples


class TronWindow(pyglet.window.Window):  # type: ignore[misc]
    def __init__(
        self, record: GameRecord, title: str, size: tuple[int, int] = (1024, 768), visible: bool = True
    ) -> None:
        kwargs: dict[str, Any] = dict(
            width=size[0], height=size[1], caption=f"robots-view - {title}", resizable=True, visible=visible
        )
        try:
            super().__init__(config=_config(window_samples()), **kwargs)
        except pyglet.window.NoSuchConfigException:
            super().__init__(config=_config(0), **kwargs)
        self.player = TronPlayer(record, self.get_framebuffer_size())
        self.switch_to()
        moderngl.init_context()
        self.ctx = moderngl.get_context()
        self.renderer = TronRenderer(self.ctx, record.arena)
        self.batch = pyglet.graphics.Batch()
        self.labels: list[pyglet.text.Label] = []
        self.screenshot_dir = Path.cwd()
        self.last_screenshot: Path | None = None
        pyglet.clock.schedule_interval(self._tick, 1 / 60)

    def _tick(self, dt: float) -> None:
        self.player.update(min(dt, 0.1))
        if self.player.quit_requested:
            self.close()

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        if not hasattr(self, "player"):  # a window manager resizes the window while it is being made
            return
        self.player.camera.resize(*self.get_framebuffer_size())
        self.player.camera.fit(animate=False)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        self.player.key(key.symbol_string(symbol))

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        if buttons & mouse.LEFT:
            self.player.camera.orbit(dx, dy)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        self.player.camera.zoom(0.9**scroll_y)

    def draw_frame(self) -> None:
        size = self.get_framebuffer_size()
        self.ctx.screen.use()
        self.ctx.viewport = (0, 0, *size)
        self.renderer.render(self.player.camera.matrices(), self.player.moment())
        self.ctx.disable(moderngl.DEPTH_TEST)
        self.ctx.enable(moderngl.BLEND)
        self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        lines = self.player.hud()
        bots = len(self.player.timeline.names)
        for label in self.labels:
            label.delete()
        self.labels = []
        for i, line in enumerate(lines):
            colour = COLOURS[(i - 1) % len(COLOURS)] if 1 <= i <= bots else (0.9, 0.92, 0.95)
            rgba = (*(int(255 * c) for c in colour), 255)
            self.labels.append(
                pyglet.text.Label(line, x=10, y=self.height - 20 - 18 * i, font_size=11, color=rgba, batch=self.batch)  # type: ignore[arg-type]
            )
        self.batch.draw()

    def on_draw(self) -> None:
        self.draw_frame()
        if self.player.screenshot_requested:
            self.player.screenshot_requested = False
            self.save_screenshot(self.screenshot_dir / f"tron-{int(self.player.time):05d}.png")

    def read_pixels(self) -> np.ndarray:
        return read_window_pixels(self)

    def save_screenshot(self, path: Path) -> Path:
        self.last_screenshot = save_window_screenshot(self, path)
        return path


def run_tron_window(record: GameRecord, title: str, size: tuple[int, int] = (1024, 768)) -> None:
    window = TronWindow(record, title, size)
    try:
        pyglet.app.run()
    finally:
        pyglet.clock.unschedule(window._tick)
