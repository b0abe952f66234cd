"""What a game gives the editor: the one seam between the shared editing machinery and a game.

The document, its undo stack and typed events, the commands, the tools, the pointer, the file
actions, autosave, export and the window are written once (``editor/*.py``) against the small
protocols below; a game (``editor.games.robots``, ``editor.games.tron``) fills them in with its
engine's own parser, writer and rules. The editor never learns a game's rules itself: a grid is
the game's immutable value, and every change of it goes through :meth:`EditorGame.put_cells`,
:meth:`EditorGame.fill_cells`, :meth:`EditorGame.resized` or :meth:`EditorGame.transformed`.

Positions are 0-based ``(x, y)`` with ``y`` growing downwards, whatever the game's file says.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from PIL import Image

    from editor.spans import Spans
    from editor.tools import Tool

Position = tuple[int, int]
T = TypeVar("T")


class Cell(Protocol):
    """One square of a grid; ``char`` names its picture and its palette entry (equal chars look the same)."""

    @property
    def char(self) -> str: ...


class Grid(Protocol):
    """A game's immutable board as the editor sees it: ``rows[y][x]`` is the cell at ``(x, y)``."""

    @property
    def rows(self) -> Sequence[Sequence[Cell]]: ...

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    def tile(self, x: int, y: int) -> Cell: ...

    def in_bounds(self, x: int, y: int) -> bool: ...


class Transform(Enum):
    """A whole-board transform; the value is the label shown in the undo history."""

    ROTATE_CW = "rotate clockwise"
    ROTATE_CCW = "rotate anticlockwise"
    MIRROR_H = "mirror left-right"
    MIRROR_V = "mirror top-bottom"

    @property
    def inverse(self) -> Transform:
        return {
            Transform.ROTATE_CW: Transform.ROTATE_CCW,
            Transform.ROTATE_CCW: Transform.ROTATE_CW,
        }.get(self, self)


class Problem(Protocol):
    """One located problem found by the game's engine: words and the cells it concerns."""

    @property
    def message(self) -> str: ...

    @property
    def tiles(self) -> tuple[Position, ...]: ...


class Validation(Protocol):
    """The engine's verdict on one grid, possibly computed a slice at a time (robot reachability
    searches take seconds on big boards); ``pending`` names the checks still running."""

    @property
    def board(self) -> Grid: ...

    @property
    def done(self) -> bool: ...

    def advance(self, max_seconds: float | None = None, slice_poses: int = 64) -> bool: ...

    @property
    def problems(self) -> Sequence[Problem]: ...

    @property
    def pending(self) -> Sequence[object]: ...

    def summary(self) -> list[str]: ...


@dataclass(frozen=True)
class GameAction:
    """An edit only one game has (Tron: make the arena point-symmetric), on a key without modifiers;
    it is one undoable step, listed in F1 and the command palette like every other action."""

    name: str
    key: str  # pyglet key name, e.g. "Y"
    help: str
    apply: Callable[[Grid], Grid]


@dataclass(frozen=True)
class Played:
    """A finished test-play: what to open in the viewer, and one line for the status bar."""

    path: Path
    summary: str


@dataclass
class PlayWatch:
    """Between a running test-play (its thread) and the window: the game writes how far it is
    (``progress``, e.g. ``round 1,234``; the window shows it) and stops at its next step once
    ``cancel`` is set (a Tron game on a big arena takes minutes)."""

    progress: str = ""
    cancel: threading.Event = field(default_factory=threading.Event)


class PlayCancelled(Exception):
    """A test-play stopped because its ``PlayWatch`` was cancelled (the message says where)."""


