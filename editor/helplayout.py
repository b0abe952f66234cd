"""Where F1's help puts each line, in pure code (no GL): the view draws what this decides.

The help is two columns of key + text in a box over the window. Its lines were cut with ``…`` to
fit a fixed type size ("make the arena point-sy…ric" at 1280x800); now the layout tries a few type
sizes, largest first, and wraps a text that is too wide for its column onto further lines, so no
line is ever cut: the first size whose wrapped lines fit the box's height wins. A word is never
split; the smallest size always wraps (the box never is narrower than 600 px, 640x480 windows).

Widths come from a ``measure(text, size, bold)`` function, so tests can lay the help out at any
window size with the real font (or a stand-in) and check every line against its column.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from editor.keymap import MOUSE_HELP, SHORTCUTS
from editor.tools import TOOLS

if TYPE_CHECKING:
    from editor.controller import EditorController

Measure = Callable[[str, int, bool], float]

#: Type sizes tried, largest first (points).
SIZES = (10, 9, 8, 7)
TITLE_TOP = 18.0  # the title's top, from the box's top
ROWS_TOP = 62.0  # the first line's top
FOOTER = 40.0  # room kept under the lines for "press F1 or Esc to close"
MARGIN = 24.0  # left and right inside the box
KEY_GAP = 12.0  # between a column's keys and its texts
COLUMN_GAP = 24.0  # between the columns


def help_rows(ctl: EditorController) -> list[tuple[str, str]]:
    """(keys, what they do) for every shortcut the window's game offers, the mouse's habits, the
    game's brush keys, actions and own tools."""
    rows = [(s.label, s.help) for s in SHORTCUTS if ctl.available(s.action)] + list(MOUSE_HELP)
    brush_keys = list(ctl.game.brush_keys)
    if brush_keys:
        first, last = brush_keys[0], brush_keys[-1]
        rows.append((f"{first}-{last}" if len(brush_keys) > 2 else " ".join(brush_keys), ctl.game.brush_keys_help))
    rows += [(action.key, action.help) for action in ctl.game.actions]
    rows += [(tool.key, tool.help) for tool in ctl.tools if type(tool) not in TOOLS]
    return rows


def line_height(size: int) -> float:
    """The step from one line to the next at ``size`` points (a pyglet label is ~1.6x its size tall)."""
    return round(size * 1.75 + 2)


def help_box(width: int, height: int) -> tuple[float, float, float, float]:
    """The help's box (left, top, width, height) in a window of ``width`` x ``height``."""
    box_w, box_h = min(width - 40, 900), min(height - 40, 640)
    return (width - box_w) / 2, (height - box_h) / 2, float(box_w), float(box_h)


@dataclass(frozen=True)
class HelpLine:
    """One drawn line: the keys (empty on a text's further lines) and the text, with their places
    in the window (left, top) and the room the text has."""

    keys: str
    text: str
    keys_left: float
    text_left: float
    top: float
    room: float


@dataclass(frozen=True)
class HelpLayout:
    size: int
    box: tuple[float, float, float, float]
    lines: tuple[HelpLine, ...]
    fits: bool  # False only where even the smallest size runs past the box's bottom


def wrap(text: str, size: int, room: float, measure: Measure) -> list[str] | None:
    """``text`` in lines of at most ``room`` pixels, broken between words; None if a word is wider."""
    if measure(text, size, False) <= room:  # most texts: one measure, no wrapping
        return [" ".join(text.split()) or ""]
    lines: list[str] = []
    for word in text.split():
        if measure(word, size, False) > room:
            return None
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and measure(candidate, size, False) <= room:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines or [""]


def _try(
    rows: Sequence[tuple[str, str]], size: int, box: tuple[float, float, float, float], measure: Measure
) -> tuple[list[HelpLine], bool] | None:
    """The lines at ``size``, and whether they fit the box's height; None if a word is too wide."""
    bx, by, box_w, box_h = box
    key_width = max((measure(keys, size, True) for keys, _ in rows), default=0.0) + KEY_GAP
    column_w = (box_w - 2 * MARGIN - COLUMN_GAP) / 2
    room = column_w - key_width
    wrapped = []
    for keys, text in rows:
        parts = wrap(text, size, room, measure)
        if parts is None:
            return None
        wrapped.append((keys, parts))
    total = sum(len(parts) for _, parts in wrapped)
    # The first column takes entries until it holds half the lines (never an entry split over both).
    first, held = 0, 0
    while first < len(wrapped) and held + len(wrapped[first][1]) <= (total + 1) // 2:
        held += len(wrapped[first][1])
        first += 1
    step = line_height(size)
    lines: list[HelpLine] = []
    tallest = 0
    for column, entries in enumerate((wrapped[:first], wrapped[first:])):
        left = bx + MARGIN + column * (column_w + COLUMN_GAP)
        row = 0
        for keys, parts in entries:
            for index, part in enumerate(parts):
                top = by + ROWS_TOP + row * step
                lines.append(HelpLine(keys if index == 0 else "", part, left, left + key_width, top, room))
                row += 1
        tallest = max(tallest, row)
    return lines, ROWS_TOP + tallest * step + FOOTER <= box_h


def layout_help(rows: Sequence[tuple[str, str]], width: int, height: int, measure: Measure) -> HelpLayout:
    """The largest type size at which every line of ``rows`` fits its column and the box, wrapped
    where needed; where none fits the box's height, the smallest (its lines still uncut)."""
    box = help_box(width, height)
    last: HelpLayout | None = None
    for size in SIZES:
        tried = _try(rows, size, box, measure)
        if tried is None:
            continue
        lines, fits = tried
        last = HelpLayout(size, box, tuple(lines), fits)
        if fits:
            return last
    if last is None:  # a word wider than a column even at the smallest size: one column of it
        raise ValueError("a help word is wider than the help's column at every size")
    return last
