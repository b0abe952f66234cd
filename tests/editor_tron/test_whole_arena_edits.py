"""Resizing, rotating, mirroring and symmetrising a whole Tron arena are array operations (they went
cell by cell: 0.2-0.45 s on 512x512, the window froze). Their results are held to the cell-by-cell
definition over a table of sizes, anchors and directions, and the undo stack gives back every cell
(and the file's bytes). Work is counted (cells handed over one by one, cells turned), never timed."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from editor.commands import ANCHORS, GameEdit, Resize, TransformBoard, anchor_offset
from editor.document import Document
from editor.games import TRON, game_named
from editor.games.base import Transform
from editor.games.tron import game as tron_game
from editor.games.tron.grid import (
    BLOCKED_CELL,
    FREE_CELL,
    MAX_BOTS,
    TronCell,
    TronGrid,
    blank_grid,
    put_cells,
    start_cell,
)
from engine.tron.arena import Heading

GAME = game_named(TRON)
SIZES = [(1, 1), (1, 6), (6, 1), (2, 3), (5, 4), (9, 7), (16, 11)]


def _arena(width: int, height: int, seed: int, bots: int = 5) -> TronGrid:
    """A random arena: about a third blocked, up to ``bots`` starts (some spelled short)."""
    rng = random.Random(seed * 1000 + width * 31 + height)
    grid = blank_grid(width, height)
    blocked = {(rng.randrange(width), rng.randrange(height)): BLOCKED_CELL for _ in range(width * height // 3)}
    grid = put_cells(grid, blocked)[0]
    starts = {
        (rng.randrange(width), rng.randrange(height)): start_cell(bot, rng.choice(list(Heading)), rng.random() < 0.5)
        for bot in range(1, min(bots, width * height) + 1)
    }
    return put_cells(grid, starts)[0]  # type: ignore[return-value]


def _scan(grid: TronGrid) -> dict[int, tuple[tuple[int, int], TronCell]]:
    return {c.bot: ((x, y), c) for y, row in enumerate(grid.rows) for x, c in enumerate(row) if c.bot}


def _resized_by_cells(grid: TronGrid, width: int, height: int, anchor: str) -> TronGrid:
    """The definition: every old field moved by the anchor's offset onto a blank arena, cell by cell."""
    ox, oy = anchor_offset((grid.width, grid.height), (width, height), anchor)
    moved = {
        (x + ox, y + oy): cell
        for y, row in enumerate(grid.rows)
        for x, cell in enumerate(row)
        if cell != FREE_CELL and 0 <= x + ox < width and 0 <= y + oy < height
    }
    return put_cells(blank_grid(width, height), moved)[0]


def _transformed_by_cells(grid: TronGrid, transform: Transform) -> TronGrid:
    """The definition: the field at old (x, y) lands where the transform takes it, its start turned."""
    w, h = grid.width, grid.height
    to: dict[Transform, Callable[[int, int], tuple[int, int]]] = {
        Transform.ROTATE_CW: lambda x, y: (h - 1 - y, x),
        Transform.ROTATE_CCW: lambda x, y: (y, w - 1 - x),
        Transform.MIRROR_H: lambda x, y: (w - 1 - x, y),
        Transform.MIRROR_V: lambda x, y: (x, h - 1 - y),
    }
    nw, nh = (h, w) if transform in (Transform.ROTATE_CW, Transform.ROTATE_CCW) else (w, h)
    rows = [[FREE_CELL] * nw for _ in range(nh)]
    for y, row in enumerate(grid.rows):
        for x, cell in enumerate(row):
            nx, ny = to[transform](x, y)
            if cell.heading is not None and cell.bot is not None:
                cell = start_cell(cell.bot, tron_game.turned_heading(cell.heading, transform), cell.short)
            rows[ny][nx] = cell
    return TronGrid(tuple(tuple(row) for row in rows))


def _check(result: object, expected: TronGrid) -> None:
    assert isinstance(result, TronGrid)
    assert result == expected
    assert [c.short for row in result.rows for c in row] == [c.short for row in expected.rows for c in row]
    assert result.starts() == _scan(result)  # the starts a grid remembers are where they are
    assert GAME.write(result) == GAME.write(expected)


