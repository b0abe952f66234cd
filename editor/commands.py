"""Undoable edits of a :class:`~editor.document.Document`, and the undo stack.

Every change to the board goes through a command here (tools build commands,
they never touch the board). A command remembers the board it replaced, so undo
restores the exact previous board (and therefore the exact file bytes).

A drag stroke is one undo step: the stack is told ``begin_stroke()`` when the
mouse goes down and ``end_stroke()`` when it goes up, and while the stroke is open
every command pushed is merged into the first one when they are of the same kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from editor.document import Document, blank_board
from editor.transform import Transform, transform_board
from engine.model import Board, Tile

Position = tuple[int, int]

#: Anchors for resizing: which part of the old board stays put.
ANCHORS = {
    "nw": (0.0, 0.0), "n": (0.5, 0.0), "ne": (1.0, 0.0),
    "w": (0.0, 0.5), "center": (0.5, 0.5), "e": (1.0, 0.5),
    "sw": (0.0, 1.0), "s": (0.5, 1.0), "se": (1.0, 1.0),
}  # fmt: skip


class Command:
    """An edit: ``do`` applies it to the document, ``undo`` puts the previous board back."""

    label = "edit"

    def __init__(self) -> None:
        self._before: Board | None = None

    def apply(self, board: Board) -> Board:
        """The board after this command (pure)."""
        raise NotImplementedError

    def do(self, document: Document) -> None:
        self._before = document.board
        document.set_board(self.apply(document.board))

    def undo(self, document: Document) -> None:
        assert self._before is not None, "undo before do"
        document.set_board(self._before)

    def merge(self, later: Command) -> bool:
        """Absorb ``later`` (already done) into this command, if it is the same kind of edit."""
        return False


class SetTiles(Command):
    """Put tiles at positions (paint, erase, fill, rectangle, rotate tile)."""

    def __init__(self, changes: Mapping[Position, Tile], label: str = "paint") -> None:
        super().__init__()
        self.changes: dict[Position, Tile] = dict(changes)
        self.label = label

    def apply(self, board: Board) -> Board:
        rows = [list(row) for row in board.rows]
        for (x, y), tile in self.changes.items():
            if board.in_bounds(x, y):
                rows[y][x] = tile
        return Board(tuple(tuple(row) for row in rows))

    def merge(self, later: Command) -> bool:
        if type(later) is not type(self) or later.label != self.label:
            return False
        assert isinstance(later, SetTiles)
        self.changes.update(later.changes)  # self._before stays the board before the stroke
        return True


class SetWalls(SetTiles):
    """Set the written wall bits of plain floor tiles (the character becomes ``a``-``p``)."""

    def __init__(self, walls: Mapping[Position, int]) -> None:
        super().__init__({pos: Tile.floor(bits) for pos, bits in walls.items()}, label="walls")


def resized_board(board: Board, width: int, height: int, anchor: str = "nw") -> Board:
    """``board`` cut or padded with floor to ``width`` x ``height``, the ``anchor`` part kept in place."""
    if anchor not in ANCHORS:
        raise ValueError(f"unknown anchor {anchor!r}; use one of {', '.join(ANCHORS)}")
    if width < 1 or height < 1:
        raise ValueError("a board needs at least one row and one column")
    fx, fy = ANCHORS[anchor]
    # Offset of the old board inside the new one (negative: the old board is cut).
    ox = round((width - board.width) * fx)
    oy = round((height - board.height) * fy)
    floor = Tile.floor()
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            sx, sy = x - ox, y - oy
            row.append(board.tile(sx, sy) if board.in_bounds(sx, sy) else floor)
        rows.append(tuple(row))
    return Board(tuple(rows))


class Resize(Command):
    def __init__(self, width: int, height: int, anchor: str = "nw") -> None:
        super().__init__()
        if anchor not in ANCHORS:
            raise ValueError(f"unknown anchor {anchor!r}; use one of {', '.join(ANCHORS)}")
        self.width, self.height, self.anchor = width, height, anchor
        self.label = f"resize to {width}x{height}"

    def apply(self, board: Board) -> Board:
        return resized_board(board, self.width, self.height, self.anchor)


class TransformBoard(Command):
    """Rotate or mirror the whole board, remapping every tile's meaning."""

    def __init__(self, transform: Transform) -> None:
        super().__init__()
        self.transform = transform
        self.label = transform.value

    def apply(self, board: Board) -> Board:
        return transform_board(board, self.transform)


class NewBoard(Command):
    """Replace the board with plain floor of any size."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self.width, self.height = width, height
        self.label = f"new {width}x{height} board"

    def apply(self, board: Board) -> Board:
        return blank_board(self.width, self.height)


@dataclass
class _Entry:
    command: Command
    stroke: int | None


@dataclass
class UndoStack:
    """Done and undone commands of one document."""

    document: Document
    _done: list[_Entry] = field(default_factory=list)
    _undone: list[_Entry] = field(default_factory=list)
    _stroke: int | None = None
    _next_stroke: int = 1

    def begin_stroke(self) -> int:
        """Start a drag stroke: what is pushed until ``end_stroke`` merges into one step."""
        self._stroke = self._next_stroke
        self._next_stroke += 1
        return self._stroke

    def end_stroke(self) -> None:
        self._stroke = None

    @property
    def in_stroke(self) -> bool:
        return self._stroke is not None

    def push(self, command: Command) -> None:
        """Do ``command`` and record it (merged into the open stroke's step when it can be)."""
        before = self.document.board
        command.do(self.document)
        if self.document.board == before:
            return  # nothing changed (painting a tile with itself): no empty undo step
        self._undone.clear()
        top = self._done[-1] if self._done else None
        if top is not None and self._stroke is not None and top.stroke == self._stroke and top.command.merge(command):
            return
        self._done.append(_Entry(command, self._stroke))

    def undo(self) -> str | None:
        """Undo the last step; returns its label (None when there is nothing to undo)."""
        if not self._done:
            return None
        entry = self._done.pop()
        entry.command.undo(self.document)
        self._undone.append(entry)
        return entry.command.label

    def redo(self) -> str | None:
        if not self._undone:
            return None
        entry = self._undone.pop()
        entry.command.do(self.document)
        self._done.append(_Entry(entry.command, None))
        return entry.command.label

    def clear(self) -> None:
        self._done.clear()
        self._undone.clear()
        self._stroke = None

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def __len__(self) -> int:
        return len(self._done)
