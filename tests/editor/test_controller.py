"""Editor behaviour without GL: prompts, resize/new commands, unsaved questions, autosave offer, keys."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from editor import autosave as autosave_module
from editor.autosave import Autosaver, autosave_path
from editor.commands import ANCHORS, SetTiles
from editor.controller import EditorController, parse_size
from editor.document import Document
from editor.keymap import SHORTCUTS, action_for
from editor.tools import TOOLS
from engine.model import Tile


def _ctl(tmp_path: Path, board: str = "gameboards/chop.dat") -> EditorController:
    path = tmp_path / "b.dat"
    shutil.copy(board, path)
    return EditorController(Document.open(path), autosave_folder=tmp_path / "state", autosave_delay_s=0)


def _type(ctl: EditorController, text: str) -> None:
    assert ctl.prompt is not None
    ctl.prompt.set_text("")
    ctl.text(text)
    ctl.key_press("ENTER")


def test_every_shortcut_has_an_action_and_no_clash() -> None:
    seen = set()
    for s in SHORTCUTS:
        tool = s.action.removeprefix("tool_")
        assert hasattr(EditorController, f"action_{s.action}") or tool in {t.name for t in TOOLS}, s.action
        assert (s.key, s.ctrl, s.shift) not in seen
        seen.add((s.key, s.ctrl, s.shift))
    assert action_for("Z", True, False) == "undo" and action_for("F5", False, False) == "playtest"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("20x10", (20, 10, "nw")),
        ("20 10", (20, 10, "nw")),
        ("20x10 anchor=center", (20, 10, "center")),
        (" 3X4 anchor = SE ", (3, 4, "se")),
        ("512x512", (512, 512, "nw")),  # the biggest board a file may hold (engine.bounds)
        ("1000x262", (1000, 262, "nw")),
    ],
)
def test_parse_size(text: str, expected: tuple[int, int, str]) -> None:
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "20", "0x5", "5x0", "1001x5", "600x600", "5x5 anchor=middle", "axb"])
def test_parse_size_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_size(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("abc", "size must look like WIDTHxHEIGHT (e.g. 20x10), not 'abc'"),
        ("20x10 anchor=", "anchor= needs one of nw, n, ne, w, center, e, sw, s, se"),
    ],
)
def test_parse_size_says_what_is_wrong_with_a_board_example(text: str, message: str) -> None:
    """The example a refusal shows is a board size the prompt accepts (it was 1024x768, a window's
    size, too wide for a board); a missing anchor is not reported as a malformed size."""
    with pytest.raises(ValueError) as refusal:
        parse_size(text)
    assert str(refusal.value).startswith(message)
    assert parse_size("20x10") == (20, 10, "nw")


#: Text near the size syntax as well as any text: with any text alone not one example of 100 was a
#: valid size, so the assertion below was never reached and could not fail.
SIZE_LIKE = st.from_regex(r"\A ?[0-9]{1,4} ?[xX ] ?[0-9]{1,4}( (anchor ?= ?)?[a-zA-Z]{1,7})? ?\Z")


@given(st.one_of(st.text(max_size=40), SIZE_LIKE))
def test_parse_size_fuzz_only_value_error(text: str) -> None:
    try:
        w, h, anchor = parse_size(text)
    except ValueError:
        return
    assert 1 <= w <= 1000 and 1 <= h <= 1000 and w * h <= 512 * 512 and anchor in ANCHORS


def test_resize_prompt_pushes_one_undoable_command(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    original = ctl.document.text
    ctl.key_press("E", ctrl=True)
    _type(ctl, "20x10 anchor=center")
    assert (ctl.document.board.width, ctl.document.board.height) == (20, 10)
    ctl.key_press("Z", ctrl=True)
    assert ctl.document.text == original


def test_a_512x512_board_can_be_resized(tmp_path: Path) -> None:
    """The biggest board a file may hold opened, but Ctrl+E refused every size above 256."""
    path = tmp_path / "big.dat"
    path.write_text("512 512\n" + "S" + " " * 510 + "Z\n" + (" " * 512 + "\n") * 511)
    ctl = EditorController(Document.open(path), autosave_folder=tmp_path / "state", background_validation=False)
    original = ctl.document.text
    ctl.key_press("E", ctrl=True)
    ctl.key_press("ENTER")  # the prefilled "512x512 anchor=center" as it is
    assert "out of range" not in ctl.status and ctl.document.text == original
    assert not ctl.document.modified and not ctl.document.history.can_undo  # the same size: no edit
    assert ctl.status == "the board is 512x512 already: nothing to resize"
    ctl.key_press("E", ctrl=True)
    _type(ctl, "512x400 anchor=n")
    assert (ctl.document.board.width, ctl.document.board.height) == (512, 400), ctl.status
    while ctl.document.modified:
        ctl.key_press("Z", ctrl=True)
    assert ctl.document.text == original


def test_bad_resize_text_is_reported_not_raised(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    ctl.key_press("E", ctrl=True)
    _type(ctl, "huge")
    assert "size must look like WIDTHxHEIGHT" in ctl.status


def test_board_transforms_by_key_and_undo(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    original = ctl.document.text
    for keys in (("R", True, False), ("R", True, True), ("M", True, False), ("M", True, True)):
        ctl.key_press(keys[0], ctrl=keys[1], shift=keys[2])
    assert ctl.document.text != original
    for _ in range(4):
        ctl.key_press("Z", ctrl=True)
    assert ctl.document.text == original


def test_rotate_tile_under_cursor_or_brush(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    left, top, size, _ = ctl.mapping.tile_rect(6, 0)  # chop.dat (6, 0) is '^'
    ctl.mouse_motion(left + size / 2, top + size / 2)
    ctl.key_press("R")
    assert ctl.document.board.tile(6, 0).char == ">"
    ctl.scroll(left + size / 2, top + size / 2, -1, alt=True)
    assert ctl.document.board.tile(6, 0).char == "v"
    ctl.mouse_motion(1, 1)  # over the palette: rotate the brush
    ctl.ctx.brush = Tile.from_char("C")
    ctl.key_press("R")
    assert ctl.ctx.brush.char == "E"


@pytest.mark.parametrize(
    ("change", "corner"),
    [
        (lambda ctl: ctl.key_press("EQUAL", ctrl=True), 0.95),
        (lambda ctl: ctl.key_press("MINUS", ctrl=True), 0.05),
        (lambda ctl: ctl.key_press("HOME"), 0.05),
        (lambda ctl: ctl.resize(900, 700), 0.95),
    ],
    ids=["zoom in", "zoom out", "fit", "window resize"],
)
def test_the_tile_under_a_still_pointer_is_found_again_when_the_board_moves(
    tmp_path: Path, change: Callable[[EditorController], None], corner: float
) -> None:
    """A key zoom, Home or a resized window moves the board under the pointer: the highlight and
    the status bar's readout must name the tile now there (they kept the one before). The pointer
    stands near the corner of tile (2, 2) that the change moves another tile under."""
    ctl = _ctl(tmp_path)
    ctl.key_press("EQUAL", ctrl=True)  # zoomed in a step, so that fitting moves the board too
    left, top, size, _ = ctl.mapping.tile_rect(2, 2)
    px, py = left + size * corner, top + size * corner
    ctl.mouse_motion(px, py)
    assert ctl.hover == (2, 2)
    change(ctl)
    now = ctl.mapping.tile_at(px, py)
    assert now != (2, 2)  # the board did move under the pointer
    assert ctl.hover == now
    assert ctl.pointer.hover_info.startswith(ctl.game.where(now))


def test_rotating_a_tile_without_a_direction_says_so(tmp_path: Path) -> None:
    """R over a hole changed nothing but said "(10, 1) is now hole", as if it had turned it."""
    ctl = _ctl(tmp_path)
    left, top, size, _ = ctl.mapping.tile_rect(10, 1)  # chop.dat (10, 1) is a hole
    ctl.mouse_motion(left + size / 2, top + size / 2)
    ctl.key_press("R")
    assert ctl.status == "(10, 1): hole has no direction to turn"
    assert ctl.document.board.tile(10, 1).char == "H" and not ctl.stack.can_undo


def test_rotate_tile_after_the_board_shrank_under_a_still_pointer(tmp_path: Path) -> None:
    """Pointer on (11, 11), Ctrl+E 5x5, R without moving: the remembered tile was off the board
    (IndexError, "internal error" in the window). R turns what is under the pointer now."""
    ctl = _ctl(tmp_path)
    left, top, size, _ = ctl.mapping.tile_rect(11, 11)
    px, py = left + size / 2, top + size / 2
    ctl.mouse_motion(px, py)
    ctl.key_press("E", ctrl=True)
    _type(ctl, "5x5 anchor=nw")
    before = ctl.document.board
    ctl.key_press("R")  # must not raise
    after = ctl.document.board
    under = ctl.mapping.tile_at(px, py)
    changed = {(x, y) for y in range(5) for x in range(5) if before.tile(x, y) != after.tile(x, y)}
    if before.in_bounds(*under):  # the tile under the pointer now, and no other
        assert ctl.hover == under and changed <= {under}
    else:  # nothing under it: the brush turned
        assert ctl.hover is None and not changed
    ctl.key_press("Z", ctrl=True, shift=False)
    ctl.key_press("M", ctrl=True)  # a transform, then R again: no stale tile either
    ctl.key_press("R")


def test_an_action_closes_the_help_overlay(tmp_path: Path) -> None:
    """F1, then Ctrl+Shift+P: the command palette opened under the help and took the typing
    unseen. Any action but F1 itself closes the help first, as a click does."""
    ctl = _ctl(tmp_path)
    ctl.key_press("F1")
    assert ctl.help_visible
    ctl.key_press("P", ctrl=True, shift=True)
    assert not ctl.help_visible and ctl.prompt is not None and ctl.prompt.menu is not None
    ctl.key_press("ESCAPE")
    ctl.key_press("F1")
    ctl.key_press("E", ctrl=True)
    assert not ctl.help_visible and ctl.prompt is not None
    ctl.key_press("ESCAPE")
    ctl.key_press("F1")
    ctl.key_press("F1")  # F1 toggles
    assert not ctl.help_visible


def test_new_asks_about_unsaved_changes_and_discard_works(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("H")}))
    ctl.key_press("N", ctrl=True)
    assert ctl.prompt is not None and ctl.prompt.choices == "yn"
    ctl.text("n")
    _type(ctl, "7x3")
    assert ctl.document.text == "7 3\n" + "       \n" * 3
    assert ctl.document.path is None and "untitled" in ctl.title


def test_save_as_untitled_then_open(tmp_path: Path) -> None:
    ctl = EditorController(Document(), autosave_folder=tmp_path / "state")
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("T")}))
    assert ctl.title.startswith("*untitled")
    ctl.key_press("S", ctrl=True)  # no file yet: asks for a path
    target = tmp_path / "new.dat"
    _type(ctl, str(target))
    assert target.read_text().startswith("12 12\nT")
    ctl.key_press("O", ctrl=True)
    _type(ctl, "gameboards/chop.dat")
    assert ctl.document.path == Path("gameboards/chop.dat") and not ctl.document.dirty
    assert not ctl.stack.can_undo


def test_open_bad_file_reports_file_line_col(tmp_path: Path) -> None:
    bad = tmp_path / "bad.dat"
    bad.write_text("2 1\nQ \n")
    ctl = _ctl(tmp_path)
    ctl.key_press("O", ctrl=True)
    _type(ctl, str(bad))
    assert ctl.status == f"{bad}:2:1: unknown board character 'Q'"
    assert ctl.document.path == tmp_path / "b.dat"


def test_autosave_offered_at_start_after_crash(tmp_path: Path) -> None:
    path = tmp_path / "b.dat"
    shutil.copy("gameboards/chop.dat", path)
    crashed = Document.open(path)
    crashed.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    saver = Autosaver(crashed, delay_s=0)
    saver.save_now()
    saver.release()  # then the process dies (the kernel lets go of the copy's lock)
    ctl = EditorController(Document.open(path), autosave_folder=tmp_path / "state")
    assert ctl.prompt is not None and "autosave" in ctl.prompt.label
    ctl.text("y")
    assert ctl.document.board.tile(0, 0).char == "Z" and ctl.document.dirty
    ctl.key_press("S", ctrl=True)
    assert not autosave_path(path).exists()
    assert path.read_text().splitlines()[1][0] == "Z"


def test_controller_autosave_tick_and_clean_quit_removes_it(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    ctl.tick()
    assert autosave_path(ctl.document.path).exists()
    ctl.key_press("Q", ctrl=True)
    ctl.text("n")  # discard changes and quit
    assert ctl.closed and not autosave_path(ctl.document.path).exists()


def test_validation_follows_edits(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    assert ctl.problems == [] and len(ctl.summary) == 3
    x, y = ctl.document.board.goals[0]
    ctl.document.push(SetTiles({(x, y): Tile.floor()}))
    assert [p.message for p in ctl.problems] == ["no goal tile (Z): a board needs at least one"]


def test_playtest_writes_a_game_directory_named_after_the_board_and_cleans_up(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    opened: list[Path] = []
    ctl.playtest.open_viewer = lambda game_dir: opened.append(game_dir)  # type: ignore[assignment,func-returns-value]
    ctl.key_press("F6")  # normal -> hard
    ctl.finish_validation(timeout=120)
    ctl.key_press("F5")
    assert "the AI is playing" in ctl.status
    ctl.wait_playtest(timeout=120)
    assert "played at hard" in ctl.status
    game_dir = opened[0] if opened else Path(ctl.status.rsplit("game in ", 1)[1].split(" ")[0])
    assert game_dir.name == "b.dat"  # the viewer titles its window with the game folder's name
    assert (game_dir / "globalseq.txt").exists() and (game_dir / "game.json").exists()
    ctl.close()
    assert not game_dir.exists() and not game_dir.parent.exists()


def test_playtest_warns_when_no_goal_can_be_reached(tmp_path: Path) -> None:
    board = tmp_path / "walled.dat"
    board.write_text("5 1\nT H Z\n")
    ctl = EditorController(Document.open(board), autosave_folder=tmp_path / "state", background_validation=False)
    ctl.key_press("F5")
    assert ctl.prompt is not None and "no goal can be reached" in ctl.prompt.label
    ctl.text("n")
    assert not ctl.playtest.running


def test_playtest_does_not_wait_for_a_running_search(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    ctl.finish_validation(timeout=120)
    ctl._background.pause()  # type: ignore[union-attr]  # the search of the next board cannot finish
    ctl.document.push(SetTiles({(1, 1): Tile.from_char("H")}))
    ctl.key_press("F5")
    assert ctl.prompt is not None and "still being checked" in ctl.prompt.label
    ctl.key_press("ESCAPE")
    ctl._background.pause(False)  # type: ignore[union-attr]
    ctl.close()


def test_zoom_keeps_the_point_under_the_pointer_and_pan_moves(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    px, py = ctl.mapping.tile_rect(3, 4)[0] + 5, ctl.mapping.tile_rect(3, 4)[1] + 7
    before = ctl.mapping.board_point(px, py)
    ctl.scroll(px, py, 2, ctrl=True)  # Ctrl+wheel zooms, as in Tiled
    assert ctl.mapping.tile_px > 60 and ctl.mapping.board_point(px, py) == pytest.approx(before)
    origin = (ctl.mapping.origin_x, ctl.mapping.origin_y)
    ctl.mouse_press(px, py, "middle")
    ctl.mouse_drag(px + 30, py + 10, 30, 10, "middle")
    ctl.mouse_release(px + 30, py + 10, "middle")
    assert (ctl.mapping.origin_x, ctl.mapping.origin_y) == (origin[0] + 30, origin[1] + 10)
    ctl.key_press("SPACE")  # Space+left drag pans too, and paints nothing
    ctl.mouse_press(px, py, "left")
    ctl.mouse_drag(px - 30, py, -30, 0, "left")
    ctl.mouse_release(px - 30, py, "left")
    ctl.key_release("SPACE")
    assert ctl.mapping.origin_x == origin[0] and not ctl.stack.can_undo
    ctl.key_press("HOME")
    assert ctl.mapping.tile_px < 60


def test_palette_tool_buttons_and_shift_drag_rectangle(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    left, top, w, h = ctl.layout.tool_button(2)
    ctl.mouse_press(left + w / 2, top + h / 2, "left")
    ctl.mouse_release(left + w / 2, top + h / 2, "left")
    assert ctl.tool.name == "fill"
    ctl.key_press("B")
    ctl.ctx.brush = Tile.from_char("O")
    a = ctl.mapping.tile_rect(0, 10)
    b = ctl.mapping.tile_rect(2, 11)
    ctl.mouse_press(a[0] + 5, a[1] + 5, "left", shift=True)
    ctl.mouse_drag(b[0] + 5, b[1] + 5, 0, 0, "left")
    assert len(ctl.preview()) == 6
    ctl.mouse_release(b[0] + 5, b[1] + 5, "left")
    assert [ctl.document.board.tile(x, y).char for y in (10, 11) for x in range(3)] == ["O"] * 6
    assert len(ctl.document.history) == 1


@pytest.mark.parametrize(("first", "second"), [("left", "right"), ("right", "left")])
def test_a_second_button_during_a_stroke_neither_cuts_it_nor_paints(tmp_path: Path, first: str, second: str) -> None:
    """A designer's other finger on a second button mid-stroke: the stroke goes on to its end
    (it once stopped at the second button's release, and the right button erased a tile)."""
    ctl = _ctl(tmp_path)
    ctl.document.push(SetTiles({(x, 2): Tile.from_char("O") for x in range(6)}))
    ctl.ctx.brush = Tile.from_char(">")
    before = ctl.document.board
    center = [(r[0] + r[2] / 2, r[1] + r[2] / 2) for r in (ctl.mapping.tile_rect(x, 2) for x in range(6))]
    ctl.mouse_press(*center[0], first)
    ctl.mouse_drag(*center[2], 0, 0, first)
    ctl.mouse_press(*center[2], second)
    ctl.mouse_drag(*center[3], 0, 0, first)
    ctl.mouse_release(*center[3], second)
    ctl.mouse_drag(*center[5], 0, 0, first)
    ctl.mouse_release(*center[5], first)
    painted = ">" if first == "left" else " "
    assert [ctl.document.board.tile(x, 2).char for x in range(6)] == [painted] * 6
    assert len(ctl.document.history) == 2  # the set-up and the one stroke
    ctl.key_press("Z", ctrl=True)
    assert ctl.document.board == before


def test_alt_click_picks_the_brush(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    r = ctl.mapping.tile_rect(0, 0)  # chop.dat (0, 0) is the start 'V'
    ctl.mouse_press(r[0] + 9, r[1] + 9, "left", alt=True)
    ctl.mouse_release(r[0] + 9, r[1] + 9, "left")
    assert ctl.ctx.brush.char == "V" and not ctl.stack.can_undo


def test_autosave_failure_is_reported_not_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctl = _ctl(tmp_path)
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("Z")}))

    def full_disk(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(autosave_module, "write_text_atomic", full_disk)  # no copy can be written anywhere
    ctl.tick()
    assert ctl.status.startswith("autosave failed")


def test_autosave_falls_back_to_the_state_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctl = _ctl(tmp_path)
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    write = autosave_module.write_text_atomic

    def refused_next_to_the_board(path: Path, text: str) -> None:
        if path.parent == tmp_path:
            raise PermissionError(13, "Permission denied")
        write(path, text)

    monkeypatch.setattr(autosave_module, "write_text_atomic", refused_next_to_the_board)
    ctl.tick()
    assert ctl.status.startswith("autosaved to " + str(tmp_path / "state"))


def test_an_autosave_does_not_hide_a_refusal_said_just_before(tmp_path: Path) -> None:
    """Paint, then Ctrl+E 600x600: the refusal was replaced by "autosaved to ..." within a second,
    so the resize seemed to do nothing. The copy is written all the same; a message said at least
    TOAST_S ago gives way as before."""
    from editor.controller import TOAST_S

    ctl = _ctl(tmp_path)
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    ctl.key_press("E", ctrl=True)
    ctl.key_press("A", ctrl=True)
    ctl.text("600x600")
    ctl.key_press("ENTER")
    refusal = ctl.status
    assert "600x600" in refusal and "262,144" in refusal
    ctl.tick(now=ctl.status_since + 1.5)
    assert (tmp_path / "b.dat.autosave").exists()
    assert ctl.status == refusal
    ctl.document.push(SetTiles({(1, 0): Tile.from_char("Z")}))
    ctl.tick(now=ctl.status_since + TOAST_S + 1.5)
    assert ctl.status.startswith("autosaved to ")


def test_an_autosave_does_not_hide_a_running_test_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Tron test game takes seconds: its "the AI is playing" stayed on screen for a moment only."""
    from editor.playtest import PlaytestRunner

    ctl = _ctl(tmp_path)
    monkeypatch.setattr(PlaytestRunner, "running", property(lambda self: True))
    ctl.say("test-play: the AI is playing …")
    ctl.document.push(SetTiles({(0, 0): Tile.from_char("Z")}))
    ctl.tick()
    assert (tmp_path / "b.dat.autosave").exists()  # saved all the same
    assert ctl.status == "test-play: the AI is playing …"


def test_palette_hover_names_the_tile(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    left, top, size, _ = ctl.layout.palette_cell(5)
    ctl.mouse_motion(left + size / 2, top + size / 2)
    assert ctl.hover_info == "palette: start facing right  'T'"


def test_tile_readout_follows_an_edit_under_a_still_pointer(tmp_path: Path) -> None:
    """A drop, a shortcut or an undo changes the tile under a pointer that has not moved."""
    ctl = _ctl(tmp_path)
    left, top, size, _ = ctl.mapping.tile_rect(1, 1)
    ctl.mouse_motion(left + size / 2, top + size / 2)
    before = ctl.hover_info
    assert before.endswith("'" + ctl.document.board.tile(1, 1).char + "'")
    ctl.document.push(SetTiles({(1, 1): Tile.from_char("H")}))
    assert ctl.hover_info.endswith("  hole  'H'")
    ctl.action_undo()
    assert ctl.hover_info == before


def test_wall_drag_in_screen_pixels_changes_exactly_six_bits(tmp_path: Path) -> None:
    """Drag along the edge under row 2 from column 1 to 6, wobbling a few pixels around the line."""
    board = tmp_path / "open.dat"
    board.write_text("8 5\n" + "        \n" * 5)
    ctl = EditorController(Document.open(board), autosave_folder=tmp_path / "state", background_validation=False)
    ctl.key_press("W")
    m = ctl.mapping
    left, top, size, _ = m.tile_rect(1, 3)  # the line is the top of row 3
    ctl.mouse_motion(left + size / 2, top - 2)
    ctl.mouse_press(left + size / 2, top - 2, "left")
    wobble = (-3.0, 2.0, -1.0, 3.0)
    x = left + size / 2
    step = size / 5
    for i in range(int(6 * size / step)):
        x = left + size / 2 + i * step
        ctl.mouse_drag(min(x, m.tile_rect(6, 3)[0] + size - 4), top + wobble[i % 4], step, 0, "left")
    assert len(ctl.preview_edges()) == 6
    ctl.mouse_release(x, top, "left")
    assert sum(bin(t.walls).count("1") for row in ctl.document.board.rows for t in row) == 6
    assert len(ctl.document.history) == 1