def _undo_is_exact(grid: TronGrid, command: object) -> None:
    """Push ``command``, undo it, redo it: every cell and the file's bytes come back each time."""
    document = Document(grid)
    text = document.text
    if not document.push(command):  # type: ignore[arg-type]
        assert document.board is grid and not document.modified  # nothing changed: nothing recorded
        return
    after, after_text = document.board, document.text
    document.undo()
    assert document.board == grid and document.text == text and not document.modified
    assert all(document.board.tile(x, y) == grid.tile(x, y) for y in range(grid.height) for x in range(grid.width))
    document.redo()
    assert document.board == after and document.text == after_text


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("anchor", list(ANCHORS))
def test_resize_is_the_cell_by_cell_result_and_undoes_exactly(size: tuple[int, int], anchor: str) -> None:
    width, height = size
    grid = _arena(width, height, seed=1)
    for new in [(max(1, width - 3), max(1, height - 2)), (width + 2, height + 3), (width + 1, max(1, height - 1))]:
        _check(GAME.resized(grid, *new, anchor), _resized_by_cells(grid, *new, anchor))
        _undo_is_exact(grid, Resize(*new, anchor))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("transform", list(Transform))
def test_transforms_are_the_cell_by_cell_result_and_undo_exactly(size: tuple[int, int], transform: Transform) -> None:
    grid = _arena(*size, seed=2)
    _check(GAME.transformed(grid, transform), _transformed_by_cells(grid, transform))
    _undo_is_exact(grid, TransformBoard(transform))


@pytest.mark.parametrize("size", SIZES)
def test_point_symmetry_is_the_cell_by_cell_result_and_undoes_exactly(size: tuple[int, int]) -> None:
    grid = _arena(*size, seed=3)
    w, h = grid.width, grid.height
    expected = {
        (x, y): BLOCKED_CELL
        for y in range(h)
        for x in range(w)
        if grid.tile(x, y) == FREE_CELL and grid.tile(w - 1 - x, h - 1 - y).blocked
    }
    _check(tron_game.point_symmetric(grid), put_cells(grid, expected)[0])
    _undo_is_exact(grid, GameEdit(tron_game.SYMMETRIC))


def test_turning_four_times_and_mirroring_twice_give_the_same_bytes() -> None:
    grid = _arena(13, 7, seed=4, bots=MAX_BOTS)
    text = GAME.write(grid)
    turned = grid
    for _ in range(4):
        turned = GAME.transformed(turned, Transform.ROTATE_CW)  # type: ignore[assignment]
    assert GAME.write(turned) == text
    for mirror in (Transform.MIRROR_H, Transform.MIRROR_V):
        assert GAME.write(GAME.transformed(GAME.transformed(grid, mirror), mirror)) == text


def test_whole_arena_edits_of_a_big_arena_do_not_go_cell_by_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a busy 512x512 arena no edit of the whole arena hands the game more than the starts one by
    one, nor turns more cells than there are starts."""
    handed: list[int] = []
    turned: list[TronCell] = []
    original_put, original_turn = tron_game.put_cells, tron_game.TronGame._turn

    def put(grid: TronGrid, changes: dict[tuple[int, int], TronCell]) -> object:
        handed.append(len(changes))
        return original_put(grid, changes)

    def turn(cell: TronCell, transform: Transform) -> TronCell:
        turned.append(cell)
        return original_turn(cell, transform)

    grid = _arena(512, 512, seed=5, bots=8)
    monkeypatch.setattr(tron_game, "put_cells", put)
    monkeypatch.setattr(tron_game.TronGame, "_turn", staticmethod(turn))
    resized = GAME.resized(grid, 500, 511, "center")
    assert resized.tile(0, 0) == grid.tile(6, 0)
    rotated = GAME.transformed(grid, Transform.ROTATE_CW)
    assert rotated.tile(0, 0) == grid.tile(0, 511) or grid.tile(0, 511).bot
    tron_game.point_symmetric(grid)
    assert all(n <= MAX_BOTS for n in handed)
    assert len(turned) <= MAX_BOTS


def test_writing_a_big_arena_does_not_look_at_each_field_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every autosave writes the arena out on the window's thread: its fields are mapped by C loops
    (asking each cell whether it is blocked cost a Python call per field, 262,144 on 512x512)."""
    grid = _arena(512, 512, seed=6, bots=8)
    text = GAME.write(grid)
    asked: list[object] = []
    original = TronCell.blocked
    monkeypatch.setattr(TronCell, "blocked", property(lambda self: (asked.append(self), original.fget(self))[1]))
    assert GAME.write(grid) == text
    assert len(asked) <= MAX_BOTS
