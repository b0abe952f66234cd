"""The viewer application for any game: input, the fixed clock, the camera and what each frame shows.

No pyglet and no GL here. The window translates pyglet events into plain calls
(``key("SPACE")``, ``mouse_drag(...)`` with top-left screen pixels) so every binding is
testable without a display; rendering goes through ``frame()`` and ``camera.matrices()``.

Everything game-specific comes from the ``GameShow`` (``viewer3d.games.base``): the board size
the camera fits, the steps and rounds the clock walks, the point F follows, the HUD lines and
the renderer. The robot game adds its own state (trail, debug marks, analysis, the card panel)
in ``viewer3d.app.ViewerApp``; every other game runs on this class as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from viewer3d import cards, controls, coords
from viewer3d.camera import AUTO_FOLLOW_BELOW_PX, Camera
from viewer3d.clock import TICK, GamePlayer
from viewer3d.games.base import GameShow, HudLine
from viewer3d.hud import TimelineBar, flags_line, game_help_lines, help_with_hud_state

ZOOM_STEP = 1.15
DEFAULT_THEME = "default"
#: A board whose fitted view makes tiles smaller than AUTO_FOLLOW_BELOW_PX starts following the robot,
#: zoomed so a tile is about this wide (Home shows the whole board, the locator ring the robot).
FOLLOW_TILE_PX = 12.0
#: One line of the HUD's status panel (12 pt text) and the panel's padding around its lines, in
#: pixels (``hud.HudOverlay`` lays it out 4 px below the window's top edge).
STATUS_LINE_PX = 19.0
STATUS_PAD_PX = 8.0


def status_panel_bottom(lines: int) -> float:
    """How far down from the window's top the status panel reaches with ``lines`` lines."""
    return 4.0 + 2 * STATUS_PAD_PX + STATUS_LINE_PX * lines


def hud_insets_for(
    viewport: tuple[int, int], card_panel: bool = True, status_rows: int = 5
) -> tuple[float, float, float, float]:
    """The strips (top, right, bottom, left) the HUD covers in a window of this size (with the
    robot game's card panel at the bottom left, or without one) when its status panel has
    ``status_rows`` lines (a fixed 96 px left a 7-line panel over the board's far row, the robot's
    start in the top view of an analysed game in the default 1024x768 window)."""
    bottom = cards.PANEL_BOTTOM + cards.PANEL_HEIGHT if card_panel else 0.0
    boxes = controls.layout(viewport, cards.panel_width() if card_panel else 0.0)
    if boxes:
        bottom = max(bottom, viewport[1] - boxes[0].top + 4.0)
    # In a small window the HUD may overlap the board's edge rather than shrink it to a stamp.
    top = status_panel_bottom(status_rows) + 4.0
    return (min(top, 0.2 * viewport[1]), 0.0, min(bottom, 0.24 * viewport[1]), 0.0)


ThemeLoader = Callable[[str], Any]


def discovered_theme_keys() -> list[str]:
    """The keys of every discovered theme, in discovery order, without duplicates (a user theme
    with a shipped theme's name is loaded as the shipped one anyway)."""
    from themes import list_themes

    return list(dict.fromkeys(info.key for info in list_themes()))


def load_named_theme(key: str) -> Any:
    from themes import load_theme

    return load_theme(key)


def one_line_error(key: str, exc: Exception) -> str:
    """A theme failure in one HUD line: the first problem, and how many more there are."""
    problems = [str(p) for p in getattr(exc, "problems", [])] or [
        str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    ]
    more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"theme {key}: {problems[0]}{more}"


def theme_message(key: str, warnings: list[str]) -> str:
    """``theme: KEY``, and the first warning of a partial or damaged theme with how many more."""
    from themes.report import theme_line

    return theme_line(key, warnings)


