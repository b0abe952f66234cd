"""The pyglet window: a thin shell that turns pyglet events into ``GameApp`` calls and draws.

It creates the moderngl context from pyglet's current GL context, draws the scene with the
game's renderer (``GameShow.renderer``: the robot game's ``SceneRenderer``, Tron's light walls)
and the HUD with pyglet on top, and runs ``app.update`` from
pyglet's clock (the app turns real time into fixed 120 Hz ticks). No logic lives here.

Idle is idle: pyglet's event loop runs without its own redraw timer. A frame is drawn only when
the app's ``view_signature()`` changed (at most ``MAX_FPS`` a second) or the window was exposed;
when the app is not ``busy`` (paused, finished, no camera move) the clock polls four times a
second instead of 120, and any input event wakes it at once.

For headless tests set ``pyglet.options['headless'] = True`` before importing this module.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import moderngl
import numpy as np
import pyglet
from PIL import Image
from pyglet.window import key, mouse

from engine.atomic import write_bytes_atomic
from viewer3d import coords
from viewer3d.app import ViewerApp
from viewer3d.gameapp import GameApp
from viewer3d.hud import HudOverlay
from viewer3d.render.offscreen import GL_VERSIONS, create_headless_context

BUTTONS = {mouse.LEFT: "left", mouse.RIGHT: "right", mouse.MIDDLE: "middle"}
CLEAR_COLOR = (0.07, 0.08, 0.11, 1.0)
ACTIVE_TICK = 1 / 120
THEME_POLL = 0.25  # seconds between looks at the theme's folder (live reload)
GAME_POLL = 0.5  # seconds between looks at a shown game folder (reload when it is rewritten)
IDLE_POLL = 0.25  # seconds between clock polls while nothing moves (a live game may add cards)
MAX_FPS = 60.0


def _config(samples: int, version: int) -> pyglet.gl.Config:
    # pyglet.gl.Config is the platform's concrete class at run time; its declared type is the abstract base.
    return pyglet.gl.Config(  # type: ignore[abstract]
        double_buffer=True,
        depth_size=24,
        major_version=version // 100,
        minor_version=version % 100 // 10,
        sample_buffers=1 if samples else 0,
        samples=samples,
    )


SOFTWARE_GL = ("llvmpipe", "softpipe", "swrast", "software")
_samples_cache: list[int] = []


def window_samples() -> int:
    """MSAA samples for the window: 4 on graphics hardware, none on a software rasteriser, where
    4x multisampling costs about 1.6 times the CPU of every frame (bench/viewer.py: a 512x512
    board at mid zoom, 38 against 23 ms). Found once with an offscreen EGL context (a probe
    window would leave pyglet's shared shader cache pointing into a destroyed GLX context)."""
    if not _samples_cache:
        samples = 4
        try:
            probe = create_headless_context()
            try:
                renderer = str(probe.info.get("GL_RENDERER", "")).lower()
            finally:
                probe.release()
            if any(name in renderer for name in SOFTWARE_GL):
                samples = 0
        except Exception:  # no EGL: keep the default, the window itself falls back if needed
            pass
        _samples_cache.append(samples)
    return _samples_cache[0]


def read_window_pixels(window: pyglet.window.Window) -> np.ndarray:
    """A pyglet window's current image as an (height, width, 3) uint8 array, top row first.

    Read through pyglet's buffer manager: it reads the default framebuffer's back buffer
    correctly on every platform (moderngl's screen object sets a read buffer that some
    drivers reject for framebuffer 0).  Every game's window and the editors use it."""
    window.switch_to()
    buffer = pyglet.image.get_buffer_manager().get_color_buffer()
    image = buffer.get_image_data()  # type: ignore[no-untyped-call]  # pyglet leaves this one unannotated
    data = image.get_data("RGB", image.width * 3)
    return np.frombuffer(data, dtype=np.uint8).reshape(image.height, image.width, 3)[::-1]


def save_window_screenshot(window: pyglet.window.Window, path: Path) -> Path:
    """Write what a pyglet window shows as a PNG (written to a temporary file, then renamed)."""
    import io

    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(read_window_pixels(window))).save(buffer, format="PNG")
    write_bytes_atomic(path, buffer.getvalue())
    return path


