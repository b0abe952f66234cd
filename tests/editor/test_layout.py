"""Layout and discoverability: every tile and tool reachable down to 1024x640, a command palette
listing every action with its shortcut, tooltips, Tiled's habits."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from editor.controller import EditorController
from editor.document import Document
from editor.keymap import SHORTCUTS
from editor.layout import PALETTE_CHARS, TOOL_COUNT, Layout, inside
from editor.tools import TOOLS
from engine.model import Tile


def _ctl(tmp_path: Path, size: tuple[int, int] = (1024, 640)) -> EditorController:
    path = tmp_path / "b.dat"
    shutil.copy("gameboards/chop.dat", path)
    return EditorController(
        Document.open(path), size=size, autosave_folder=tmp_path / "state", background_validation=False
    )


@pytest.mark.parametrize("size", [(1024, 640), (1280, 720), (900, 600), (1920, 1080), (640, 480), (800, 520)])
def test_every_tile_and_tool_is_inside_the_palette(size: tuple[int, int]) -> None:
    """Down to the smallest window (640x480): the tools go two to a row where one column would
    leave the eyedropper and walls below the window's edge."""
    layout = Layout(*size)
    assert len(TOOLS) == TOOL_COUNT
    rects = [layout.palette_cell(i) for i in range(len(PALETTE_CHARS))]
    rects += [layout.tool_button(i) for i in range(len(TOOLS))]
    left, top, width, height = layout.palette
    for x, y, w, h in rects:
        assert left <= x and x + w <= left + width and top <= y and y + h <= top + height, (size, (x, y, w, h))
    for a in range(len(rects)):
        for b in range(a + 1, len(rects)):
            ax, ay, aw, ah = rects[a]
            bx, by, bw, bh = rects[b]
            assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay, "overlap"
    if size[0] >= 900:
        assert layout.canvas[2] >= 400  # the board keeps most of the room
    assert layout.tool_columns == (2 if size[1] <= 520 else 1)  # two columns only where one does not fit


@pytest.mark.parametrize("size", [(640, 480), (800, 520), (900, 600), (1024, 640), (1920, 1080)])
def test_the_file_browser_has_room_for_file_names_on_small_windows(size: tuple[int, int]) -> None:
    """The browser lies over the canvas; where that is narrow it takes the side panel's room too
    (at 640x480 it was 166 pixels wide), never the palette's or beyond the window."""
    layout = Layout(*size)
    left, top, width, height = layout.browser
    assert width >= 380, (size, layout.browser)
    assert layout.palette[2] <= left and left + width <= size[0] and top + height <= layout.status[1]
    if layout.canvas[2] >= 480:
        assert left + width <= layout.side[0]  # wide enough: the validation panel stays in sight


@pytest.mark.parametrize("size", [(1024, 640), (640, 480)])
def test_every_tool_button_works_on_small_windows(tmp_path: Path, size: tuple[int, int]) -> None:
    ctl = _ctl(tmp_path, size)
    for index, tool in enumerate(ctl.tools):
        x, y, w, h = ctl.layout.tool_button(index)
        ctl.mouse_motion(x + w / 2, y + h / 2)
        assert tool.help in ctl.tooltip and f"[{tool.key}]" in ctl.tooltip  # a tooltip names it and its key
        ctl.mouse_press(x + w / 2, y + h / 2, "left")
        ctl.mouse_release(x + w / 2, y + h / 2, "left")
        assert ctl.tool is tool
    x, y, w, h = ctl.layout.palette_cell(len(PALETTE_CHARS) - 1)
    ctl.mouse_motion(x + w / 2, y + h / 2)
    assert "'p'" in ctl.tooltip
    ctl.mouse_press(x + w / 2, y + h / 2, "left")
    assert ctl.ctx.brush == Tile.from_char("p")


