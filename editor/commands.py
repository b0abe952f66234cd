"""Undoable edits: each command is a pure function from one board to the next.

Every change to the board, of any game, goes through a command here (tools build commands, they
never touch the board); the document's undo stack (``editor.history``) applies them
and remembers the board each one replaced, so undo restores the exact previous
board (and therefore the exact file bytes). A command may say which tiles it touches
(``positions``) so views redraw only those. What a change means is the game's business
(``editor.games``): a command asks the grid's game to put cells, resize or transform.
"""

from __future__ import annotations

from collections.abc import Mapping

from editor.games import game_of
from editor.games.base import Cell, GameAction, Grid, Transform
from editor.spans import Box, Spans
from engine.model import Board, Tile

Position = tuple[int, int]

#: Anchors for resizing: which part of the old board stays put.
ANCHORS = {
    "nw": (0.0, 0.0), "n": (0.5, 0.0), "ne": (1.0, 0.0),
    "w": (0.0, 0.5), "center": (0.5, 0.5), "e": (1.0, 0.5),
    "sw": (0.0, 1.0), "s": (0.5, 1.0), "se": (1.0, 1.0),
}  # fmt: skip


def blank_board(width: int, height: int) -> Board:
    """A board of plain floor."""
    floor = Tile.floor()
    row = tuple(floor for _ in range(width))
    return Board(tuple(row for _ in range(height)))


class Command:
    """An edit: ``apply`` gives the board after it (pure); the undo stack keeps the one before."""

    label = "edit"

    def apply(self, board: Grid) -> Grid:
        """The board after this command (pure)."""
        raise NotImplementedError

    @property
    def positions(self) -> frozenset[Position] | None:
        """The tiles this command may change, or None for "any" (resize, transforms, big areas)."""
        return None

    @property
    def box(self) -> Box | None:
        """Where the tiles it changed lie (x0, y0, x1, y1, all included) when ``positions`` is
        None but the change is known to stay inside a box (a fill); None: anywhere."""
        return None

    def merge(self, later: Command) -> bool:
        """Absorb ``later`` (already done) into this command, if it is the same kind of edit."""
        return False


class SetTiles(Command):
    """Put tiles at positions (paint, erase, fill, rectangle, rotate tile)."""

    def __init__(self, changes: Mapping[Position, Cell], label: str = "paint") -> None:
        self.changes: dict[Position, Cell] = dict(changes)
        self.label = label
        self._others: set[Position] = set()  # cells the game changed besides (a moved start)

    def apply(self, board: Grid) -> Grid:
        after, others = game_of(board).put_cells(board, self.changes)
        self._others |= others
        return after

    @property
    def positions(self) -> frozenset[Position] | None:
        return frozenset(self.changes) | frozenset(self._others)

    def merge(self, later: Command) -> bool:
        if type(later) is not type(self) or later.label != self.label:
            return False
        assert isinstance(later, SetTiles)
        self.changes.update(later.changes)  # self._before stays the board before the stroke
        self._others |= later._others
        return True


class FillArea(Command):
    """Put one cell on every tile of an area (flood fill, rectangle): one command for the whole
    area, kept as runs per row (``editor.spans``), so a fill of 262,144 tiles is 512 runs for the
    game to write and a box for the views to redraw, not 262,144 positions."""

    def __init__(self, area: Spans, cell: Cell, label: str = "fill") -> None:
        self.area = area
        self.cell = cell
        self.label = label
        self._others: frozenset[Position] = frozenset()  # cells the game changed besides (renumbered starts)

    def apply(self, board: Grid) -> Grid:
        area = self.area.clipped(board.width, board.height)
        if not area:
            return board
        after, others = game_of(board).fill_cells(board, area, self.cell)
        self._others |= others
        return after

    @property
    def box(self) -> Box | None:
        boxes = [b for b in (self.area.box,) if b is not None] + [(x, y, x, y) for x, y in self._others]
        if not boxes:
            return None
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


class SetWalls(SetTiles):
    """Set the written wall bits of plain floor tiles (the character becomes ``a``-``p``)."""

    def __init__(self, walls: Mapping[Position, int]) -> None:
        super().__init__({pos: Tile.floor(bits) for pos, bits in walls.items()}, label="walls")


def anchor_offset(old: tuple[int, int], new: tuple[int, int], anchor: str) -> tuple[int, int]:
    """Where the old grid's top-left lands in a resized one (negative: the old grid is cut), any game."""
    if anchor not in ANCHORS:
        raise ValueError(f"unknown anchor {anchor!r}; use one of {', '.join(ANCHORS)}")
    if new[0] < 1 or new[1] < 1:
        raise ValueError("a board needs at least one row and one column")
    fx, fy = ANCHORS[anchor]
    return round((new[0] - old[0]) * fx), round((new[1] - old[1]) * fy)


def resized_board(board: Board, width: int, height: int, anchor: str = "nw") -> Board:
    """``board`` cut or padded with floor to ``width`` x ``height``, the ``anchor`` part kept in place."""
    ox, oy = anchor_offset((board.width, board.height), (width, height), anchor)
    floor = Tile.floor()
    blank = (floor,) * width
    # Columns x0..x1 (x1 excluded) of the new board come from the old one; a row is three slices.
    x0, x1 = max(0, ox), min(width, board.width + ox)
    rows = []
    for y in range(height):
        sy = y - oy
        if 0 <= sy < board.height and x0 < x1:
            rows.append((floor,) * x0 + board.rows[sy][x0 - ox : x1 - ox] + (floor,) * (width - x1))
        else:
            rows.append(blank)
    return Board(tuple(rows))


class Resize(Command):
    def __init__(self, width: int, height: int, anchor: str = "nw") -> None:
        if anchor not in ANCHORS:
            raise ValueError(f"unknown anchor {anchor!r}; use one of {', '.join(ANCHORS)}")
        self.width, self.height, self.anchor = width, height, anchor
        self.label = f"resize to {width}x{height}"

    def apply(self, board: Grid) -> Grid:
        return game_of(board).resized(board, self.width, self.height, self.anchor)


class TransformBoard(Command):
    """Rotate or mirror the whole board, remapping every tile's meaning."""

    def __init__(self, transform: Transform) -> None:
        self.transform = transform
        self.label = transform.value

    def apply(self, board: Grid) -> Grid:
        return game_of(board).transformed(board, self.transform)


class GameEdit(Command):
    """One of the game's own edits (``EditorGame.actions``) on the whole board."""

    def __init__(self, action: GameAction) -> None:
        self.action = action
        self.label = action.name

    def apply(self, board: Grid) -> Grid:
        return self.action.apply(board)


class NewBoard(Command):
    """Replace the board with an empty one of any size (of the same game)."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.label = f"new {width}x{height} board"

    def apply(self, board: Grid) -> Grid:
        return game_of(board).blank(self.width, self.height)


class ReplaceBoard(Command):
    """Put a whole other board in place (a restored autosave): one undoable step."""

    def __init__(self, board: Grid, label: str = "restore") -> None:
        self.board = board
        self.label = label

    def apply(self, board: Grid) -> Grid:
        return self.board
