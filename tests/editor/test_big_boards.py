"""Big boards (up to 512x512, 262,144 tiles): the work of an edit follows the runs and the box it
covers, and per-frame work follows what is on screen. Work is counted (cells handed to the game one
by one, tiles read, shapes built), never timed."""

from __future__ import annotations

import random
from pathlib import Path

import pyglet

pyglet.options["headless"] = True

import pytest  # noqa: E402

from editor.commands import FillArea, SetTiles, blank_board  # noqa: E402
from editor.controller import EditorController  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.events import BoardChanged, DocumentEvent  # noqa: E402
from editor.games import game_named  # noqa: E402
from editor.games.robots import RobotGame  # noqa: E402
from editor.games.tron import game as tron_game  # noqa: E402
from editor.games.tron.grid import TronGrid, blank_grid  # noqa: E402
from editor.spans import Spans, flood_spans  # noqa: E402
from editor.tools import FillTool, Pointer, RectangleTool, ToolContext, flood_region  # noqa: E402
from engine.model import Board, Tile  # noqa: E402

BIG = 512


def _count_put_cells(monkeypatch: pytest.MonkeyPatch, cls: type) -> list[int]:
    """How many cells each ``put_cells`` call was handed (the per-cell path)."""
    handed: list[int] = []
    original = cls.put_cells

    def counting(self: object, grid: object, changes: dict[object, object]) -> object:
        handed.append(len(changes))
        return original(self, grid, changes)

    monkeypatch.setattr(cls, "put_cells", counting)
    return handed


