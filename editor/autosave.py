"""Autosave: a crash copy of unsaved work, written within a second or two of every edit.

A board with a file autosaves next to it as ``<file>.autosave`` when that folder can be
written, else in the per-user state folder (``$XDG_STATE_HOME/robots-edit`` or
``~/.local/state/robots-edit``) under a name made from the board's full path; an untitled
board autosaves to ``untitled.dat.autosave`` there. The copy is a normal board file
(written atomically), removed after a save or a clean exit. Each window owns its copy (an
advisory lock, :func:`try_lock`, that the kernel lets go of when the process dies): a second
window on the same board writes ``*.autosave-2``, and so on. A copy still there that no
running window owns is a crash copy, never written over, and offered at the next start: yes
restores it as one undoable step, no keeps the copy (renamed ``*.autosave~``) until the board
is next saved. A copy that cannot
be read any more (a damaged disk, a hand edit) is never written over: it is renamed
``*.autosave.damaged`` and the user is told (:func:`set_aside_damaged`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import re
import time
from pathlib import Path
from typing import BinaryIO

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
#: Why a crash copy could not be locked (:func:`try_lock`).
HELD = "held by a running window"
NO_LOCK = "no lock file can be made there"
#: Windows on one board at most (each has its own numbered crash copy).
MAX_WINDOWS = 100
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
    """Where the first window's autosave goes: next to the board when its folder is writable,
    else the state folder (a second window on the same board takes the next numbered name)."""
    return _locations(board_path, folder, suffix)[0]


def _locations(board_path: Path | None, folder: Path | None, suffix: str) -> list[Path]:
    """The first crash-copy names of the folders an autosave may go to, in the order tried."""
    first, *rest = autosave_candidates(board_path, folder, suffix)
    if board_path is not None and not folder_writable(board_path.parent if str(board_path.parent) else Path(".")):
        return rest
    return [first, *rest]


def numbered(first: Path, number: int) -> Path:
    """The crash copy of the ``number``-th window on a board: ``b.dat.autosave``, ``b.dat.autosave-2``..."""
    return first if number == 1 else first.with_name(f"{first.name}-{number}")


def crash_copies(board_path: Path | None, folder: Path | None = None, suffix: str = ".dat") -> list[Path]:
    """Every crash copy of this board on disk, whichever window wrote it (running or not):
    the board's folder first, then the state folder, each in number order."""
    found: list[Path] = []
    for first in autosave_candidates(board_path, folder, suffix):
        pattern = re.compile(re.escape(first.name) + r"(?:-([0-9]{1,6}))?")
        try:
            names = os.listdir(first.parent)
        except OSError:
            continue
        matches = sorted((int(m[1] or 1), name) for name in names if (m := pattern.fullmatch(name)))
        found += [first.parent / name for _, name in matches if (first.parent / name).is_file()]
    return found


def lock_file(copy: Path) -> Path:
    """The (hidden) file whose advisory lock says a running window owns ``copy``."""
    return copy.with_name(f".{copy.name}.lock")


def try_lock(copy: Path) -> BinaryIO | str:
    """Lock ``copy`` for this window: the open lock file (keep it open: the lock lasts as long as
    it, and the kernel lets go when the process ends, even by kill -9), or why not: :data:`HELD`
    (another running window owns the copy) or :data:`NO_LOCK` (no lock file can be made there)."""
    path = lock_file(copy)
    for _ in range(5):
        try:
            handle = open(path, "a+b")  # noqa: SIM115  # held open on purpose: it is the lock
        except OSError:
            return NO_LOCK
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return HELD
        except OSError:
            handle.close()
            return NO_LOCK
        # The lock file may have been removed (its owner let go) between open and flock: then this
        # lock is on a file nobody else sees; try again on the one there now.
        try:
            here, held = os.stat(path), os.fstat(handle.fileno())
        except OSError:
            handle.close()
            continue
        if (here.st_ino, here.st_dev) == (held.st_ino, held.st_dev):
            return handle
        handle.close()
    return HELD


def unlock(copy: Path, handle: BinaryIO) -> None:
    """Let go of a lock taken by :func:`try_lock` (its lock file is removed first, while held)."""
    with contextlib.suppress(OSError):
        lock_file(copy).unlink()
    handle.close()