class ViewerWindow(pyglet.window.Window):  # type: ignore[misc]
    """The viewer's window for any game; every event is forwarded to ``self.app``, and the game's
    renderer (``GameShow.renderer``) draws the scene."""

    def __init__(
        self, app: GameApp, width: int = 1024, height: int = 768, theme: Any = None, visible: bool = True
    ) -> None:
        kwargs: dict[str, Any] = dict(
            width=width,
            height=height,
            caption=f"robots-view - {app.title}",
            resizable=True,
            visible=False,  # shown once built: a window manager resizes it as it maps, calling on_resize
            file_drops=True,  # a game folder or board file dropped on the window opens it
        )
        self._open(kwargs)
        self.app = app
        self.switch_to()
        # Wrap the GL context pyglet just made current (GLX, EGL when headless, WGL, CGL): a fresh
        # moderngl context per window, never a cached one from an earlier (closed) window.
        moderngl.init_context()
        self.ctx = moderngl.get_context()
        self.scene = app.show.renderer(self.ctx, theme)
        self.hud = HudOverlay()
        self.last_screenshot: Path | None = None
        self.frames_drawn = 0
        self._drawn: tuple[object, ...] | None = None
        self._invalid = True
        self._last_draw = 0.0
        self._interval: float | None = None
        self._closed = False
        self.theme_reloads = 0  # live reloads applied (tests wait on this, not on time)
        self._watcher: Any = None
        self._watched: object = None
        self._last_watch = 0.0
        #: Watches the shown game folder (``viewer3d.reload.GameFolderWatch``); set by ``run_window``.
        self.game_watch: Any = None
        self.game_reloads = 0  # games reloaded from a rewritten folder (tests wait on this)
        self._last_game_poll = 0.0
        app.resize(*self.get_framebuffer_size())
        self._schedule(ACTIVE_TICK)
        if visible:
            self.set_visible(True)

    def _open(self, kwargs: dict[str, Any]) -> None:
        """Create the window with the best context the driver gives: MSAA where it pays
        (``window_samples``), OpenGL 4.3 for the one-call culled box draws, then less of each."""
        samples = window_samples()
        tries = [(count, version) for count in dict.fromkeys((samples, 0)) for version in GL_VERSIONS]
        for count, version in tries:
            try:
                super().__init__(config=_config(count, version), **kwargs)
                return
            except (pyglet.window.NoSuchConfigException, pyglet.gl.ContextException):
                if (count, version) == tries[-1]:
                    raise

    # -- clock and drawing --------------------------------------------------------------------
    def _schedule(self, interval: float) -> None:
        if interval == self._interval:
            return
        pyglet.clock.unschedule(self._tick)
        pyglet.clock.schedule_interval(self._tick, interval)
        self._interval = interval

    def wake(self) -> None:
        """Input arrived: tick at full rate again (the next tick redraws if anything changed)."""
        self._schedule(ACTIVE_TICK)

    def wake_from_thread(self) -> None:
        """A game computed in another thread grew (a live Tron round): wake the event loop, whose
        thread then calls ``on_wake``; safe from any thread."""
        pyglet.app.platform_event_loop.post_event(self, "on_wake")

    def on_wake(self) -> None:
        if not self._closed:
            self.wake()

    @property
    def sleeping(self) -> bool:
        return self._interval == IDLE_POLL

    def _tick(self, dt: float) -> None:
        if self._closed:  # closed by a function due in the same clock pass (the screenshot)
            return
        # A stall (window creation, a slow frame) must not make the replay jump ahead.
        self.app.update(min(dt, 0.1))
        if self.app.quit_requested:
            self.close()
            return
        if self.caption != f"robots-view - {self.app.title}":  # a live game's file got its name
            self.set_caption(f"robots-view - {self.app.title}")
        self.watch_theme()
        self.watch_game()
        self.redraw_if_needed()
        self._schedule(ACTIVE_TICK if self.app.busy else IDLE_POLL)

    def watch_theme(self, now: float | None = None) -> bool:
        """Live reload: a few times a second, look whether the shown theme's files changed and
        show the new pictures at once (broken ones keep their last good version); True if reloaded."""
        import time

        now = time.perf_counter() if now is None else now
        if now - self._last_watch < THEME_POLL:
            return False
        self._last_watch = now
        theme = getattr(self.scene, "theme", None)
        if theme is not self._watched:  # a new theme (F2, or the first tick): watch its folder
            self._watched = theme
            self._watcher = None
            if getattr(theme, "path", None) is not None:
                from themes import ThemeWatcher

                self._watcher = ThemeWatcher(theme)  # type: ignore[arg-type]
        if self._watcher is None:
            return False
        fresh = self._watcher.poll()
        if fresh is None:
            return False
        self.scene.set_theme(fresh)
        self._watched = fresh
        self.theme_reloads += 1
        from viewer3d.app import theme_message

        self.app.say(theme_message(self.app.theme, list(fresh.warnings)) if fresh.warnings else "theme reloaded")
        self._invalid = True
        return True

    def watch_game(self, now: float | None = None, force: bool = False) -> bool:
        """Twice a second, look whether the shown game folder was rewritten; show the new game
        (same camera, same round) and say so; True if reloaded."""
        import time

        now = time.perf_counter() if now is None else now
        if self.game_watch is None or (not force and now - self._last_game_poll < GAME_POLL):
            return False
        self._last_game_poll = now
        app = self.app
        assert isinstance(app, ViewerApp), "only robot game folders are watched"
        fresh = self.game_watch.poll()
        if fresh is None:
            if self.game_watch.error is not None:
                app.say(self.game_watch.error[:160], 6.0)
                self.game_watch.error = None
            return False
        board_changed = fresh.board != app.board
        app.replace_game(fresh.board, fresh.timeline, fresh.title, fresh.rounds, fresh.analysis)
        if board_changed:
            theme = getattr(self.scene, "theme", None)
            self.scene.release()
            self.scene = app.show.renderer(self.ctx, theme)
        self.set_caption(f"robots-view - {fresh.title}")
        self.game_reloads += 1
        self._invalid = True
        return True

    def redraw_if_needed(self, now: float | None = None) -> bool:
        """Draw and show a frame if the picture changed (or the window was exposed); True if drawn."""
        import time

        now = time.perf_counter() if now is None else now
        # S / F12 asks for the next frame to be saved: draw one even when nothing else changed (paused)
        if not self._invalid and not self.app.screenshot_requested and self.app.view_signature() == self._drawn:
            return False
        if now - self._last_draw < 1.0 / MAX_FPS - 1e-3:
            return False  # drawn very recently: a later tick draws the newest state
        self._last_draw = now
        self.switch_to()
        self.dispatch_event("on_draw")
        self.flip()
        return True

    def on_expose(self) -> None:
        self._invalid = True
        self.wake()

    def on_draw(self) -> None:
        self._drawn = self.app.view_signature()
        self._invalid = False
        self.frames_drawn += 1
        self.draw_frame()
        if self.app.screenshot_requested:
            self.app.screenshot_requested = False
            path = self.app.next_screenshot_path()
            try:
                self.save_screenshot(path)
            except OSError as exc:  # a full disk, a folder we may not write in: the viewer goes on
                self.app.say(f"screenshot not saved: {path.name}: {exc.strerror or exc}")
            else:
                self.app.say(f"screenshot saved to {path}")

    def draw_frame(self) -> None:
        size = self.get_framebuffer_size()
        self.ctx.screen.use()
        self.ctx.viewport = (0, 0, *size)
        self.ctx.clear(*CLEAR_COLOR, depth=1.0)
        theme = self.app.take_pending_theme()
        if theme is not None:  # F2: the app loaded it (and reported any failure); apply before drawing
            self.scene.set_theme(theme)
        self.scene.render(self.app.camera.matrices(), self.app.frame(), size)
        # pyglet draws the HUD with its own shaders: give it plain 2-D state.
        self.ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        self.ctx.enable(moderngl.BLEND)
        self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        self.hud.draw(self.app)

    def read_pixels(self) -> np.ndarray:
        """The window's current image as an (height, width, 3) uint8 array, top row first."""
        return read_window_pixels(self)

    def save_screenshot(self, path: Path) -> Path:
        """Write what the window shows as a PNG (written to a temporary file, then renamed)."""
        self.last_screenshot = save_window_screenshot(self, path)
        return path

    # -- events: forwarded -----------------------------------------------------------------------
    def _to_screen(self, x: float, y: float) -> tuple[float, float]:
        """pyglet window coordinates -> framebuffer pixels from the top-left."""
        scale = self.get_framebuffer_size()[0] / max(1, self.width)
        return x * scale, coords.from_pyglet_y(y * scale, self.get_framebuffer_size()[1])

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        self.wake()
        self.app.key(key.symbol_string(symbol), shift=bool(modifiers & key.MOD_SHIFT))
        return True  # also stops pyglet's default Escape handling: the app decides

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)  # pyglet's own viewport and 2-D projection for the HUD
        self.app.resize(*self.get_framebuffer_size())
        self._invalid = True
        self.wake()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.wake()
        self.app.mouse_press(*self._to_screen(x, y), BUTTONS.get(button, "other"))

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        before = (self.app.pointer, self.app.hover)
        self.app.mouse_move(*self._to_screen(x, y))
        if (self.app.pointer, self.app.hover) != before:
            self.wake()  # a tile marker or a tooltip to show

    def on_mouse_leave(self, x: int, y: int) -> None:
        self.app.mouse_move(None)
        self.wake()

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.wake()
        self.app.mouse_release()

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        self.wake()
        scale = self.get_framebuffer_size()[0] / max(1, self.width)
        button = "left" if buttons & mouse.LEFT else "right" if buttons & mouse.RIGHT else "middle"
        self.app.mouse_drag(*self._to_screen(x, y), dx * scale, -dy * scale, button, bool(modifiers & key.MOD_SHIFT))

    def on_file_drop(self, x: int, y: int, paths: list[str]) -> None:
        """A game folder or board file dropped on the window opens it (in place of this game)."""
        if paths:
            self.app.drop(paths[0])
            self.wake()

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        self.wake()
        self.app.scroll(*self._to_screen(x, y), scroll_y)

    def close(self) -> None:
        """Stop the clock before the GL context goes: a tick must never draw into a closed window."""
        self._closed = True
        pyglet.clock.unschedule(self._tick)
        super().close()

    def on_close(self) -> None:
        pyglet.clock.unschedule(self._tick)
        if self.game_watch is not None:
            self.game_watch.release()
        self.scene.release()
        super().on_close()


