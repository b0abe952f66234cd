"""Game number two: the 2014 Tron contest's arenas, behind the editor's game seam.

The file is read and written by the engine (``engine.tron.arena``), checked by the engine
(``engine.tron.status``) and test-played by the engine's server with the built-in bots
(``engine.tron.server``); this module only converts between the engine's ``Arena`` and the grid
the shared editor paints (``editor.games.tron.grid``).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from editor.commands import anchor_offset
from editor.games.base import (
    Cell,
    EditorGame,
    GameAction,
    Grid,
    PlayCancelled,
    Played,
    PlayWatch,
    Position,
    Transform,
    Validation,
    expect,
)
from editor.games.tron.grid import (
    BLOCKED_CELL,
    FREE_CELL,
    MAX_BOTS,
    TronCell,
    TronGrid,
    arena_of,
    blank_grid,
    cell_of,
    fill_cells,
    grid_of,
    put_cells,
    resized_grid,
    start_cell,
    symmetric_grid,
    transformed_grid,
)
from engine.errors import InputError
from engine.tron.arena import Arena, Heading, parse_arena, write_arena
from engine.tron.status import ERROR, INFO, arena_problems
from engine.wording import counted

if TYPE_CHECKING:
    from PIL import Image

    from editor.spans import Spans
    from editor.tools import Tool

#: Palette: free, blocked, then bots 1-8's starts (odd bots facing east, even ones west).
PALETTE = (".", "#", *(f"{b}{'E' if b % 2 else 'W'}" for b in range(1, 9)))
PLAY_PREFIX = "robots-edit-play-"
_MIRROR = {
    Transform.MIRROR_H: {Heading.EAST: Heading.WEST, Heading.WEST: Heading.EAST},
    Transform.MIRROR_V: {Heading.NORTH: Heading.SOUTH, Heading.SOUTH: Heading.NORTH},
}


def _grid(grid: Grid | object) -> TronGrid:
    return expect(grid, TronGrid, "Tron")


def _cell(cell: Cell) -> TronCell:
    return expect(cell, TronCell, "Tron")


def turned_heading(heading: Heading, transform: Transform) -> Heading:
    if transform is Transform.ROTATE_CW:
        return heading.right()
    if transform is Transform.ROTATE_CCW:
        return heading.left()
    return _MIRROR[transform].get(heading, heading)


@dataclass(frozen=True)
class ArenaIssue:
    """An engine finding in the editor's terms: 0-based cells to mark."""

    message: str
    tiles: tuple[Position, ...]
    severity: str
    level: None = None


class TronValidation:
    """The engine's arena checks (instant: the free fields are labelled once, numpy), errors and warnings as problems,
    the reachable space per bot as the summary."""

    def __init__(self, grid: TronGrid) -> None:
        self.board = grid
        found = arena_problems(arena_of(grid))
        self._issues = [ArenaIssue(p.message, tuple((x - 1, y - 1) for x, y in p.fields), p.severity) for p in found]

    done = True
    pending: Sequence[object] = ()

    def advance(self, max_seconds: float | None = None, slice_poses: int = 64) -> bool:
        return True

    @property
    def problems(self) -> list[ArenaIssue]:
        return [issue for issue in self._issues if issue.severity != INFO]

    @property
    def errors(self) -> list[ArenaIssue]:
        return [issue for issue in self._issues if issue.severity == ERROR]

    def summary(self) -> list[str]:
        return [issue.message for issue in self._issues if issue.severity == INFO]


def point_symmetric(grid: Grid) -> Grid:
    """Block every field whose 180-degree image is blocked (a fair arena for two bots); starts stay."""
    return symmetric_grid(_grid(grid))


SYMMETRIC = GameAction(
    "make point-symmetric", "Y", "make the arena point-symmetric (fair for two bots)", point_symmetric
)


