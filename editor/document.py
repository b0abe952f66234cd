"""The editor's document: the board being edited, where it lives, and whether it is saved.

The board is an immutable engine ``Board``; every change replaces it and tells the
listeners (views redraw, the validation panel re-checks, the title updates). No GL.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.atomic import write_text_atomic
from engine.boardfile import parse_board, write_board
from engine.errors import read_text
from engine.model import Board, Tile

DEFAULT_SIZE = (12, 12)


@dataclass(frozen=True)
class Change:
    """What changed: ``board`` (tiles or size), ``path`` (save as / open) or ``saved`` (dirty flag)."""

    what: str
    resized: bool = False


Listener = Callable[["Document", Change], None]


def blank_board(width: int, height: int) -> Board:
    """A board of plain floor."""
    floor = Tile.floor()
    return Board(tuple(tuple(floor for _ in range(width)) for _ in range(height)))


class Document:
    """One open board file."""

    def __init__(self, board: Board | None = None, path: Path | None = None) -> None:
        self._board = board if board is not None else blank_board(*DEFAULT_SIZE)
        self.path = path
        # The text last opened, saved, or started from: the document is dirty when it differs.
        self._clean_text = write_board(self._board)
        self._listeners: list[Listener] = []

    # -- loading and saving -------------------------------------------------
    @classmethod
    def open(cls, path: str | Path) -> Document:
        """Read a board file; raises ``engine.errors.InputError`` (file:line:col) when it is bad."""
        p = Path(path)
        return cls(parse_board(read_text(p), p), p)

    def save(self, path: str | Path | None = None) -> Path:
        """Write the board atomically to ``path`` (or the current path) and mark it saved."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("this board has no file yet: use save as")
        text = write_board(self._board)
        write_text_atomic(target, text)
        path_changed = target != self.path
        self.path = target
        self._clean_text = text
        self._notify(Change("path" if path_changed else "saved"))
        return target

    # -- state ---------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self._board

    @property
    def text(self) -> str:
        """The board-file text the document would save."""
        return write_board(self._board)

    @property
    def dirty(self) -> bool:
        """Whether the board differs from what was last opened, saved or started from."""
        return write_board(self._board) != self._clean_text

    @property
    def title(self) -> str:
        """Window title: file name, with ``*`` while there are unsaved changes."""
        name = self.path.name if self.path is not None else "untitled"
        return f"{'*' if self.dirty else ''}{name} — robots-edit"

    def replace(self, board: Board, path: Path | None = None, clean: bool = True) -> None:
        """Start over with another board (open / new / restored autosave).

        ``clean=False`` leaves it dirty (a restored autosave is not on disk yet)."""
        self._board = board
        self.path = path
        self._clean_text = write_board(board) if clean else ""
        self._notify(Change("path", resized=True))

    def set_board(self, board: Board) -> None:
        """Replace the board's content (used by commands only)."""
        if board is self._board:
            return
        resized = (board.width, board.height) != (self._board.width, self._board.height)
        self._board = board
        self._notify(Change("board", resized=resized))

    # -- listeners ----------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def _notify(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(self, change)
