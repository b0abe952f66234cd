"""The editor's controller, without GL: key names and window events in, actions out.

The pyglet window only converts its events (pyglet's bottom-left mouse ``y`` with
``viewer3d.coords.from_pyglet_y``, key symbols to names) and calls this class; the view
draws from its state. Each job has its own small class, which this one puts together:
pointer input (``editor.pointer``), prompts and the file browser (``pathui.prompt``),
file handling (``editor.files``), autosave (``editor.autosave``), test-play
(``editor.playtest``) and validation (``editor.background``); the document owns the undo
stack. What stays here: keys, the actions they name, and geometry. Board <-> screen
conversions all go through the shared ``viewer3d.coords.TopDownMapping``. Nothing here
needs a GL context, so every behaviour is testable directly.
"""

from __future__ import annotations

import math
import re
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from editor.art import theme_keys
from editor.autosave import Autosaver, drop_copies_of_the_file, pending_autosaves, set_aside_damaged
from editor.background import BackgroundValidation, ValidationState
from editor.commands import ANCHORS, GameEdit, ReplaceBoard, Resize, SetTiles, TransformBoard
from editor.document import Document
from editor.events import BoardChanged, DocumentEvent
from editor.export import ExportOptions
from editor.exportjob import ExportJob, Writer
from editor.files import FileActions, RecentFiles, Settings
from editor.games.base import Grid, Problem, Transform, Validation
from editor.history import UndoStack
from editor.keymap import SHORTCUTS, action_for
from editor.layout import Layout
from editor.playtest import PlaytestRunner
from editor.pointer import ZOOM_STEP, PaletteDrag, PointerInput
from editor.tools import TOOLS as TOOL_CLASSES
from editor.tools import (
    Tool,
    ToolContext,
)
from engine.bounds import MAX_BOARD_SIDE, MAX_BOARD_TILES
from engine.cliutil import parse_size as parse_board_size
from engine.errors import InputError
from pathui.prompt import Prompt, Prompts
from viewer3d.coords import TopDownMapping

MAX_SIDE = MAX_BOARD_SIDE  # the engine's limits for a board file: what opens can be resized and made
TOAST_S = 2.5


@dataclass(frozen=True)
class Toast:
    """A short message drawn next to the pointer (refusals), until ``until``."""

    text: str
    px: float
    py: float
    until: float


