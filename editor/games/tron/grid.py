"""A Tron arena as the shared editor edits it: a grid of cells, converted to and from the engine's
``Arena`` (whose parser and writer read and write the file).

A cell is free (``.``), blocked (``#``) or the start of bot ``n`` with its facing (``1E``, ``2W``:
the start lines ``POS n x,y DIR`` of the file, drawn where they are). Starts live in the grid so
that painting, the undo stack, transforms and the pictures treat them like any other cell; the
game's rules that cells do not know by themselves (one start per bot, bots numbered 1..n without
gaps, as the file format demands) are kept by :func:`put_cells`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import chain
from operator import attrgetter

import numpy as np

from editor.games.base import Transform
from editor.spans import Spans, fill_row
from engine.tron.arena import Arena, Heading, Start

Position = tuple[int, int]
FREE, BLOCKED = ".", "#"
#: Starts the editor can draw and give keys to (1-8) and that a file it opens may hold.
MAX_BOTS = 32


@dataclass(frozen=True)
class TronCell:
    """One field. ``short`` remembers a start line's one-letter spelling (``N``) so that an arena
    opened and saved again is the same file; it does not change the cell's picture."""

    char: str
    short: bool = False

    @property
    def bot(self) -> int | None:
        return int(self.char[:-1]) if self.char[0].isdigit() else None

    @property
    def heading(self) -> Heading | None:
        if self.bot is None:
            return None
        return next(h for h in Heading if h.letter == self.char[-1])

    @property
    def blocked(self) -> bool:
        return self.char == BLOCKED


@cache
def start_cell(bot: int, heading: Heading, short: bool = False) -> TronCell:
    return TronCell(f"{bot}{heading.letter}", short)


FREE_CELL, BLOCKED_CELL = TronCell(FREE), TronCell(BLOCKED)
#: Every char a grid may hold, each with a picture.
CHARS: tuple[str, ...] = (FREE, BLOCKED, *(f"{b}{h.letter}" for b in range(1, MAX_BOTS + 1) for h in Heading))


def cell_of(char: str) -> TronCell:
    """The cell for a char (ValueError for one that is not a field of an arena)."""
    if char not in CHARS:
        raise ValueError(f"unknown arena cell {char!r}")
    return TronCell(char)


@dataclass(frozen=True)
class TronGrid:
    """The arena being edited: ``rows[y][x]`` is the field at 0-based ``(x, y)``."""

    rows: tuple[tuple[TronCell, ...], ...]

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def tile(self, x: int, y: int) -> TronCell:
        return self.rows[y][x]

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def starts(self) -> dict[int, tuple[Position, TronCell]]:
        """Each bot's start: its position and cell (found once per grid; ``put_cells`` hands a new
        grid its starts, so painting never scans the whole arena)."""
        found = self.__dict__.get("_starts")
        if found is None:
            found = {
                cell.bot: ((x, y), cell) for y, row in enumerate(self.rows) for x, cell in enumerate(row) if cell.bot
            }
            self.__dict__["_starts"] = found
        return dict(found)


def blank_grid(width: int, height: int) -> TronGrid:
    Arena(width, height, bytes(width * height))  # the engine's size limits, with its message
    return TronGrid(tuple(tuple(FREE_CELL for _ in range(width)) for _ in range(height)))


def grid_of(arena: Arena) -> TronGrid:
    rows = [[BLOCKED_CELL if b else FREE_CELL for b in arena.blocked[y * arena.width : (y + 1) * arena.width]]
            for y in range(arena.height)]  # fmt: skip
    for bot, s in enumerate(arena.starts, 1):
        rows[s.y - 1][s.x - 1] = start_cell(bot, s.heading, s.short)
    return TronGrid(tuple(tuple(row) for row in rows))


_char = attrgetter("char")
#: Each char's byte in ``Arena.blocked``.
_BLOCKED_BYTE = {char: int(char == BLOCKED) for char in CHARS}


def arena_of(grid: TronGrid) -> Arena:
    """The engine's arena of a grid. Every save and autosave (each second while editing, on the
    window's thread) goes through here, so the fields are mapped by C loops (``map``), not one
    Python expression per field: 23 -> 11 ms on 512x512."""
    blocked = bytes(map(_BLOCKED_BYTE.__getitem__, map(_char, chain.from_iterable(grid.rows))))
    starts = grid.starts()
    ordered = tuple(
        Start(x + 1, y + 1, cell.heading, cell.short)
        for _, ((x, y), cell) in sorted(starts.items())
        if cell.heading is not None
    )
    return Arena(grid.width, grid.height, blocked, ordered)


