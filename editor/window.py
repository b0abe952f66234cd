"""The pyglet window: a thin shell that converts events for the controller and asks the view to draw.

Mouse ``y`` arrives from the bottom in pyglet; ``viewer3d.coords.from_pyglet_y`` turns
it into the top-left screen coordinates every other part of the editor uses.

No event handler may kill the window: each one runs through ``_guarded``, which on an
unexpected error writes the emergency copy of the board first and then reports the error
in the status bar (and the traceback on stderr). The window never stores anything in
attributes pyglet uses itself (pyglet's X11 window keeps its position in ``_x``/``_y``;
an editor helper once called ``_y`` was overwritten by the first move of the window).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pyglet
from pyglet.window import key, mouse

from editor.controller import EditorController
from editor.events import DocumentEvent
from editor.tools import LEFT, MIDDLE, RIGHT
from editor.view import BACKGROUND, EditorView
from engine.atomic import resolve_target, write_bytes_atomic
from viewer3d.coords import from_pyglet_y

_BUTTONS = {mouse.LEFT: LEFT, mouse.MIDDLE: MIDDLE, mouse.RIGHT: RIGHT}
TICK_S = 0.25  # autosave due checks, pointer messages, test-play results
FRAME_S = 1 / 60
F = TypeVar("F", bound=Callable[..., Any])


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


def _guarded(handler: F) -> F:
    """Run an event handler; an unexpected error becomes an emergency copy and a status message."""

    @functools.wraps(handler)
    def run(self: EditorWindow, *args: Any) -> Any:
        try:
            return handler(self, *args)
        except Exception as exc:
            self.ctl.report_error(exc, handler.__name__)
            self.errors += 1
            return pyglet.event.EVENT_HANDLED
        finally:
            if handler.__name__ not in ("on_draw", "_tick"):
                self.needs_frame = True  # input changed something: draw (a tick is judged by _frame)

    return run  # type: ignore[return-value]


class EditorWindow(pyglet.window.Window):  # type: ignore[misc]  # pyglet's Window is untyped
    """The editor's window. It draws a frame only when something changed (an event, a tick that
    changed what is shown, the validation's progress): an idle editor costs no CPU. Run the event
    loop with ``pyglet.app.run(interval=None)``; the window schedules its own frames."""

    _editor_modifiers: int = 0
    needs_frame: bool = True

    def __init__(self, controller: EditorController, **kwargs: object) -> None:
        width, height = controller.layout.width, controller.layout.height
        kwargs.setdefault("file_drops", True)
        super().__init__(width=width, height=height, caption=controller.title, resizable=True, **kwargs)
        self.set_minimum_size(640, 480)
        self.ctl = controller
        self.errors = 0
        self.shown_title = controller.title
        self.editor_view = EditorView(controller)
        controller.document.subscribe(self._on_document_event)
        self._shown: tuple[object, ...] = ()
        pyglet.clock.schedule_interval(self._tick, TICK_S)
        pyglet.clock.schedule_interval(self._frame, FRAME_S)

    @_guarded
    def _tick(self, dt: float) -> None:
        self.ctl.tick()
        self.ctl.work()
        self.editor_view.watch_theme()

    def _frame(self, dt: float) -> None:
        """Draw when something visible may have changed since the last frame."""
        ctl = self.ctl
        shown = (ctl.status, ctl.toast, ctl.validation_state(), ctl.playtest.running, self.editor_view.theme_reloads)
        if self.needs_frame or shown != self._shown:
            self._shown = shown
            self.needs_frame = False
            self.switch_to()
            self.dispatch_event("on_draw")
            self.flip()

    def _on_document_event(self, event: DocumentEvent) -> None:
        self._sync_title()

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
            pyglet.clock.unschedule(self._frame)
            self.ctl.close()
            super().close()

    def _top(self, y: float) -> float:
        """Screen ``y`` from the top. (Not ``_y``: pyglet's X11 window keeps its position there.)"""
        return from_pyglet_y(y, self.height)

    # -- events -----------------------------------------------------------------
    @_guarded
    def on_draw(self) -> None:
        r, g, b, _ = BACKGROUND
        pyglet.gl.glClearColor(r / 255, g / 255, b / 255, 1.0)
        self.clear()
        self.editor_view.draw()

    @_guarded
    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self.ctl.resize(width, height)

    @_guarded
    def on_move(self, x: int, y: int) -> None:
        pass  # nothing to do; guarded so that even a future handler here cannot crash the window

    @_guarded
    def on_expose(self) -> None:
        pass  # uncovered: the guard asks for a frame

    @_guarded
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.ctl.pointer.buttons_up(x, self._top(y))  # pyglet sends a motion only with no button held
        self.ctl.mouse_motion(x, self._top(y))

    @_guarded
    def on_mouse_leave(self, x: int, y: int) -> None:
        self.ctl.pointer.leave()

    @_guarded
    def on_mouse_enter(self, x: int, y: int) -> None:
        self.ctl.mouse_motion(x, self._top(y))

    @_guarded
    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button not in _BUTTONS:
            return  # a mouse's back/forward buttons (pyglet's MOUSE4/MOUSE5) mean nothing here
        self.ctl.mouse_press(
            x, self._top(y), _BUTTONS.get(button, LEFT),
            shift=bool(modifiers & key.MOD_SHIFT), alt=bool(modifiers & key.MOD_ALT), ctrl=bool(modifiers & key.MOD_CTRL),
        )  # fmt: skip
        self._after_input()

    @_guarded
    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        self.ctl.mouse_drag(x, self._top(y), dx, -dy, button_name(buttons))

    @_guarded
    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button not in _BUTTONS:
            return
        self.ctl.mouse_release(x, self._top(y), _BUTTONS.get(button, LEFT))
        self._after_input()

    @_guarded
    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        held = self._editor_modifiers
        self.ctl.scroll(
            x, self._top(y), scroll_y, ctrl=bool(held & key.MOD_CTRL), shift=bool(held & key.MOD_SHIFT),
            alt=bool(held & key.MOD_ALT), clicks_x=scroll_x,
        )  # fmt: skip
        self._after_input()

    @_guarded
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        self._editor_modifiers = modifiers | _modifier_of(symbol)
        self.ctl.key_press(
            key_name(symbol),
            ctrl=bool(modifiers & key.MOD_CTRL),
            shift=bool(modifiers & key.MOD_SHIFT),
            alt=bool(modifiers & key.MOD_ALT),
        )
        self._after_input()
        # ESC must not close the window: the controller decides (prompts, help).

    @_guarded
    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self._editor_modifiers = modifiers & ~_modifier_of(symbol)
        self.ctl.key_release(key_name(symbol))

    @_guarded
    def on_text(self, text: str) -> None:
        self.ctl.text(text)
        self._after_input()

    @_guarded
    def on_file_drop(self, x: int, y: int, paths: list[str]) -> None:
        self.ctl.file_drop(list(paths))
        self._after_input()

    @_guarded
    def on_activate(self) -> None:
        self.ctl.activated()  # another program may have changed the file meanwhile
        self._after_input()

    @_guarded
    def on_close(self) -> None:
        self.ctl.request_close()
        self._after_input()

    def save_png(self, path: str | Path) -> None:
        """Render one frame, with validation finished, and write it to a PNG (screenshots, tests).

        Encoded in memory and written by ``engine.atomic``: a FIFO there is refused (pyglet's own
        save waited on it for ever), a full disk keeps the old file (it left half a PNG)."""
        resolve_target(path)  # a folder, FIFO or read-only file in the way: said before drawing
        self.ctl.finish_validation()
        self.switch_to()
        self.on_draw()
        buffer = io.BytesIO()
        pyglet.image.get_buffer_manager().get_color_buffer().save(str(path), file=buffer)
        write_bytes_atomic(path, buffer.getvalue())


def _modifier_of(symbol: int) -> int:
    """The modifier bit a modifier key itself stands for (pyglet reports it only after the press)."""
    return {
        key.LCTRL: key.MOD_CTRL, key.RCTRL: key.MOD_CTRL, key.LSHIFT: key.MOD_SHIFT, key.RSHIFT: key.MOD_SHIFT,
        key.LALT: key.MOD_ALT, key.RALT: key.MOD_ALT,
    }.get(symbol, 0)  # fmt: skip