def held_elsewhere(copy: Path) -> bool:
    """Whether a running window (this process's other windows included) owns ``copy`` now. The
    lock file is opened without blocking: a FIFO of that name held the editor at start for ever."""
    try:
        fd = os.open(lock_file(copy), os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False  # no lock file: nobody holds it
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False


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


def declined_name(copy: Path) -> str:
    """``b.dat.autosave`` and ``b.dat.autosave-2`` are both kept as ``b.dat.autosave~`` (``-2``...)."""
    match = re.fullmatch(r"(.*)" + re.escape(SUFFIX) + r"(?:-[0-9]+)?", copy.name)
    return match[1] + DECLINED_SUFFIX if match else copy.name + "~"


def set_aside_damaged(
    board_path: Path | None, folder: Path | None = None, game: EditorGame | None = None
) -> list[tuple[Path, Path | None, str]]:
    """Crash copies of this board that its game cannot read any more, renamed ``*.damaged`` so
    that the next autosave does not write over them: ``(copy, kept as or None, why)`` for each
    (kept as None: the rename failed, and ``why`` says that too). A copy a running window owns
    is left alone."""
    game = game if game is not None else game_named(ROBOTS)
    found: list[tuple[Path, Path | None, str]] = []
    for path in crash_copies(board_path, folder, game.suffix):
        if held_elsewhere(path):
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


def _offerable(path: Path, board_path: Path | None, game: EditorGame) -> Grid | None:
    """The board of a crash copy if it is worth offering: readable, and not what the file holds."""
    try:
        board = game.parse(read_text(path), path)
    except InputError:
        return None
    if board_path is not None and board_path.is_file():
        with contextlib.suppress(InputError):
            if game.parse(read_text(board_path), board_path) == board:
                return None
    return board


def pending_autosaves(
    board_path: Path | None, folder: Path | None = None, game: EditorGame | None = None
) -> list[tuple[Path, Grid]]:
    """The autosaves left behind by crashed windows, with their boards: those worth offering
    (readable by the game's parser, different from the file they belong to), never one that a
    running window owns (it holds the copy's lock)."""
    game = game if game is not None else game_named(ROBOTS)
    found: list[tuple[Path, Grid]] = []
    for path in crash_copies(board_path, folder, game.suffix):
        if held_elsewhere(path):
            continue
        board = _offerable(path, board_path, game)
        if board is not None:
            found.append((path, board))
    return found


def drop_copies_of_the_file(
    board_path: Path | None, folder: Path | None = None, game: EditorGame | None = None
) -> None:
    """Remove the crash copies no running window owns that hold just what the board file holds
    (a window edited the board back by hand, then crashed): they are never offered, and left
    there they would keep their name from every later window."""
    game = game if game is not None else game_named(ROBOTS)
    if board_path is None or not board_path.is_file():
        return
    try:
        on_disk = game.parse(read_text(board_path), board_path)
    except InputError:
        return
    for path in crash_copies(board_path, folder, game.suffix):
        lock = try_lock(path)
        if isinstance(lock, str):
            continue
        try:
            if game.parse(read_text(path), path) == on_disk:
                path.unlink()
        except (InputError, OSError):
            pass
        finally:
            unlock(path, lock)


def pending_autosave(
    board_path: Path | None, folder: Path | None = None, game: EditorGame | None = None
) -> tuple[Path, Grid] | None:
    """The first of :func:`pending_autosaves`, or None."""
    found = pending_autosaves(board_path, folder, game)
    return found[0] if found else None


class Autosaver:
    """Keeps the crash copy of one document current: call ``tick`` often (the window does, 4x a second).

    The copy is this window's own: it holds the copy's lock (:func:`try_lock`) from the first
    write until the copy is removed (a save, a clean exit) or the process ends. A second window
    on the same board takes the next numbered name, so a crash of one never leaves the other's
    edits in its place."""

    def __init__(self, document: Document, delay_s: float = DELAY_S, folder: Path | None = None) -> None:
        self.document = document
        self.delay_s = delay_s
        self.folder = folder
        self._due: float | None = None
        self._written: Path | None = None
        self._adopted: Path | None = None
        self._declined: list[Path] = []
        #: The crash copies this window owns (its own, and those it is offering back), with their locks.
        self._locks: dict[Path, BinaryIO] = {}
        #: Files never to write over, with why: a crash copy offered back and not yet restored or
        #: declined (Esc, or edits made while the question shows), a damaged one not renamed.
        self.protected: dict[Path, str] = {}
        document.subscribe(self._on_event)

    @property
    def path(self) -> Path:
        """This window's crash copy (before the first write: where the first window's goes)."""
        if self._written is not None:
            return self._written
        return autosave_path(self.document.path, self.folder, self.document.game.suffix)

    @property
    def pending(self) -> bool:
        """Whether an edit has not reached the crash copy yet."""
        return self._due is not None

    def tick(self, now: float | None = None) -> Path | None:
        """Writes the crash copy when an edit is due, or again when the copy vanished while there
        are unsaved edits (removed by hand, or by an older editor); returns the file written."""
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
        """Write the copy now (also the emergency copy after an unexpected error): this window's
        own copy, else the first free numbered name next to the board, else in the state folder."""
        text = self.document.text
        errors: list[str] = []
        if self._written is not None and self._written not in self.protected:
            try:
                write_text_atomic(self._written, text)
                return self._written
            except OSError as exc:
                errors.append(f"{self._written}: {exc.strerror or exc}")
        for first in _locations(self.document.path, self.folder, self.document.game.suffix):
            target, why = self._claim(first)
            if target is None:
                errors.append(f"{first}: {why}")
                continue
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                write_text_atomic(target, text)
            except OSError as exc:
                errors.append(f"{target}: {exc.strerror or exc}")
                self._release(target)
                continue
            if self._written is not None and self._written != target:
                self._remove(self._written)
            self._written = target
            return target
        raise OSError("; ".join(errors))

    def _claim(self, first: Path) -> tuple[Path | None, str]:
        """A crash-copy name in ``first``'s folder for this window, locked: the first one that no
        running window owns and no crash copy of an earlier session holds; else None and why."""
        with contextlib.suppress(OSError):
            first.parent.mkdir(parents=True, exist_ok=True)
        why = "every numbered name is taken"
        for number in range(1, MAX_WINDOWS + 1):
            target = numbered(first, number)
            if target in self.protected:
                why = self.protected[target]
                continue
            if target in self._locks:
                continue  # a crash copy this window is offering back
            lock = try_lock(target)
            if lock == NO_LOCK:
                return None, NO_LOCK
            if isinstance(lock, str):
                continue  # another window's
            if os.path.lexists(target):
                unlock(target, lock)  # a crash copy to offer at the next start: never written over
                continue
            self._locks[target] = lock
            return target, ""
        return None, why

    def lock_offer(self, path: Path) -> bool:
        """Own a crash copy found at start while it is offered back (so that a window started
        meanwhile does not offer it too); False when a running window owns it."""
        if path in self._locks:
            return True
        lock = try_lock(path)
        if lock == HELD:
            return False
        if not isinstance(lock, str):
            self._locks[path] = lock
        return True  # NO_LOCK: nobody can lock there, so no window owns it

    def adopt(self, path: Path) -> None:
        """Take charge of an autosave restored from a crash (removed once the work is saved); the
        copy this window wrote before goes (what it held was replaced by the restore), and one
        restored earlier is kept aside as a declined copy (until the next save)."""
        old = self._written
        if old is not None and old != path:
            if old == self._adopted:
                self.decline(old)
            else:
                self._remove(old)
        self._written = self._adopted = path

    def decline(self, path: Path) -> Path:
        """Keep a crash copy the user did not restore, out of the way, until the next save."""
        try:
            kept = keep_aside(path, declined_name(path))  # never over a copy declined earlier
        except OSError:
            self.protected[path] = "the declined crash copy is kept there"  # never replaced by an autosave
            return path
        self._release(path)
        self._declined.append(kept)
        return kept

    def let_go(self, path: Path) -> None:
        """No longer own a crash copy offered back (it is left as it is)."""
        self._release(path)

    def discard(self) -> None:
        """Remove the autosave this editor wrote or restored (after a save or a clean exit).

        Another file's autosave is never touched: it may be a crash copy still to offer."""
        if self._written is not None:
            self._remove(self._written)
        self._written = self._adopted = None
        self._due = None

    def saved(self) -> None:
        """The board was saved: the crash copy and the declined copies are no longer needed."""
        self.discard()
        for kept in self._declined:
            self._remove(kept)
        self._declined = []

    def release(self) -> None:
        """Let go of every lock, leaving the copies where they are (the window is going away;
        a crash copy still there is offered at the next start)."""
        for handle in self._locks.values():
            handle.close()
        self._locks = {}

    def _release(self, path: Path) -> None:
        handle = self._locks.pop(path, None)
        if handle is not None:
            unlock(path, handle)

    def _remove(self, path: Path) -> None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        self._release(path)

    def _on_event(self, event: DocumentEvent) -> None:
        if isinstance(event, ModifiedChanged) and not event.modified:
            self.discard()  # saved, or undone back to the saved state
        elif isinstance(event, FileChanged):
            self.discard()  # another file now: the old copy belonged to the one left behind
        elif isinstance(event, BoardChanged) and self.document.modified and self._due is None:
            self._due = time.monotonic() + self.delay_s
