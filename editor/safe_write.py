"""Saving the way a desktop program should: atomic, through symlinks, never over a read-only file.

``write_board_file`` follows a symlink to its target (the link stays a link), refuses a
read-only target or a missing folder with an ``OSError`` whose message a user can act
on, and writes via a temporary file and a rename so a crash never leaves half a board.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from engine.atomic import is_read_only, write_text_atomic


def real_target(path: Path) -> Path:
    """The file a save to ``path`` must change: the end of a symlink chain, else ``path``."""
    return path.resolve() if path.is_symlink() else path


def folder_writable(folder: Path) -> bool:
    """Whether new files can be created in ``folder`` (it exists and may be written)."""
    try:
        mode = folder.stat().st_mode
    except OSError:
        return False
    return stat.S_ISDIR(mode) and bool(mode & stat.S_IWUSR) and os.access(folder, os.W_OK | os.X_OK)


def check_writable(path: Path) -> Path:
    """The real file to write for ``path``; ``OSError`` with a clear message when it cannot be."""
    target = real_target(path)
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "that is a folder, not a file", str(path))
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"the folder {folder} does not exist", str(path))
    if is_read_only(target):
        raise PermissionError(errno.EACCES, "the file is read-only; save it under another name", str(path))
    return target


def write_board_file(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` (see the module text); returns the file actually written."""
    target = check_writable(path)
    write_text_atomic(target, text)
    return target
