"""Pointer input of the editor: hover, tooltips, palette drags, panning, zoom and the active tool.

Screen pixels (top-left origin) in; the tile, edge and palette cell under the pointer out,
and tool strokes onto the document. The controller owns one and forwards the window's
mouse events to it; the view reads its hover state. No GL here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from editor.commands import SetTiles
from editor.layout import inside
from editor.tools import LEFT, MIDDLE, RIGHT, EyedropperTool, Pointer, RectangleTool, Tool, WallTool

if TYPE_CHECKING:
    from editor.controller import EditorController

ZOOM_STEP = 1.15
SCROLL_PX = 40


@dataclass
class PaletteDrag:
    char: str
    px: float
    py: float
    moved: bool = False


class PointerInput:
    """Where the pointer is and what a press, drag, release or wheel turn there does."""

    def __init__(self, ctl: EditorController) -> None:
        self.ctl = ctl
        self.hover: tuple[int, int] | None = None
        self._palette_info = ""  # the palette cell under the pointer, for the status bar
        self.tooltip = ""  # the palette cell or tool button under the pointer
        self.hover_edge: tuple[int, int, object] | None = None
        self.px, self.py = 0.0, 0.0
        self.in_window = True  # False from the window's leave event until the pointer moves in again
        self.palette_drag: PaletteDrag | None = None
        self.space_held = False
        self._active_tool: Tool | None = None
        self._active_button = LEFT
        self._panning = False
        # The button whose drag (tool stroke, pan, palette drag) is under way: a second button
        # pressed meanwhile must neither start another drag nor, released, end this one (a
        # right click in the middle of a left paint stroke once cut the stroke short).
        self._held: str | None = None

    @property
    def hover_info(self) -> str:
        """The tile under the pointer and its coordinates, for the status bar.

        Read from the board each time, not kept from the last motion: a drop, an undo or a
        shortcut changes the tile under a pointer that has not moved, and the readout must say so.
        """
        board = self.ctl.document.board
        if self.hover is not None and board.in_bounds(*self.hover):
            tile = board.tile(*self.hover)
            return f"{self.ctl.game.where(self.hover)}  {self.ctl.game.cell_name(tile)}  '{tile.char}'"
        return self._palette_info

    def _in_canvas(self, px: float, py: float) -> bool:
        return inside(self.ctl.layout.canvas, px, py)

    def _pointer(
        self, px: float, py: float, button: str, shift: bool = False, alt: bool = False, ctrl: bool = False
    ) -> Pointer:
        tile = self.ctl.mapping.tile_at(px, py)
        tolerance = self.ctl.mapping.tile_px / 2 if isinstance(self._active_tool or self.ctl.tool, WallTool) else 8.0
        edge = self.ctl.mapping.edge_at(px, py, tolerance)
        return Pointer(tile, edge, button, shift, alt, ctrl)

    # -- mouse ------------------------------------------------------------------
    def motion(self, px: float, py: float) -> None:
        self.px, self.py, self.in_window = px, py, True
        self._locate(px, py)

    def refresh(self) -> None:
        """What is under a pointer that has not moved (the board moved under it: a resize, a zoom by
        key); nothing when the pointer has left the window."""
        if self.in_window:
            self._locate(self.px, self.py)

    def leave(self) -> None:
        """The pointer left the window: no tile is under it, so the status bar shows none and
        ``R`` turns the brush, not the tile the pointer was last over."""
        self.in_window = False
        self.hover = self.hover_edge = None
        self.tooltip = self._palette_info = ""

    def _locate(self, px: float, py: float) -> None:
        tile = self.ctl.mapping.tile_at(px, py)
        board = self.ctl.document.board
        self.tooltip = ""
        if self._in_canvas(px, py) and board.in_bounds(*tile):
            self.hover = tile
            self.hover_edge = (
                self.ctl.mapping.edge_at(px, py, self.ctl.mapping.tile_px / 2)
                if isinstance(self.ctl.tool, WallTool)
                else None
            )
            self._palette_info = ""
            return
        self.hover = None
        self.hover_edge = None
        self._palette_info = ""
        if inside(self.ctl.layout.palette, px, py):
            char = self.ctl.layout.palette_char_at(px, py)
            if char is not None:
                name = self.ctl.game.cell_name(self.ctl.game.cell(char))
                self.tooltip = f"{name}  '{char}' — click: brush, drag: drop on the board"
                self._palette_info = f"palette: {name}  '{char}'"
            index = self.ctl.layout.tool_at(px, py, len(self.ctl.tools))
            if index is not None:
                tool = self.ctl.tools[index]
                self.tooltip = f"{tool.help}   [{tool.key}]"

    def press(
        self, px: float, py: float, button: str, shift: bool = False, alt: bool = False, ctrl: bool = False
    ) -> None:
        self.px, self.py = px, py
        if self._held is not None and button != self._held:
            return  # another button during a drag: the drag goes on undisturbed
        if self.ctl.help_visible:
            self.ctl.help_visible = False
            return
        if self._over_overlay(px, py):
            if button == LEFT:
                self._overlay_click(px, py)
            return  # the browser or command palette covers the board: a click there never reaches it
        if button == MIDDLE or (button == LEFT and self.space_held):
            self._panning, self._held = True, button
            return
        if inside(self.ctl.layout.palette, px, py):
            if self._palette_press(px, py):
                self._held = button
            return
        if not self._in_canvas(px, py):
            return
        if alt and button == LEFT:
            tool: Tool = self.ctl.tool_of(EyedropperTool)
        elif shift and button == LEFT:
            tool = self.ctl.tool_of(RectangleTool)
        elif button == RIGHT and self.ctl.right_click == "pick" and not isinstance(self.ctl.tool, WallTool):
            tool = self.ctl.tool_of(EyedropperTool)
        elif button == RIGHT and isinstance(self.ctl.tool, EyedropperTool):
            tool = self.ctl.tools[0]
        else:
            tool = self.ctl.tool
        self._active_tool, self._active_button, self._held = tool, button, button
        tool.press(self.ctl.ctx, self._pointer(px, py, button, shift, alt, ctrl))

    def _over_overlay(self, px: float, py: float) -> bool:
        """Whether the file browser or the command palette is shown, and the pointer is over it."""
        prompt = self.ctl.prompt
        shown = prompt is not None and (prompt.listing is not None or prompt.menu is not None)
        return shown and inside(self.ctl.layout.browser, px, py)

    def _overlay_click(self, px: float, py: float) -> None:
        """A click on an entry of the file browser (enter a folder, take a file) or of the command
        palette (run that command, as Enter on it does)."""
        prompt = self.ctl.prompt
        assert prompt is not None
        if prompt.menu is not None:
            entry = self.ctl.layout.browser_entry_at(px, py, len(prompt.menu_items()))
            if entry is not None:
                prompt.menu_selected = entry
                self.ctl.prompts.key("ENTER")
        elif prompt.listing is not None:
            entry = self.ctl.layout.browser_entry_at(px, py, len(prompt.listing.entries))
            if entry is not None:
                self.ctl.prompts.pick(prompt.listing.entries[entry].path)

    def _palette_press(self, px: float, py: float) -> bool:
        """A press on the palette: a tile becomes the brush (and may be dragged: True), a tool
        button selects its tool."""
        char = self.ctl.layout.palette_char_at(px, py)
        if char is not None:
            self.ctl.ctx.brush = self.ctl.game.cell(char)
            self.palette_drag = PaletteDrag(char, px, py)
            brush = self.ctl.game.cell_name(self.ctl.ctx.brush)
            self.ctl.say(f"brush: {brush} — drag it onto the board or paint with it")
            return True
        index = self.ctl.layout.tool_at(px, py, len(self.ctl.tools))
        if index is not None:
            self.ctl.select_tool(self.ctl.tools[index])
        return False

    def drag(self, px: float, py: float, dx: float, dy: float, button: str) -> None:
        """``dx``/``dy`` in screen pixels (y downwards)."""
        self.motion(px, py)
        if self._panning:
            self.ctl.mapping = self.ctl.mapping.panned(dx, dy)
            return
        if self.palette_drag is not None:
            self.palette_drag.px, self.palette_drag.py, self.palette_drag.moved = px, py, True
            return
        if self._active_tool is not None:
            self._active_tool.drag(self.ctl.ctx, self._pointer(px, py, self._active_button))

    def buttons_up(self, px: float, py: float) -> None:
        """The window saw the pointer move with no button held: a drag whose release never came
        (the window manager took the pointer away mid-drag) ends here, so no button stays dead."""
        if self._held is not None:
            self.release(px, py, self._held)

    def release(self, px: float, py: float, button: str) -> None:
        if self._held is not None and button != self._held:
            return  # the release of a button pressed during another one's drag
        self._held = None
        if self._panning:
            self._panning = False
            return
        if self.palette_drag is not None:
            drag, self.palette_drag = self.palette_drag, None
            tile = self.ctl.mapping.tile_at(px, py)
            if drag.moved and self._in_canvas(px, py) and self.ctl.document.board.in_bounds(*tile):
                cell = self.ctl.game.cell(drag.char)
                self.ctl.document.push(SetTiles({tile: cell}, "drop"))
                self.ctl.say(f"dropped {self.ctl.game.cell_name(cell)} at {self.ctl.game.where(tile)}")
            return
        if self._active_tool is not None:
            tool, self._active_tool = self._active_tool, None
            tool.release(self.ctl.ctx, self._pointer(px, py, button))

    def scroll(
        self, px: float, py: float, clicks: float, ctrl: bool = False, shift: bool = False, alt: bool = False,
        clicks_x: float = 0.0,
    ) -> None:  # fmt: skip
        """Tiled's habits: Ctrl+wheel zooms around the pointer, the wheel scrolls (Shift: sideways),
        Alt+wheel rotates the tile under the pointer. Under F1's help, which covers the board,
        the wheel does nothing (it scrolled and zoomed the hidden board)."""
        if self.ctl.help_visible:
            return
        if alt:
            self.ctl.rotate_tile(clockwise=clicks < 0)
            return
        if not self._in_canvas(px, py) or self._over_overlay(px, py):
            return
        if ctrl:
            self.ctl.mapping = self.ctl.mapping.zoomed(ZOOM_STEP**clicks, px, py)
        elif shift:
            self.ctl.mapping = self.ctl.mapping.panned(clicks * SCROLL_PX, 0)
        else:
            self.ctl.mapping = self.ctl.mapping.panned(-clicks_x * SCROLL_PX, clicks * SCROLL_PX)

    def preview(self) -> set[tuple[int, int]]:
        return (self._active_tool or self.ctl.tool).preview()

    def preview_box(self) -> tuple[int, int, int, int] | None:
        return (self._active_tool or self.ctl.tool).preview_box()

    def preview_edges(self) -> list[tuple[int, int, object]]:
        tool = self._active_tool
        return list(tool.preview_edges()) if isinstance(tool, WallTool) else []