def test_command_palette_lists_every_action_with_its_shortcut_and_runs_one(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    ctl.key_press("P", ctrl=True, shift=True)
    prompt = ctl.prompt
    assert prompt is not None and prompt.menu is not None
    actions = {value for _, value in prompt.menu}
    assert actions == {s.action for s in SHORTCUTS}
    grid = next(label for label, value in prompt.menu if value == "grid")
    assert "Ctrl+G" in grid
    ctl.text("grid")
    assert [v for _, v in prompt.menu_items()] == ["grid"]
    ctl.key_press("ENTER")
    assert not ctl.grid and ctl.prompt is None


def _click(ctl: EditorController, rect: tuple[float, float, float, float]) -> None:
    left, top, width, height = rect
    ctl.mouse_press(left + width / 2, top + height / 2, "left")
    ctl.mouse_release(left + width / 2, top + height / 2, "left")


def test_a_click_on_the_command_palette_runs_that_command_and_never_paints_beneath(tmp_path: Path) -> None:
    """A click on a listed command painted the board hidden under the palette (the title got its
    '*', nothing on screen said why) and ran nothing; a click on the file browser's empty part
    painted too, and the wheel over either scrolled the board beneath."""
    ctl = _ctl(tmp_path)
    before, mapping = ctl.document.board, ctl.mapping
    ctl.key_press("P", ctrl=True, shift=True)
    ctl.text("grid")
    left, top, width, height = ctl.layout.browser
    ctl.scroll(left + width / 2, top + height / 2, 3)
    _click(ctl, (left, top + height - 30, width, 20))  # below the one command listed
    assert ctl.prompt is not None and ctl.grid  # nothing run yet
    _click(ctl, ctl.layout.browser_row(0))
    assert ctl.prompt is None and not ctl.grid  # "grid on/off" ran
    ctl.key_press("O", ctrl=True)  # the file browser: its empty lower part
    assert ctl.prompt is not None and ctl.prompt.listing is not None
    _click(ctl, (left, top + height - 30, width, 20))
    assert ctl.prompt is not None
    assert ctl.document.board == before and not ctl.document.modified and ctl.mapping == mapping


def test_tiled_habits(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    ctl.key_press("G", ctrl=True)
    assert not ctl.grid
    x, y, size, _ = ctl.mapping.tile_rect(5, 5)
    before = ctl.mapping.tile_px
    ctl.scroll(x, y, 1, ctrl=True)  # Ctrl+wheel zooms
    assert ctl.mapping.tile_px > before
    origin = ctl.mapping.origin_y
    ctl.scroll(x, y, -1)  # the wheel scrolls
    assert ctl.mapping.origin_y != origin and ctl.document.board == Document.open(tmp_path / "b.dat").board
    ctl.key_press("X", ctrl=True, shift=True)  # right button: pick instead of erase
    ctl.key_press("HOME")
    x, y, size, _ = ctl.mapping.tile_rect(6, 0)  # '^'
    ctl.mouse_press(x + size / 2, y + size / 2, "right")
    ctl.mouse_release(x + size / 2, y + size / 2, "right")
    assert ctl.ctx.brush.char == "^" and not ctl.document.modified


def test_refusals_appear_next_to_the_pointer(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    ctl.key_press("W")
    x, y, size, _ = ctl.mapping.tile_rect(4, 3)  # a conveyor row in chop.dat: both sides are belts
    ctl.mouse_motion(x + size - 2, y + size / 2)
    ctl.mouse_press(x + size - 2, y + size / 2, "left")
    ctl.mouse_release(x + size - 2, y + size / 2, "left")
    assert ctl.toast is not None and "plain floor" in ctl.toast.text
    assert abs(ctl.toast.px - (x + size - 2)) < 1 and inside(ctl.layout.canvas, ctl.toast.px, ctl.toast.py)


def test_help_lines_fit_the_f1_columns() -> None:
    from editor.keymap import MOUSE_HELP

    assert all(len(s.help) <= 40 for s in SHORTCUTS)
    assert all(len(text) <= 40 and len(keys) <= 18 for keys, text in MOUSE_HELP)


def test_the_right_button_setting_is_kept_for_the_next_start(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    assert ctl.right_click == "erase"
    ctl.key_press("X", ctrl=True, shift=True)
    assert _ctl(tmp_path).right_click == "pick"
    (tmp_path / "state" / "settings.json").write_text("{broken")
    assert _ctl(tmp_path).right_click == "erase"  # a broken file means the defaults, never an error


def test_the_wheel_under_the_help_overlay_leaves_the_hidden_board_alone(tmp_path: Path) -> None:
    """With F1's help shown, the wheel scrolled, Ctrl+wheel zoomed and Alt+wheel turned the
    tile of the board the overlay hides."""
    ctl = _ctl(tmp_path)
    before, mapping = ctl.document.board, ctl.mapping
    ctl.key_press("F1")
    assert ctl.help_visible
    x, y, size, _ = ctl.mapping.tile_rect(6, 0)
    for modifiers in ({}, {"ctrl": True}, {"shift": True}, {"alt": True}):
        ctl.scroll(x + size / 2, y + size / 2, 2, **modifiers)
    assert ctl.help_visible and ctl.mapping == mapping and ctl.document.board == before
    assert not ctl.document.modified
