"""Tools turn pointer input, already converted to board coordinates, into commands.

A tool never changes the board itself: it pushes commands onto the undo stack
(inside a stroke, so one drag is one undo step) and reports refusals through the
context's status callback. No GL here, so every tool is tested with plain calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from editor.commands import FillArea, SetTiles, SetWalls
from editor.document import Document
from editor.games.base import Cell, Grid
from editor.names import kind_noun
from editor.spans import Box, Spans, flood_spans
from engine.model import Board, Direction, Tile, TileKind

Position = tuple[int, int]
Edge = tuple[int, int, Direction]
LEFT, MIDDLE, RIGHT = "left", "middle", "right"


@dataclass(frozen=True)
class Pointer:
    """One pointer event in board terms: the tile under it, the tile edge near it (if any),
    the button (``left``/``right``) and whether Shift/Alt/Ctrl were held."""

    tile: Position
    edge: Edge | None = None
    button: str = LEFT
    shift: bool = False
    alt: bool = False
    ctrl: bool = False


@dataclass
class ToolContext:
    """What tools work with: the document (which owns the undo stack), the brush, what the right
    button paints (``erase``, the game's empty cell), and the status line."""

    document: Document
    brush: Cell = field(default_factory=lambda: Tile.from_char(">"))
    status: Callable[[str], None] = lambda message: None
    erase: Cell = field(default_factory=Tile.floor)

    @property
    def board(self) -> Grid:
        return self.document.board


class Tool:
    """A tool declares its name, its one shortcut key and its help line here, once:
    the keymap, the tool buttons, their tooltips and F1 all read them."""

    name = "tool"
    key = ""
    help = ""

    def press(self, ctx: ToolContext, p: Pointer) -> None: ...

    def drag(self, ctx: ToolContext, p: Pointer) -> None: ...

    def release(self, ctx: ToolContext, p: Pointer) -> None: ...

    def preview(self) -> set[Position]:
        """Tiles to highlight while the tool is in use."""
        return set()

    def preview_box(self) -> Box | None:
        """A box of tiles (x0, y0, x1, y1, all included) to highlight while the tool is in use; the
        view draws it as one shape, however many tiles it covers (the rectangle tool)."""
        return None


def _brush_for(ctx: ToolContext, p: Pointer) -> Cell:
    return ctx.erase if p.button == RIGHT else ctx.brush


def line_between(a: Position, b: Position) -> Iterator[Position]:
    """The tiles on a straight line from ``a`` to ``b`` (both included), so a fast drag leaves no gaps."""
    (x0, y0), (x1, y1) = a, b
    steps = max(abs(x1 - x0), abs(y1 - y0))
    for i in range(steps + 1):
        t = i / steps if steps else 0.0
        yield round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t)


class PaintTool(Tool):
    """Drag to paint with the brush; the right button erases to plain floor."""

    name, key, help = "paint", "B", "paint: drag to paint with the brush"

    def __init__(self) -> None:
        self._last: Position | None = None
        self._button = LEFT

    def press(self, ctx: ToolContext, p: Pointer) -> None:
        ctx.document.begin_stroke()
        self._last, self._button = p.tile, p.button
        self._paint(ctx, [p.tile], p)

    def drag(self, ctx: ToolContext, p: Pointer) -> None:
        if self._last is None:
            return
        self._paint(ctx, list(line_between(self._last, p.tile)), Pointer(p.tile, button=self._button))
        self._last = p.tile

    def release(self, ctx: ToolContext, p: Pointer) -> None:
        self._last = None
        ctx.document.end_stroke()

    def _paint(self, ctx: ToolContext, tiles: list[Position], p: Pointer) -> None:
        brush = _brush_for(ctx, p)
        changes = {pos: brush for pos in tiles if ctx.board.in_bounds(*pos)}
        if changes:
            ctx.document.push(SetTiles(changes, "erase" if p.button == RIGHT else "paint"))


class EyedropperTool(Tool):
    """Pick the brush from the board."""

    name, key, help = "eyedropper", "I", "eyedropper: pick a brush (or Alt+click)"

    def press(self, ctx: ToolContext, p: Pointer) -> None:
        if ctx.board.in_bounds(*p.tile):
            ctx.brush = ctx.board.tile(*p.tile)
            ctx.status(f"brush: {ctx.document.game.cell_name(ctx.brush)}")


