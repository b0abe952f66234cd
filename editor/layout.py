"""Where the editor's panels are on screen (top-left origin), and the palette's hit-testing. No GL."""

from __future__ import annotations

from dataclasses import dataclass

from engine.model import BOARD_CHARS

Rect = tuple[float, float, float, float]  # left, top, width, height

#: Palette order: floor, the hazards, starts in all four facings, rotators, belts, pushers,
#: crushers, then floor with each written wall combination (b-p). 'a' (floor, no walls) is ' '.
PALETTE_CHARS: tuple[str, ...] = (
    " ",
    "H",
    "O",
    "Z",
    "S",
    "T",
    "U",
    "V",
    "L",
    "R",
    "<",
    ">",
    "^",
    "v",
    "C",
    "D",
    "E",
    "F",
    "M",
    "N",
    *"bcdefghijklmnop",
)
assert set(PALETTE_CHARS) == set(BOARD_CHARS) - {"a"}

PALETTE_COLUMNS = 4
CELL_PX = 46
MIN_CELL_PX = 22
CELL_GAP = 6
PANEL_PAD = 10
PALETTE_WIDTH = PANEL_PAD * 2 + PALETTE_COLUMNS * CELL_PX + (PALETTE_COLUMNS - 1) * CELL_GAP
SIDE_WIDTH = 290
NARROW_SIDE_WIDTH = 230  # windows narrower than WIDE_PX keep more room for the board
WIDE_PX = 1200
STATUS_HEIGHT = 48
TOOL_ROW_HEIGHT = 30
TOOL_COUNT = 5
TITLE_HEIGHT = 26
BROWSER_ROW = 22
BROWSER_TOP_PAD = 40
MIN_BROWSER_WIDTH = 480  # narrower canvases lend the browser the side panel's room too


def inside(rect: Rect, px: float, py: float) -> bool:
    left, top, width, height = rect
    return left <= px < left + width and top <= py < top + height


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    #: The game's palette (``editor.games``): the robot game's tiles unless told.
    palette_chars: tuple[str, ...] = PALETTE_CHARS

    @property
    def side_width(self) -> int:
        return SIDE_WIDTH if self.width >= WIDE_PX else NARROW_SIDE_WIDTH

    def _cell_room(self, tool_columns: int) -> float:
        """The palette cell size that leaves room for the tools in ``tool_columns`` columns (unclamped)."""
        rows = -(-len(self.palette_chars) // PALETTE_COLUMNS)
        tool_rows = -(-TOOL_COUNT // tool_columns)
        tools = 2 * PANEL_PAD + TITLE_HEIGHT + tool_rows * (TOOL_ROW_HEIGHT + 4)
        room = self.height - STATUS_HEIGHT - TITLE_HEIGHT - PANEL_PAD - tools
        return room / rows - CELL_GAP

    @property
    def tool_columns(self) -> int:
        """One column of tool buttons, or two on windows too short for one below the smallest
        palette cells (at 640x480 the eyedropper and walls were below the window's edge)."""
        return 1 if self._cell_room(1) >= MIN_CELL_PX else 2

    @property
    def cell_px(self) -> float:
        """Palette cells shrink on short windows so that every tile and every tool button fits."""
        return max(float(MIN_CELL_PX), min(float(CELL_PX), self._cell_room(self.tool_columns)))

    @property
    def palette(self) -> Rect:
        return (0, 0, PALETTE_WIDTH, self.height - STATUS_HEIGHT)

    @property
    def side(self) -> Rect:
        return (self.width - self.side_width, 0, self.side_width, self.height - STATUS_HEIGHT)

    @property
    def canvas(self) -> Rect:
        return (PALETTE_WIDTH, 0, max(1, self.width - PALETTE_WIDTH - self.side_width), self.height - STATUS_HEIGHT)

    @property
    def browser(self) -> Rect:
        """The file browser / command palette panel, over the canvas, above the status bar; on a
        narrow window over the side panel too (nothing there is needed while choosing a file; at
        640x480 the canvas alone left 166 pixels, and recent files showed as "chop.da…er-work)")."""
        left, top, width, height = self.canvas
        if width < MIN_BROWSER_WIDTH:
            width += self.side_width
        return (left + 12, top + 12, width - 24, height - 24)

    def browser_row(self, index: int) -> Rect:
        left, top, width, _ = self.browser
        return (left + 8, top + BROWSER_TOP_PAD + index * BROWSER_ROW, width - 16, BROWSER_ROW)

    @property
    def browser_rows(self) -> int:
        return max(1, int((self.browser[3] - BROWSER_TOP_PAD - 8) // BROWSER_ROW))

    def browser_entry_at(self, px: float, py: float, count: int) -> int | None:
        for index in range(min(count, self.browser_rows)):
            if inside(self.browser_row(index), px, py):
                return index
        return None

    @property
    def status(self) -> Rect:
        return (0, self.height - STATUS_HEIGHT, self.width, STATUS_HEIGHT)

    def palette_cell(self, index: int) -> Rect:
        row, column = divmod(index, PALETTE_COLUMNS)
        cell = self.cell_px
        return (
            PANEL_PAD + column * (CELL_PX + CELL_GAP) + (CELL_PX - cell) / 2,
            TITLE_HEIGHT + PANEL_PAD + row * (cell + CELL_GAP),
            cell,
            cell,
        )

    def palette_char_at(self, px: float, py: float) -> str | None:
        for index, char in enumerate(self.palette_chars):
            if inside(self.palette_cell(index), px, py):
                return char
        return None

    @property
    def tools_top(self) -> float:
        rows = -(-len(self.palette_chars) // PALETTE_COLUMNS)
        return TITLE_HEIGHT + PANEL_PAD + rows * (self.cell_px + CELL_GAP) + 2 * PANEL_PAD + TITLE_HEIGHT

    def tool_button(self, index: int) -> Rect:
        columns = self.tool_columns
        row, column = divmod(index, columns)
        width = (PALETTE_WIDTH - 2 * PANEL_PAD - (columns - 1) * CELL_GAP) / columns
        return (
            PANEL_PAD + column * (width + CELL_GAP),
            self.tools_top + row * (TOOL_ROW_HEIGHT + 4),
            width,
            TOOL_ROW_HEIGHT,
        )

    def tool_at(self, px: float, py: float, count: int) -> int | None:
        for index in range(count):
            if inside(self.tool_button(index), px, py):
                return index
        return None
