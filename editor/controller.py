"""The editor's input handling, without GL: pointer positions in screen pixels and key names in.

The pyglet window only converts its events (pyglet's bottom-left mouse ``y`` with
``viewer3d.coords.from_pyglet_y``, key symbols to names) and calls this class; the view
draws from its state. Board <-> screen conversions all go through the shared
``viewer3d.coords.TopDownMapping``. The other jobs live in their own small classes:
prompts (``editor.prompts``), file handling (``editor.files``), autosave
(``editor.autosave``), test-play (``editor.playtest``) and validation
(``editor.background``); the document owns the undo stack. Nothing here needs a GL
context, so every behaviour is testable directly.
"""

from __future__ import annotations

import re
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from editor.art import theme_keys
from editor.autosave import Autosaver, pending_autosave
from editor.background import BackgroundValidation, ValidationState
from editor.commands import ANCHORS, ReplaceBoard, Resize, SetTiles, TransformBoard
from editor.document import Document
from editor.events import BoardChanged, DocumentEvent
from editor.files import FileActions, RecentFiles
from editor.history import UndoStack
from editor.keymap import SHORTCUTS, action_for
from editor.layout import Layout, inside
from editor.names import tile_name
from editor.playtest import PlaytestRunner
from editor.prompts import Prompt, Prompts
from editor.tools import (
    LEFT,
    MIDDLE,
    RIGHT,
    EyedropperTool,
    Pointer,
    RectangleTool,
    Tool,
    ToolContext,
    WallTool,
)
from editor.tools import TOOLS as TOOL_CLASSES
from editor.transform import Transform, rotate_tile
from editor.validate import Problem, Validation
from engine.cliutil import parse_size as parse_board_size
from engine.errors import InputError
from engine.model import Level, Tile
from engine.status import BoardStatus, board_problems, form_status
from viewer3d.coords import TopDownMapping

MAX_SIDE = 256
ZOOM_STEP = 1.15
SCROLL_PX = 40
TOAST_S = 2.5


@dataclass
class PaletteDrag:
    char: str
    px: float
    py: float
    moved: bool = False


@dataclass(frozen=True)
class Toast:
    """A short message drawn next to the pointer (refusals), until ``until``."""

    text: str
    px: float
    py: float
    until: float


def parse_size(text: str) -> tuple[int, int, str]:
    """``20x10``, ``20 10``, ``20x10 anchor=center`` or ``20x10 center`` -> (width, height, anchor)."""
    match = re.fullmatch(r"(.*?)(?:\s+(?:anchor\s*=\s*)?([a-z]+))?\s*", text, re.IGNORECASE | re.DOTALL)
    assert match is not None  # the pattern matches any text
    try:
        width, height = parse_board_size(match[1], "size", (1, 1), (MAX_SIDE, MAX_SIDE))
    except InputError as exc:
        raise ValueError(f"{exc.message} [anchor=nw|n|ne|w|center|e|sw|s|se]") from None
    anchor = (match[2] or "nw").lower()
    if anchor not in ANCHORS:
        raise ValueError(f"unknown anchor {anchor!r}; use one of {', '.join(ANCHORS)}")
    return width, height, anchor


def action_label(action: str) -> str:
    """The command palette's line for an action: its help and its shortcut(s)."""
    shortcuts = [s for s in SHORTCUTS if s.action == action]
    keys = " / ".join(s.label for s in shortcuts)
    return f"{shortcuts[0].help}   [{keys}]" if shortcuts else action


