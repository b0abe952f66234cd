"""A viewer showing a game folder follows it: when the game in it is rewritten (``robots-engine
play --out`` the same folder again), the viewer shows the new game.

``GameFolderWatch.poll`` looks at ``game.json`` (written last, atomically, so a changed
``game.json`` means a complete new game) and loads the folder again; a folder caught half-way
through a rewrite, or broken, is reported once and tried again at the next change, the old game
staying on screen.  While it watches, the folder holds ``.robots-view.pid`` naming the viewer's
process, so ``robots-engine play ... --view`` knows an open viewer will show its game and does
not start a second one.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from engine.errors import InputError
from engine.gamedir import INFO_FILE, VIEWER_PID_FILE, viewer_pid
from viewer3d.sources import GameSource, from_game_dir

PID_FILE = VIEWER_PID_FILE


def _signature(folder: Path) -> tuple[int, ...] | None:
    """``game.json``'s identity, and ``analysis.json``'s (``robots-engine analyse`` run later)."""
    try:
        info = (folder / INFO_FILE).stat()
    except OSError:
        return None
    try:
        extra = (folder / "analysis.json").stat()
        analysed = (extra.st_mtime_ns, extra.st_size, extra.st_ino)
    except OSError:
        analysed = (0, 0, 0)
    return (info.st_mtime_ns, info.st_size, info.st_ino, *analysed)


class GameFolderWatch:
    """Watches one game folder; ``poll()`` returns the rewritten game once, else None."""

    def __init__(self, folder: Path, *, claim: bool = True) -> None:
        self.folder = folder
        self.loaded = _signature(folder)
        self._failed: tuple[int, ...] | None = None
        self.error: str | None = None
        self._pid_path: Path | None = None
        if claim:
            self._claim()

    def _claim(self) -> None:
        """Write our pid into the folder; never through a link (a game folder from elsewhere could
        hold ``.robots-view.pid`` linked to a file of the user's, overwritten with a number) nor
        into a FIFO (its open waited for a reader for ever): either means no claim."""
        path = self.folder / PID_FILE
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        with contextlib.suppress(OSError):
            fd = os.open(path, flags, 0o644)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    return
                os.write(fd, f"{os.getpid()}\n".encode("ascii"))
            finally:
                os.close(fd)
            self._pid_path = path

    def release(self) -> None:
        """Stop claiming the folder (the window closes)."""
        path, self._pid_path = self._pid_path, None
        if path is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if viewer_pid(self.folder) == os.getpid():
                path.unlink()

    def poll(self) -> GameSource | None:
        """The new game when ``game.json`` changed since the last load; None otherwise (also when
        the folder cannot be read now: ``error`` says why, once per change)."""
        now = _signature(self.folder)
        if now is None or now == self.loaded or now == self._failed:
            return None
        try:
            source = from_game_dir(self.folder)
        except (InputError, OSError) as exc:
            self._failed = now
            self.error = f"cannot reload {self.folder}: {exc}"
            return None
        self.loaded, self._failed, self.error = now, None, None
        return source


def viewer_watching(folder: str | Path) -> int | None:
    """The process id of a live viewer watching ``folder``, or None."""
    return viewer_pid(folder)
