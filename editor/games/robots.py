"""Game number one: the 2009 robot game's boards, behind the editor's game seam.

Everything here hands over to code that already knew the robot game: the engine's board-file
parser and writer (``engine.boardfile``), the meaning-keeping transforms (``editor.transform``),
the engine's board status run a slice at a time (``editor.validate``), the theme pictures
(``editor.art``) and the AI test-play (``editor.playtest``).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from editor.commands import blank_board, resized_board
from editor.games.base import Cell, EditorGame, Grid, Played, PlayWatch, Position, Transform, Validation, expect
from editor.layout import PALETTE_CHARS
from editor.names import tile_name
from editor.spans import Spans, fill_row
from editor.transform import rotate_tile, transform_board
from engine.boardfile import parse_board, write_board
from engine.model import Board, Level, Tile
from engine.status import BoardStatus, board_problems, form_status
from engine.wording import counted

if TYPE_CHECKING:
    from PIL import Image


def _board(grid: Grid | object) -> Board:
    return expect(grid, Board, "robot")


def _tile(cell: Cell) -> Tile:
    return expect(cell, Tile, "robot")


def put_tiles(board: Board, changes: Mapping[Position, Tile]) -> Board:
    """``board`` with tiles replaced; untouched rows are shared, and no change gives ``board`` itself."""
    by_row: dict[int, list[tuple[int, Tile]]] = {}
    width, height, old = board.width, board.height, board.rows
    for (x, y), tile in changes.items():
        if 0 <= x < width and 0 <= y < height and old[y][x] is not tile and old[y][x] != tile:
            by_row.setdefault(y, []).append((x, tile))
    if not by_row:
        return board
    rows = list(board.rows)
    for y, cells in by_row.items():
        row = list(rows[y])
        for x, tile in cells:
            row[x] = tile
        rows[y] = tuple(row)
    return Board(tuple(rows))


def fill_tiles(board: Board, area: Spans, tile: Tile) -> Board:
    """``board`` with every tile of ``area`` set to ``tile``, a run per tuple slice (no per-tile
    Python); untouched rows are shared, and no change gives ``board`` itself."""
    rows = list(board.rows)
    changed = False
    for y, runs in area.rows.items():
        old = rows[y]
        row = fill_row(old, runs, tile)
        if row != old:  # tuples compare by identity first, and tiles are shared: fast
            rows[y] = row
            changed = True
    return Board(tuple(rows)) if changed else board


class RobotGame(EditorGame):
    name = "robots"
    noun = "board"
    default_size = (12, 12)
    suffix = ".dat"
    palette = PALETTE_CHARS
    tool_names = ("paint", "rectangle", "fill", "eyedropper", "walls")
    levels: tuple[Enum, ...] = tuple(Level)
    default_level = Level.NORMAL
    default_brush = ">"
    themed = True
    hint = "W walls"

    def blank(self, width: int, height: int) -> Grid:
        return blank_board(width, height)

    def parse(self, text: str, path: str | Path | None = None) -> Grid:
        return parse_board(text, path)

    def write(self, grid: Grid) -> str:
        return write_board(_board(grid))

    def owns(self, grid: object) -> bool:
        return isinstance(grid, Board)

    def cell(self, char: str) -> Cell:
        return Tile.from_char(char)

    def cell_name(self, cell: Cell) -> str:
        return tile_name(_tile(cell))

    def erase_cell(self) -> Cell:
        return Tile.floor()

    def put_cells(self, grid: Grid, changes: Mapping[Position, Cell]) -> tuple[Grid, frozenset[Position]]:
        return put_tiles(_board(grid), {pos: _tile(cell) for pos, cell in changes.items()}), frozenset()

    def fill_cells(self, grid: Grid, area: Spans, cell: Cell) -> tuple[Grid, frozenset[Position]]:
        return fill_tiles(_board(grid), area, _tile(cell)), frozenset()

    def resized(self, grid: Grid, width: int, height: int, anchor: str) -> Grid:
        return resized_board(_board(grid), width, height, anchor)

    def transformed(self, grid: Grid, transform: Transform) -> Grid:
        return transform_board(_board(grid), transform)

    def turned(self, cell: Cell, clockwise: bool) -> Cell:
        return rotate_tile(_tile(cell), clockwise)

    def validation(self, grid: Grid) -> Validation:
        from editor.validate import Validation as RobotValidation

        return RobotValidation(_board(grid))

    def play_blocker(self, grid: Grid) -> str | None:
        board = _board(grid)
        unplayable = board_problems(board, form_status(board) & BoardStatus.NO_GAME)
        return unplayable[0].message if unplayable else None

    def play(self, grid: Grid, level: Enum | None, name: str, watch: PlayWatch | None = None) -> Played:
        """One planner game (seconds; about 40 s on an open 512x512 board): no progress is reported."""
        from editor.playtest import play

        chosen = level if isinstance(level, Level) else Level.NORMAL
        game_dir, game = play(_board(grid), chosen, name=name)
        outcome = game.outcome.name.lower() if game.outcome is not None else "?"
        return Played(game_dir, f"played at {game.level.value}: {outcome} after {counted(game.cards_played, 'card')}")

    def cell_images(self, theme: str) -> dict[str, Image.Image]:
        from editor.art import tile_images

        return tile_images(theme)

    def on_screen(self, char: str, image: Image.Image) -> Image.Image:
        from editor.art import with_builtin_walls

        return with_builtin_walls(char, image)