class EditorController:
    """State and input handling of one editor window."""

    def __init__(
        self,
        document: Document,
        size: tuple[int, int] = (1280, 800),
        theme: str | None = None,
        autosave_folder: Path | None = None,
        autosave_delay_s: float = 1.0,
        background_validation: bool = True,
    ) -> None:
        self.document = document
        self.ctx = ToolContext(document, status=self.say_near)
        self.tools: list[Tool] = [cls() for cls in TOOL_CLASSES]
        self.tool: Tool = self.tools[0]
        self.layout = Layout(*size)
        self.mapping = TopDownMapping()
        self.themes = theme_keys()
        if theme is not None and theme not in self.themes:
            self.themes.append(theme)
        self.theme = theme if theme is not None else self.themes[0]
        self.grid = True
        self.help_visible = False
        self.right_click = "erase"  # or "pick" (Tiled's habit)
        self.level = Level.NORMAL
        self.status = "F1: help   Ctrl+Shift+P: every command"
        self.toast: Toast | None = None
        self.hover: tuple[int, int] | None = None
        self.hover_info = ""  # the tile under the pointer and its coordinates, for the status bar
        self.tooltip = ""  # the palette cell or tool button under the pointer
        self.hover_edge: tuple[int, int, object] | None = None
        self.pointer_px: tuple[float, float] = (0.0, 0.0)
        self.palette_drag: PaletteDrag | None = None
        self.closed = False
        self.space_held = False
        self.on_theme_change: Callable[[str], None] = lambda name: None
        self.on_export: Callable[[Path], None] | None = None
        self._active_tool: Tool | None = None
        self._last_error: tuple[tuple[str, str] | None, float] = (None, 0.0)
        self._active_button = LEFT
        self._panning = False
        self.prompts = Prompts(self.say)
        self.autosaver = Autosaver(document, autosave_delay_s, autosave_folder)
        self.autosave_folder = autosave_folder
        self.files = FileActions(
            document,
            self.prompts,
            self.autosaver,
            self.say,
            self._offer_autosave,
            RecentFiles(autosave_folder) if autosave_folder is not None else None,
        )
        self.playtest = PlaytestRunner(self.say)
        self._background = BackgroundValidation(document.board) if background_validation else None
        self._validation: Validation | None = None
        document.subscribe(self._on_event)
        self.fit()
        self._offer_autosave()

    # -- document events ------------------------------------------------------
    def _on_event(self, event: DocumentEvent) -> None:
        if isinstance(event, BoardChanged):
            if event.resized:
                self.fit()
            if self._background is not None:
                self._background.submit(self.document.board)

    @property
    def stack(self) -> UndoStack:
        """The document's undo stack (kept for scripts written against older versions)."""
        return self.document.history

    @property
    def prompt(self) -> Prompt | None:
        return self.prompts.current

    @property
    def current_validation(self) -> Validation:
        """A complete, synchronous validation of the board on screen (tests, scripts)."""
        if self._validation is None or self._validation.board is not self.document.board:
            self._validation = Validation(self.document.board)
        self._validation.advance()
        return self._validation

    def validation_state(self) -> ValidationState:
        """What the panel shows: the background result for the board on screen (maybe partial)."""
        if self._background is None:
            validation = self.current_validation
            return ValidationState(validation.board, tuple(validation.problems), tuple(validation.summary()), ())
        state = self._background.state()
        return state

    def finish_validation(self, timeout: float | None = None) -> ValidationState:
        if self._background is None:
            return self.validation_state()
        return self._background.wait(timeout)

    def work(self) -> None:
        """Called every frame: report a finished test-play, reap viewers, expire the pointer message."""
        self.playtest.poll()
        if self.toast is not None and time.monotonic() > self.toast.until:
            self.toast = None

    @property
    def problems(self) -> list[Problem]:
        """Every problem of the current board (finishes the search now if needed)."""
        return self.current_validation.problems

    @property
    def summary(self) -> list[str]:
        validation = self.current_validation
        return validation.summary() if not validation.problems else []

    @property
    def title(self) -> str:
        return self.document.title

    def say(self, message: str) -> None:
        self.status = message

    def say_near(self, message: str) -> None:
        """A message that also appears next to the pointer for a moment (refusals, tool feedback)."""
        self.status = message
        px, py = self.pointer_px
        self.toast = Toast(message, px, py, time.monotonic() + TOAST_S)

    def report_error(self, exc: BaseException, where: str) -> None:
        """An unexpected error in an event handler: emergency copy first, then say so; never crash.

        The same error again within a few seconds (a broken frame repeats 60 times a second) is
        only counted: the copy of that board is already written and the message already shown."""
        key = (where, repr(exc))
        now = time.monotonic()
        if key == self._last_error[0] and now - self._last_error[1] < 5.0:
            self._last_error = (key, now)
            return
        self._last_error = (key, now)
        copy = ""
        try:
            copy = f"; your board was copied to {self.autosaver.save_now()}"
        except Exception as save_exc:  # even the copy failed: say that too
            copy = f"; the emergency copy failed too ({save_exc})"
        traceback.print_exception(exc, file=sys.stderr)
        self.say(f"internal error in {where}: {type(exc).__name__}: {exc}{copy}"[:300])

    def close(self) -> None:
        """The window is going away: stop the worker, remove play folders."""
        if self._background is not None:
            self._background.close()
        self.playtest.close()

    # -- geometry ---------------------------------------------------------------
    def resize(self, width: int, height: int) -> None:
        self.layout = Layout(width, height)
        self.fit()

    def fit(self) -> None:
        board = self.document.board
        self.mapping = self.mapping.fitted((board.width, board.height), self.layout.canvas, margin_px=24)

    def _in_canvas(self, px: float, py: float) -> bool:
        return inside(self.layout.canvas, px, py)

    def _pointer(
        self, px: float, py: float, button: str, shift: bool = False, alt: bool = False, ctrl: bool = False
    ) -> Pointer:
        tile = self.mapping.tile_at(px, py)
        tolerance = self.mapping.tile_px / 2 if isinstance(self._active_tool or self.tool, WallTool) else 8.0
        edge = self.mapping.edge_at(px, py, tolerance)
        return Pointer(tile, edge, button, shift, alt, ctrl)

    # -- mouse ------------------------------------------------------------------
    def mouse_motion(self, px: float, py: float) -> None:
        self.pointer_px = (px, py)
        tile = self.mapping.tile_at(px, py)
        board = self.document.board
        self.tooltip = ""
        if self._in_canvas(px, py) and board.in_bounds(*tile):
            self.hover = tile
            self.hover_edge = (
                self.mapping.edge_at(px, py, self.mapping.tile_px / 2) if isinstance(self.tool, WallTool) else None
            )
            self.hover_info = f"({tile[0]}, {tile[1]})  {tile_name(board.tile(*tile))}  '{board.tile(*tile).char}'"
            return
        self.hover = None
        self.hover_edge = None
        self.hover_info = ""
        if inside(self.layout.palette, px, py):
            char = self.layout.palette_char_at(px, py)
            if char is not None:
                self.tooltip = f"{tile_name(Tile.from_char(char))}  '{char}' — click: brush, drag: drop on the board"
                self.hover_info = f"palette: {tile_name(Tile.from_char(char))}  '{char}'"
            index = self.layout.tool_at(px, py, len(self.tools))
            if index is not None:
                tool = self.tools[index]
                self.tooltip = f"{tool.help}   [{tool.key}]"

    def mouse_press(
        self, px: float, py: float, button: str, shift: bool = False, alt: bool = False, ctrl: bool = False
    ) -> None:
        self.pointer_px = (px, py)
        if self.help_visible:
            self.help_visible = False
            return
        if self.prompt is not None and self.prompt.listing is not None and button == LEFT:
            entry = self.layout.browser_entry_at(px, py, len(self.prompt.listing.entries))
            if entry is not None:
                self.prompts.pick(self.prompt.listing.entries[entry].path)
                return
        if button == MIDDLE or (button == LEFT and self.space_held):
            self._panning = True
            return
        if inside(self.layout.palette, px, py):
            self._palette_press(px, py)
            return
        if not self._in_canvas(px, py):
            return
        if alt and button == LEFT:
            tool: Tool = self._tool(EyedropperTool)
        elif shift and button == LEFT:
            tool = self._tool(RectangleTool)
        elif button == RIGHT and self.right_click == "pick" and not isinstance(self.tool, WallTool):
            tool = self._tool(EyedropperTool)
        elif button == RIGHT and isinstance(self.tool, EyedropperTool):
            tool = self.tools[0]
        else:
            tool = self.tool
        self._active_tool, self._active_button = tool, button
        tool.press(self.ctx, self._pointer(px, py, button, shift, alt, ctrl))

    def _tool(self, kind: type[Tool]) -> Tool:
        return next(tool for tool in self.tools if isinstance(tool, kind))

    def _palette_press(self, px: float, py: float) -> None:
        char = self.layout.palette_char_at(px, py)
        if char is not None:
            self.ctx.brush = Tile.from_char(char)
            self.palette_drag = PaletteDrag(char, px, py)
            self.say(f"brush: {tile_name(self.ctx.brush)} — drag it onto the board or paint with it")
            return
        index = self.layout.tool_at(px, py, len(self.tools))
        if index is not None:
            self.select_tool(self.tools[index])

    def mouse_drag(self, px: float, py: float, dx: float, dy: float, button: str) -> None:
        """``dx``/``dy`` in screen pixels (y downwards)."""
        self.mouse_motion(px, py)
        if self._panning:
            self.mapping = self.mapping.panned(dx, dy)
            return
        if self.palette_drag is not None:
            self.palette_drag.px, self.palette_drag.py, self.palette_drag.moved = px, py, True
            return
        if self._active_tool is not None:
            self._active_tool.drag(self.ctx, self._pointer(px, py, self._active_button))

    def mouse_release(self, px: float, py: float, button: str) -> None:
        if self._panning:
            self._panning = False
            return
        if self.palette_drag is not None:
            drag, self.palette_drag = self.palette_drag, None
            tile = self.mapping.tile_at(px, py)
            if drag.moved and self._in_canvas(px, py) and self.document.board.in_bounds(*tile):
                self.document.push(SetTiles({tile: Tile.from_char(drag.char)}, "drop"))
                self.say(f"dropped {tile_name(Tile.from_char(drag.char))} at ({tile[0]}, {tile[1]})")
            return
        if self._active_tool is not None:
            tool, self._active_tool = self._active_tool, None
            tool.release(self.ctx, self._pointer(px, py, button))

    def scroll(
        self, px: float, py: float, clicks: float, ctrl: bool = False, shift: bool = False, alt: bool = False,
        clicks_x: float = 0.0,
    ) -> None:  # fmt: skip
        """Tiled's habits: Ctrl+wheel zooms around the pointer, the wheel scrolls (Shift: sideways),
        Alt+wheel rotates the tile under the pointer."""
        if alt:
            self.rotate_tile(clockwise=clicks < 0)
            return
        if not self._in_canvas(px, py):
            return
        if ctrl:
            self.mapping = self.mapping.zoomed(ZOOM_STEP**clicks, px, py)
        elif shift:
            self.mapping = self.mapping.panned(clicks * SCROLL_PX, 0)
        else:
            self.mapping = self.mapping.panned(-clicks_x * SCROLL_PX, clicks * SCROLL_PX)

    def file_drop(self, paths: list[str]) -> None:
        self.files.drop(paths)

    # -- tools ------------------------------------------------------------------
    def select_tool(self, tool: Tool) -> None:
        self.tool = tool
        self.say(f"tool: {tool.name} — {tool.help}")

    def preview(self) -> set[tuple[int, int]]:
        return (self._active_tool or self.tool).preview()

    def preview_edges(self) -> list[tuple[int, int, object]]:
        tool = self._active_tool
        return list(tool.preview_edges()) if isinstance(tool, WallTool) else []

    def rotate_tile(self, clockwise: bool = True) -> None:
        """Rotate the tile under the cursor (one undo step), else the brush."""
        if self.hover is not None:
            x, y = self.hover
            turned = rotate_tile(self.document.board.tile(x, y), clockwise)
            self.document.push(SetTiles({(x, y): turned}, "rotate tile"))
            self.say(f"({x}, {y}) is now {tile_name(turned)}")
        else:
            self.ctx.brush = rotate_tile(self.ctx.brush, clockwise)
            self.say(f"brush: {tile_name(self.ctx.brush)}")

    # -- keys ---------------------------------------------------------------------
    def key_press(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False) -> None:
        if self.prompt is not None:
            self.prompts.key(key, ctrl)
            return
        if key == "SPACE":
            self.space_held = True
            return
        if key == "ESCAPE":
            self.help_visible = False
            return
        action = action_for(key, ctrl, shift)
        if action is not None:
            self.run(action)

    def key_release(self, key: str) -> None:
        if key == "SPACE":
            self.space_held = False

    def text(self, text: str) -> None:
        """Typed text (only used by prompts)."""
        self.prompts.text(text)

    def ask(
        self, label: str, on_submit: Callable[[str], None], text: str = "", choices: str = "", paths: bool = False
    ) -> Prompt:
        return self.prompts.ask(label, on_submit, text, choices, paths)

    # -- actions ---------------------------------------------------------------------
    def run(self, action: str) -> None:
        if action.startswith("tool_"):
            self.select_tool(next(t for t in self.tools if t.name == action[5:]))
            return
        getattr(self, f"action_{action}")()

    def action_palette(self) -> None:
        """Every action with its shortcut; type to filter, Up/Down and Enter to run one."""
        actions = list(dict.fromkeys(s.action for s in SHORTCUTS))
        prompt = self.prompts.ask("command:", self._run_palette_choice)
        prompt.menu = [(action_label(a), a) for a in actions]

    def _run_palette_choice(self, text: str) -> None:
        if text:
            self.run(text)

    def action_undo(self) -> None:
        label = self.document.undo()
        self.say(f"undid {label}" if label else "nothing to undo")

    def action_redo(self) -> None:
        label = self.document.redo()
        self.say(f"redid {label}" if label else "nothing to redo")

    def action_save(self) -> None:
        self.files.save()

    def action_save_as(self) -> None:
        self.files.save_as()

    def action_open(self) -> None:
        self.files.open()

    def open_path(self, text: str) -> None:
        self.files.open_path(text)

    def action_new(self) -> None:
        self.files.new(parse_size)

    def action_export(self) -> None:
        path = self.document.path
        stem = path.with_suffix("") if path is not None else Path.cwd() / "board"
        self.files.ask_path("export (.png .svg .pdf):", self._export, f"{stem.absolute()}.png")

    def _export(self, text: str) -> None:
        target = Path(text.strip()).expanduser()
        if target.is_file():

            def answer(choice: str) -> None:
                if choice == "y":
                    self._write_export(target)
                else:
                    self.say("not exported")

            self.ask(f"{target.name} already exists — replace it? y/n", answer, choices="yn")
            return
        self._write_export(target)

    def _write_export(self, target: Path) -> None:
        from editor.export import ExportOptions, export_board

        try:
            written = export_board(
                self.document.board, target, ExportOptions(theme=self.theme, grid=self.grid), title=self.document.name
            )
        except (OSError, ValueError) as exc:
            self.say(f"could not export {target}: {getattr(exc, 'strerror', None) or exc}")
            return
        self.say(f"exported {written}")

    def action_resize(self) -> None:
        board = self.document.board
        self.ask("resize to:", self._resize, text=f"{board.width}x{board.height} anchor=center")

    def _resize(self, text: str) -> None:
        try:
            width, height, anchor = parse_size(text)
        except ValueError as exc:
            self.say(str(exc))
            return
        self.document.push(Resize(width, height, anchor))
        self.say(f"resized to {width}x{height} (anchor {anchor})")

    def action_quit(self) -> None:
        self.request_close()

    def request_close(self) -> None:
        def close() -> None:
            self.autosaver.discard()
            self.closed = True

        self.files.unless_unsaved(close)

    def _transform(self, transform: Transform) -> None:
        self.document.push(TransformBoard(transform))
        self.say(transform.value)

    def action_rotate_board_cw(self) -> None:
        self._transform(Transform.ROTATE_CW)

    def action_rotate_board_ccw(self) -> None:
        self._transform(Transform.ROTATE_CCW)

    def action_mirror_h(self) -> None:
        self._transform(Transform.MIRROR_H)

    def action_mirror_v(self) -> None:
        self._transform(Transform.MIRROR_V)

    def action_rotate_tile_cw(self) -> None:
        self.rotate_tile(True)

    def action_rotate_tile_ccw(self) -> None:
        self.rotate_tile(False)

    def action_grid(self) -> None:
        self.grid = not self.grid
        self.say(f"grid {'on' if self.grid else 'off'}")

    def action_right_click(self) -> None:
        self.right_click = "pick" if self.right_click == "erase" else "erase"
        self.say(f"right button: {self.right_click}")

    def action_fit(self) -> None:
        self.fit()

    def action_zoom_in(self) -> None:
        left, top, width, height = self.layout.canvas
        self.mapping = self.mapping.zoomed(ZOOM_STEP, left + width / 2, top + height / 2)

    def action_zoom_out(self) -> None:
        left, top, width, height = self.layout.canvas
        self.mapping = self.mapping.zoomed(1 / ZOOM_STEP, left + width / 2, top + height / 2)

    def action_help(self) -> None:
        self.help_visible = not self.help_visible

    def action_theme(self) -> None:
        self.themes = theme_keys() if len(theme_keys()) >= len(self.themes) else self.themes
        index = self.themes.index(self.theme) if self.theme in self.themes else -1
        self.theme = self.themes[(index + 1) % len(self.themes)]
        self.on_theme_change(self.theme)
        self.say(f"theme: {self.theme}")

    def action_level(self) -> None:
        levels = list(Level)
        self.level = levels[(levels.index(self.level) + 1) % len(levels)]
        self.say(f"test-play level: {self.level.value}")

    def action_playtest(self) -> None:
        """Play the board with the built-in AI (in the background), warning first when validation
        says no goal can be reached at this level."""
        board = self.document.board
        unplayable = board_problems(board, form_status(board) & BoardStatus.NO_GAME)
        if unplayable:
            self.say(f"test-play: {unplayable[0].message}")
            return
        if self.playtest.running:
            self.say("a test-play is already running")
            return
        level = self.level
        unreachable = [p for p in self.current_validation.problems if p.level is level or not p.level]
        if unreachable:

            def answer(choice: str) -> None:
                if choice == "y":
                    self._start_playtest()

            self.ask(f"{unreachable[0].message} — play anyway? y/n", answer, choices="yn")
            return
        self._start_playtest()

    def _start_playtest(self) -> None:
        self.playtest.start(self.document.board, self.level, self.document.name)
        self.say(f"test-play at {self.level.value}: the AI is playing …")

    def wait_playtest(self, timeout: float | None = None) -> None:
        self.playtest.wait(timeout)

    # -- autosave ---------------------------------------------------------------------
    def tick(self, now: float | None = None) -> None:
        try:
            written = self.autosaver.tick(now)
        except OSError as exc:  # e.g. no writable folder at all: say so, keep editing
            self.say(f"autosave failed: {exc.strerror or exc}")
            return
        if written is not None and self.prompt is None and not self.status.startswith("internal error"):
            self.say(f"autosaved to {written}")

    def _offer_autosave(self) -> None:
        offer = pending_autosave(self.document.path, self.autosave_folder)
        if offer is None:
            return
        path, board = offer

        def answer(choice: str) -> None:
            if choice == "y":
                self.document.push(ReplaceBoard(board, "restore autosave"))
                self.autosaver.adopt(path)
                self.say(f"restored the autosave {path.name} (Ctrl+Z undoes it); save to keep it")
            else:
                kept = self.autosaver.decline(path)
                self.say(f"not restored; the copy is kept as {kept} until you save")

        self.ask(f"an autosave from an earlier session was found ({path.name}) — restore it? y/n", answer, choices="yn")
