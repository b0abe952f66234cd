"""The viewer's recent games: what was last opened (a game folder, a board, a board with its
sequence), newest first, shown on the start screen.

Kept as a small JSON file in the per-user state folder (``$XDG_STATE_HOME/robots-view``,
else ``~/.local/state/robots-view``), written atomically (``engine.atomic``) so a crash never
leaves half a list. A missing, unreadable or hand-broken file means no recent games; a
read-only home means they are not remembered: neither is ever an error. A FIFO, device or
folder in its place is no list either (``engine.atomic.read_regular`` refuses it without
waiting: a FIFO there held the start screen for ever).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from engine.atomic import read_regular, write_text_atomic
from engine.bounds import MAX_FILE_BYTES

RECENT_MAX = 8


def state_folder() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "robots-view"


@dataclass(frozen=True)
class Recent:
    """One thing opened: a game folder or a board file (``path``), or a board with ``sequence``."""

    path: str
    sequence: str | None = None

    @property
    def label(self) -> str:
        if self.sequence is not None:
            return f"{Path(self.path).name} + {Path(self.sequence).name}"
        return Path(self.path).name + ("/" if Path(self.path).is_dir() else "")

    def exists(self) -> bool:
        try:  # a hand-edited list: a name too long for the system raised OSError out of the start screen
            return Path(self.path).exists() and (self.sequence is None or Path(self.sequence).is_file())
        except (OSError, ValueError):
            return False


def distinct_labels(entries: list[Recent]) -> list[str]:
    """Each entry's label, with its folder's name in front where labels would look the same:
    every ``robots-tron play --out DIR`` writes ``DIR/tron-game.json``, so a recent list of bare
    names was a column of identical ``tron-game.json`` lines."""
    labels = [entry.label for entry in entries]
    return [
        f"{Path(entry.path).parent.name}/{label}" if labels.count(label) > 1 else label
        for entry, label in zip(entries, labels, strict=True)
    ]


class RecentGames:
    """The list in ``folder`` (the state folder by default); each game keeps its own file
    (``viewer3d.games.Game.recent_file``), so one game's files never push another's off the list."""

    def __init__(self, folder: Path | None = None, name: str = "recent.json") -> None:
        self.file = (folder or state_folder()) / name

    def written(self) -> int:
        """When the list last changed (nanoseconds), -1 when it never was: the start screen opens
        on the tab of the game opened last."""
        try:
            return self.file.stat().st_mtime_ns
        except OSError:
            return -1

    def load(self) -> list[Recent]:
        """The remembered entries, newest first (those whose files are gone are left out)."""
        try:
            data = json.loads(read_regular(self.file, MAX_FILE_BYTES).decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            return []
        found: list[Recent] = []
        for item in data if isinstance(data, list) else []:
            if not isinstance(item, dict) or not isinstance(item.get("path"), str):
                continue
            sequence = item.get("sequence")
            entry = Recent(item["path"], sequence if isinstance(sequence, str) else None)
            if entry.exists() and entry not in found:
                found.append(entry)
        return found[:RECENT_MAX]

    def add(self, path: str | Path, sequence: str | Path | None = None) -> None:
        entry = Recent(str(Path(path).absolute()), str(Path(sequence).absolute()) if sequence else None)
        entries = [entry, *(e for e in self.load() if e != entry)][:RECENT_MAX]
        text = json.dumps([{"path": e.path, "sequence": e.sequence} for e in entries], indent=2) + "\n"
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.file, text)
        except OSError:
            pass  # a read-only home: recent games are a convenience, never an error