def flood_region(board: Grid, start: Position) -> set[Position]:
    """The 4-connected tiles holding the same character as ``start`` (as positions; the fill
    itself keeps the area as runs, ``editor.spans.flood_spans``)."""
    return flood_spans(board, start).positions()


class FillTool(Tool):
    """Flood-fill the connected area of equal tiles with the brush (right button: floor)."""

    name, key, help = "fill", "F", "fill: the connected area of equal tiles"

    def press(self, ctx: ToolContext, p: Pointer) -> None:
        if not ctx.board.in_bounds(*p.tile):
            return
        ctx.document.push(FillArea(flood_spans(ctx.board, p.tile), _brush_for(ctx, p), "fill"))


def rectangle(a: Position, b: Position) -> set[Position]:
    (x0, y0), (x1, y1) = a, b
    return {(x, y) for x in range(min(x0, x1), max(x0, x1) + 1) for y in range(min(y0, y1), max(y0, y1) + 1)}


class RectangleTool(Tool):
    """Drag out a rectangle; on release it is filled with the brush (right button: floor)."""

    name, key, help = "rectangle", "Q", "rectangle: drag out (or Shift+drag)"

    def __init__(self) -> None:
        self._anchor: Position | None = None
        self._corner: Position | None = None
        self._button = LEFT

    def press(self, ctx: ToolContext, p: Pointer) -> None:
        self._anchor = self._corner = p.tile
        self._button = p.button

    def drag(self, ctx: ToolContext, p: Pointer) -> None:
        if self._anchor is not None:
            self._corner = p.tile

    def release(self, ctx: ToolContext, p: Pointer) -> None:
        if self._anchor is None:
            return
        area = Spans.rect(*self._anchor, *p.tile).clipped(ctx.board.width, ctx.board.height)
        self._anchor = self._corner = None
        if area:
            ctx.document.push(FillArea(area, _brush_for(ctx, Pointer(p.tile, button=self._button)), "rectangle"))

    def preview(self) -> set[Position]:
        if self._anchor is None or self._corner is None:
            return set()
        return rectangle(self._anchor, self._corner)

    def preview_box(self) -> Box | None:
        """The rectangle being dragged out, as corners (x0, y0, x1, y1): drawn as one shape."""
        if self._anchor is None or self._corner is None:
            return None
        (x0, y0), (x1, y1) = self._anchor, self._corner
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


@dataclass(frozen=True)
class WallEdit:
    """The outcome of asking for a wall on an edge: new wall bits per tile, or why not."""

    walls: dict[Position, int]
    reason: str | None = None


def edge_has_wall(board: Board, edge: Edge) -> tuple[bool, bool]:
    """(written wall, built-in wall) on the edge, looking at the tiles on both sides."""
    x, y, side = edge
    written = builtin = False
    for (tx, ty), d in (((x, y), side), ((x + side.dx, y + side.dy), side.opposite)):
        if board.in_bounds(tx, ty):
            tile = board.tile(tx, ty)
            written |= bool(tile.walls & d.wall_bit)
            builtin |= bool(tile.builtin_walls() & d.wall_bit)
    return written, builtin


def wall_edit(board: Board, edge: Edge, want: bool) -> WallEdit:
    """Put (``want``) or take away a wall on an edge, keeping every character a valid tile.

    A wall is written on the tile under the pointer if it is plain floor, else on the
    neighbour across the edge; when neither is plain floor the reason says why not.
    """
    x, y, side = edge
    sides = (((x, y), side), ((x + side.dx, y + side.dy), side.opposite))
    written, builtin = edge_has_wall(board, edge)
    if not want:
        if not written and builtin:
            owner = next(
                board.tile(*p) for p, d in sides if board.in_bounds(*p) and board.tile(*p).builtin_walls() & d.wall_bit
            )
            return WallEdit({}, f"that wall is part of {kind_noun(owner)}; rotate or replace the tile instead")
        return WallEdit(
            {
                p: board.tile(*p).walls & ~d.wall_bit
                for p, d in sides
                if board.in_bounds(*p) and board.tile(*p).walls & d.wall_bit
            }
        )
    if written or builtin:
        return WallEdit({})
    for p, d in sides:
        if board.in_bounds(*p) and board.tile(*p).kind is TileKind.FLOOR:
            return WallEdit({p: board.tile(*p).walls | d.wall_bit})
    here = board.tile(x, y)
    return WallEdit({}, f"a wall can only stand on a plain floor tile; this is {kind_noun(here)}")


