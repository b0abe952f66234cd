"""Autosave: a copy of unsaved work written every few seconds, offered back after a crash.

A board with a file autosaves next to it as ``<file>.autosave``; an untitled board
autosaves to ``untitled.dat.autosave`` in the per-user state folder
(``$XDG_STATE_HOME/robots-edit`` or ``~/.local/state/robots-edit``). The copy is a
normal board file (written atomically), removed after a clean save or a clean exit;
if it is still there at the next start, the editor crashed and offers it back.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from editor.document import Document
from engine.atomic import write_text_atomic
from engine.boardfile import parse_board
from engine.errors import InputError, read_text
from engine.model import Board

SUFFIX = ".autosave"
DEFAULT_INTERVAL_S = 30.0


def state_folder() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "robots-edit"


def autosave_path(board_path: Path | None, folder: Path | None = None) -> Path:
    """Where the autosave of a board file (or of an untitled board) lives."""
    if board_path is not None:
        return board_path.with_name(board_path.name + SUFFIX)
    return (folder or state_folder()) / ("untitled.dat" + SUFFIX)


def pending_autosave(board_path: Path | None, folder: Path | None = None) -> tuple[Path, Board] | None:
    """An autosave left behind by a crash, with its board, if there is one worth offering
    (readable, and different from the file it belongs to)."""
    path = autosave_path(board_path, folder)
    if not path.is_file():
        return None
    try:
        board = parse_board(read_text(path), path)
    except InputError:
        return None
    if board_path is not None and board_path.is_file():
        with contextlib.suppress(InputError):
            if parse_board(read_text(board_path), board_path) == board:
                return None
    return path, board


class Autosaver:
    """Writes the document's board to its autosave path when dirty and ``interval`` has passed."""

    def __init__(self, document: Document, interval_s: float = DEFAULT_INTERVAL_S, folder: Path | None = None) -> None:
        self.document = document
        self.interval_s = interval_s
        self.folder = folder
        self._last = time.monotonic()
        self._written: Path | None = None
        document.subscribe(self._on_change)

    @property
    def path(self) -> Path:
        return autosave_path(self.document.path, self.folder)

    def tick(self, now: float | None = None) -> Path | None:
        """Call regularly (the window's clock does); autosaves when due. Returns the file written."""
        now = time.monotonic() if now is None else now
        if now - self._last < self.interval_s:
            return None
        self._last = now
        return self.save_now() if self.document.dirty else None

    def save_now(self) -> Path:
        target = self.path
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(target, self.document.text)
        if self._written is not None and self._written != target:
            self._remove(self._written)
        self._written = target
        return target

    def adopt(self, path: Path) -> None:
        """Take charge of an autosave restored from a crash (removed once the work is saved)."""
        self._written = path

    def discard(self) -> None:
        """Remove the autosave this editor wrote or restored (after a clean save or a clean exit).

        Another file's autosave is never touched: it may be a crash copy still to offer."""
        if self._written is not None:
            self._remove(self._written)
        self._written = None

    @staticmethod
    def _remove(path: Path) -> None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()

    def _on_change(self, document: Document, change: object) -> None:
        if not document.dirty:  # saved, or undone back to the saved state
            self.discard()
