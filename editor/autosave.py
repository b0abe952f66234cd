"""Autosave: a crash copy of unsaved work, written within a second or two of every edit.

A board with a file autosaves next to it as ``<file>.autosave`` when that folder can be
written, else in the per-user state folder (``$XDG_STATE_HOME/robots-edit`` or
``~/.local/state/robots-edit``) under a name made from the board's full path; an untitled
board autosaves to ``untitled.dat.autosave`` there. The copy is a normal board file
(written atomically), removed after a save or a clean exit. If it is still there at the
next start, the editor crashed and offers it back: yes restores it as one undoable step,
no keeps the copy (renamed ``*.autosave~``) until the board is next saved. A copy that cannot
be read any more (a damaged disk, a hand edit) is never written over: it is renamed
``*.autosave.damaged`` and the user is told (:func:`set_aside_damaged`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import time
from pathlib import Path

from editor.document import Document
from editor.events import BoardChanged, DocumentEvent, FileChanged, ModifiedChanged
from editor.games import ROBOTS, EditorGame, game_named
from editor.games.base import Grid
from editor.safe_write import folder_writable
from engine.atomic import write_text_atomic
from engine.errors import InputError, read_text

SUFFIX = ".autosave"
DECLINED_SUFFIX = ".autosave~"
DAMAGED_SUFFIX = ".damaged"
#: An edit is copied this long after it (a drag stroke is copied at least this often).
DELAY_S = 1.0


def state_folder() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "robots-edit"


def _state_name(board_path: Path, suffix: str) -> str:
    full = str(board_path.absolute())
    return f"{board_path.name}-{hashlib.sha1(full.encode()).hexdigest()[:10]}{suffix}{SUFFIX}"


def autosave_candidates(board_path: Path | None, folder: Path | None = None, suffix: str = ".dat") -> list[Path]:
    """Where the autosave of a board file (or of an untitled board) may live, preferred first;
    ``suffix`` is the game's file suffix (``.dat`` robot boards, ``.txt`` Tron arenas)."""
    state = folder or state_folder()
    if board_path is None:
        return [state / ("untitled" + suffix + SUFFIX)]
    return [board_path.with_name(board_path.name + SUFFIX), state / _state_name(board_path, suffix)]


def autosave_path(board_path: Path | None, folder: Path | None = None, suffix: str = ".dat") -> Path:
    """Where the autosave goes now: next to the board when its folder is writable, else the state folder."""
    first, *rest = autosave_candidates(board_path, folder, suffix)
    if board_path is not None and not folder_writable(board_path.parent if str(board_path.parent) else Path(".")):
        return rest[0]
    return first


def keep_aside(path: Path, name: str) -> Path:
    """Rename ``path`` to ``name`` in its folder, or to ``name-2``, ``name-3``... when that is taken:
    a copy kept aside never replaces another one. Raises OSError when it cannot be renamed."""
    for number in range(1, 1000):
        kept = path.with_name(name if number == 1 else f"{name}-{number}")
        if os.path.lexists(kept):
            continue
        os.rename(path, kept)
        return kept
    raise FileExistsError(errno.EEXIST, "no free name to keep it under", str(path))


def set_aside_damaged(
    board_path: Path | None, folder: Path | None = None, game: EditorGame | None = None
) -> list[tuple[Path, Path | None, str]]:
    """Crash copies of this board that its game cannot read any more, renamed ``*.damaged`` so
    that the next autosave does not write over them: ``(copy, kept as or None, why)`` for each
    (kept as None: the rename failed, and ``why`` says that too)."""
    game = game if game is not None else game_named(ROBOTS)
    found: list[tuple[Path, Path | None, str]] = []
    for path in autosave_candidates(board_path, folder, game.suffix):
        if not path.is_file():
            continue
        try:
            game.parse(read_text(path), path)
        except InputError as exc:
            why = str(exc)
            try:
                kept: Path | None = keep_aside(path, path.name + DAMAGED_SUFFIX)
            except OSError as move_exc:
                kept, why = None, f"{why}; it could not be renamed: {move_exc.strerror or move_exc}"
            found.append((path, kept, why))
    return found


