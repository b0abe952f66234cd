"""The start screen's Tron tab (no GL): which arena (shipped or recent) and which bots a new game
uses, the recent Tron games and arenas, and the boxes that change them.

A bot is a built-in (``simple``, ``random``, ``strong``) or a program chosen in the file browser;
an arena holds as many bots as it has start lines (two without any), so ``+ bot`` stops there.
Start gives a ``TronChoice``; ``viewer3d.start.StartScreen`` plays it in the background
(``viewer3d.games.tron.live``) and ``robots-view`` watches it while it is played. Like ``start.StartScreen.layout``,
``layout`` places every box for a window size, so tests choose with clicks alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import InputError
from engine.tron.arena import load_arena
from viewer3d.recent import Recent, distinct_labels
from viewer3d.start_open import Box, action_column

THUMB = 72.0
COLUMNS = 5
MAX_SHOWN_BOTS = 8
DEFAULT_ARENA = "pillars-30x30.txt"
DEFAULT_BOTS = ("strong", "simple")

TOOLTIPS = {
    "arena": "play a new Tron game on this arena",
    "bot": "the built-in bot that drives this cycle",
    "program": "choose a program for this cycle (any contest entry)",
    "bots": "add or remove a bot (up to the arena's start lines)",
    "start": "play the new game and watch it as it is played (Enter)",
    "open": "open a Tron game file or arena (O)",
    "recent": "open this recent Tron game or arena again",
    "theme": "the theme the arena is drawn with (its tron/ pictures; click for the next one)",
    "window": "watch in a window or fullscreen",
}


@dataclass(frozen=True)
class TronChoice:
    """What Start plays: an arena file and its bots (built-in names or program paths)."""

    arena: str
    bots: tuple[str, ...]


@dataclass(frozen=True)
class ArenaEntry:
    """An arena the tab offers: its label, its file, and whether it ships with the product."""

    name: str
    path: str
    shipped: bool = True


def is_arena(path: str | Path) -> bool:
    """A Tron arena file (``GAMEBOARDSTART`` first), not a game file."""
    try:
        with open(path, "rb") as handle:
            return handle.read(64).lstrip().startswith(b"GAMEBOARDSTART")
    except OSError:
        return False


@dataclass
class TronPanel:
    """The Tron tab's choices. ``recent``: remembered Tron files, newest first (arenas among them
    join the arena grid, game files the right-hand list)."""

    shipped: list[Path]
    recent: list[Recent] = field(default_factory=list)
    players: tuple[str, ...] = ("simple", "random", "strong")
    arena: str = ""  # the chosen arena's path
    bots: list[str] = field(default_factory=lambda: list(DEFAULT_BOTS))
    message: str = ""
    #: Whether each recent file is an arena, read once (the screen lays out its boxes every frame).
    _arena_files: dict[str, bool] = field(default_factory=dict, repr=False)

    def _is_arena(self, path: str) -> bool:
        if path not in self._arena_files:
            self._arena_files[path] = is_arena(path)
        return self._arena_files[path]

    def __post_init__(self) -> None:
        self._shipped_paths = {str(p) for p in self.shipped} | {str(Path(p).resolve()) for p in self.shipped}
        if not self.arena and self.arenas:
            default = next((a for a in self.arenas if a.name == DEFAULT_ARENA), self.arenas[0])
            self.arena = default.path

    @property
    def arenas(self) -> list[ArenaEntry]:
        """The shipped arenas, then recent arenas that are not shipped ones."""
        shipped = [ArenaEntry(p.name, str(p)) for p in self.shipped]
        extra = [
            ArenaEntry(Path(r.path).name, r.path, shipped=False)
            for r in self.recent
            if self._is_arena(r.path) and r.path not in self._shipped_paths
        ]
        return shipped + extra

    @property
    def games(self) -> list[Recent]:
        """The recent Tron game files (arenas are in the grid)."""
        return [r for r in self.recent if not self._is_arena(r.path)]

    def capacity(self) -> int:
        """How many bots the chosen arena holds: its start lines, or the contest's two."""
        try:
            arena = load_arena(self.arena)
        except InputError:
            return 2
        return min(MAX_SHOWN_BOTS, len(arena.starts) or 2)

    def choice(self) -> TronChoice:
        return TronChoice(self.arena, tuple(self.bots))

    def take_arena(self, path: str) -> None:
        """Use an arena file opened in the browser; a broken one is reported, the old one kept."""
        try:
            arena = load_arena(path)
            arena.starts_for(len(arena.starts) or 2)
        except InputError as error:
            self.message = str(error).splitlines()[0]
            return
        except ValueError as error:
            self.message = f"{Path(path).name}: {error}"
            return
        self.arena, self.message = str(Path(path).absolute()), ""
        if not any(a.path == self.arena for a in self.arenas):
            self.recent.insert(0, Recent(self.arena))
        del self.bots[self.capacity() :]

    def take_program(self, slot: int, path: str) -> None:
        self.bots[slot - 1] = str(Path(path).absolute())

    def bot_label(self, slot: int) -> str:
        """The program box's text: the program's file name, or ``program...``."""
        bot = self.bots[slot - 1]
        return Path(bot).name if bot not in self.players else "program..."

    def tooltip(self, box: Box) -> str:
        kind = box.action.partition(":")[0]
        if kind == "arena":  # the box shows the name cut to its width: here it is whole
            return f"{box.text}: {TOOLTIPS['arena']}"
        return TOOLTIPS.get(kind, "")

    def layout(self, viewport: tuple[int, int]) -> list[Box]:
        """The arenas as a grid of thumbnails, a row per bot, + and - bot, Start; Open and the
        recent games at the right (as on the robot tab)."""
        boxes: list[Box] = []
        cell_w, cell_h = THUMB + 48.0, THUMB + 26.0
        arenas = self.arenas
        for index, entry in enumerate(arenas):
            row, column = divmod(index, COLUMNS)
            boxes.append(
                Box(
                    24 + column * cell_w,
                    64 + row * cell_h,
                    cell_w - 8,
                    cell_h - 6,
                    f"arena:{index}",
                    Path(entry.name).stem,
                )
            )
        top = 64 + ((len(arenas) + COLUMNS - 1) // COLUMNS) * cell_h + 16
        for slot in range(1, len(self.bots) + 1):
            left = 140.0
            for name in self.players:
                boxes.append(Box(left, top, 96, 28, f"bot:{slot}:{name}", name))
                left += 104
            boxes.append(Box(left, top, 160, 28, f"program:{slot}", self.bot_label(slot)))
            top += 40
        boxes.append(Box(140, top, 96, 28, "bots:-1", "- bot"))
        boxes.append(Box(244, top, 96, 28, "bots:+1", "+ bot"))
        labels = distinct_labels(self.games)
        return boxes + action_column(viewport, 24 + COLUMNS * cell_w + 16, "Open a Tron game or arena... (O)", labels)

    def selected(self, box: Box) -> bool:
        kind, _, value = box.action.partition(":")
        if kind == "arena":
            arenas = self.arenas
            return int(value) < len(arenas) and arenas[int(value)].path == self.arena
        if kind == "bot":
            slot, _, name = value.partition(":")
            return self.bots[int(slot) - 1] == name
        if kind == "program":
            return self.bots[int(value) - 1] not in self.players
        return False

    def click(self, box: Box) -> str | None:
        """Apply a click on ``box``; returns what the start screen must do next (``start``,
        ``open``, ``program:N`` or ``recent:PATH``), None when the tab handled it."""
        kind, _, value = box.action.partition(":")
        self.message = ""
        if kind == "arena":
            self.arena = self.arenas[int(value)].path
            del self.bots[self.capacity() :]
        elif kind == "bot":
            slot, _, name = value.partition(":")
            self.bots[int(slot) - 1] = name
        elif kind == "bots" and value == "+1":
            if len(self.bots) < self.capacity():
                self.bots.append(self.players[0])
            else:
                self.message = f"{Path(self.arena).name} has start places for {self.capacity()} bots"
        elif kind == "bots":
            if len(self.bots) > 1:
                self.bots.pop()
        elif kind == "recent":
            return f"recent:{self.games[int(value)].path}"
        else:
            return box.action
        return None
