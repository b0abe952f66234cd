"""The editor's behaviour, without GL: input in screen pixels and key names in, commands out.

The pyglet window only converts its events (pyglet's bottom-left mouse ``y`` with
``viewer3d.coords.from_pyglet_y``, key symbols to names) and calls this class; the
view draws from its state. Board <-> screen conversions all go through the shared
``viewer3d.coords.TopDownMapping``. Because nothing here needs a GL context, every
behaviour (palette drops, prompts, unsaved-changes questions) is testable directly.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from editor.art import theme_keys
from editor.autosave import Autosaver, pending_autosave
from editor.commands import ANCHORS, Resize, SetTiles, TransformBoard, UndoStack
from editor.document import Change, Document, blank_board
from editor.keymap import action_for
from editor.layout import Layout, inside
from editor.names import tile_name
from editor.tools import (
    LEFT,
    MIDDLE,
    RIGHT,
    EyedropperTool,
    FillTool,
    PaintTool,
    Pointer,
    RectangleTool,
    Tool,
    ToolContext,
    WallTool,
)
from editor.transform import Transform, rotate_tile
from editor.validate import Problem, Validation
from engine.errors import InputError
from engine.model import Board, Level, Tile
from engine.status import BoardStatus, board_problems, form_status
from viewer3d.coords import TopDownMapping

MAX_SIDE = 200
ZOOM_STEP = 1.15


@dataclass
class Prompt:
    """A one-line question in the status bar: free text (``choices`` empty) or a key choice."""

    label: str
    on_submit: Callable[[str], None]
    text: str = ""
    choices: str = ""  # e.g. "yn": the answer is one key press


@dataclass
class PaletteDrag:
    char: str
    px: float
    py: float
    moved: bool = False


def parse_size(text: str) -> tuple[int, int, str]:
    """``20x10``, ``20 10``, ``20x10 anchor=center`` or ``20x10 center`` -> (width, height, anchor)."""
    match = re.fullmatch(
        r"\s*([0-9]{1,6})\s*[x× ]\s*([0-9]{1,6})(?:\s+(?:anchor\s*=\s*)?([a-z]+))?\s*", text, re.IGNORECASE
    )
    if not match:
        raise ValueError(f"expected WIDTHxHEIGHT [anchor=nw|n|ne|w|center|e|sw|s|se], not {text!r}")
    width, height, anchor = int(match[1]), int(match[2]), (match[3] or "nw").lower()
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"width and height must be 1..{MAX_SIDE}")
    if anchor not in ANCHORS:
        raise ValueError(f"unknown anchor {anchor!r}; use one of {', '.join(ANCHORS)}")
    return width, height, anchor


class EditorController:
    """State and behaviour of one editor window."""

    def __init__(
        self,
        document: Document,
        size: tuple[int, int] = (1280, 800),
        theme: str | None = None,
        autosave_folder: Path | None = None,
        autosave_interval_s: float = 30.0,
    ) -> None:
        self.document = document
        self.stack = UndoStack(document)
        self.ctx = ToolContext(document, self.stack, status=self.say)
        self.tools: list[Tool] = [PaintTool(), RectangleTool(), FillTool(), EyedropperTool(), WallTool()]
        self.tool: Tool = self.tools[0]
        self.layout = Layout(*size)
        self.mapping = TopDownMapping()
        self.themes = theme_keys()
        if theme is not None and theme not in self.themes:
            self.themes.append(theme)
        self.theme = theme if theme is not None else self.themes[0]
        self.grid = True
        self.help_visible = False
        self.level = Level.NORMAL
        self.status = "F1: help"
        self.prompt: Prompt | None = None
        self.hover: tuple[int, int] | None = None
        self.hover_info = ""  # the tile under the pointer and its coordinates, for the status bar
        self.hover_edge: tuple[int, int, object] | None = None
        self.pointer_px: tuple[float, float] = (0.0, 0.0)
        self.palette_drag: PaletteDrag | None = None
        self.closed = False
        self.space_held = False
        self.validation = Validation(document.board)
        self.on_theme_change: Callable[[str], None] = lambda name: None
        self.on_playtest: Callable[[Path], None] = lambda game_dir: None
        self._active_tool: Tool | None = None
        self._playtest: threading.Thread | None = None
        self._playtest_result: list[object] = []
        self._active_button = LEFT
        self._panning = False
        self.autosaver = Autosaver(document, autosave_interval_s, autosave_folder)
        self.autosave_folder = autosave_folder
        document.subscribe(self._on_change)
        self.fit()
        self._offer_autosave()

    # -- document events ------------------------------------------------------
    def _on_change(self, document: Document, change: Change) -> None:
        if change.resized:
            self.fit()

    @property
    def current_validation(self) -> Validation:
        """The validation of the board on screen (its searches may still be running)."""
        if self.validation.board is not self.document.board:
            self.validation = Validation(self.document.board)
        return self.validation

    def work(self, max_seconds: float = 0.012) -> bool:
        """Advance the reachability search a slice (called every frame; skipped during a stroke so
        painting stays smooth). Returns whether validation is complete."""
        self._poll_playtest()
        if self.stack.in_stroke:
            return self.validation.done
        return self.current_validation.advance(max_seconds)

    @property
    def problems(self) -> list[Problem]:
        """Every problem of the current board (finishes the search now if needed)."""
        validation = self.current_validation
        validation.advance()
        return validation.problems

    @property
    def summary(self) -> list[str]:
        validation = self.current_validation
        validation.advance()
        return validation.summary() if not validation.problems else []

    @property
    def title(self) -> str:
        return self.document.title

    def say(self, message: str) -> None:
        self.status = message

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
        if self._in_canvas(px, py) and board.in_bounds(*tile):
            self.hover = tile
            self.hover_edge = (
                self.mapping.edge_at(px, py, self.mapping.tile_px / 2) if isinstance(self.tool, WallTool) else None
            )
            self.hover_info = f"({tile[0]}, {tile[1]})  {tile_name(board.tile(*tile))}  '{board.tile(*tile).char}'"
        else:
            self.hover = None
            self.hover_edge = None
            char = self.layout.palette_char_at(px, py) if inside(self.layout.palette, px, py) else None
            self.hover_info = f"palette: {tile_name(Tile.from_char(char))}  '{char}'" if char is not None else ""

    def mouse_press(
        self, px: float, py: float, button: str, shift: bool = False, alt: bool = False, ctrl: bool = False
    ) -> None:
        self.pointer_px = (px, py)
        if self.help_visible:
            self.help_visible = False
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
            tool: Tool = self.tools[3]
        elif shift and button == LEFT:
            tool = self.tools[1]
        elif button == RIGHT and isinstance(self.tool, EyedropperTool):
            tool = self.tools[0]
        else:
            tool = self.tool
        self._active_tool, self._active_button = tool, button
        tool.press(self.ctx, self._pointer(px, py, button, shift, alt, ctrl))

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
                self.stack.push(SetTiles({tile: Tile.from_char(drag.char)}, "drop"))
                self.say(f"dropped {tile_name(Tile.from_char(drag.char))} at ({tile[0]}, {tile[1]})")
            return
        if self._active_tool is not None:
            tool, self._active_tool = self._active_tool, None
            tool.release(self.ctx, self._pointer(px, py, button))

    def scroll(self, px: float, py: float, clicks: float, ctrl: bool = False) -> None:
        if ctrl:
            self.rotate_tile(clockwise=clicks < 0)
            return
        if self._in_canvas(px, py):
            self.mapping = self.mapping.zoomed(ZOOM_STEP**clicks, px, py)

    # -- tools ------------------------------------------------------------------
    def select_tool(self, tool: Tool) -> None:
        self.tool = tool
        self.say(f"tool: {tool.name}")

    def preview(self) -> set[tuple[int, int]]:
        return (self._active_tool or self.tool).preview()

    def rotate_tile(self, clockwise: bool = True) -> None:
        """Rotate the tile under the cursor (one undo step), else the brush."""
        if self.hover is not None:
            x, y = self.hover
            turned = rotate_tile(self.document.board.tile(x, y), clockwise)
            self.stack.push(SetTiles({(x, y): turned}, "rotate tile"))
            self.say(f"({x}, {y}) is now {tile_name(turned)}")
        else:
            self.ctx.brush = rotate_tile(self.ctx.brush, clockwise)
            self.say(f"brush: {tile_name(self.ctx.brush)}")

    # -- keys ---------------------------------------------------------------------
    def key_press(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False) -> None:
        if self.prompt is not None:
            self._prompt_key(key, ctrl)
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
        prompt = self.prompt
        if prompt is None:
            return
        if prompt.choices:
            answer = text.lower()[:1]
            if answer and answer in prompt.choices:
                self.prompt = None
                prompt.on_submit(answer)
            return
        prompt.text += "".join(c for c in text if c.isprintable() and c not in "\r\n")

    def _prompt_key(self, key: str, ctrl: bool) -> None:
        prompt = self.prompt
        assert prompt is not None
        if key == "ESCAPE":
            self.prompt = None
            self.say("cancelled")
        elif key == "BACKSPACE" and not prompt.choices:
            prompt.text = prompt.text[:-1]
        elif key in ("ENTER", "RETURN") and not prompt.choices:
            self.prompt = None
            prompt.on_submit(prompt.text)

    def ask(self, label: str, on_submit: Callable[[str], None], text: str = "", choices: str = "") -> None:
        self.prompt = Prompt(label, on_submit, text, choices)

    # -- actions ---------------------------------------------------------------------
    def run(self, action: str) -> None:
        getattr(self, f"action_{action}")()

    def action_undo(self) -> None:
        label = self.stack.undo()
        self.say(f"undid {label}" if label else "nothing to undo")

    def action_redo(self) -> None:
        label = self.stack.redo()
        self.say(f"redid {label}" if label else "nothing to redo")

    def action_save(self, then: Callable[[], None] | None = None) -> None:
        if self.document.path is None:
            self.action_save_as(then)
            return
        self._save_to(self.document.path, then)

    def action_save_as(self, then: Callable[[], None] | None = None) -> None:
        current = str(self.document.path) if self.document.path is not None else "board.dat"
        self.ask("save as:", lambda text: self._save_to(Path(text.strip()).expanduser(), then), text=current)

    def _save_to(self, path: Path, then: Callable[[], None] | None = None) -> None:
        try:
            self.document.save(path)
        except OSError as exc:
            self.say(f"could not save {path}: {exc.strerror or exc}")
            return
        self.autosaver.discard()
        self.say(f"saved {path}")
        if then is not None:
            then()

    def _unless_unsaved(self, proceed: Callable[[], None]) -> None:
        """Run ``proceed`` now, or after asking what to do with unsaved changes."""
        if not self.document.dirty:
            proceed()
            return

        def answer(choice: str) -> None:
            if choice == "y":
                self.action_save(then=proceed)
            elif choice == "n":
                self.autosaver.discard()
                proceed()

        self.ask("unsaved changes — save them first? y = save, n = discard, Esc = cancel", answer, choices="yn")

    def action_open(self) -> None:
        self._unless_unsaved(
            lambda: self.ask(
                "open:", self.open_path, text=str(self.document.path.parent) + "/" if self.document.path else ""
            )
        )

    def open_path(self, text: str) -> None:
        path = Path(text.strip()).expanduser()
        try:
            opened = Document.open(path)
        except InputError as exc:
            self.say(str(exc))
            return
        self.document.replace(opened.board, path)
        self.stack.clear()
        self.say(f"opened {path}")
        self._offer_autosave()

    def action_new(self) -> None:
        board = self.document.board
        self._unless_unsaved(
            lambda: self.ask("new board, size:", self._new_board, text=f"{board.width}x{board.height}")
        )

    def _new_board(self, text: str) -> None:
        try:
            width, height, _ = parse_size(text)
        except ValueError as exc:
            self.say(str(exc))
            return
        self.document.replace(blank_board(width, height), None)
        self.stack.clear()
        self.say(f"new {width}x{height} board")

    def action_resize(self) -> None:
        board = self.document.board
        self.ask("resize to:", self._resize, text=f"{board.width}x{board.height} anchor=center")

    def _resize(self, text: str) -> None:
        try:
            width, height, anchor = parse_size(text)
        except ValueError as exc:
            self.say(str(exc))
            return
        self.stack.push(Resize(width, height, anchor))
        self.say(f"resized to {width}x{height} (anchor {anchor})")

    def action_quit(self) -> None:
        self.request_close()

    def request_close(self) -> None:
        def close() -> None:
            self.autosaver.discard()
            self.closed = True

        self._unless_unsaved(close)

    def _transform(self, transform: Transform) -> None:
        self.stack.push(TransformBoard(transform))
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

    def action_tool_paint(self) -> None:
        self.select_tool(self.tools[0])

    def action_tool_rectangle(self) -> None:
        self.select_tool(self.tools[1])

    def action_tool_fill(self) -> None:
        self.select_tool(self.tools[2])

    def action_tool_eyedropper(self) -> None:
        self.select_tool(self.tools[3])

    def action_tool_walls(self) -> None:
        self.select_tool(self.tools[4])

    def action_grid(self) -> None:
        self.grid = not self.grid

    def action_fit(self) -> None:
        self.fit()

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
        """Play the board in a background thread (an AI may think for a while); ``work`` reports it."""
        board: Board = self.document.board
        unplayable = board_problems(board, form_status(board) & BoardStatus.NO_GAME)
        if unplayable:
            self.say(f"test-play: {unplayable[0].message}")
            return
        if self._playtest is not None and self._playtest.is_alive():
            self.say("a test-play is already running")
            return
        level = self.level
        box: list[object] = []

        def run() -> None:
            from editor.playtest import play

            try:
                box.append(play(board, level))
            except Exception as exc:  # reported in the status bar, never a crash of the editor
                box.append(exc)

        self._playtest_result = box
        self._playtest = threading.Thread(target=run, name="robots-edit-playtest", daemon=True)
        self._playtest.start()
        self.say(f"test-play at {level.value}: the AI is playing …")

    def wait_playtest(self, timeout: float | None = None) -> None:
        """Block until a running test-play has finished and been reported (tests, scripts)."""
        if self._playtest is not None:
            self._playtest.join(timeout)
        self._poll_playtest()

    def _poll_playtest(self) -> None:
        if self._playtest is None or self._playtest.is_alive():
            return
        from editor.playtest import viewer_available

        self._playtest = None
        result = self._playtest_result[0] if self._playtest_result else None
        if not isinstance(result, tuple):
            self.say(f"test-play failed: {result}")
            return
        game_dir, game = result
        outcome = game.outcome.name.lower() if game.outcome is not None else "?"
        summary = f"played at {game.level.value}: {outcome} after {game.cards_played} cards"
        if viewer_available():
            self.on_playtest(game_dir)
            self.say(f"{summary}; opening the viewer on {game_dir}")
        else:
            self.say(f"{summary}; game in {game_dir} (viewer not installed)")

    # -- autosave ---------------------------------------------------------------------
    def tick(self, now: float | None = None) -> None:
        try:
            written = self.autosaver.tick(now)
        except OSError as exc:  # e.g. a read-only folder: say so, keep editing
            self.say(f"autosave failed: {exc.strerror or exc}")
            return
        if written is not None and self.prompt is None:
            self.say(f"autosaved to {written}")

    def _offer_autosave(self) -> None:
        offer = pending_autosave(self.document.path, self.autosave_folder)
        if offer is None:
            return
        path, board = offer

        def answer(choice: str) -> None:
            if choice == "y":
                self.document.replace(board, self.document.path, clean=False)
                self.stack.clear()
                self.autosaver.adopt(path)
                self.say(f"restored the autosave {path}; save to keep it")
            else:
                path.unlink(missing_ok=True)
                self.say("autosave discarded")

        self.ask(f"an autosave from an earlier session was found ({path.name}) — restore it? y/n", answer, choices="yn")