def parse_size(text: str) -> tuple[int, int, str]:
    """``20x10``, ``20 10``, ``20x10 anchor=center`` or ``20x10 center`` -> (width, height, anchor)."""
    match = re.fullmatch(r"(.*?)(?:\s+(?:anchor\s*=\s*)?([a-z]+)|\s+(anchor\s*=))?\s*", text, re.IGNORECASE | re.DOTALL)
    assert match is not None  # the pattern matches any text
    if match[3]:  # "20x10 anchor=": the size is fine, the anchor is missing (not a size error)
        raise ValueError(f"anchor= needs one of {', '.join(ANCHORS)}")
    try:
        width, height = parse_board_size(match[1], "size", (1, 1), (MAX_SIDE, MAX_SIDE), "20x10")
    except InputError as exc:
        raise ValueError(f"{exc.message} [anchor=nw|n|ne|w|center|e|sw|s|se]") from None
    if width * height > MAX_BOARD_TILES:
        raise ValueError(f"size {width}x{height} is {width * height:,} tiles; at most {MAX_BOARD_TILES:,} (512x512)")
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
        self.game = document.game
        self.tools: list[Tool] = []
        self.tool: Tool = self._game_tools()
        self.layout = Layout(*size, palette_chars=self.game.palette)
        self._mapping = TopDownMapping()
        self.themes = theme_keys()
        if theme is not None and theme not in self.themes:
            self.themes.append(theme)
        self.theme = theme if theme is not None else self.themes[0]
        self.grid = True
        self.help_visible = False
        self.settings = Settings(autosave_folder)
        self.right_click = "pick" if self.settings.load().get("right_click") == "pick" else "erase"
        self.status = "F1: help   Ctrl+Shift+P: every command"
        self.status_since = -math.inf  # when the status was said (time.monotonic())
        self.toast: Toast | None = None
        self.closed = False
        self.on_theme_change: Callable[[str], None] = lambda name: None
        self.on_export: Callable[[Path], None] | None = None
        self.export_job: ExportJob | None = None  # the export running in its thread, if any
        self.export_writer: Writer | None = None  # tests: what the job calls instead of export_board
        self._export_shown = ""  # the progress line last put in the status bar
        self._last_error: tuple[tuple[str, str] | None, float] = (None, 0.0)
        self.pointer = PointerInput(self)
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
    def _game_tools(self) -> Tool:
        """The tools and brush of the document's game (at start, and when a file of another game
        is opened in this window); returns the first tool."""
        self.game = game = self.document.game
        classes = (*TOOL_CLASSES, *game.tool_classes())
        self.tools = [cls() for name in game.tool_names for cls in classes if cls.name == name]
        self.ctx.brush = game.cell(game.default_brush)
        self.ctx.erase = game.erase_cell()
        self.level: Enum | None = game.default_level
        return self.tools[0]

    def _on_event(self, event: DocumentEvent) -> None:
        if isinstance(event, BoardChanged):
            if event.resized and self.document.game is not self.game:
                self.tool = self._game_tools()
                self.layout = Layout(self.layout.width, self.layout.height, palette_chars=self.game.palette)
            if event.resized:
                self.fit()  # (which finds the tile under a still pointer again)
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
            self._validation = self.game.validation(self.document.board)
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
        self._poll_export()
        if self.toast is not None and time.monotonic() > self.toast.until:
            self.toast = None

    @property
    def problems(self) -> list[Problem]:
        """Every problem of the current board (finishes the search now if needed)."""
        return list(self.current_validation.problems)

    @property
    def summary(self) -> list[str]:
        validation = self.current_validation
        return validation.summary() if not validation.problems or self.game.summary_with_problems else []

    @property
    def title(self) -> str:
        return self.document.title

    def say(self, message: str) -> None:
        self.status = message
        self.status_since = time.monotonic()

    def say_near(self, message: str) -> None:
        """A message that also appears next to the pointer for a moment (refusals, tool feedback)."""
        self.say(message)
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
        if self.export_job is not None:  # a file half-way: let it be written whole
            self.export_job.wait()
        self.playtest.close()
        self.autosaver.release()  # crash copies still there are offered at the next start

    # -- geometry ---------------------------------------------------------------
    @property
    def mapping(self) -> TopDownMapping:
        """Board <-> screen: every zoom, pan, fit and window resize sets a new one."""
        return self._mapping

    @mapping.setter
    def mapping(self, mapping: TopDownMapping) -> None:
        # The board moved under a pointer that did not: the tile under it (the highlight, the
        # status bar's readout, the wall edge a click would toggle) is found again. A key zoom or
        # Home once left them naming the tile that had been there before.
        self._mapping = mapping
        self.pointer.refresh()

    def resize(self, width: int, height: int) -> None:
        self.layout = Layout(width, height, palette_chars=self.game.palette)
        self.fit()

    def fit(self) -> None:
        board = self.document.board
        self.mapping = self.mapping.fitted((board.width, board.height), self.layout.canvas, margin_px=24)

    def mouse_motion(self, px: float, py: float) -> None:
        self.pointer.motion(px, py)

    def mouse_press(
        self, px: float, py: float, button: str, shift: bool = False, alt: bool = False, ctrl: bool = False
    ) -> None:
        self.pointer.press(px, py, button, shift, alt, ctrl)

    def mouse_drag(self, px: float, py: float, dx: float, dy: float, button: str) -> None:
        self.pointer.drag(px, py, dx, dy, button)

    def mouse_release(self, px: float, py: float, button: str) -> None:
        self.pointer.release(px, py, button)

    def scroll(
        self, px: float, py: float, clicks: float, ctrl: bool = False, shift: bool = False, alt: bool = False,
        clicks_x: float = 0.0,
    ) -> None:  # fmt: skip
        self.pointer.scroll(px, py, clicks, ctrl, shift, alt, clicks_x)

    def tool_of(self, kind: type[Tool]) -> Tool:
        return next(tool for tool in self.tools if isinstance(tool, kind))

    # What the view shows of the pointer.
    @property
    def hover(self) -> tuple[int, int] | None:
        return self.pointer.hover

    @property
    def hover_info(self) -> str:
        return self.pointer.hover_info

    @property
    def hover_edge(self) -> tuple[int, int, object] | None:
        return self.pointer.hover_edge

    @property
    def tooltip(self) -> str:
        return self.pointer.tooltip

    @property
    def palette_drag(self) -> PaletteDrag | None:
        return self.pointer.palette_drag

    @property
    def pointer_px(self) -> tuple[float, float]:
        return self.pointer.px, self.pointer.py

    def file_drop(self, paths: list[str]) -> None:
        self.files.drop(paths)

    # -- tools ------------------------------------------------------------------
    def select_tool(self, tool: Tool) -> None:
        self.tool = tool
        self.say(f"tool: {tool.name} — {tool.help}")

    def preview(self) -> set[tuple[int, int]]:
        return self.pointer.preview()

    def preview_box(self) -> tuple[int, int, int, int] | None:
        """The rectangle tool's box (x0, y0, x1, y1) while it is dragged out: one shape to draw."""
        return self.pointer.preview_box()

    def preview_edges(self) -> list[tuple[int, int, object]]:
        return self.pointer.preview_edges()

    def rotate_tile(self, clockwise: bool = True) -> None:
        """Rotate the tile under the cursor (one undo step), else the brush."""
        game = self.game
        # What is under the pointer now: a resize, a transform or a zoom by key moved the board
        # under a pointer that has not moved (a tile off a shrunk board raised IndexError).
        self.pointer.refresh()
        if self.hover is not None:
            x, y = self.hover
            tile = self.document.board.tile(x, y)
            turned = game.turned(tile, clockwise)
            if turned.char == tile.char:  # a hole, a goal, plain floor: it was "(5, 3) is now hole"
                self.say(f"{game.where((x, y))}: {game.cell_name(tile)} has no direction to turn")
                return
            self.document.push(SetTiles({(x, y): turned}, "rotate tile"))
            self.say(f"{game.where((x, y))} is now {game.cell_name(turned)}")
        else:
            self.ctx.brush = game.turned(self.ctx.brush, clockwise)
            self.say(f"brush: {game.cell_name(self.ctx.brush)}")

    # -- keys ---------------------------------------------------------------------
    def key_press(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False) -> None:
        if self.prompt is not None:
            self.prompts.key(key, ctrl)
            return
        if key == "SPACE":
            self.pointer.space_held = True
            return
        if key == "ESCAPE":
            if not self.help_visible and self.export_job is not None and self.export_job.running:
                self.export_job.cancel()  # said when the job has stopped (``_poll_export``)
                self.say(f"cancelling the export of {self.export_job.target.name} …")
                self._export_shown = self.status
            self.help_visible = False
            return
        action = action_for(key, ctrl, shift)
        own = next((a for a in self.game.actions if a.key == key), None) if not (ctrl or alt) else None
        if action is not None:
            self.run(action)
        elif own is not None:
            self.run(f"game_{own.name}")
        elif not (ctrl or alt) and (tool := self._own_tool(key)) is not None:
            self.select_tool(tool)
        elif not ctrl and key in self.game.brush_keys:
            self.pick_brush(self.game.brush_keys[key])

    def _own_tool(self, key: str) -> Tool | None:
        """A tool of the game's own on ``key`` (the shared tools' keys are in the shortcut table)."""
        return next((t for t in self.tools if t.key == key and type(t) not in TOOL_CLASSES), None)

    def pick_brush(self, char: str) -> None:
        """Make a palette entry the brush, and go back to painting (Tron: keys 1-8 pick bot starts)."""
        self.ctx.brush = self.game.cell(char)
        if self.tool.name not in ("paint", "rectangle", "fill"):
            self.tool = self.tools[0]
        self.say(f"brush: {self.game.cell_name(self.ctx.brush)} — click the board to put it there")

    def key_release(self, key: str) -> None:
        if key == "SPACE":
            self.pointer.space_held = False

    def text(self, text: str) -> None:
        """Typed text (only used by prompts)."""
        self.prompts.text(text)

    def ask(
        self, label: str, on_submit: Callable[[str], None], text: str = "", choices: str = "", paths: bool = False
    ) -> Prompt:
        return self.prompts.ask(label, on_submit, text, choices, paths)

    # -- actions ---------------------------------------------------------------------
    def available(self, action: str) -> bool:
        """Whether the document's game has this action (a Tron arena has no wall tool, no levels)."""
        if action.startswith("tool_"):
            return any(t.name == action[5:] for t in self.tools)
        if action.startswith("game_"):
            return any(a.name == action[5:] for a in self.game.actions)
        return action != "level" or bool(self.game.levels)

    def run(self, action: str) -> None:
        if action != "help":  # what an action shows (a prompt, the palette) must not open under F1's overlay
            self.help_visible = False
        if not self.available(action):
            self.say(f"a {self.game.name} {self.game.noun} has no {action.removeprefix('tool_')}")
            return
        if action.startswith("tool_"):
            self.select_tool(next(t for t in self.tools if t.name == action[5:]))
            return
        if action.startswith("game_"):
            own = next(a for a in self.game.actions if a.name == action[5:])
            changed = self.document.push(GameEdit(own))
            self.say(own.name if changed else f"{own.name}: nothing to change")
            return
        getattr(self, f"action_{action}")()

    def action_palette(self) -> None:
        """Every action with its shortcut; type to filter, Up/Down and Enter to run one."""
        actions = [a for a in dict.fromkeys(s.action for s in SHORTCUTS) if self.available(a)]
        prompt = self.prompts.ask("command:", self._run_palette_choice)
        prompt.menu = [(action_label(a), a) for a in actions]
        prompt.menu += [(f"{a.help}   [{a.key}]", f"game_{a.name}") for a in self.game.actions]
        prompt.menu += [(f"{t.help}   [{t.key}]", f"tool_{t.name}") for t in self.tools if type(t) not in TOOL_CLASSES]

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

    def _refuse_second_export(self) -> bool:
        """One export at a time: a second request while one runs is refused, saying so."""
        job = self.export_job
        if job is None or not job.running:
            return False
        self.say_near(f"an export is running ({job.target.name}, {job.fraction:.0%}); wait for it to finish")
        return True

    def action_export(self) -> None:
        if self._refuse_second_export():
            return
        path = self.document.path
        stem = path.with_suffix("") if path is not None else self.files.folder() / "board"
        self.files.ask_path("export (.png .svg .pdf):", self._export, f"{stem.absolute()}.png")

    def _export(self, text: str) -> None:
        """The file is chosen; then the options, prefilled (Enter takes them as they are)."""
        from editor.export import check_target, png_tile_limit

        target = Path(text.strip()).expanduser()
        try:  # a wrong suffix or a missing folder is said now, not after the options are typed
            check_target(target)
        except (OSError, ValueError) as exc:
            self.say(f"could not export {target}: {getattr(exc, 'strerror', None) or exc}")
            return
        tile = min(48, png_tile_limit(self.document.board))  # a big board's PNG needs smaller tiles
        defaults = (
            f"--tile {tile}" + (" --grid" if self.grid else "") + (" --paper a4" if target.suffix == ".pdf" else "")
        )
        self.ask(
            "export options (--tile N --grid --coords --paper a4|letter):",
            lambda o: self._export_to(target, o),
            defaults,
        )

    def _export_to(self, target: Path, option_text: str) -> None:
        from editor.export import parse_options

        try:
            options = parse_options(option_text, self.theme)
        except ValueError as exc:
            self.say(f"not exported: {exc}")
            return
        if target.is_file():

            def answer(choice: str) -> None:
                if choice == "y":
                    self._write_export(target, options)
                else:
                    self.say("not exported")

            self.ask(f"{target.name} already exists — replace it? y/n", answer, choices="yn")
            return
        self._write_export(target, options)

    def _write_export(self, target: Path, options: ExportOptions) -> None:
        """Start the export in its own thread (``ExportJob``); the window stays usable and the
        status bar shows how far it is. What is refused at once (a PNG too big to draw) is said now."""
        from editor.export import check_png_size

        if self._refuse_second_export():
            return
        board = self.document.board  # immutable: later edits do not reach the export
        if target.suffix.lower() == ".png":
            try:
                check_png_size(board, options)
            except ValueError as exc:
                self.say(f"could not export {target}: {exc}")
                return
        writer = {} if self.export_writer is None else {"write": self.export_writer}
        self.export_job = ExportJob(board, target, options, self.document.name, **writer).start()
        self._export_shown = ""
        self._poll_export()

    def _poll_export(self) -> None:
        """Called every tick: the running export's progress in the status bar, its end when it ends."""
        job = self.export_job
        if job is None:
            return
        if job.running:
            if self.status != self._export_shown and time.monotonic() - self.status_since < TOAST_S:
                return  # another message (a refusal, a save) stays readable first
            if self._export_shown.startswith("cancelling"):
                return  # Esc was pressed: the job stops at its next step
            line = f"exporting {job.target.name} … {job.fraction:.0%} (the window stays usable; Esc cancels)"
            if line != self._export_shown:
                self._export_shown = line
                self.say(line)
            return
        self.export_job = None
        if job.cancelled:
            self.say(f"export cancelled: nothing written to {job.target}")
        else:
            self.say(job.error if job.error is not None else f"exported {job.written}")

    def finish_export(self, timeout: float | None = None) -> None:
        """Wait for the running export and report it (tests, screenshots, the command line)."""
        if self.export_job is not None:
            self.export_job.wait(timeout)
            self._poll_export()

    def action_resize(self) -> None:
        board = self.document.board
        self.ask("resize to:", self._resize, text=f"{board.width}x{board.height} anchor=center")

    def _resize(self, text: str) -> None:
        try:
            width, height, anchor = parse_size(text)
        except ValueError as exc:
            self.say(str(exc))
            return
        board = self.document.board
        if (width, height) == (board.width, board.height):  # Enter on the prefilled size: no edit
            self.say(f"the {self.game.noun} is {width}x{height} already: nothing to resize")
            return
        self.document.push(Resize(width, height, anchor))
        self.say(f"resized to {width}x{height} (anchor {anchor})")

    def activated(self) -> None:
        """The window became the active one again: notice a file changed on disk meanwhile."""
        self.files.check_disk()

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
        self.settings.save({"right_click": self.right_click})
        self.say(f"right button: {self.right_click} (kept for the next start)")

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
        levels = list(self.game.levels)
        assert self.level is not None  # available() lets this run only for a game with levels
        self.level = levels[(levels.index(self.level) + 1) % len(levels)]
        self.say(f"test-play level: {self.level.value}")

    def action_playtest(self) -> None:
        """Play the board with the built-in AI (in the background), warning first when validation
        says no goal can be reached at this level."""
        board = self.document.board
        blocker = self.game.play_blocker(board)
        if blocker:
            self.say(f"test-play: {blocker}")
            return
        if self.playtest.running:  # F5 again stops it (a Tron game on a big arena takes minutes)
            self.playtest.cancel()
            self.say("test-play: stopping …")
            return
        level = self.level
        state = self.validation_state()
        if state.board is not board or level in state.pending:
            question = "reachability is still being checked"  # never block the window on the search
        else:
            unreachable = [p for p in state.problems if getattr(p, "level", None) in (level, None)]
            question = unreachable[0].message if unreachable else ""
        if question:

            def answer(choice: str) -> None:
                if choice == "y":
                    self._start_playtest()

            self.ask(f"{question} — play anyway? y/n", answer, choices="yn")
            return
        self._start_playtest()

    def _start_playtest(self) -> None:
        self.playtest.start(self.game, self.document.board, self.level, self.document.name)
        where = f" at {self.level.value}" if self.level is not None else ""
        self.say(f"test-play{where}: the AI is playing …")

    def wait_playtest(self, timeout: float | None = None) -> None:
        self.playtest.wait(timeout)

    # -- autosave ---------------------------------------------------------------------
    def tick(self, now: float | None = None) -> None:
        try:
            written = self.autosaver.tick(now)
        except OSError as exc:  # e.g. no writable folder at all: say so, keep editing
            self.say(f"autosave failed: {exc.strerror or exc}")
            return
        # An autosave is news only when nothing more important is on show: a running test-play
        # keeps saying so (a Tron game takes a while), an error stays until the next action, and
        # any other message (a refused size, a failed save) stays readable for TOAST_S at least.
        now = time.monotonic() if now is None else now
        recent = now - self.status_since < TOAST_S
        exporting = self.export_job is not None and self.export_job.running
        quiet = self.playtest.running or exporting or self.status.startswith("internal error") or recent
        if written is not None and self.prompt is None and not quiet:
            self.say(f"autosaved to {written}")

    def _offer_autosave(self) -> None:
        for copy, kept, why in set_aside_damaged(self.document.path, self.autosave_folder, self.game):
            if kept is None:
                self.autosaver.protected[copy] = "a crash copy there cannot be read; it is kept"
                self.say(f"the autosave {copy} cannot be read ({why}); it is left as it is, not written over")
            else:
                self.say(f"the autosave {copy.name} cannot be read ({why}); it is kept as {kept}")
        drop_copies_of_the_file(self.document.path, self.autosave_folder, self.game)
        offers = [
            (path, board)
            for path, board in pending_autosaves(self.document.path, self.autosave_folder, self.game)
            if self.autosaver.lock_offer(path)  # none that a window started meanwhile owns
        ]
        for path, _ in offers:
            # Until the question is answered (Esc leaves it unanswered; the board may be edited
            # meanwhile) the copy is not this session's to write over: autosaves go elsewhere.
            self.autosaver.protected[path] = (
                "a crash copy from an earlier session, not restored or declined, is kept there"
            )
        self._offer_next(offers, len(offers))

    def _offer_next(self, offers: list[tuple[Path, Grid]], total: int) -> None:
        """Offer the crash copies found at start, one question after another."""
        if not offers:
            return
        (path, board), rest = offers[0], offers[1:]

        def answer(choice: str) -> None:
            self.autosaver.protected.pop(path, None)
            if choice == "y":
                self.document.push(ReplaceBoard(board, "restore autosave"))
                self.autosaver.adopt(path)
                self.say(f"restored the autosave {path.name} (Ctrl+Z undoes it); save to keep it")
            else:
                kept = self.autosaver.decline(path)
                self.say(f"not restored; the copy is kept as {kept} until you save")
            self._offer_next(rest, total)

        count = f" ({total - len(rest)} of {total})" if total > 1 else ""
        self.ask(
            f"an autosave from an earlier session was found{count} ({path.name}) — restore it? y/n",
            answer,
            choices="yn",
        )