def test_whole_board_fill_is_runs_not_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Filling an open 512x512 board: one command of 512 runs; no cell goes through the game one
    by one, and the views are told a box, not 262,144 positions (it was ~1 s of Python)."""
    handed = _count_put_cells(monkeypatch, RobotGame)
    doc = Document(blank_board(BIG, BIG))
    events: list[DocumentEvent] = []
    doc.subscribe(events.append)
    ctx = ToolContext(doc, brush=Tile.from_char(">"))
    FillTool().press(ctx, Pointer((7, 9)))
    assert all(tile.char == ">" for row in doc.board.rows for tile in row)
    assert handed == []
    entry = doc.history._done[-1]
    assert isinstance(entry.command, FillArea)
    assert sum(len(runs) for runs in entry.command.area.rows.values()) == BIG
    changed = [e for e in events if isinstance(e, BoardChanged)]
    assert changed == [BoardChanged(None, False, (0, 0, BIG - 1, BIG - 1))]
    doc.undo()
    assert all(tile.char == " " for row in doc.board.rows for tile in row)
    assert events[-2:][0] == BoardChanged(None, False, (0, 0, BIG - 1, BIG - 1))


def test_rectangle_over_the_whole_board_is_one_command_of_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    handed = _count_put_cells(monkeypatch, RobotGame)
    doc = Document(blank_board(BIG, BIG))
    ctx = ToolContext(doc, brush=Tile.from_char("H"))
    tool = RectangleTool()
    tool.press(ctx, Pointer((BIG + 5, -3)))  # corners off the board are clipped
    tool.drag(ctx, Pointer((0, BIG - 1)))
    assert tool.preview_box() == (0, -3, BIG + 5, BIG - 1)
    tool.release(ctx, Pointer((0, BIG - 1)))
    assert handed == []
    assert all(tile.char == "H" for row in doc.board.rows for tile in row)
    assert len(doc.history) == 1


def test_flood_spans_matches_a_tile_by_tile_flood() -> None:
    """The scanline fill over runs finds exactly the 4-connected area of equal tiles."""
    rng = random.Random(5)
    for _ in range(40):
        w, h = rng.randint(1, 14), rng.randint(1, 14)
        board = Board.from_strings(["".join(rng.choice("  HO") for _ in range(w)) for _ in range(h)])
        start = (rng.randrange(w), rng.randrange(h))
        char = board.tile(*start).char
        seen, stack = {start}, [start]
        while stack:
            x, y = stack.pop()
            for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if board.in_bounds(*n) and n not in seen and board.tile(*n).char == char:
                    seen.add(n)
                    stack.append(n)
        assert flood_region(board, start) == seen
        spans = flood_spans(board, start)
        assert len(spans) == len(seen)


@pytest.mark.parametrize("game_name", ["robots", "tron"])
def test_fill_cells_gives_what_put_cells_gives(game_name: str) -> None:
    """A game's run-wise fill is the same edit as its cell-wise one (Tron: starts it covers go,
    the bots after them are renumbered; a start filled over an area lands once)."""
    game = game_named(game_name)
    rng = random.Random(11)
    cells = [game.cell(c) for c in (("H", " ", "O") if game_name == "robots" else ("#", ".", "1E", "2W", "3N"))]
    for _ in range(60):
        w, h = rng.randint(1, 9), rng.randint(1, 9)
        grid = game.blank(w, h)
        grid, _ = game.put_cells(grid, {(rng.randrange(w), rng.randrange(h)): rng.choice(cells) for _ in range(8)})
        area = Spans.rect(rng.randrange(w), rng.randrange(h), rng.randrange(w), rng.randrange(h))
        cell = rng.choice(cells)
        filled, _ = game.fill_cells(grid, area, cell)
        expected, _ = game.put_cells(grid, dict.fromkeys(area, cell))
        assert filled.rows == expected.rows
        assert (filled is grid) == (expected is grid)


def test_tron_fill_of_a_big_arena_goes_by_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    handed = _count_put_cells(monkeypatch, tron_game.TronGame)
    game = game_named("tron")
    grid, _ = game.put_cells(blank_grid(BIG, BIG), {(10, 10): game.cell("1E"), (500, 500): game.cell("2W")})
    doc = Document(grid)
    handed.clear()
    FillTool().press(ToolContext(doc, brush=game.cell("#")), Pointer((3, 3)))
    board = doc.board
    assert isinstance(board, TronGrid)
    assert handed == []  # the two starts stay: the fill stops at them
    assert board.tile(10, 10).char == "1E" and board.tile(500, 500).char == "2W"
    assert sum(row.count(game.cell("#")) for row in board.rows) == BIG * BIG - 2


def test_tron_implied_starts_do_not_convert_the_whole_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    """After each edit the view asks for the implied (default) starts; an arena that has starts
    answers from the starts the edit handed over, without writing out all its fields (that was
    a tenth of a second per paint step on 512x512)."""
    game = game_named("tron")
    grid, _ = game.put_cells(blank_grid(BIG, BIG), {(10, 10): game.cell("1E")})
    grid, _ = game.put_cells(grid, {(20, 20): game.cell("#")})
    converted: list[object] = []
    monkeypatch.setattr(tron_game, "arena_of", lambda g: converted.append(g))
    assert game.implied_cells(grid) == {}
    open_grid, _ = game.put_cells(blank_grid(41, 21), {(0, 0): game.cell("#")})
    implied = game.implied_cells(open_grid)
    assert sorted((pos, cell.char) for pos, cell in implied.items()) == [((10, 10), "1E"), ((30, 10), "2W")]
    blocked, _ = game.put_cells(open_grid, {(10, 10): game.cell("#")})
    assert game.implied_cells(blocked) == {}
    assert converted == []


@pytest.fixture
def big_window(tmp_path: Path):  # type: ignore[no-untyped-def]
    from editor.window import EditorWindow

    controller = EditorController(
        Document(blank_board(BIG, BIG)), size=(1100, 760), autosave_folder=tmp_path / "state",
        background_validation=False,
    )  # fmt: skip
    win = EditorWindow(controller, visible=False)
    yield win
    win.close()


def test_rectangle_preview_is_one_shape_however_big(big_window) -> None:  # type: ignore[no-untyped-def]
    """Dragging a rectangle over a 512x512 board drew one shape per tile: 262,144 shapes (14 s
    for the first frame). Now the overlay holds a handful of shapes."""
    win = big_window
    ctl = win.ctl
    win.on_draw()
    ctl.key_press("Q")
    x0, y0 = ctl.mapping.tile_rect(0, 0)[:2]
    x1, y1 = ctl.mapping.tile_rect(BIG - 1, BIG - 1)[:2]
    ctl.mouse_press(x0 + 1, y0 + 1, "left")
    ctl.mouse_drag(x1 + 1, y1 + 1, 1, 1, "left")
    win.on_draw()
    assert len(win.editor_view._parts["overlay"].keep) < 10
    ctl.mouse_release(x1 + 1, y1 + 1, "left")
    win.on_draw()


def test_fill_and_undo_redraw_reads_the_box_once(big_window) -> None:  # type: ignore[no-untyped-def]
    """The board texture redraws a fill by reading its box once (C loops), not a list of 262,144
    positions; a one-tile paint still reads one tile. The texture holds the right tiles."""
    win = big_window
    ctl = win.ctl
    win.on_draw()
    texture = win.editor_view.board_texture
    assert texture is not None
    ctl.document.push(SetTiles({(3, 4): Tile.from_char("H")}))
    win.on_draw()
    assert texture.tiles_read == 1
    ctl.document.push(FillArea(Spans.rect(0, 0, 99, 49), Tile.from_char("O")))
    win.on_draw()
    assert texture.tiles_read == 100 * 50
    assert texture._codes[49, 99] == texture._index["O"] and texture._codes[50, 0] == texture._index[" "]
    ctl.document.undo()
    win.on_draw()
    assert texture.tiles_read == 100 * 50
    assert texture._codes[49, 99] == texture._index[" "] and texture._codes[4, 3] == texture._index["H"]


def test_resize_and_transforms_copy_rows_not_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resizing reads rows as slices and a rotation remaps each kind of tile once (they looked at
    every tile in Python: 0.2-0.5 s on 512x512); the results are the tile-by-tile ones."""
    from editor import transform as transform_module
    from editor.commands import resized_board
    from editor.games.base import Transform

    rng = random.Random(3)
    board = Board.from_strings(["".join(rng.choice("  HO>vEM") for _ in range(BIG)) for _ in range(BIG)])
    reads: list[tuple[int, int]] = []
    original_tile = Board.tile
    monkeypatch.setattr(Board, "tile", lambda self, x, y: (reads.append((x, y)), original_tile(self, x, y))[1])
    bigger = resized_board(board, BIG, BIG - 100, "center")
    assert reads == []
    assert bigger.rows[0] == board.rows[50] and bigger.height == BIG - 100
    small = Board.from_strings(["ab", "HO", "> "])
    assert resized_board(small, 4, 2, "se").to_strings() == ["  HO", "  > "]
    turned: list[Tile] = []
    original_turn = transform_module.transform_tile
    monkeypatch.setattr(transform_module, "transform_tile", lambda t, tr: (turned.append(t), original_turn(t, tr))[1])
    rotated = transform_module.transform_board(board, Transform.ROTATE_CW)
    assert len(turned) <= 8  # one per kind of tile on the board
    assert rotated.tile(0, 0) == original_turn(board.tile(0, BIG - 1), Transform.ROTATE_CW)
    back = transform_module.transform_board(rotated, Transform.ROTATE_CCW)
    assert back.rows == board.rows
