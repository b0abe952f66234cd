"""Typed change events a :class:`~editor.document.Document` sends to whoever listens.

Views, the autosaver, the validation runner and the title bar react to these instead of
polling the board every frame: a view redraws only the tiles in ``BoardChanged.positions``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

Position = tuple[int, int]


@dataclass(frozen=True)
class BoardChanged:
    """The board's content changed: ``positions`` are the tiles touched (None: any, e.g. a transform).

    ``box`` (x0, y0, x1, y1, all included), given only with ``positions`` None, says the change
    stayed inside that box: a fill of thousands of tiles names its box, not every tile."""

    positions: frozenset[Position] | None = None
    resized: bool = False
    box: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class FileChanged:
    """The document now belongs to another file (opened, new board, saved as)."""

    path: Path | None


@dataclass(frozen=True)
class ModifiedChanged:
    """The unsaved-changes flag flipped (an edit, a save, or undo back to the saved state)."""

    modified: bool


DocumentEvent = BoardChanged | FileChanged | ModifiedChanged
Listener = Callable[[DocumentEvent], None]