def _walls_board(ctx: ToolContext) -> Board:
    """Walls on tile edges are the robot game's: the wall tool only works on its boards."""
    board = ctx.board
    if not isinstance(board, Board):
        raise TypeError("the wall tool edits robot boards")
    return board


def _canonical(board: Board, edge: Edge) -> Edge:
    """One name per edge: the tile left of / above it, unless that is off the board."""
    x, y, side = edge
    if side in (Direction.LEFT, Direction.UP):
        nx, ny = x + side.dx, y + side.dy
        if board.in_bounds(nx, ny):
            return nx, ny, side.opposite
    return edge


class WallTool(Tool):
    """Click or drag along tile edges to toggle walls.

    The first edge decides everything: add or remove, and the line the stroke follows
    (a vertical edge's stroke stays on that vertical grid line, a horizontal edge's on its
    horizontal line), so a drag along an edge never picks up the perpendicular edges at
    the tile corners. ``preview_edges`` is the whole stroke so far, for the view."""

    name, key, help = "walls", "W", "walls: click/drag along tile edges"

    def __init__(self) -> None:
        self._want: bool | None = None
        self._done: set[Edge] = set()
        self._first: Edge | None = None
        self._last: Position | None = None
        self.stroke: list[Edge] = []

    def press(self, ctx: ToolContext, p: Pointer) -> None:
        ctx.document.begin_stroke()
        self._done.clear()
        self.stroke = []
        self._want = None
        self._first = self._last = None
        if p.edge is not None and _walls_board(ctx).in_bounds(*p.edge[:2]):
            self._start(ctx, p)

    def _start(self, ctx: ToolContext, p: Pointer) -> None:
        assert p.edge is not None
        written, builtin = edge_has_wall(_walls_board(ctx), p.edge)
        self._want = not (written or builtin) if p.button != RIGHT else False
        self._first = _canonical(_walls_board(ctx), p.edge)
        self._last = self._first[:2]
        self._apply(ctx, p.edge)

    def drag(self, ctx: ToolContext, p: Pointer) -> None:
        if self._first is None:
            if p.edge is not None and _walls_board(ctx).in_bounds(*p.edge[:2]):
                self._start(ctx, p)
            return
        x0, y0, side = self._first
        assert self._last is not None
        board = _walls_board(ctx)
        vertical = side in (Direction.LEFT, Direction.RIGHT)
        if vertical:  # a vertical line: follow the pointer's row
            target = (x0, min(max(p.tile[1], 0), board.height - 1))
        else:  # a horizontal line: follow the pointer's column
            target = (min(max(p.tile[0], 0), board.width - 1), y0)
        # Name each edge from the pointer's side of the line: the wall goes on the tile under it when it can.
        across = (p.tile[0] != x0) if vertical else (p.tile[1] != y0)
        for tx, ty in line_between(self._last, target):
            edge: Edge = (tx, ty, side)
            if across and board.in_bounds(tx + side.dx, ty + side.dy):
                edge = (tx + side.dx, ty + side.dy, side.opposite)
            self._apply(ctx, edge)
        self._last = target

    def release(self, ctx: ToolContext, p: Pointer) -> None:
        self._want = None
        self._first = self._last = None
        self.stroke = []
        ctx.document.end_stroke()

    def preview_edges(self) -> list[Edge]:
        return list(self.stroke)

    def _apply(self, ctx: ToolContext, edge: Edge) -> None:
        key = _canonical(_walls_board(ctx), edge)
        if key in self._done or self._want is None:
            return
        self._done.add(key)
        self.stroke.append(edge)
        result = wall_edit(_walls_board(ctx), edge, self._want)
        if result.reason:
            ctx.status(result.reason)
        elif result.walls:
            ctx.document.push(SetWalls(result.walls))
            ctx.status(
                ("wall added: " if self._want else "wall removed: ")
                + ", ".join(
                    f"({x}, {y}) is now '{Tile.floor(bits).char}'" for (x, y), bits in sorted(result.walls.items())
                )
            )


TOOLS: tuple[type[Tool], ...] = (PaintTool, RectangleTool, FillTool, EyedropperTool, WallTool)
