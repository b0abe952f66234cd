"""The pyglet window: a thin shell that converts events for the controller and asks the view to draw.

Mouse ``y`` arrives from the bottom in pyglet; ``viewer3d.coords.from_pyglet_y`` turns
it into the top-left screen coordinates every other part of the editor uses.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pyglet
from pyglet.window import key, mouse

from editor.controller import EditorController
from editor.tools import LEFT, MIDDLE, RIGHT
from editor.view import BACKGROUND, EditorView
from viewer3d.coords import from_pyglet_y

_BUTTONS = {mouse.LEFT: LEFT, mouse.MIDDLE: MIDDLE, mouse.RIGHT: RIGHT}
AUTOSAVE_POLL_S = 1.0


def button_name(buttons: int) -> str:
    """The button of a press, or the most important one held during a drag."""
    for bit in (mouse.LEFT, mouse.RIGHT, mouse.MIDDLE):
        if buttons & bit:
            return _BUTTONS[bit]
    return LEFT


def key_name(symbol: int) -> str:
    """pyglet's name of a key ("Z", "F5", "SPACE", "ENTER"...); letters upper-case."""
    name = key.symbol_string(symbol)
    if len(name) == 1:
        return name.upper()
    return name.lstrip("_") if name.startswith("_") and name[1:].isdigit() else name


class EditorWindow(pyglet.window.Window):  # type: ignore[misc]  # pyglet's Window is untyped
    def __init__(self, controller: EditorController, **kwargs: object) -> None:
        width, height = controller.layout.width, controller.layout.height
        super().__init__(width=width, height=height, caption=controller.title, resizable=True, **kwargs)
        self.ctl = controller
        self.shown_title = controller.title
        self.editor_view = EditorView(controller)
        self.viewers: list[subprocess.Popen[bytes]] = []
        controller.on_playtest = self._open_viewer
        controller.document.subscribe(lambda document, change: self._sync_title())
        pyglet.clock.schedule_interval(self._tick, AUTOSAVE_POLL_S)

    def _open_viewer(self, game_dir: Path) -> None:
        from editor.playtest import open_viewer

        self.viewers.append(open_viewer(game_dir))

    def _tick(self, dt: float) -> None:
        self.ctl.tick()

    def _sync_title(self) -> None:
        """Keep the title bar (with its ``*`` while unsaved) in step with the document."""
        title = self.ctl.title
        if title != self.shown_title:
            self.set_caption(title)
            self.shown_title = title

    def _after_input(self) -> None:
        self._sync_title()
        if self.ctl.closed:
            pyglet.clock.unschedule(self._tick)
            super().close()

    def _y(self, y: float) -> float:
        return from_pyglet_y(y, self.height)

    # -- events -----------------------------------------------------------------
    def on_draw(self) -> None:
        r, g, b, _ = BACKGROUND
        pyglet.gl.glClearColor(r / 255, g / 255, b / 255, 1.0)
        self.clear()
        self.ctl.work()  # a slice of the validation search, then the frame
        self.editor_view.draw()

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self.ctl.resize(width, height)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.ctl.mouse_motion(x, self._y(y))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.ctl.mouse_press(
            x, self._y(y), _BUTTONS.get(button, LEFT),
            shift=bool(modifiers & key.MOD_SHIFT), alt=bool(modifiers & key.MOD_ALT), ctrl=bool(modifiers & key.MOD_CTRL),
        )  # fmt: skip
        self._after_input()

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        self.ctl.mouse_drag(x, self._y(y), dx, -dy, button_name(buttons))

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.ctl.mouse_release(x, self._y(y), _BUTTONS.get(button, LEFT))
        self._after_input()

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        ctrl = bool(self._modifiers & key.MOD_CTRL) if hasattr(self, "_modifiers") else False
        self.ctl.scroll(x, self._y(y), scroll_y, ctrl=ctrl)
        self._after_input()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        self._modifiers = modifiers
        if symbol in (key.LCTRL, key.RCTRL):
            self._modifiers |= key.MOD_CTRL
        self.ctl.key_press(
            key_name(symbol),
            ctrl=bool(modifiers & key.MOD_CTRL),
            shift=bool(modifiers & key.MOD_SHIFT),
            alt=bool(modifiers & key.MOD_ALT),
        )
        self._after_input()
        # ESC must not close the window: the controller decides (prompts, help).

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self._modifiers = modifiers & ~key.MOD_CTRL if symbol in (key.LCTRL, key.RCTRL) else modifiers
        self.ctl.key_release(key_name(symbol))

    def on_text(self, text: str) -> None:
        self.ctl.text(text)
        self._after_input()

    def on_close(self) -> None:
        self.ctl.request_close()
        self._after_input()

    def save_png(self, path: str | Path) -> None:
        """Render one frame, with validation finished, and write it to a PNG (screenshots, tests)."""
        self.ctl.current_validation.advance()
        self.switch_to()
        self.on_draw()
        pyglet.image.get_buffer_manager().get_color_buffer().save(str(path))
