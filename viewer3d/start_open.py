"""The start screen's file browser (no GL): open a game folder, a board file, or a board with a
sequence (``globalseq.txt``), with the keyboard or the mouse alone.

The typing, completion and listing are the board editor's (``pathui``); this module only says
what a chosen path opens and where the browser's rows and buttons lie. Choosing a sequence that
is not inside a game folder asks for its board next. ``result`` is set once something can be opened.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from engine.atomic import file_kind
from engine.games import TRON, sniff_game
from pathui.prompt import Prompt, Prompts

ROW_H = 22.0
RECENT_W = 300.0  # width of the Open button and the recent games' column
OPEN_LABEL = "open a game folder, a board (.dat) or a globalseq.txt"
DECK_LABEL = "choose a deck file for the new game (5,600 cards, one per line)"


def not_a_file(path: Path, typed: str) -> str:
    """Why ``path`` (neither a folder nor a regular file) cannot be opened, in one line: a FIFO
    or a device is named as such (it was "no such file or folder" while the listing showed it)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return f"{typed[:80]}: no such file or folder"
    return f"{typed[:80]}: is a {file_kind(mode)}, not a regular file"


@dataclass(frozen=True)
class Box:
    """A clickable rectangle (top-left pixels) with what a click on it does."""

    left: float
    top: float
    width: float
    height: float
    action: str
    text: str

    def contains(self, px: float, py: float) -> bool:
        return self.left <= px <= self.left + self.width and self.top <= py <= self.top + self.height


def action_column(viewport: tuple[int, int], left_min: float, open_text: str, recent: list[str]) -> list[Box]:
    """Start at the bottom right, and the Open button over the recent entries at the right (right of
    ``left_min``, the end of the thumbnails): the same on every tab of the start screen."""
    width, height = viewport
    right = max(left_min, width - RECENT_W - 24)
    column = max(160.0, min(RECENT_W, width - right - 16))  # narrower in an 800 px window, not cut off
    boxes = [Box(width - 180, height - 70, 150, 44, "start", "Start"), Box(right, 64, column, 36, "open", open_text)]
    for number, label in enumerate(recent):
        boxes.append(Box(right, 136 + number * 30, column, 26, f"recent:{number}", label))
    return boxes


@dataclass(frozen=True)
class Opened:
    """What the start screen opens: a game folder or board file (``path``), or a board with ``sequence``."""

    path: str
    sequence: str | None = None


def is_game_folder(path: Path) -> bool:
    """A folder written by ``robots-engine play`` (it holds the game's ``globalseq.txt``)."""
    return (path / "globalseq.txt").is_file()


