"""What a theme folder holds: its picture files found by name regardless of case, and the
files that are not theme pictures, each with a hint (artists misname files more than anything)."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path

from themes.keys import ROBOT_PICTURE_KEYS
from themes.manifest import MANIFEST_FILE

#: Every picture name a theme may hold at its top (without ``.png``): the robot game's.
PICTURE_KEYS: tuple[str, ...] = ROBOT_PICTURE_KEYS
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff")


@dataclass(slots=True)
class FolderScan:
    """``files``: picture key -> the file that holds it; ``notes``: one line per misnamed file."""

    files: dict[str, Path] = field(default_factory=dict)
    case_notes: list[str] = field(default_factory=list)
    unknown_notes: list[str] = field(default_factory=list)


def _hint(name: str) -> str:
    stem, _, suffix = name.rpartition(".")
    lowered = stem.lower()
    if f".{suffix.lower()}" != ".png" and lowered in PICTURE_KEYS:
        return f"theme pictures are PNG files; save it as {lowered}.png"
    if lowered == "wall":
        return "walls: wall-b..wall-p or wall-left/right/up/down"
    if lowered in ("pusher", "conveyor", "start-up", "start-left", "start-right", "start-down"):
        return "see docs/themes.md for the picture names"
    close = difflib.get_close_matches(lowered, PICTURE_KEYS, n=1, cutoff=0.7)
    return f"did you mean {close[0]}.png?" if close else "ignored"


def scan_folder(folder: Path) -> FolderScan:
    """The theme pictures in ``folder``; raises OSError when the folder cannot be listed."""
    scan = FolderScan()
    with os.scandir(folder) as entries:
        names = sorted(entry.name for entry in entries)
    exact = set(names)
    for name in names:
        if name.startswith(".") or name == MANIFEST_FILE:
            continue
        stem, dot, suffix = name.rpartition(".")
        if not dot or f".{suffix.lower()}" not in _IMAGE_SUFFIXES:
            continue  # sources (.xcf, .kra, .svg), notes: an artist's own business
        key = stem.lower()
        if key in PICTURE_KEYS and suffix.lower() == "png":
            if name == f"{key}.png":
                scan.files[key] = folder / name
            elif f"{key}.png" not in exact and key not in scan.files:
                scan.files[key] = folder / name
                scan.case_notes.append(name)
            continue
        scan.unknown_notes.append(f"{name}: not a theme picture; {_hint(name)}")
    return scan