def pending_autosave(
    board_path: Path | None, folder: Path | None = None, game: EditorGame | None = None
) -> tuple[Path, Grid] | None:
    """An autosave left behind by a crash, with its board, if there is one worth offering
    (readable by the game's parser, and different from the file it belongs to)."""
    game = game if game is not None else game_named(ROBOTS)
    for path in autosave_candidates(board_path, folder, game.suffix):
        if not path.is_file():
            continue
        try:
            board = game.parse(read_text(path), path)
        except InputError:
            continue
        if board_path is not None and board_path.is_file():
            with contextlib.suppress(InputError):
                if game.parse(read_text(board_path), board_path) == board:
                    continue
        return path, board
    return None


class Autosaver:
    """Keeps the crash copy of one document current: call ``tick`` often (the window does, 4x a second)."""

    def __init__(self, document: Document, delay_s: float = DELAY_S, folder: Path | None = None) -> None:
        self.document = document
        self.delay_s = delay_s
        self.folder = folder
        self._due: float | None = None
        self._written: Path | None = None
        self._declined: Path | None = None
        #: Files never to write over, with why: a crash copy offered back and not yet restored or
        #: declined (Esc, or edits made while the question shows), a damaged one not renamed.
        self.protected: dict[Path, str] = {}
        document.subscribe(self._on_event)

    @property
    def path(self) -> Path:
        return autosave_path(self.document.path, self.folder, self.document.game.suffix)

    @property
    def pending(self) -> bool:
        """Whether an edit has not reached the crash copy yet."""
        return self._due is not None

    def tick(self, now: float | None = None) -> Path | None:
        """Writes the crash copy when an edit is due, or again when the copy vanished while there
        are unsaved edits (another window on the same board declined it as "from an earlier
        session" and then saved, which removes it); returns the file written."""
        if self._due is None:
            if self._written is not None and self.document.modified and not os.path.lexists(self._written):
                return self.save_now()
            return None
        now = time.monotonic() if now is None else now
        if now < self._due:
            return None
        self._due = None
        return self.save_now() if self.document.modified else None

    def save_now(self) -> Path:
        """Write the copy now (also the emergency copy after an unexpected error): next to the
        board, or in the state folder when that fails."""
        text = self.document.text
        errors: list[str] = []
        candidates = autosave_candidates(self.document.path, self.folder, self.document.game.suffix)
        for target in dict.fromkeys([self.path, *candidates]):
            if target in self.protected:
                errors.append(f"{target}: {self.protected[target]}")
                continue
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                write_text_atomic(target, text)
            except OSError as exc:
                errors.append(f"{target}: {exc.strerror or exc}")
                continue
            if self._written is not None and self._written != target:
                self._remove(self._written)
            self._written = target
            return target
        raise OSError("; ".join(errors))

    def adopt(self, path: Path) -> None:
        """Take charge of an autosave restored from a crash (removed once the work is saved)."""
        self._written = path

    def decline(self, path: Path) -> Path:
        """Keep a crash copy the user did not restore, out of the way, until the next save."""
        name = path.name[: -len(SUFFIX)] + DECLINED_SUFFIX if path.name.endswith(SUFFIX) else path.name + "~"
        try:
            kept = keep_aside(path, name)  # never over a copy declined earlier
        except OSError:
            self.protected[path] = "the declined crash copy is kept there"  # never replaced by an autosave
            return path
        self._declined = kept
        return kept

    def discard(self) -> None:
        """Remove the autosave this editor wrote or restored (after a save or a clean exit).

        Another file's autosave is never touched: it may be a crash copy still to offer."""
        if self._written is not None:
            self._remove(self._written)
        self._written = None
        self._due = None

    def saved(self) -> None:
        """The board was saved: the crash copy and a declined copy are no longer needed."""
        self.discard()
        if self._declined is not None:
            self._remove(self._declined)
            self._declined = None

    @staticmethod
    def _remove(path: Path) -> None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()

    def _on_event(self, event: DocumentEvent) -> None:
        if isinstance(event, ModifiedChanged) and not event.modified:
            self.discard()  # saved, or undone back to the saved state
        elif isinstance(event, FileChanged):
            self.discard()  # another file now: the old copy belonged to the one left behind
        elif isinstance(event, BoardChanged) and self.document.modified and self._due is None:
            self._due = time.monotonic() + self.delay_s
