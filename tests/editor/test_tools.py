"""Tools turn pointer input into commands; walls keep characters right and explain refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from editor.document import Document
from editor.tools import (
    RIGHT,
    EyedropperTool,
    FillTool,
    PaintTool,
    Pointer,
    RectangleTool,
    ToolContext,
    WallTool,
    flood_region,
    wall_edit,
)
from engine.model import Board, Direction, Tile


def _ctx(rows: list[str], brush: str = ">") -> tuple[ToolContext, list[str]]:
    doc = Document(Board.from_strings(rows), Path("x.dat"))
    messages: list[str] = []
    return ToolContext(doc, Tile.from_char(brush), messages.append), messages


def test_paint_drag_is_one_step_without_gaps() -> None:
    ctx, _ = _ctx(["     ", "     "])
    tool = PaintTool()
    tool.press(ctx, Pointer((0, 0)))
    tool.drag(ctx, Pointer((4, 0)))  # a fast drag: the tiles between are painted too
    tool.release(ctx, Pointer((4, 0)))
    assert ctx.board.to_strings() == [">>>>>", "     "]
    assert len(ctx.document.history) == 1
    ctx.document.undo()
    assert ctx.board.to_strings() == ["     ", "     "]


def test_right_button_erases_to_floor() -> None:
    ctx, _ = _ctx(["HHH"])
    tool = PaintTool()
    tool.press(ctx, Pointer((0, 0), button=RIGHT))
    tool.drag(ctx, Pointer((1, 0), button=RIGHT))
    tool.release(ctx, Pointer((1, 0), button=RIGHT))
    assert ctx.board.to_strings() == ["  H"]


def test_paint_off_board_does_nothing() -> None:
    ctx, _ = _ctx(["  "])
    tool = PaintTool()
    tool.press(ctx, Pointer((5, 5)))
    tool.release(ctx, Pointer((5, 5)))
    assert len(ctx.document.history) == 0


def test_eyedropper_sets_brush() -> None:
    ctx, messages = _ctx([" C"])
    EyedropperTool().press(ctx, Pointer((1, 0)))
    assert ctx.brush.char == "C" and "pusher" in messages[-1]


def test_fill_replaces_connected_equal_tiles_only() -> None:
    ctx, _ = _ctx(["  H ", " HH ", "H   "], brush="O")
    FillTool().press(ctx, Pointer((0, 0)))
    assert ctx.board.to_strings() == ["OOH ", "OHH ", "H   "]
    assert flood_region(ctx.board, (3, 0)) == {(3, 0), (3, 1), (3, 2), (2, 2), (1, 2)}


def test_rectangle_fills_on_release_with_preview() -> None:
    ctx, _ = _ctx(["    ", "    ", "    "], brush="H")
    tool = RectangleTool()
    tool.press(ctx, Pointer((2, 2)))
    tool.drag(ctx, Pointer((1, 1)))
    assert tool.preview() == {(1, 1), (2, 1), (1, 2), (2, 2)}
    assert ctx.board.to_strings()[1] == "    "
    tool.release(ctx, Pointer((1, 1)))
    assert ctx.board.to_strings() == ["    ", " HH ", " HH "]
    assert len(ctx.document.history) == 1


def _click_edge(ctx: ToolContext, edge: tuple[int, int, Direction], button: str = "left") -> None:
    tool = WallTool()
    p = Pointer(edge[:2], edge, button)
    tool.press(ctx, p)
    tool.release(ctx, p)


def test_wall_toggle_writes_the_right_char_and_toggles_back() -> None:
    ctx, _ = _ctx(["   "])
    _click_edge(ctx, (1, 0, Direction.LEFT))
    assert ctx.board.to_strings() == [" b "]
    _click_edge(ctx, (1, 0, Direction.UP))
    assert ctx.board.to_strings() == [" f "]  # left 1 + up 4 = 5 -> f
    _click_edge(ctx, (0, 0, Direction.RIGHT))  # the same edge named from the other tile removes it
    assert ctx.board.to_strings() == [" e "]


def test_wall_on_non_floor_goes_to_floor_neighbour() -> None:
    ctx, _ = _ctx([">  "])
    _click_edge(ctx, (0, 0, Direction.RIGHT))
    assert ctx.board.to_strings() == [">b "]


@pytest.mark.parametrize(
    ("char", "noun"), [(">", "a conveyor"), ("H", "a hole"), ("Z", "a goal"), ("T", "a start"), ("O", "an oil slick")]
)
def test_wall_on_non_floor_gives_the_reason(char: str, noun: str) -> None:
    ctx, messages = _ctx([char])
    _click_edge(ctx, (0, 0, Direction.UP))
    assert ctx.board.to_strings() == [char]
    assert messages == [f"a wall can only stand on a plain floor tile; this is {noun}"]
    assert len(ctx.document.history) == 0


def test_builtin_wall_cannot_be_removed() -> None:
    ctx, messages = _ctx([" D"])  # pusher pushing right: its wall is on its left side
    result = wall_edit(ctx.board, (0, 0, Direction.RIGHT), want=False)
    assert result.walls == {} and "part of a pusher" in (result.reason or "")
    _click_edge(ctx, (0, 0, Direction.RIGHT))
    assert ctx.board.to_strings() == [" D"] and "part of a pusher" in messages[-1]


def test_wall_drag_is_one_step() -> None:
    ctx, _ = _ctx(["   ", "   "])
    tool = WallTool()
    tool.press(ctx, Pointer((0, 0), (0, 0, Direction.DOWN)))
    tool.drag(ctx, Pointer((0, 0), (0, 0, Direction.DOWN)))  # same edge again: no double toggle
    tool.drag(ctx, Pointer((1, 0), (1, 0, Direction.DOWN)))
    tool.drag(ctx, Pointer((2, 1), (2, 1, Direction.UP)))
    tool.release(ctx, Pointer((2, 1)))
    assert ctx.board.to_strings() == ["ii ", "  e"]  # down = 8 -> i; up on the lower tile = 4 -> e
    assert len(ctx.document.history) == 1
    ctx.document.undo()
    assert ctx.board.to_strings() == ["   ", "   "]


def _wall_bits(board: Board) -> int:
    """How many wall bits are written on the board (each edge counts once per tile side holding it)."""
    return sum(bin(tile.walls).count("1") for row in board.rows for tile in row)


def test_wall_drag_along_a_six_tile_edge_changes_exactly_six_bits() -> None:
    """The pointer wobbles across the line and passes every tile corner: no ladder rungs."""
    ctx, _ = _ctx(["        "] * 4)
    tool = WallTool()
    # The horizontal edge between rows 1 and 2, from column 1 to column 6 (six tiles).
    tool.press(ctx, Pointer((1, 1), (1, 1, Direction.DOWN)))
    for x in range(1, 7):
        for edge in ((x, 1, Direction.RIGHT), (x, 2, Direction.LEFT), (x, 2, Direction.UP), (x, 1, Direction.DOWN)):
            tool.drag(ctx, Pointer((x, 2 if edge[1] == 2 else 1), edge))  # corners suggest vertical edges
    assert len(tool.preview_edges()) == 6
    tool.release(ctx, Pointer((6, 1)))
    assert _wall_bits(ctx.board) == 6
    assert len(ctx.document.history) == 1
    for x in range(1, 7):
        written = (ctx.board.tile(x, 1).walls & Direction.DOWN.wall_bit) | (
            ctx.board.tile(x, 2).walls & Direction.UP.wall_bit
        )
        assert written, x


def test_wall_drag_keeps_a_vertical_line_even_when_the_pointer_strays() -> None:
    ctx, _ = _ctx(["     "] * 6)
    tool = WallTool()
    tool.press(ctx, Pointer((2, 0), (2, 0, Direction.RIGHT)))
    tool.drag(ctx, Pointer((4, 5), (4, 5, Direction.DOWN)))  # far off the line, a fast drag
    tool.release(ctx, Pointer((4, 5)))
    assert _wall_bits(ctx.board) == 6
    assert all(
        (ctx.board.tile(2, y).walls & Direction.RIGHT.wall_bit)
        or (ctx.board.tile(3, y).walls & Direction.LEFT.wall_bit)
        for y in range(6)
    )
