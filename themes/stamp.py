"""A theme folder's state in one value: what live reload compares to see a change."""

from __future__ import annotations

import os
from pathlib import Path

Stamp = tuple[tuple[str, int, int, int], ...]


def folder_stamp(folder: Path) -> Stamp | None:
    """Name, size, modification time and inode of every file in ``folder`` (None: unreadable)."""
    try:
        with os.scandir(folder) as scan:
            entries = []
            for entry in scan:
                stat = entry.stat()
                entries.append((entry.name, stat.st_size, stat.st_mtime_ns, stat.st_ino))
    except OSError:
        return None
    return tuple(sorted(entries))
