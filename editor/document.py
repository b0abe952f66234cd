"""The editor's document: the board being edited, its undo stack, where it lives, whether it is saved.

The board is the immutable grid value of its game (``editor.games``: a robot ``Board``, a Tron
arena grid), read and written with that game's engine parser and writer; every change goes through :meth:`Document.push`
(a command), ``undo`` or ``redo`` and is announced to the listeners as a typed event
(``editor.events``). Whether the document is modified comes from the undo stack's clean
index, so asking costs nothing. No GL here.
"""

from __future__ import annotations

from pathlib import Path

from editor.commands import Command, ReplaceBoard, blank_board
from editor.events import BoardChanged, DocumentEvent, FileChanged, Listener, ModifiedChanged
from editor.games import ROBOTS, EditorGame, game_for_file, game_named, game_of
from editor.games.base import Grid
from editor.history import UndoStack
from editor.safe_write import write_board_file
from engine.boardfile import write_board  # the robot game's writer, kept importable from here for old scripts
from engine.errors import InputError, read_text

DEFAULT_SIZE = (12, 12)

__all__ = ["DEFAULT_SIZE", "Document", "blank_board", "write_board"]


class Document:
    """One open board file."""

    def __init__(self, board: Grid | None = None, path: Path | None = None, game: EditorGame | None = None) -> None:
        if board is None:
            board = game.blank(*game.default_size) if game is not None else blank_board(*DEFAULT_SIZE)
        self._board: Grid = board
        self.path = path
        self.history = UndoStack()
        self._listeners: list[Listener] = []
        self._was_modified = False
        #: What the file held when this document last read or wrote it (None: there was no file);
        #: ``disk_known`` False: nothing known (a document made from a board value).
        self.disk_text: str | None = None
        self.disk_known = False

    # -- loading and saving -------------------------------------------------
    @classmethod
    def open(cls, path: str | Path, game: EditorGame | None = None) -> Document:
        """Read a board file of ``game`` (else the game ``engine.games.sniff_game`` finds);
        raises ``engine.errors.InputError`` (file:line:col) when it is bad."""
        p = Path(path)
        game = game or game_for_file(p) or game_named(ROBOTS)
        text = read_text(p)
        document = cls(game.parse(text, p), p)
        document.remember_disk(text)
        return document

    def remember_disk(self, text: str | None) -> None:
        """Note what the file holds now (None: no file yet), to tell later whether another
        program changed it (:meth:`changed_on_disk`)."""
        self.disk_text = text
        self.disk_known = True

    def changed_on_disk(self) -> bool:
        """Whether the file is no longer what this document last read or wrote there: another
        editor or program saved it meanwhile. A file that is gone, or cannot be read, is not
        "changed" (saving puts the board back, or says why it cannot)."""
        if self.path is None or not self.disk_known:
            return False
        try:
            now = read_text(self.path)
        except InputError:
            return False
        return now != self.disk_text

    def disk_now(self) -> str | None:
        """What the file holds now (None: no file, or it cannot be read)."""
        if self.path is None:
            return None
        try:
            return read_text(self.path)
        except InputError:
            return None

    def reload(self, board: Grid, text: str) -> None:
        """Take the file's new content (another program changed it) as one undoable step
        (Ctrl+Z brings back what the window showed), marked saved."""
        self.push(ReplaceBoard(board, "reload from disk"))
        self.remember_disk(text)
        self.history.mark_clean()
        self._check_modified()

    def save(self, path: str | Path | None = None) -> Path:
        """Write the board to ``path`` (or the current path) and mark it saved.

        Atomic, through a symlink to its target, and refusing read-only files
        (``editor.safe_write``); raises ``OSError`` with a readable message."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("this board has no file yet: use save as")
        text = self.text
        write_board_file(target, text)
        self.remember_disk(text)
        path_changed = target != self.path
        self.path = target
        self.history.mark_clean()
        if path_changed:
            self._emit(FileChanged(target))
        self._check_modified()
        return target

    # -- state ---------------------------------------------------------------
    @property
    def board(self) -> Grid:
        return self._board

    @property
    def game(self) -> EditorGame:
        """The game of the board on screen (it changes when a file of another game is opened)."""
        return game_of(self._board)

    @property
    def text(self) -> str:
        """The file text the document would save (the game's engine writer)."""
        return self.game.write(self._board)

    @property
    def modified(self) -> bool:
        """Whether there are changes since the file was opened, saved or started."""
        return self.history.modified

    dirty = modified

    @property
    def name(self) -> str:
        return self.path.name if self.path is not None else "untitled"

    @property
    def title(self) -> str:
        """Window title: file name, with ``*`` while there are unsaved changes."""
        return f"{'*' if self.modified else ''}{self.name} — robots-edit"

    # -- editing -------------------------------------------------------------
    def push(self, command: Command) -> bool:
        """Apply ``command`` as an undoable step; False when it changed nothing (no empty step)."""
        before = self._board
        after = command.apply(before)
        if after is before or after == before:
            return False
        self.history.record(command, before, after)
        self._set(after, command.positions, command.box)
        return True

    def undo(self) -> str | None:
        """Undo the last step; returns its label (None when there is nothing to undo)."""
        entry = self.history.pop_undo()
        if entry is None:
            return None
        self._set(entry.before, entry.command.positions, entry.command.box)
        return entry.command.label

    def redo(self) -> str | None:
        entry = self.history.pop_redo()
        if entry is None:
            return None
        self._set(entry.after, entry.command.positions, entry.command.box)
        return entry.command.label

    def begin_stroke(self) -> None:
        self.history.begin_stroke()

    def end_stroke(self) -> None:
        self.history.end_stroke()

    @property
    def in_stroke(self) -> bool:
        return self.history.in_stroke

    def replace(self, board: Grid, path: Path | None = None, disk_text: str | None = None) -> None:
        """Start over with another board (open / new): a fresh undo stack, not modified;
        ``disk_text`` is what the file at ``path`` holds (None: no file there yet)."""
        self._board = board
        self.path = path
        self.disk_text, self.disk_known = disk_text, path is not None
        self.history.clear()
        self._emit(BoardChanged(None, resized=True))
        self._emit(FileChanged(path))
        self._check_modified()

    def _set(
        self,
        board: Grid,
        positions: frozenset[tuple[int, int]] | None,
        box: tuple[int, int, int, int] | None = None,
    ) -> None:
        resized = (board.width, board.height) != (self._board.width, self._board.height)
        self._board = board
        if resized:
            self._emit(BoardChanged(None, resized))
        else:
            self._emit(BoardChanged(positions, resized, box if positions is None else None))
        self._check_modified()

    # -- listeners ----------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _check_modified(self) -> None:
        modified = self.modified
        if modified != self._was_modified:
            self._was_modified = modified
            self._emit(ModifiedChanged(modified))

    def _emit(self, event: DocumentEvent) -> None:
        for listener in list(self._listeners):
            listener(event)
