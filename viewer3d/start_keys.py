"""Keyboard focus on the start screen (no GL): which box has the focus after Tab, Shift+Tab or an
arrow key, so that a game can be chosen and started without a mouse.

The focus is a box's action (``board:chop.dat``, ``ai:planner``, ``start``...), so it survives a
new layout (a resized window, a changed label). Tab walks the controls in reading order, the
thumbnail grid counting as one stop (it lands on the chosen board or arena: twenty thumbnails are
not twenty Tabs), then Start, Open, the recent games and the game tabs. Arrow keys move to the
nearest box in their direction, so they walk the grid by rows and columns and the option rows
sideways. Pure functions of the boxes: ``viewer3d.start.StartScreen`` applies them.
"""

from __future__ import annotations

from viewer3d.start_open import Box

#: The thumbnails' kinds: a grid of them is one Tab stop.
GRID = ("board", "arena")
#: Arrow key name -> direction (x right, y down, as the boxes' top-left pixels).
ARROWS = {"LEFT": (-1, 0), "RIGHT": (1, 0), "UP": (0, -1), "DOWN": (0, 1)}
ENTER = ("ENTER", "RETURN", "NUM_ENTER")
#: After the options: Start, Open, the recent games, the game tabs (the Tron tab lays its theme
#: row out after its Open column; Tab still reaches it before Start).
_LAST = {"start": 1, "open": 2, "recent": 3, "game": 4}


def _kind(action: str) -> str:
    return action.partition(":")[0]


def tab_order(boxes: list[Box]) -> list[str]:
    """The Tab stops' actions in order; the grid is named by its first thumbnail."""
    ordered = sorted(boxes, key=lambda b: _LAST.get(_kind(b.action), 0))  # stable: layout order kept
    stops: list[str] = []
    grid_seen = False
    for box in ordered:
        if _kind(box.action) in GRID:
            if grid_seen:
                continue
            grid_seen = True
        stops.append(box.action)
    return stops


def tab(boxes: list[Box], focus: str | None, home: str | None, back: bool = False) -> str | None:
    """The focus after Tab (``back``: Shift+Tab), wrapping round; entering the grid lands on ``home``
    (the chosen thumbnail) if it is shown. No focus: Tab takes the first stop, Shift+Tab the last."""
    stops = tab_order(boxes)
    if not stops:
        return None
    actions = {b.action for b in boxes}
    if focus is None or focus not in actions:
        at = len(stops) if back else -1
    elif _kind(focus) in GRID:
        at = next(i for i, s in enumerate(stops) if _kind(s) in GRID)
    else:
        at = stops.index(focus)
    target = stops[(at + (-1 if back else 1)) % len(stops)]
    if _kind(target) in GRID and home in actions:
        return home
    return target


def arrow(boxes: list[Box], focus: str | None, name: str, home: str | None) -> str | None:
    """The focus after an arrow key: the nearest box in its direction, boxes in line with the focus
    (in its row for Left and Right, its column for Up and Down) before boxes beside it, or the
    focus itself at the edge. No focus yet: ``home`` (else the first box)."""
    by_action = {b.action: b for b in boxes}
    current = by_action.get(focus) if focus is not None else None
    if current is None:
        return home if home in by_action else (boxes[0].action if boxes else None)
    dx, dy = ARROWS[name]
    cx, cy = current.left + current.width / 2, current.top + current.height / 2
    best: tuple[float, str] | None = None
    for box in boxes:
        if box.action == current.action or not _ahead(box, cx, cy, dx, dy):
            continue
        along = (box.left + box.width / 2 - cx) * dx + (box.top + box.height / 2 - cy) * dy
        score = along + 2 * _gap_across(current, box, dx) + 0.1 * _offset_across(current, box, dx)
        if best is None or score < best[0]:
            best = (score, box.action)
    return best[1] if best is not None else current.action


def _ahead(box: Box, cx: float, cy: float, dx: int, dy: int) -> bool:
    """Whether all of ``box`` lies beyond the centre (cx, cy) in direction (dx, dy): a box in the
    same row is never 'below', however tall the focused one is."""
    if dx > 0:
        return box.left > cx
    if dx < 0:
        return box.left + box.width < cx
    if dy > 0:
        return box.top > cy
    return box.top + box.height < cy


def _gap_across(a: Box, b: Box, dx: int) -> float:
    """How far apart two boxes are across the direction (0 where they overlap): in line or not."""
    if dx:
        return max(0.0, b.top - (a.top + a.height), a.top - (b.top + b.height))
    return max(0.0, b.left - (a.left + a.width), a.left - (b.left + b.width))


def _offset_across(a: Box, b: Box, dx: int) -> float:
    """How far apart two boxes' centres are across the direction (breaks ties among boxes in line)."""
    if dx:
        return abs(b.top + b.height / 2 - a.top - a.height / 2)
    return abs(b.left + b.width / 2 - a.left - a.width / 2)