class EditorGame(ABC):
    """Everything the shared editor needs from one game. Subclasses are stateless singletons."""

    #: The game's name (``engine.games``): the registry's key and ``sniff_game``'s answer.
    name: str
    #: What one file of the game is called in messages ("board", "arena").
    noun: str
    #: Size of a new, untitled grid.
    default_size: tuple[int, int]
    #: File suffix for an untitled save-as suggestion and crash copies.
    suffix: str
    #: Palette order: every cell picture a user can paint with.
    palette: tuple[str, ...]
    #: Names of the shared tools (``editor.tools.TOOLS``) that make sense for this game, in order.
    tool_names: tuple[str, ...]
    #: Test-play levels (robots: the rule levels; none for a game without levels) and the first one.
    levels: tuple[Enum, ...] = ()
    default_level: Enum | None = None
    #: The palette entry that is the brush when a window opens.
    default_brush: str
    #: The game's own part of the status bar's shortcut line.
    hint: str = ""
    #: The game's own edits, each on its key.
    actions: tuple[GameAction, ...] = ()
    #: Keys (pyglet names, e.g. "1") that pick a palette entry as the brush.
    brush_keys: Mapping[str, str] = MappingProxyType({})
    #: What those keys do, in one line of F1.
    brush_keys_help: str = ""

    def tool_classes(self) -> tuple[type[Tool], ...]:
        """The game's own tools (listed in ``tool_names`` like the shared ones, each with its key)."""
        return ()

    # -- files -----------------------------------------------------------------------
    @abstractmethod
    def blank(self, width: int, height: int) -> Grid:
        """A new, empty grid (ValueError when the game cannot have that size)."""

    @abstractmethod
    def parse(self, text: str, path: str | Path | None = None) -> Grid:
        """The engine's parser: ``engine.errors.InputError`` (file:line:col) on bad text."""

    @abstractmethod
    def write(self, grid: Grid) -> str:
        """The engine's writer: the exact file text."""

    @abstractmethod
    def owns(self, grid: object) -> bool:
        """Whether ``grid`` is this game's value (the registry finds a grid's game with it)."""

    def where(self, pos: Position) -> str:
        """A position as the game's files and messages write it (robots: ``(x, y)`` from 0)."""
        return f"({pos[0]}, {pos[1]})"

    # -- cells -------------------------------------------------------------------------
    @abstractmethod
    def cell(self, char: str) -> Cell:
        """The cell a palette entry paints (ValueError for a char that is not in the palette)."""

    @abstractmethod
    def cell_name(self, cell: Cell) -> str:
        """Words for the status bar and tooltips: ``conveyor running right``, ``bot 2 start facing north``."""

    def implied_cells(self, grid: Grid) -> Mapping[Position, Cell]:
        """Cells the game reads where the file says nothing (a Tron arena without start lines
        starts its two bots on the contest's default fields): drawn faded, so the designer sees
        where they are, not only reads it in the panel. Robots: none."""
        return {}

    @abstractmethod
    def erase_cell(self) -> Cell:
        """What the right button paints: the game's empty cell."""

    @abstractmethod
    def put_cells(self, grid: Grid, changes: Mapping[Position, Cell]) -> tuple[Grid, frozenset[Position]]:
        """``grid`` with the cells changed (off-grid positions ignored; the very same grid when
        nothing changed), and the positions changed besides ``changes`` (a game whose cells are
        not independent, e.g. one start per bot, moves or renumbers others)."""

    def fill_cells(self, grid: Grid, area: Spans, cell: Cell) -> tuple[Grid, frozenset[Position]]:
        """``grid`` with every cell of ``area`` (runs per row, already inside the grid) set to
        ``cell``: what a flood fill or a rectangle does, in one go. Same results as ``put_cells``
        with those positions, which is what this default does; a game overrides it to write whole
        runs at once (a fill of a 512x512 board is 512 runs, not 262,144 cells)."""
        return self.put_cells(grid, dict.fromkeys(area, cell))

    # -- transforms --------------------------------------------------------------------
    @abstractmethod
    def resized(self, grid: Grid, width: int, height: int, anchor: str) -> Grid:
        """Cut or padded to ``width`` x ``height`` with the ``anchor`` part kept in place."""

    @abstractmethod
    def transformed(self, grid: Grid, transform: Transform) -> Grid:
        """The whole grid turned or mirrored, every cell's meaning (facings) turned with it."""

    @abstractmethod
    def turned(self, cell: Cell, clockwise: bool) -> Cell:
        """A cell turned a quarter in place (the R key); the same cell when it has no facing."""

    # -- validation and test-play --------------------------------------------------------
    @abstractmethod
    def validation(self, grid: Grid) -> Validation:
        """The engine's checks of ``grid`` (not yet advanced)."""

    @abstractmethod
    def play_blocker(self, grid: Grid) -> str | None:
        """Why no game at all can be played on ``grid`` (None when one can)."""

    @abstractmethod
    def play(self, grid: Grid, level: Enum | None, name: str, watch: PlayWatch | None = None) -> Played:
        """Play a game on ``grid`` with built-in AIs and write it where the viewer reads it; a game
        that can take long reports its progress to ``watch`` and raises ``PlayCancelled`` soon
        after ``watch.cancel`` is set."""

    # -- pictures ------------------------------------------------------------------------
    #: Whether the validation's summary is worth showing beside problems (Tron: the space each bot
    #: can reach decides most games, also when a warning is shown; robots: only a playable board's).
    summary_with_problems: bool = False
    #: Whether ``theme`` names one of the installed themes (``themes``), watched for live reload.
    themed: bool = False

    @abstractmethod
    def cell_images(self, theme: str) -> dict[str, Image.Image]:
        """A picture for every palette char (and every char a grid may hold) in ``theme``."""

    def on_screen(self, char: str, image: Image.Image) -> Image.Image:
        """The picture as the editor's window shows it (robots: built-in walls marked)."""
        return image


def expect(value: object, kind: type[T], game: str) -> T:
    """``value`` as the game's own type (a grid or cell handed to the wrong game is a bug: TypeError)."""
    if not isinstance(value, kind):
        raise TypeError(f"the {game} game works on {kind.__name__}, not {type(value).__name__}")
    return value