class TronGame(EditorGame):
    name = "tron"
    noun = "arena"
    default_size = (40, 30)
    suffix = ".txt"
    palette = PALETTE
    tool_names = ("paint", "starts", "rectangle", "fill", "eyedropper")
    default_brush = "#"
    hint = "1-8 / T bot starts  R turn  Y symmetric"
    actions = (SYMMETRIC,)
    summary_with_problems = True
    brush_keys: Mapping[str, str] = MappingProxyType({str(b): PALETTE[b + 1] for b in range(1, 9)})
    brush_keys_help = "brush: that bot's start (a click puts it)"

    def tool_classes(self) -> tuple[type[Tool], ...]:
        from editor.games.tron.tools import StartTool

        return (StartTool,)

    def blank(self, width: int, height: int) -> Grid:
        return blank_grid(width, height)

    def parse(self, text: str, path: str | Path | None = None) -> Grid:
        arena = parse_arena(text, path)
        if len(arena.starts) > MAX_BOTS:
            pos_lines = [n for n, line in enumerate(text.split("\n"), 1) if line.startswith("POS ")]
            line = pos_lines[MAX_BOTS]
            raise InputError(
                f"the editor draws at most {MAX_BOTS} starts; this arena has {len(arena.starts)}", path, line, 1
            )
        return grid_of(arena)

    def write(self, grid: Grid) -> str:
        return write_arena(arena_of(_grid(grid)))

    def owns(self, grid: object) -> bool:
        return isinstance(grid, TronGrid)

    def where(self, pos: Position) -> str:
        """``x,y`` from 1, as start lines and the engine's messages write fields."""
        return f"{pos[0] + 1},{pos[1] + 1}"

    def cell(self, char: str) -> Cell:
        return cell_of(char)

    def cell_name(self, cell: Cell) -> str:
        c = _cell(cell)
        if c.bot is not None and c.heading is not None:
            return f"bot {c.bot} start facing {c.heading.name.lower()}"
        return "blocked field" if c.blocked else "free field"

    def erase_cell(self) -> Cell:
        return FREE_CELL

    def put_cells(self, grid: Grid, changes: Mapping[Position, Cell]) -> tuple[Grid, frozenset[Position]]:
        return put_cells(_grid(grid), {pos: _cell(cell) for pos, cell in changes.items()})

    def fill_cells(self, grid: Grid, area: Spans, cell: Cell) -> tuple[Grid, frozenset[Position]]:
        return fill_cells(_grid(grid), area, _cell(cell))

    def resized(self, grid: Grid, width: int, height: int, anchor: str) -> Grid:
        old = _grid(grid)
        return resized_grid(old, width, height, anchor_offset((old.width, old.height), (width, height), anchor))

    def transformed(self, grid: Grid, transform: Transform) -> Grid:
        return transformed_grid(_grid(grid), transform, lambda cell: self._turn(cell, transform))

    @staticmethod
    def _turn(cell: TronCell, transform: Transform) -> TronCell:
        if cell.bot is None or cell.heading is None:
            return cell
        return start_cell(cell.bot, turned_heading(cell.heading, transform), cell.short)

    def turned(self, cell: Cell, clockwise: bool) -> Cell:
        return self._turn(_cell(cell), Transform.ROTATE_CW if clockwise else Transform.ROTATE_CCW)

    def implied_cells(self, grid: Grid) -> Mapping[Position, Cell]:
        arena_grid = _grid(grid)
        if arena_grid.starts():  # known for every grid an edit made: no look at the whole arena
            return {}
        # Where the engine puts two bots on an open arena of this size; then whether those two
        # fields are blocked here (the engine's own check, without converting every field).
        width, height = arena_grid.width, arena_grid.height
        try:
            starts = Arena(width, height, bytes(width * height)).starts_for(2)
        except ValueError:  # too narrow: the panel says so, nothing to draw
            return {}
        if any(arena_grid.tile(s.x - 1, s.y - 1).blocked for s in starts):  # the panel says so
            return {}
        return {(s.x - 1, s.y - 1): start_cell(bot, s.heading) for bot, s in enumerate(starts, 1)}

    def validation(self, grid: Grid) -> Validation:
        return TronValidation(_grid(grid))

    def play_blocker(self, grid: Grid) -> str | None:
        errors = TronValidation(_grid(grid)).errors
        return errors[0].message if errors else None

    def play(self, grid: Grid, level: Enum | None, name: str, watch: PlayWatch | None = None) -> Played:
        """The strong bot against the simple one (one more simple bot per further start line),
        written as a game file the viewer plays. Each round is told to ``watch``; a cancel ends
        the game after the round being played (at most the bots' time limit, 1 s)."""
        from engine.tron.cli import bot_spec
        from engine.tron.record import RoundRecord, save_game
        from engine.tron.rules import Event, State
        from engine.tron.server import play_game

        arena = arena_of(_grid(grid))
        count = arena.default_bots
        bots = [bot_spec("strong"), *(bot_spec("simple") for _ in range(count - 1))]
        told = watch if watch is not None else PlayWatch()

        def on_record(record: RoundRecord, state: State, events: Sequence[Event]) -> None:
            told.progress = f"round {state.round:,}"
            if told.cancel.is_set():  # the server kills the bots and lets this through
                raise PlayCancelled(f"stopped in round {state.round:,}")

        record, _ = play_game(arena, bots, on_record=on_record)
        target = Path(tempfile.mkdtemp(prefix=PLAY_PREFIX)) / f"{Path(name).stem}-game.json"
        save_game(record, target)
        scores = ", ".join(f"{b.name} {p}" for b, p in zip(record.bots, record.points(), strict=True))
        return Played(target, f"test game: {counted(len(record.rounds), 'round')}, {scores}")

    def cell_images(self, theme: str) -> dict[str, Image.Image]:
        from editor.games.tron.art import cell_pictures

        return cell_pictures(theme)


__all__ = ["BLOCKED_CELL", "PALETTE", "TronGame", "TronValidation"]