class GameApp:
    """State of one viewer of any game: the playback, the camera and the HUD flags."""

    def __init__(
        self,
        show: GameShow[Any],
        player: GamePlayer[Any] | None = None,
        title: str = "",
        viewport: tuple[int, int] = (1024, 768),
        screenshot_dir: Path | None = None,
        theme: str | None = None,
        theme_keys: Sequence[str] | None = None,
        theme_loader: ThemeLoader | None = None,
    ) -> None:
        self.show = show
        self.title = title
        self._show_title = show.title
        self.player: GamePlayer[Any] = player if player is not None else GamePlayer(show.timeline)
        if player is None:  # a long game starts fast enough to be seen in about a minute
            self.player.start_at_speed(show.start_speed())
        self.camera = Camera(show.size, viewport)
        self.show_help = False
        #: Tab: the HUD (status panel, cards, buttons, seek bar) drawn, or hidden for watching, the
        #: board framed in the whole window as an export's ``--no-hud`` is.
        self.show_hud = True
        self.round_entry: str | None = None
        self.message = ""
        self._message_left = 0.0
        self.screenshot_requested = False
        self.screenshot_dir = screenshot_dir or Path.cwd()
        self.quit_requested = False
        self.reopen: str | None = None  # "start" or a dropped path: what the CLI opens after this window
        self._seeking = False
        self._clicked = False
        # Themes: the keys to cycle through (discovered on the first F2 unless given), the one shown,
        # and a loaded theme waiting for the window to hand it to the renderer before the next draw.
        self.theme = theme or DEFAULT_THEME
        self._theme_keys = list(theme_keys) if theme_keys is not None else None
        self._theme_loader = theme_loader or load_named_theme
        self.pending_theme: Any = None
        self.pointer: tuple[int, int] | None = None  # the board tile under the mouse
        self.mouse_in = False  # the mouse is over the window: a hidden HUD shows its corner button
        self._failed_theme: str | None = None
        self.hover: controls.Button | None = None
        self.refresh_insets()
        self.camera.iso_view(1, animate=False)
        self.camera.fit(animate=False)
        self.follow_actor = 0  # which of the show's focus_names F follows now
        self.auto_followed = self._follow_if_tiny()

    def _follow_if_tiny(self) -> bool:
        """On a board too big to see the actor in the whole view, start following it, zoomed in.
        A game of several actors (Tron's cycles) opens on the whole board: which one matters is the
        user's choice (F)."""
        start = self.show.focus(0.0)
        if start is None or len(self.show.focus_names()) != 1 or self.camera.tile_pixels() >= AUTO_FOLLOW_BELOW_PX:
            return False
        self.camera.following = True
        self._close_in_on(start)
        self.say(f"big board: following {self.show.follow_noun} (Home: whole board, F: free camera)", 6.0)
        return True

    def _close_in_on(self, point: tuple[float, float]) -> None:
        """Centre ``point`` with tiles about FOLLOW_TILE_PX wide (the view stops being fitted)."""
        self.camera.fitted = False
        target = coords.tile_center(*point)
        self.camera.set_follow_point(target)
        pose = self.camera.pose
        self.camera.animate_to(
            type(pose)(
                target,
                pose.yaw,
                pose.pitch,
                self.camera.distance_for_span(self.camera.viewport[0] / FOLLOW_TILE_PX),
                pose.orthographic,
            ),
            animate=False,
        )

    @property
    def timeline(self) -> Any:
        return self.player.timeline

    #: Whether the HUD has the robot game's card panel at the bottom left (the buttons go beside it).
    card_panel = False

    @property
    def panel_width(self) -> float:
        """The card panel's width, which the buttons keep clear of (0: no card panel)."""
        return cards.panel_width() if self.card_panel else 0.0

    # -- clock --------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance playback and camera by whole fixed ticks (120 Hz), whatever the frame rate."""
        ticks = self.player.update(dt)
        if self.show.title != self._show_title:  # a live game saved: its file's name
            self.title = self._show_title = self.show.title
        point = self.show.focus(self.player.time, self.follow_actor)
        if point is not None:
            self.camera.set_follow_point(coords.tile_center(*point))
        for _ in range(ticks):
            self.camera.update(TICK)
        if self._message_left > 0:
            self._message_left -= ticks * TICK
            if self._message_left <= 0:
                self.message = ""

    @property
    def busy(self) -> bool:
        """Whether the picture may change without input: playing (and not waiting for a live
        game's next steps), a camera move, or a HUD message that will time out. When not busy the
        window sleeps and redraws only on events."""
        player = self.player
        waiting = player.playing and not self.timeline.complete and player.time >= self.timeline.duration
        return (
            (player.playing and not waiting)
            or self.camera.animating
            or (self.camera.following and self._follow_moving())
            or self._message_left > 0
            or self._seeking
        )

    def _follow_moving(self) -> bool:
        point = self.camera.follow_point
        if point is None:
            return False
        tx, _, tz = self.camera.pose.target
        return abs(point[0] - tx) + abs(point[2] - tz) > 1e-3

    def view_signature(self) -> tuple[object, ...]:
        """Everything the picture depends on: the window redraws only when this changes."""
        return (
            self.player.time,
            self.player.playing,
            self.player.speed_index,
            self.player.loop,
            self.camera.pose,
            self.camera.viewport,
            self.show_help,
            self.show_hud,
            self.message,
            self.pointer,
            self.round_entry,
            len(self.timeline.step_ends),
            self.timeline.complete,
            self.theme,
            self.hover,
            self.mouse_in,
        )

    def frame(self) -> Any:
        """What the renderer draws now."""
        return self.show.frame(self.player.time)

    def say(self, message: str, seconds: float = 4.0) -> None:
        self.message = message
        self._message_left = seconds

    # -- HUD ----------------------------------------------------------------------------------
    def status_rows(self) -> int:
        """How many lines the status panel has at most in this game, which a fitted view keeps the
        board below (here: as many as now; a game whose panel grows says more)."""
        return len(self.status_lines())

    def refresh_insets(self) -> None:
        """Reserve the HUD's strips for this window size and status panel (before every fit); a
        hidden HUD reserves nothing."""
        if not self.show_hud:
            self.camera.insets = (0.0, 0.0, 0.0, 0.0)
            return
        self.camera.insets = hud_insets_for(self.camera.viewport, self.card_panel, self.status_rows())

    def status_lines(self) -> list[HudLine]:
        """The HUD's status panel, top to bottom (a line may have a colour of its own)."""
        lines = [HudLine(self.title)] if self.title else []
        return [*lines, *self.show.status_lines(self.player), HudLine(flags_line(self.player))]

    def help_pairs(self) -> Sequence[tuple[str, str]]:
        """(keys, what they do) for the help overlay, in this game's words."""
        return help_with_hud_state(game_help_lines(self.show.step_noun, self.show.follow_noun), self.show_hud)

    def outcome_mark(self) -> tuple[str, tuple[int, int, int, int]] | None:
        return self.show.outcome_mark()

    # -- keyboard -----------------------------------------------------------------------------
    def key_actions(self) -> dict[str, Callable[[], None]]:
        """Key name -> what it does; a game's app adds its own keys to these."""
        player, camera = self.player, self.camera
        return {
            "SPACE": player.toggle_play,
            "PLUS": player.faster,
            "NUM_ADD": player.faster,
            "EQUAL": player.faster,
            "MINUS": player.slower,
            "NUM_SUBTRACT": player.slower,
            "UNDERSCORE": player.slower,
            "RIGHT": player.step_forward,
            "LEFT": player.step_back,
            "PAGEDOWN": player.next_round,
            "PAGEUP": player.previous_round,
            "R": player.restart,
            "L": player.toggle_loop,
            "END": lambda: player.seek(self.timeline.duration),
            "J": self._start_round_entry,
            "_1": lambda: camera.iso_view(1),
            "_2": lambda: camera.iso_view(2),
            "_3": lambda: camera.iso_view(3),
            "_4": lambda: camera.iso_view(4),
            "NUM_1": lambda: camera.iso_view(1),
            "NUM_2": lambda: camera.iso_view(2),
            "NUM_3": lambda: camera.iso_view(3),
            "NUM_4": lambda: camera.iso_view(4),
            "_5": camera.top_view,
            "NUM_5": camera.top_view,
            "T": camera.top_view,
            "F": self._toggle_follow,
            "P": camera.toggle_projection,
            "HOME": camera.fit,
            "UP": lambda: camera.zoom(ZOOM_STEP, *self._centre()),
            "DOWN": lambda: camera.zoom(1 / ZOOM_STEP, *self._centre()),
            "H": self._toggle_help,
            "F1": self._toggle_help,
            "TAB": self._toggle_hud,
            "F2": self.next_theme,
            "S": self._request_screenshot,
            "F12": self._request_screenshot,
            "ESCAPE": self._escape,
            "O": self.open_start_screen,
        }

    def key(self, name: str, shift: bool = False) -> bool:
        """Handle a key by its pyglet symbol name (``SPACE``, ``_1``, ``NUM_ADD``...); True if used."""
        if self.round_entry is not None and self._round_entry_key(name):
            return True
        action = self.key_actions().get(name)
        if action is None:
            return False
        self.refresh_insets()  # a view key or Home fits the board below the panel as it is now
        action()
        return True

    def _centre(self) -> tuple[float, float]:
        return self.camera.viewport[0] / 2, self.camera.viewport[1] / 2

    def _start_round_entry(self) -> None:
        self.round_entry = ""

    def _round_entry_key(self, name: str) -> bool:
        digit = name[-1] if (name.startswith("_") or name.startswith("NUM_")) and name[-1:].isdigit() else None
        if digit is not None:
            # As many digits as the last round has (at least 4: a robot game has at most 700 rounds,
            # a Tron game on a 200x200 arena up to 40,000): more are ignored (int() never sees 4,300).
            digits = max(4, len(str(max(self.timeline.round_starts, default=0))))
            self.round_entry = ((self.round_entry or "") + digit)[:digits]
        elif name == "BACKSPACE":
            self.round_entry = (self.round_entry or "")[:-1]
        elif name in ("ENTER", "RETURN", "NUM_ENTER"):
            text, self.round_entry = self.round_entry or "", None
            if text and not self.player.jump_to_round(int(text)):
                self.say(f"no round {text} (yet)")
        elif name == "ESCAPE":
            self.round_entry = None
        else:
            return False
        return True

    def _toggle_follow(self) -> None:
        """F: follow the actor, or with several (Tron's cycles) the next one, then the free camera.
        Following from a view whose tiles are too small to see it closes in on the actor."""
        names = self.show.focus_names()
        if not names:
            self.say("nothing to follow in this game (drag to orbit, right-drag to pan)", 2.0)
            return
        camera = self.camera
        if camera.following and self.follow_actor + 1 < len(names):
            self.follow_actor += 1
        elif camera.following:
            camera.toggle_follow()
        else:
            self.follow_actor = 0
            camera.toggle_follow()
        if not camera.following:
            self.say("free camera", 1.5)
            return
        point = self.show.focus(self.player.time, self.follow_actor)
        if point is not None and camera.tile_pixels() < AUTO_FOLLOW_BELOW_PX:
            self._close_in_on(point)
        self.say(f"follow {names[self.follow_actor]}", 1.5)

    def _toggle_help(self) -> None:
        self.show_help = not self.show_help

    def _toggle_hud(self) -> None:
        """Tab: hide the HUD (or show it again); a fitted view is fitted again to the space it leaves."""
        self.show_hud = not self.show_hud
        self.hover = None
        self.refresh_insets()
        if self.camera.fitted:
            self.camera.fit()

    @property
    def theme_keys(self) -> list[str]:
        if self._theme_keys is None:
            try:
                self._theme_keys = discovered_theme_keys()
            except Exception as exc:  # an unreadable themes folder: say so, keep the current theme
                self.say(f"themes: {exc}".splitlines()[0])
                return []
        return self._theme_keys

    def next_theme(self) -> None:
        """Load the theme after the current one (wrapping) and queue it for the window.

        A theme that fails to load is reported on the HUD in one line and the current theme stays;
        the next F2 tries the one after the failing theme, so one broken theme never blocks the cycle."""
        keys = self.theme_keys
        if not keys:
            self.say("no themes found")
            return
        position = keys.index(self.theme) if self.theme in keys else -1
        if self._failed_theme in keys:
            position = keys.index(self._failed_theme)
        key = keys[(position + 1) % len(keys)]
        try:
            loaded = self._theme_loader(key)
        except Exception as exc:  # ThemeError, or an OSError reading its files: never crash the viewer
            self._failed_theme = key
            self.say(one_line_error(key, exc))
            return
        self._failed_theme = None
        self.theme = key
        self.pending_theme = loaded
        warnings = list(getattr(loaded, "warnings", ()))
        self.say(theme_message(key, warnings), 6.0 if warnings else 2.0)

    def take_pending_theme(self) -> Any:
        """The theme the window must apply before drawing (None if unchanged); clears it."""
        theme, self.pending_theme = self.pending_theme, None
        return theme

    def _request_screenshot(self) -> None:
        self.screenshot_requested = True

    def _quit(self) -> None:
        self.quit_requested = True

    def open_start_screen(self) -> None:
        """O: close this game and show the start screen (robots-view's CLI reopens it). While a game
        is still computed this cancels it: the CLI ends the AI when the window closes."""
        self.reopen = "start"
        self.quit_requested = True

    @property
    def computing(self) -> bool:
        """Whether the game shown is still being computed (a live game, or a long replay read)."""
        return not self.timeline.complete

    def _escape(self) -> None:
        """Esc: cancel a game still computed (back to the start screen); else quit."""
        if self.computing:
            self.open_start_screen()
        else:
            self._quit()

    def drop(self, path: str) -> None:
        """A game folder or board file dropped on the window: close this game and open that."""
        self.reopen = path
        self.quit_requested = True

    def next_screenshot_path(self) -> Path:
        """``robots-view-NNN.png`` in the screenshot folder, not overwriting earlier ones."""
        folder = self.screenshot_dir
        for number in range(1, 10_000):
            path = folder / f"robots-view-{number:03d}.png"
            if not path.exists():
                return path
        return folder / "robots-view.png"

    # -- mouse (screen pixels, origin top-left) ------------------------------------------------
    def resize(self, width: int, height: int) -> None:
        """A new window size: a fitted view is fitted again (a zoomed one keeps its zoom)."""
        self.camera.resize(width, height)
        self.refresh_insets()
        if self.camera.fitted and not self.camera.animating:
            self.camera.fit(animate=False)

    def button_at(self, px: float, py: float) -> controls.Button | None:
        if not self.show_hud:  # hidden buttons are not there to click; the corner one shows them again
            return controls.SHOW_HUD if controls.corner_box(self.camera.viewport).contains(px, py) else None
        return controls.hit(self.camera.viewport, px, py, self.panel_width)

    @property
    def tooltip(self) -> str:
        if self.hover is not None and self.hover.name == "open" and self.computing:
            return "cancel this game, back to the start screen (Esc)"
        if self.hover is None:
            return ""
        return controls.tooltip_for(self.hover, self.show.step_noun, self.show.follow_noun)

    def mouse_press(self, px: float, py: float, button: str) -> None:
        control = self.button_at(px, py) if button == "left" else None
        if control is not None:  # a click does what the button's key does
            self._seeking = False
            self._clicked = True
            self.key(control.key)
            return
        self._clicked = False
        bar = TimelineBar.for_viewport(self.camera.viewport)
        self._seeking = button == "left" and self.show_hud and bar.contains(px, py)
        if self._seeking:
            self.player.seek_fraction(bar.fraction(px))

    def mouse_move(self, px: float | None, py: float | None = None) -> None:
        """The mouse is over screen pixel (px, py) (None: it left the window): mark the tile under it."""
        if px is None or py is None:
            self.pointer = None
            self.hover = None
            self.mouse_in = False
            return
        self.mouse_in = True
        self.hover = self.button_at(px, py)  # a control under the mouse: its tooltip
        self.pointer = coords.pick_tile(px, py, self.camera.view_proj_columns(), self.camera.viewport, self.show.size)

    def mouse_release(self) -> None:
        self._seeking = False
        self._clicked = False

    def mouse_drag(self, px: float, py: float, dx: float, dy: float, button: str, shift: bool = False) -> None:
        """A drag to (px, py) that moved (dx, dy) pixels (dy downwards): seek, orbit or pan."""
        if self._clicked:  # a press on a button never turns into an orbit
            return
        if self._seeking:
            self.player.seek_fraction(TimelineBar.for_viewport(self.camera.viewport).fraction(px))
        elif button == "left" and not shift:
            self.camera.orbit(dx, dy)
        else:
            self.camera.pan((px - dx, py - dy), (px, py))

    def scroll(self, px: float, py: float, clicks: float) -> None:
        """Mouse wheel: zoom towards the board point under the cursor."""
        self.camera.zoom(ZOOM_STEP**clicks, px, py)
