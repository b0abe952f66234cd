"""The start screen's pyglet window: draws ``viewer3d.start.StartScreen`` and forwards clicks.

``robots-view`` without arguments opens it; Start, a recent game or the file browser's choice
closes it and the caller opens the viewer on that. No logic here beyond drawing and passing
keys and clicks on; the keyboard focus (``StartScreen.focus``) is drawn as a ring, with its tooltip. The Tron tab is drawn by ``_draw_tron`` (same boxes, arena thumbnails); while
a Tron game is played in the background the window polls it and closes once it is saved."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyglet

from pathui.elide import elide_middle, elide_start, fitted
from viewer3d import coords, tooltips
from viewer3d.games.tron.timeline import bot_colour
from viewer3d.start import StartScreen, board_thumbnail
from viewer3d.start_open import Box


class StartWindow(pyglet.window.Window):  # type: ignore[misc]
    def __init__(self, screen: StartScreen, width: int = 1024, height: int = 768, visible: bool = True) -> None:
        super().__init__(
            width=width, height=height, caption="robots-view - start", resizable=True, visible=visible, file_drops=True
        )
        self.start = screen
        self.hover: Box | None = None  # the box under the mouse: its tooltip is drawn
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
        self._arena_thumbs: dict[str, Any] = {}  # Tron arenas' pictures by path, made when first shown
        #: Frames drawn (tests count them). The window draws when something changed (an event, a
        #: live game's end), not at pyglet's default 60 frames a second: an idle start screen sleeps.
        self.frames_drawn = 0
        self._frame_due = False
        self.invalidate()
        pyglet.clock.schedule_interval(self._poll, 0.1)

    def invalidate(self, *args: Any) -> None:
        """Something shown may have changed: draw one frame soon (events arriving together share it)."""
        if not getattr(self, "_frame_due", True):  # (events during pyglet's set-up: drawn at the end of it)
            self._frame_due = True
            pyglet.clock.schedule_once(self._frame, 0.0)

    def _frame(self, dt: float) -> None:
        self._frame_due = False
        if self.has_exit or self.start.done:
            return
        self.switch_to()
        self.dispatch_event("on_draw")
        self.flip()

    def dispatch_event(self, event_type: str, *args: Any) -> Any:
        """Every event but a drawing one may change the picture: draw a frame after it."""
        if event_type not in ("on_draw", "on_refresh"):
            self.invalidate()
        return super().dispatch_event(event_type, *args)

    def _poll(self, dt: float) -> None:
        """A live Tron game finished: open its file (the window closes), or show why not."""
        if self.start.poll():
            self.invalidate()
            self._after_input()

    def on_close(self) -> None:
        self.start.cancel_live()  # closing the window ends a game played for it
        super().on_close()

    def close(self) -> None:
        pyglet.clock.unschedule(self._poll)
        pyglet.clock.unschedule(self._frame)
        super().close()

    def _arena_thumb(self, path: str) -> Any:
        if path not in self._arena_thumbs:
            from viewer3d.games import by_name

            thumbnail = by_name("tron").thumbnail
            try:
                assert thumbnail is not None
                pixels = thumbnail(Path(path))
                height_px, width_px = pixels.shape[:2]
                self._arena_thumbs[path] = pyglet.image.ImageData(width_px, height_px, "RGB", pixels[::-1].tobytes())
            except Exception:  # an unreadable arena: listed without a picture
                self._arena_thumbs[path] = None
        return self._arena_thumbs[path]

    def on_draw(self) -> None:
        self.frames_drawn += 1
        self.clear()
        if self.start.browser is not None:
            self._draw_browser()
            return
        if self.start.on_tron:
            self._draw_tron()
            return
        width, height = self.get_framebuffer_size()
        batch = pyglet.graphics.Batch()
        keep: list[Any] = [
            pyglet.text.Label(
                "robots-view: choose a board and a new game", x=24, y=height - 36, font_size=16, batch=batch
            )
        ]
        if self.start.shown_message():
            line = _label(self.start.shown_message(), 24, height - 56, 10, batch, width - 48, elide_middle)
            line.color = (255, 140, 120, 255)
            keep.append(line)
        boxes = self.start.layout((width, height))
        for box in boxes:
            bottom = height - box.top - box.height
            lit = self.start.selected(box) or box.action == "start"
            colour = (70, 110, 170, 255) if lit else (38, 46, 60, 255)
            keep.append(pyglet.shapes.Rectangle(box.left, bottom, box.width, box.height, color=colour, batch=batch))
            if box.action.startswith("board:"):
                name = box.action[6:].removesuffix(".dat")  # every board is one; the tooltip names the file
                keep.append(_label(name, box.left + 4, bottom + 6, 9, batch, box.width - 8, elide_middle))
            elif box.action.startswith("recent:"):
                keep.append(_label(box.text, box.left + 8, bottom + 8, 10, batch, box.width - 16))
            elif box.action == "deck:file":
                keep.append(_label(box.text, box.left + 8, bottom + 9, 10, batch, box.width - 28))
            else:
                keep.append(_centred(box.text, box, bottom, 12 if box.action == "start" else 10, batch))
        if self.start.recent:
            recent_box = next(b for b in boxes if b.action == "recent:0")
            keep.append(_label("recent games", recent_box.left, height - recent_box.top + 8, 11, batch))
        labels_top = boxes[len(self.start.boards)].top if len(boxes) > len(self.start.boards) else 0
        for offset, text in enumerate(("AI", "level", "deck", "display")):
            keep.append(
                pyglet.text.Label(text, x=24, y=height - labels_top - offset * 40 - 19, font_size=11, batch=batch)
            )
        batch.draw()
        for box in boxes:
            image = self._thumbs.get(box.action[6:]) if box.action.startswith("board:") else None
            if image is not None:
                _blit_thumb(image, box, height)
        self._draw_focus(boxes, height)
        self._draw_tooltip(boxes, width, height)

    def _draw_tron(self) -> None:
        """The Tron tab: arenas with thumbnails, a row of choices per bot, Start, Open and recent."""
        tron = self.start.tron
        assert tron is not None
        width, height = self.get_framebuffer_size()
        batch = pyglet.graphics.Batch()
        keep: list[Any] = [
            pyglet.text.Label("robots-view: a new Tron game", x=24, y=height - 36, font_size=16, batch=batch)
        ]
        message = self.start.shown_message()
        if message:
            line = _label(message, 24, height - 56, 10, batch, width - 48, elide_middle)
            line.color = (120, 220, 255, 255) if self.start.live is not None else (255, 140, 120, 255)
            keep.append(line)
        boxes = self.start.layout((width, height))
        for box in boxes:
            bottom = height - box.top - box.height
            lit = self.start.selected(box) or (box.action == "start" and self.start.live is None)
            colour = (70, 110, 170, 255) if lit else (38, 46, 60, 255)
            keep.append(pyglet.shapes.Rectangle(box.left, bottom, box.width, box.height, color=colour, batch=batch))
            if box.action.startswith("arena:"):
                keep.append(_label(box.text, box.left + 4, bottom + 6, 9, batch, box.width - 8, elide_middle))
            elif box.action.startswith(("recent:", "program:")):
                keep.append(_label(box.text, box.left + 8, bottom + 8, 10, batch, box.width - 16))
            else:
                keep.append(_centred(box.text, box, bottom, 12 if box.action == "start" else 10, batch))
            if box.action.startswith("bot:") and box.action.endswith(":" + tron.players[0]):  # a bot's row
                slot = int(box.action.split(":")[1])
                red, green, blue = (int(255 * c) for c in bot_colour(slot - 1))
                label = pyglet.text.Label(f"bot {slot}", x=24, y=bottom + 8, font_size=11, batch=batch)
                label.color = (red, green, blue, 255)
                keep.append(label)
        look = next(b for b in boxes if b.action == "theme")
        keep.append(pyglet.text.Label("display", x=24, y=height - look.top - 19, font_size=11, batch=batch))
        if tron.games:
            first = next(b for b in boxes if b.action == "recent:0")
            keep.append(_label("recent Tron games", first.left, height - first.top + 8, 11, batch))
        batch.draw()
        arenas = tron.arenas
        for box in boxes:
            if not box.action.startswith("arena:"):
                continue
            image = self._arena_thumb(arenas[int(box.action[6:])].path)
            if image is not None:
                _blit_thumb(image, box, height)
        self._draw_focus(boxes, height)
        self._draw_tooltip(boxes, width, height)

    def _draw_focus(self, boxes: list[Box], height: int) -> None:
        """A bright ring round the box with the keyboard focus, just outside it (the box's own
        colour still says whether it is chosen)."""
        box = next((b for b in boxes if b.action == self.start.focus), None)
        if box is None:
            return
        ring = pyglet.shapes.Box(
            box.left - 3, height - box.top - box.height - 3, box.width + 6, box.height + 6, 2, (250, 240, 190, 255)
        )
        ring.draw()

    def _draw_tooltip(self, boxes: list[Box], width: int, height: int) -> None:
        """What the box under the mouse (else the focused box) does, in a pale strip next to it,
        over no other control (``viewer3d.tooltips``)."""
        shown = self.hover.action if self.hover is not None else self.start.focus
        hover = next((b for b in boxes if b.action == shown), None)
        tip = self.start.tooltip(hover) if hover is not None else ""
        if hover is None or not tip:
            return
        batch = pyglet.graphics.Batch()
        label = pyglet.text.Label(tip, x=0, y=0, font_size=10, color=(20, 20, 20, 255))
        size = (label.content_width + 16.0, 22.0)
        rects = [(b.left, b.top, b.width, b.height) for b in boxes]
        tip_x, tip_top, tip_w, _ = tooltips.place(
            (hover.left, hover.top, hover.width, hover.height), size, (width, height), rects
        )
        tip_y = height - tip_top - 22  # pyglet y grows upwards
        background = pyglet.shapes.Rectangle(tip_x, tip_y, tip_w, 22, color=(250, 240, 190, 255), batch=batch)
        batch.draw()
        label.x, label.y = tip_x + 8, tip_y + 6
        label.draw()
        del background

    def _draw_browser(self) -> None:
        """The file browser over the whole window: the question, the typed path, the listing, buttons."""
        browser = self.start.browser
        assert browser is not None
        width, height = self.get_framebuffer_size()
        batch = pyglet.graphics.Batch()
        prompt = browser.prompt
        keep: list[Any] = [
            _label(prompt.label if prompt else "", 48, height - 48, 15, batch),
            pyglet.shapes.Rectangle(48, height - 108, width - 96, 32, color=(24, 30, 40, 255), batch=batch),
            _label(prompt.display if prompt else "", 56, height - 100, 12, batch, width - 112),
            _label(browser.hint(), 48, height - 136, 10, batch, width - 96, elide_middle),
        ]
        selected = prompt.listing.selected if prompt is not None and prompt.listing is not None else -1
        for box in browser.layout((width, height)):
            bottom = height - box.top - box.height
            entry = box.action.startswith("entry:")
            lit = (entry and int(box.action[6:]) == selected) or box.action == "browse:open"
            colour = (70, 110, 170, 255) if lit else ((32, 38, 50, 255) if entry else (38, 46, 60, 255))
            keep.append(pyglet.shapes.Rectangle(box.left, bottom, box.width, box.height, color=colour, batch=batch))
            if entry:
                keep.append(_label(box.text, box.left + 8, bottom + 5, 10, batch, box.width - 16))
            else:
                keep.append(_centred(box.text, box, bottom, 11, batch))
        batch.draw()

    def _after_input(self) -> None:
        if self.start.done:
            self.start.hand_over()
            self.close()
            pyglet.app.exit()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        scale = self.get_framebuffer_size()[0] / max(1, self.width)
        height = self.get_framebuffer_size()[1]
        self.start.click(self.get_framebuffer_size(), x * scale, coords.from_pyglet_y(y * scale, height))
        self._after_input()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """The box under the mouse, for its tooltip (the start screen's own boxes only)."""
        if self.start.browser is not None:
            self.hover = None
            return
        scale = self.get_framebuffer_size()[0] / max(1, self.width)
        size = self.get_framebuffer_size()
        px, py = x * scale, coords.from_pyglet_y(y * scale, size[1])
        self.hover = next((b for b in self.start.layout(size) if b.contains(px, py)), None)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        browser = self.start.browser
        if browser is not None:
            browser.scroll(-round(scroll_y) * 3, browser.rows_shown(self.get_framebuffer_size()))

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Keys go to the start screen (the browser while it is shown); Esc on the screen itself closes it."""
        name = key_name(self, symbol)
        if name == "ESCAPE" and self.start.live is not None:  # Esc while a Tron game plays: cancel it
            self.start.cancel_live()
            return
        if name == "ESCAPE" and self.start.browser is None:
            self.close()
            pyglet.app.exit()
            return
        focus = self.start.focus
        ctrl, shift = bool(modifiers & pyglet.window.key.MOD_CTRL), bool(modifiers & pyglet.window.key.MOD_SHIFT)
        self.start.key(name, ctrl, shift, self.get_framebuffer_size())
        if self.start.focus != focus:
            self.hover = None  # the focused box's tooltip, not the one under a resting mouse
        self._after_input()

    def on_text(self, text: str) -> None:
        self.start.type(text)
        self._after_input()

    def on_file_drop(self, x: int, y: int, paths: list[str]) -> None:
        """A game folder or board file dropped on the start screen opens it."""
        if paths:
            self.start.dropped = paths[0]
            self.close()
            pyglet.app.exit()

    def save_screenshot(self, path: Path) -> None:
        from viewer3d.window import save_window_screenshot

        self.switch_to()
        self.on_draw()
        save_window_screenshot(self, path)  # atomically, as the viewer's own screenshots


def key_name(window: Any, symbol: int) -> str:
    """pyglet's name for a key. X sends Shift+Tab as ISO_Left_Tab, which pyglet does not know and
    names by its keycode (``user_key(23)``): that is ``TAB`` when the keycode is Tab's."""
    name = str(pyglet.window.key.symbol_string(symbol))
    if name.startswith("user_key") and symbol >> 32 == _tab_keycode(window):
        return "TAB"
    return name


def _tab_keycode(window: Any) -> int:
    """The X keycode of Tab on ``window``'s display; -1 off X (there Shift+Tab is TAB with Shift)."""
    display = getattr(window, "_x_display", None)
    if display is None:
        return -1
    try:
        from pyglet.libs.x11 import xlib

        return int(xlib.XKeysymToKeycode(display, pyglet.window.key.TAB))
    except Exception:  # no X library: not on X
        return -1


def _blit_thumb(image: Any, box: Box, height: float) -> None:
    """A board's or arena's thumbnail in the top of its box, at most 72 pixels wide and 64 high
    (the name's line below it stays clear)."""
    scale = min(72 / image.width, 64 / image.height)
    image.blit(
        box.left + (box.width - image.width * scale) / 2,
        height - box.top - 8 - image.height * scale,
        width=image.width * scale,
        height=image.height * scale,
    )


def _centred(text: str, box: Box, bottom: float, size: int, batch: Any) -> Any:
    """A label in the middle of a box (``bottom``: the box's lower edge in pyglet's y), in smaller
    type or cut in the middle where it is wider than the box (the Open button of an 800 px window)."""
    label = pyglet.text.Label(
        text,
        x=box.left + box.width / 2,
        y=bottom + box.height / 2,
        anchor_x="center",
        anchor_y="center",
        font_size=size,
    )
    room = box.width - 12
    while label.content_width > room and label.font_size > 8:
        label.font_size -= 1
    return _cut_to(label, text, room, elide_middle, batch)


def _cut_to(label: Any, text: str, width: float, elide: Callable[[str, int], str], batch: Any) -> Any:
    """``label`` showing ``text`` cut (where ``elide`` says) to ``width`` pixels as drawn, put in ``batch``."""
    if label.content_width > width:

        def fits(candidate: str) -> bool:
            label.text = candidate
            return float(label.content_width) <= width

        label.text = fitted(text, fits, elide)
    label.batch = batch
    return label


def _label(
    text: str,
    x: float,
    y: float,
    size: int,
    batch: Any,
    width: float | None = None,
    elide: Callable[[str, int], str] = elide_start,
) -> Any:
    """A left-aligned one-line label, cut to ``width`` pixels as drawn (``elide`` says where: a
    path keeps its end, a board name its start and size) so it never runs into the next box."""
    label = pyglet.text.Label(text, x=x, y=y, font_size=size)
    return _cut_to(label, text, width if width is not None else math.inf, elide, batch)


def run_start_screen(
    screen: StartScreen, screenshot: Path | None = None, size: tuple[int, int] | None = None
) -> StartScreen:
    """Show the start screen until Start (``screen.chosen``) or the window is closed; ``size``
    (``--size``) as the viewer's window will have it, else the default."""
    window = StartWindow(screen) if size is None else StartWindow(screen, *size)
    if screenshot is not None:

        def shoot(dt: float) -> None:
            window.save_screenshot(screenshot)
            window.close()
            pyglet.app.exit()

        pyglet.clock.schedule_once(shoot, 0.2)
    pyglet.app.run(None)  # no redraw timer: the window draws when something changed
    return screen
