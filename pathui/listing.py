"""The file browser panel behind open / save as / export: the folder of the typed path, listed.

It follows the prompt's text: the folder part picks the folder, the rest filters the
names. Folders first, then files; board files (``.dat``) are marked; recent files come
first when the text is empty or a folder. Up/Down (or the mouse) select an entry and
Enter takes it: a folder is entered, a file is chosen. Drawn by the view with the
editor's own widgets; no GL here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

MAX_ENTRIES = 400


@dataclass(frozen=True)
class Entry:
    path: Path
    label: str
    is_dir: bool
    recent: bool = False


def split_typed(text: str) -> tuple[Path, str]:
    """(folder to list, name prefix) for what is typed; a missing folder lists nothing."""
    expanded = os.path.expanduser(text) if text.startswith("~") else text
    if not expanded:
        return Path.cwd(), ""
    folder, _, stem = expanded.rpartition("/")
    if not folder and expanded.startswith("/"):
        folder = "/"
    return (Path(folder) if folder else Path.cwd()), stem


@dataclass
class Listing:
    """The entries shown for the current text, and which one is selected (-1: none)."""

    recent: list[Path] = field(default_factory=list)
    folder: Path = field(default_factory=Path.cwd)
    entries: list[Entry] = field(default_factory=list)
    selected: int = -1
    error: str = ""
    _shown_for: str | None = None

    def follow(self, text: str) -> None:
        if text == self._shown_for:
            return
        self._shown_for = text
        folder, stem = split_typed(text)
        self.folder, self.selected, self.error = folder, -1, ""
        entries: list[Entry] = []
        if not stem:
            entries += [Entry(p, f"{p.name}   ({p.parent})", False, recent=True) for p in self.recent if _is_file(p)]
            if folder.parent != folder:
                entries.append(Entry(folder.parent, "../", True))
        try:
            found = [e for e in os.scandir(folder) if e.name.startswith(stem) and not e.name.startswith(".")]
        except FileNotFoundError:
            self.error = f"the folder {folder} does not exist"
            found = []
        except OSError as exc:
            self.error = f"cannot list {folder}: {exc.strerror or exc}"
            found = []
        dirs = sorted((e for e in found if _is_dir(e)), key=lambda e: e.name.lower())
        files = sorted(
            (e for e in found if not _is_dir(e)), key=lambda e: (not e.name.endswith(".dat"), e.name.lower())
        )
        entries += [Entry(folder / e.name, e.name + "/", True) for e in dirs]
        entries += [Entry(folder / e.name, e.name, False) for e in files]
        self.entries = entries[:MAX_ENTRIES]

    def refresh(self) -> None:
        """List the folder again (after ``recent`` changed, or the folder did)."""
        text, self._shown_for = self._shown_for, None
        self.follow(text or "")

    def move(self, delta: int) -> None:
        if self.entries:
            self.selected = (
                (self.selected + delta) % len(self.entries)
                if self.selected >= 0
                else (0 if delta > 0 else len(self.entries) - 1)
            )

    def chosen(self, text: str) -> Path | None:
        """The selected entry, if the user moved to one; else None (the typed text counts)."""
        if 0 <= self.selected < len(self.entries):
            return self.entries[self.selected].path
        return None


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_file(path: Path) -> bool:
    """``path.is_file()``, False where the name is too long for the system (a hand-edited recent
    list): the OSError came out of the open prompt."""
    try:
        return path.is_file()
    except OSError:
        return False
