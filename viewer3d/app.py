"""The viewer application: input handling, the fixed clock and what each frame shows.

No pyglet and no GL here. The window translates pyglet events into plain calls
(``key("SPACE")``, ``mouse_drag(...)`` with top-left screen pixels) so every binding is
testable without a display; rendering goes through ``frame()`` and ``camera.matrices()``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.model import Board
from engine.roundlog import RoundEntry
from viewer3d import cards, controls, coords
from viewer3d.camera import AUTO_FOLLOW_BELOW_PX, Camera
from viewer3d.hud import TimelineBar
from viewer3d.playback import TICK, Player, Timeline, TrailCounter
from viewer3d.render.state import FrameState
from viewer3d.roundview import RoundAnalysis, analysis_line, ghost_visual, round_and_cards_done

ZOOM_STEP = 1.15
DEFAULT_THEME = "default"
#: A board whose fitted view makes tiles smaller than AUTO_FOLLOW_BELOW_PX starts following the robot,
#: zoomed so a tile is about this wide (Home shows the whole board, the locator ring the robot).
FOLLOW_TILE_PX = 12.0
#: Screen strip the HUD's status panel covers at the top, kept off the board (the bottom strip, the
#: card panel, buttons and seek bar, is ``hud_insets_for``).
HUD_TOP = 96.0


def hud_insets_for(viewport: tuple[int, int]) -> tuple[float, float, float, float]:
    """The strips (top, right, bottom, left) the HUD covers in a window of this size."""
    bottom = cards.PANEL_BOTTOM + cards.PANEL_HEIGHT
    boxes = controls.layout(viewport, cards.panel_width())
    if boxes:
        bottom = max(bottom, viewport[1] - boxes[0].top + 4.0)
    # In a small window the HUD may overlap the board's edge rather than shrink it to a stamp.
    return (min(HUD_TOP, 0.14 * viewport[1]), 0.0, min(bottom, 0.24 * viewport[1]), 0.0)


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


class ViewerApp:
    """State of one viewer: the playback, the camera, the trail and the HUD flags."""

    def __init__(
        self,
        board: Board,
        timeline: Timeline,
        title: str = "",
        viewport: tuple[int, int] = (1024, 768),
        screenshot_dir: Path | None = None,
        theme: str | None = None,
        theme_keys: Sequence[str] | None = None,
        theme_loader: ThemeLoader | None = None,
    ) -> None:
        self.board = board
        self.title = title
        self.player = Player(timeline)
        self.camera = Camera((board.width, board.height), viewport)
        self.trail = TrailCounter(timeline)
        self.show_trail = True
        self.show_help = False
        #: The AI's side of each round (``engine.roundlog.RoundEntry`` by number) for the HUD and marks.
        self.rounds: Mapping[int, RoundEntry] = {}
        self.show_marks = True
        #: ``robots-engine analyse``'s findings by round: the best choice (drawn as a ghost robot).
        self.analysis: Mapping[int, RoundAnalysis] = {}
        self.show_ghost = True
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
        self._failed_theme: str | None = None
        self.hover: controls.Button | None = None
        #: The clock of the "thinking" seconds (tests give their own) and (cards computed, since when).
        self.clock: Callable[[], float] = time.monotonic
        self._progress: tuple[int, float] = (-1, 0.0)  # -1: counting starts at the first look
        #: Whether the game is played live by an AI (the HUD says "the AI is thinking").
        self.live_ai = False
        #: What the live game's AI is precomputing (``GameSource.ai_stage``): stage and fraction, or None.
        self.ai_stage: Callable[[], tuple[str, float] | None] = lambda: None
        self.camera.insets = hud_insets_for(viewport)
        self.camera.iso_view(1, animate=False)
        self.camera.fit(animate=False)
        self.auto_followed = self._follow_if_tiny()

    def _follow_if_tiny(self) -> bool:
        """On a board too big to see the robot in the whole view, start following it, zoomed in."""
        if self.camera.tile_pixels() >= AUTO_FOLLOW_BELOW_PX:
            return False
        start = self.timeline.start_pose
        self.camera.following = True
        self.camera.fitted = False
        self.camera.set_follow_point(coords.tile_center(start.x, start.y))
        target = coords.tile_center(start.x, start.y)
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
        self.say("big board: following the robot (Home: whole board, F: free camera)", 6.0)
        return True

    @property
    def timeline(self) -> Timeline:
        return self.player.timeline

    # -- clock --------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance playback and camera by whole fixed ticks (120 Hz), whatever the frame rate."""
        ticks = self.player.update(dt)
        robot = self.timeline.state_at(self.player.time).robot
        if robot is not None:
            self.camera.set_follow_point(coords.tile_center(robot.bx, robot.by))
        for _ in range(ticks):
            self.camera.update(TICK)
        if self._message_left > 0:
            self._message_left -= ticks * TICK
            if self._message_left <= 0:
                self.message = ""

    @property
    def busy(self) -> bool:
        """Whether the picture may change without input: playing (and not waiting for a live
        game's next cards), a camera move, or a HUD message that will time out. When not busy the
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
        timeline = self.timeline
        return (
            self.player.time,
            self.player.playing,
            self.player.speed_index,
            self.player.loop,
            self.camera.pose,
            self.camera.viewport,
            self.show_trail,
            self.show_help,
            self.show_marks,
            self.show_ghost,
            self.message,
            self.pointer,
            self.round_entry,
            len(timeline.steps),
            timeline.complete,
            self.theme,
            self.hover,
            self.pointer,
            self.thinking_seconds(),
            self.stage_text(),
        )

    def frame(self) -> FrameState:
        """What the renderer draws now."""
        state = self.timeline.state_at(self.player.time)
        trail = self.trail.strength(self.player.time) if self.show_trail else None
        ghost = None
        if self.show_ghost and self.analysis:
            number, done = self.round_and_cards_done()
            ghost = ghost_visual(self.analysis.get(number), done)
        return replace(state, trail=trail, pointer=self.pointer, ghost=ghost)

    def say(self, message: str, seconds: float = 4.0) -> None:
        self.message = message
        self._message_left = seconds

    # -- keyboard -----------------------------------------------------------------------------
    def key(self, name: str, shift: bool = False) -> bool:
        """Handle a key by its pyglet symbol name (``SPACE``, ``_1``, ``NUM_ADD``...); True if used."""
        if self.round_entry is not None and self._round_entry_key(name):
            return True
        player, camera = self.player, self.camera
        actions = {
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
            "G": self._toggle_trail,
            "D": self._toggle_marks,
            "B": self._toggle_ghost,
            "H": self._toggle_help,
            "F1": self._toggle_help,
            "F2": self.next_theme,
            "S": self._request_screenshot,
            "F12": self._request_screenshot,
            "ESCAPE": self._escape,
            "O": self.open_start_screen,
        }
        action = actions.get(name)
        if action is None:
            return False
        action()
        return True

    def _centre(self) -> tuple[float, float]:
        return self.camera.viewport[0] / 2, self.camera.viewport[1] / 2

    def _start_round_entry(self) -> None:
        self.round_entry = ""

    def _round_entry_key(self, name: str) -> bool:
        digit = name[-1] if (name.startswith("_") or name.startswith("NUM_")) and name[-1:].isdigit() else None
        if digit is not None:
            # A game has at most 700 rounds: more digits are ignored (and int() never sees 4,300 of them).
            self.round_entry = ((self.round_entry or "") + digit)[:4]
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
        self.camera.toggle_follow()
        self.say("follow the robot" if self.camera.following else "free camera", 1.5)

    def _toggle_trail(self) -> None:
        self.show_trail = not self.show_trail

    def _toggle_marks(self) -> None:
        self.show_marks = not self.show_marks
        self.say("AI debug marks on" if self.show_marks else "AI debug marks off", 1.5)

    def replace_game(
        self,
        board: Board,
        timeline: Timeline,
        title: str,
        rounds: Mapping[int, RoundEntry] | None = None,
        analysis: Mapping[int, RoundAnalysis] | None = None,
    ) -> None:
        """Show another game in place of this one (its folder was rewritten): the camera and view
        stay (refitted only for a board of another size), playback goes to the same round (or the
        end when the new game is shorter, or when the old one was at its end), speed and loop stay."""
        old = self.player
        was_at_end = old.at_end
        number = old.current_round()
        same_size = (board.width, board.height) == (self.board.width, self.board.height)
        self.board = board
        self.title = title
        self.rounds = rounds if rounds is not None else {}
        self.analysis = analysis if analysis is not None else {}
        self.player = Player(timeline)
        self.player.speed_index, self.player.loop, self.player.playing = old.speed_index, old.loop, old.playing
        self.trail = TrailCounter(timeline)
        if not same_size:
            pose = self.camera.pose
            self.camera = Camera((board.width, board.height), self.camera.viewport)
            self.camera.insets = hud_insets_for(self.camera.viewport)
            self.camera.animate_to(pose, animate=False)
            self.camera.fit(animate=False)
        if was_at_end or number > max(timeline.round_starts, default=0):
            self.player.seek(timeline.duration)
        elif number >= 1:
            self.player.jump_to_round(number)
        self.say(f"reloaded: {title}", 3.0)

    def _toggle_ghost(self) -> None:
        self.show_ghost = not self.show_ghost
        self.say("best choice (ghost robot) on" if self.show_ghost else "best choice (ghost robot) off", 1.5)

    def round_and_cards_done(self) -> tuple[int, int]:
        """The round on screen and how many of its cards have been played at this moment."""
        return round_and_cards_done(self.timeline, self.player.time)

    def round_entry_now(self) -> RoundEntry | None:
        """The record of the round on screen (before the first card: round 1's)."""
        return self.rounds.get(max(1, self.player.current_round()))

    def round_lines(self, cards: bool = True) -> list[str]:
        """The HUD's lines about the AI's side of the round on screen (``cards`` False: without the
        hand and the choice, which the window's card panel shows)."""
        from viewer3d.roundview import round_lines

        entry = self.round_entry_now()
        step = self.player.current_step()
        card = step.index if step is not None and entry is not None and step.round_number == entry.number else None
        lines = round_lines(entry, card, cards=cards)
        return lines + analysis_line(self.analysis.get(entry.number) if entry is not None else None)

    def _toggle_help(self) -> None:
        self.show_help = not self.show_help

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

    def stage_text(self) -> str:
        """The AI's precomputation as the HUD says it ("building moves 40%"), or ""."""
        stage = self.ai_stage() if self.computing else None
        return f"{stage[0]} {int(stage[1] * 100)}%" if stage is not None else ""

    def thinking_seconds(self) -> int | None:
        """Whole seconds since the last card was computed (None once the game is complete): the AI's
        time on the round it is choosing, its precomputation included on round 1."""
        if not self.computing:
            return None
        count, now = len(self.timeline.steps), self.clock()
        if count != self._progress[0]:
            self._progress = (count, now)
        return int(now - self._progress[1])

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
        self.camera.insets = hud_insets_for(self.camera.viewport)
        if self.camera.fitted and not self.camera.animating:
            self.camera.fit(animate=False)

    def button_at(self, px: float, py: float) -> controls.Button | None:
        return controls.hit(self.camera.viewport, px, py, cards.panel_width())

    @property
    def tooltip(self) -> str:
        if self.hover is not None and self.hover.name == "open" and self.computing:
            return "cancel this game, back to the start screen (Esc)"
        return self.hover.tooltip if self.hover is not None else ""

    def mouse_press(self, px: float, py: float, button: str) -> None:
        control = self.button_at(px, py) if button == "left" else None
        if control is not None:  # a click does what the button's key does
            self._seeking = False
            self._clicked = True
            self.key(control.key)
            return
        self._clicked = False
        bar = TimelineBar.for_viewport(self.camera.viewport)
        self._seeking = button == "left" and bar.contains(px, py)
        if self._seeking:
            self.player.seek_fraction(bar.fraction(px))

    def mouse_move(self, px: float | None, py: float | None = None) -> None:
        """The mouse is over screen pixel (px, py) (None: it left the window): mark the tile under it."""
        if px is None or py is None:
            self.pointer = None
            self.hover = None
            return
        self.hover = self.button_at(px, py)  # a control under the mouse: its tooltip
        board = (self.board.width, self.board.height)
        self.pointer = coords.pick_tile(px, py, self.camera.view_proj_columns(), self.camera.viewport, board)

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