def put_cells(grid: TronGrid, changes: Mapping[Position, TronCell]) -> tuple[TronGrid, frozenset[Position]]:
    """``grid`` with cells changed, keeping one start per bot and the bots numbered 1..n.

    A start put down moves that bot's start (the old field becomes free); of several starts of one
    bot in one change (a drag), the last counts. Removing a start renumbers the bots after it, as
    the file's start lines must number bots 1..n. Returns the grid (``grid`` itself when nothing
    changed) and the positions changed besides ``changes``."""
    width, height = grid.width, grid.height
    wanted: dict[Position, TronCell] = {}
    placed: dict[int, Position] = {}
    for pos, cell in changes.items():
        x, y = pos
        if not (0 <= x < width and 0 <= y < height):
            continue
        if cell.bot is not None:
            if cell.bot in placed:
                wanted.pop(placed[cell.bot], None)  # an earlier field of the same stroke step
            placed[cell.bot] = pos
        wanted[pos] = cell
    rows: dict[int, list[TronCell]] = {}  # only the rows that change are copied

    def put(x: int, y: int, cell: TronCell) -> None:
        rows.setdefault(y, list(grid.rows[y]))[x] = cell

    def at(x: int, y: int) -> TronCell:
        return rows[y][x] if y in rows else grid.rows[y][x]

    starts = grid.starts()
    others: set[Position] = set()
    for bot, ((x, y), _) in list(starts.items()):
        if bot in placed and placed[bot] != (x, y) and (x, y) not in wanted:
            put(x, y, FREE_CELL)
            others.add((x, y))
            del starts[bot]
    for (x, y), cell in wanted.items():
        old = at(x, y)
        if old != cell:
            if old.bot is not None and starts.get(old.bot, ((-1, -1), old))[0] == (x, y):
                del starts[old.bot]
            put(x, y, cell)
    if not rows:
        return grid, frozenset()
    for pos, cell in wanted.items():
        if cell.bot is not None:
            starts[cell.bot] = (pos, cell)
    numbered: dict[int, tuple[Position, TronCell]] = {}
    for number, (bot, ((x, y), cell)) in enumerate(sorted(starts.items()), 1):
        if bot != number and cell.heading is not None:
            cell = start_cell(number, cell.heading, cell.short)
            put(x, y, cell)
            if (x, y) not in wanted:
                others.add((x, y))
        numbered[number] = ((x, y), cell)
    new = TronGrid(tuple(tuple(rows[y]) if y in rows else row for y, row in enumerate(grid.rows)))
    new.__dict__["_starts"] = numbered
    return new, frozenset(others)


def _cells(grid: TronGrid) -> np.ndarray:
    """The grid's cells as a ``height`` x ``width`` object array (the cells themselves, not copies:
    a start's ``short`` spelling travels with it). Built in C: ~3 ms for 512x512."""
    flat = np.fromiter(chain.from_iterable(grid.rows), dtype=object, count=grid.width * grid.height)
    return flat.reshape(grid.height, grid.width)


def _grid_of_cells(cells: np.ndarray, starts: dict[int, tuple[Position, TronCell]]) -> TronGrid:
    """A grid of an object array whose starts the caller knows (no scan of the arena for them)."""
    grid = TronGrid(tuple(map(tuple, cells.tolist())))
    grid.__dict__["_starts"] = starts
    return grid


def _numbered(moved: list[tuple[int, Position, TronCell]], cells: np.ndarray) -> dict[int, tuple[Position, TronCell]]:
    """Write the starts ``(bot, new position, cell)`` into ``cells``, numbered 1..n in the order of
    their old numbers (the file's start lines number bots without gaps)."""
    starts: dict[int, tuple[Position, TronCell]] = {}
    for number, (_, (x, y), cell) in enumerate(sorted(moved, key=lambda m: m[0]), 1):
        if cell.bot != number and cell.heading is not None:
            cell = start_cell(number, cell.heading, cell.short)
        cells[y, x] = cell
        starts[number] = ((x, y), cell)
    return starts


