"""The document's undo stack: done and undone commands, drag strokes, and the clean index.

Each entry keeps the command and the board it replaced, so undo restores the exact
previous board. A drag stroke is one undo step: ``begin_stroke()`` when the mouse goes
down, ``end_stroke()`` when it goes up; while the stroke is open every command is merged
into the first when they are of the same kind.

The *clean index* is the number of done steps when the file was last opened or saved:
the document is modified exactly when the stack is somewhere else (no re-serialising of
the board to find out). A step that can no longer be reached (the saved state was undone
and then replaced by a new edit) makes the clean index ``None``: modified for good.
"""

from __future__ import annotations

from dataclasses import dataclass

from editor.commands import Command
from editor.games.base import Grid


@dataclass
class Entry:
    command: Command
    before: Grid
    after: Grid
    stroke: int | None


class UndoStack:
    """Done and undone steps of one document (the document applies them)."""

    def __init__(self) -> None:
        self._done: list[Entry] = []
        self._undone: list[Entry] = []
        self._stroke: int | None = None
        self._next_stroke = 1
        self._clean: int | None = 0

    # -- strokes -------------------------------------------------------------
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

    # -- recording -------------------------------------------------------------
    def record(self, command: Command, before: Grid, after: Grid) -> None:
        """Remember a step that was just done (merged into the open stroke's step when it can be)."""
        if self._clean is not None and self._clean > len(self._done):
            self._clean = None  # the saved state was in the redo list, which this edit drops
        self._undone.clear()
        top = self._done[-1] if self._done else None
        if top is not None and self._stroke is not None and top.stroke == self._stroke and top.command.merge(command):
            top.after = after
            if self._clean == len(self._done):
                self._clean = None  # saved in the middle of a stroke: the merged step is not the saved one
            return
        self._done.append(Entry(command, before, after, self._stroke))

    def pop_undo(self) -> Entry | None:
        if not self._done:
            return None
        entry = self._done.pop()
        self._undone.append(entry)
        return entry

    def pop_redo(self) -> Entry | None:
        if not self._undone:
            return None
        entry = self._undone.pop()
        entry.stroke = None
        self._done.append(entry)
        return entry

    def clear(self) -> None:
        self._done.clear()
        self._undone.clear()
        self._stroke = None
        self._clean = 0

    # -- clean index -------------------------------------------------------------
    def mark_clean(self) -> None:
        self._clean = len(self._done)

    @property
    def modified(self) -> bool:
        return self._clean != len(self._done)

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def __len__(self) -> int:
        return len(self._done)