@dataclass
class OpenBrowser:
    """The prompt with its listing, the board asked for after a lone sequence, and the outcome."""

    text: str = ""
    recent: list[Path] = field(default_factory=list)
    result: Opened | None = None
    closed: bool = False
    message: str = ""
    sequence: Path | None = None  # a chosen sequence waiting for its board
    first: int = 0  # the first listing row shown (scrolled)
    deck: bool = False  # choosing a deck file for a new game, not a game to open

    def __post_init__(self) -> None:
        self.prompts = Prompts(self._say)
        self._ask(DECK_LABEL if self.deck else OPEN_LABEL, self.text)
        if self.text and self.prompt is not None:
            self.prompt.all_selected = True  # typing replaces the suggested folder

    def _say(self, text: str) -> None:
        self.message = text

    def _ask(self, label: str, text: str) -> None:
        prompt = self.prompts.ask(label, self._submitted, text, paths=True)
        if prompt.listing is not None and self.sequence is None:
            prompt.listing.recent = self.recent
            prompt.listing.refresh()
        self.first = 0

    @property
    def prompt(self) -> Prompt | None:
        return self.prompts.current

    def _submitted(self, text: str) -> None:
        label = f"the board for {self.sequence.name}" if self.sequence is not None else OPEN_LABEL
        label = DECK_LABEL if self.deck else label
        typed = text.strip()
        if not typed:
            self.message = "type a path or choose one from the list"
            return self._ask(label, text)
        path = Path(os.path.expanduser(typed))
        if self.deck:  # a folder is entered, a file is the deck (start.py checks it)
            if path.is_dir():
                return self._ask(label, str(path).rstrip("/") + "/")
            if path.is_file():
                self.result = Opened(str(path))
                return None
            self.message = not_a_file(path, typed)
            return self._ask(label, text)
        if path.is_dir():
            if self.sequence is None and is_game_folder(path):
                self.result = Opened(str(path))
                return None
            if self.sequence is None:
                self.message = f"{path.name or path} is not a game folder (no globalseq.txt): choose a file in it"
            return self._ask(label, str(path).rstrip("/") + "/")
        if not path.is_file():
            self.message = not_a_file(path, typed)
            return self._ask(label, text)
        if self.sequence is not None:
            self.result = Opened(str(path), str(self.sequence))
        elif path.suffix.lower() == ".dat" or sniff_game(path) == TRON:  # a Tron file: shown by its game
            self.result = Opened(str(path))
        elif path.name == "globalseq.txt" and is_game_folder(path.parent):
            self.result = Opened(str(path.parent))
        else:
            self.sequence = path
            self.message = f"now choose the board {path.name} was played on"
            self._ask(f"the board for {path.name}", str(path.parent).rstrip("/") + "/")
        return None

    # -- input -------------------------------------------------------------------------------
    def key(self, name: str, ctrl: bool = False) -> None:
        """A key: Esc closes the browser, Enter takes the selection or the typed path, the rest edits."""
        if self.prompts.current is None:
            return
        if name == "ESCAPE":
            self.closed = True
            return
        self.message = "" if name in ("ENTER", "RETURN") else self.message
        self.prompts.key(name, ctrl)

    def type(self, text: str) -> None:
        self.prompts.text(text)

    def scroll(self, rows: int, shown: int) -> None:
        listing = self.prompt.listing if self.prompt is not None else None
        count = len(listing.entries) if listing is not None else 0
        self.first = max(0, min(self.first + rows, count - shown))

    # -- layout and clicks (top-left pixels) ---------------------------------------------------
    def rows_shown(self, viewport: tuple[int, int]) -> int:
        return max(1, int((viewport[1] - 60 - 210) // ROW_H))

    def layout(self, viewport: tuple[int, int]) -> list[Box]:
        """The listing's visible rows and the Up, Open and Cancel buttons, in a panel over the screen."""
        width, height = viewport
        boxes: list[Box] = []
        prompt = self.prompt
        listing = prompt.listing if prompt is not None else None
        if listing is not None:
            shown = self.rows_shown(viewport)
            if listing.selected >= 0:  # keep the keyboard's selection on screen
                self.first = min(max(self.first, listing.selected - shown + 1), listing.selected)
            for row, index in enumerate(range(self.first, min(len(listing.entries), self.first + shown))):
                entry = listing.entries[index]
                text = ("★ " if entry.recent else "") + entry.label
                boxes.append(Box(48, 150 + row * ROW_H, width - 96, ROW_H - 2, f"entry:{index}", text))
        boxes.append(Box(width - 400, height - 70, 110, 40, "browse:up", "Up a folder"))
        boxes.append(Box(width - 280, height - 70, 110, 40, "browse:open", "Use deck" if self.deck else "Open"))
        boxes.append(Box(width - 160, height - 70, 110, 40, "browse:cancel", "Cancel"))
        return boxes

    def click(self, viewport: tuple[int, int], px: float, py: float) -> bool:
        box = next((b for b in self.layout(viewport) if b.contains(px, py)), None)
        prompt = self.prompt
        if box is None or prompt is None:
            return False
        kind, _, value = box.action.partition(":")
        self.message = ""
        if kind == "entry" and prompt.listing is not None:
            self.prompts.pick(prompt.listing.entries[int(value)].path)
        elif value == "open":
            self.prompts.submit()
        elif value == "cancel":
            self.closed = True
        elif value == "up" and prompt.listing is not None:
            folder = prompt.listing.folder
            prompt.set_text(str(folder.parent).rstrip("/") + "/")
        return True

    def hint(self) -> str:
        """A line under the prompt: the message, or what Open would do with the listed folder."""
        if self.message:
            return self.message
        prompt = self.prompt
        if prompt is not None and prompt.listing is not None:
            if prompt.listing.error:
                return prompt.listing.error
            folder = Path(os.path.expanduser(prompt.text)) if prompt.text else None
            if (
                folder is not None
                and folder.is_dir()
                and is_game_folder(folder)
                and self.sequence is None
                and not self.deck
            ):
                return "a game folder: Open (or Enter) shows its game"
        return "Up/Down and Enter, Tab completes, or click; Esc cancels"