def resized_grid(grid: TronGrid, width: int, height: int, offset: Position) -> TronGrid:
    """``grid`` cut or padded with free fields to ``width`` x ``height``, its top-left corner put at
    ``offset`` (negative: cut). One array slice, whatever the size; only the starts (at most
    ``MAX_BOTS``) are looked at one by one: those cut off go, the others are renumbered 1..n."""
    Arena(width, height, bytes(width * height))  # the engine's size limits, with its message
    ox, oy = offset
    old = _cells(grid)
    new = np.full((height, width), FREE_CELL, dtype=object)
    x0, x1 = max(0, ox), min(width, grid.width + ox)
    y0, y1 = max(0, oy), min(height, grid.height + oy)
    if x0 < x1 and y0 < y1:
        new[y0:y1, x0:x1] = old[y0 - oy : y1 - oy, x0 - ox : x1 - ox]
    moved = [
        (bot, (x + ox, y + oy), cell)
        for bot, ((x, y), cell) in grid.starts().items()
        if 0 <= x + ox < width and 0 <= y + oy < height
    ]
    return _grid_of_cells(new, _numbered(moved, new))


def _moved(transform: Transform, width: int, height: int) -> Callable[[int, int], Position]:
    """Where the field at old ``(x, y)`` lands under ``transform`` (0-based)."""
    if transform is Transform.ROTATE_CW:
        return lambda x, y: (height - 1 - y, x)
    if transform is Transform.ROTATE_CCW:
        return lambda x, y: (y, width - 1 - x)
    if transform is Transform.MIRROR_H:
        return lambda x, y: (width - 1 - x, y)
    return lambda x, y: (x, height - 1 - y)


_ROTATIONS = {Transform.ROTATE_CW: -1, Transform.ROTATE_CCW: 1}


def transformed_grid(grid: TronGrid, transform: Transform, turn: Callable[[TronCell], TronCell]) -> TronGrid:
    """``grid`` rotated or mirrored as one array operation; ``turn`` gives a start's cell its new
    facing (free and blocked fields look the same every way, so only the starts are turned)."""
    old = _cells(grid)
    if transform in _ROTATIONS:
        new = np.rot90(old, _ROTATIONS[transform]).copy()
    else:
        new = (old[:, ::-1] if transform is Transform.MIRROR_H else old[::-1, :]).copy()
    to = _moved(transform, grid.width, grid.height)
    moved = [(bot, to(x, y), turn(cell)) for bot, ((x, y), cell) in grid.starts().items()]
    return _grid_of_cells(new, _numbered(moved, new))


def symmetric_grid(grid: TronGrid) -> TronGrid:
    """Every free field whose 180-degree image is blocked, blocked too (starts stay): array masks."""
    chars = np.fromiter(map(_char, chain.from_iterable(grid.rows)), dtype=object, count=grid.width * grid.height)
    chars = chars.reshape(grid.height, grid.width)
    blocked = chars == BLOCKED
    newly = (chars == FREE) & blocked[::-1, ::-1]
    if not newly.any():
        return grid
    cells = _cells(grid).copy()
    cells[newly] = BLOCKED_CELL
    return _grid_of_cells(cells, grid.starts())


def fill_cells(grid: TronGrid, area: Spans, cell: TronCell) -> tuple[TronGrid, frozenset[Position]]:
    """``grid`` with every field of ``area`` set to ``cell``, as ``put_cells`` would set them, but
    a run per tuple slice: a fill of a 512x512 arena is 512 runs, not 262,144 fields. Only the
    starts it covers (at most ``MAX_BOTS``) go through ``put_cells``, which keeps one start per
    bot and the numbering."""
    if cell.bot is not None:  # a start is one field however big the area: the last one counts
        last = max(((x, y) for y, runs in area.rows.items() for x in (runs[-1][1] - 1,)), key=lambda p: (p[1], p[0]))
        return put_cells(grid, {last: cell})
    covered = {
        pos: start
        for pos, start in (value for value in grid.starts().values())
        if any(a <= pos[0] < b for a, b in area.rows.get(pos[1], ()))
    }
    rows = list(grid.rows)
    for y, runs in area.rows.items():
        rows[y] = fill_row(rows[y], runs, cell)
    for (x, y), start in covered.items():  # back as they were, for put_cells to remove
        rows[y] = (*rows[y][:x], start, *rows[y][x + 1 :])
    if not covered and all(new == old for new, old in zip(rows, grid.rows, strict=True)):
        return grid, frozenset()
    filled = TronGrid(tuple(rows))
    filled.__dict__["_starts"] = grid.starts()  # the same starts, at the same fields
    if not covered:
        return filled, frozenset()
    after, others = put_cells(filled, dict.fromkeys(covered, cell))
    return after, others  # renumbered starts outside the area