ViewerWindow.register_event_type("on_wake")


def run_window(
    app: GameApp,
    theme: Any = None,
    size: tuple[int, int] = (1024, 768),
    screenshot: Path | None = None,
    folder: Path | None = None,
    fullscreen: bool = False,
    listeners: list[Callable[[], None]] | None = None,
) -> None:
    """Open the window (or fill the screen) and run pyglet's event loop until it is closed.

    With ``listeners`` (a game computed in another thread calls them when it grows) the window
    adds its thread-safe wake-up, so it sleeps while it waits for the next round and wakes at once.

    With ``folder`` (a game folder shown), the window reloads the game when the folder is
    rewritten. With ``screenshot``, draw the first frame, save it there and close (scripts, docs, tests)."""
    window = ViewerWindow(app, *size, theme=theme)
    if listeners is not None:
        listeners.append(window.wake_from_thread)
    if fullscreen and screenshot is None:
        window.set_fullscreen(True)  # on_resize refits the board to the screen
    if folder is not None and screenshot is None:
        from viewer3d.reload import GameFolderWatch

        window.game_watch = GameFolderWatch(folder)
    if screenshot is not None:

        def shoot(dt: float) -> None:
            window.switch_to()
            window.draw_frame()
            window.save_screenshot(screenshot)
            window.close()
            pyglet.app.exit()

        pyglet.clock.schedule_once(shoot, 0.2)
    try:
        pyglet.app.run(None)  # no redraw timer: the window draws when its picture changes
    finally:
        if listeners is not None and window.wake_from_thread in listeners:
            listeners.remove(window.wake_from_thread)
        if window.game_watch is not None:
            window.game_watch.release()
