"""A theme folder's state in one value: what live reload compares to see a change."""

from __future__ import annotations

import os
from pathlib import Path

Stamp = tuple[tuple[str, int, int, int], ...]


#: The subfolders whose files belong to the theme too: other games' pictures (``keys.GAME_FOLDERS``).
SUBFOLDERS = ("tron",)


def folder_stamp(folder: Path) -> Stamp | None:
    """Name, size, modification time and inode of every file in ``folder`` and in its games'
    subfolders (``tron/NAME``), so an edited Tron picture is a change too (None: unreadable)."""
    try:
        with os.scandir(folder) as scan:
            entries = []
            for entry in scan:
                stat = entry.stat()
                entries.append((entry.name, stat.st_size, stat.st_mtime_ns, stat.st_ino))
                if entry.name in SUBFOLDERS and entry.is_dir():
                    inner = folder_stamp(Path(entry.path)) or ()
                    entries += [(f"{entry.name}/{name}", size, time, inode) for name, size, time, inode in inner]
    except OSError:
        return None
    return tuple(sorted(entries))
