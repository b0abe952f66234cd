"""The real pyglet window, headless over EGL: events injected into its handlers, bytes checked on disk.

Drags a tile from the palette onto the board, draws a wall on an edge, undoes,
redoes and saves, then compares the file's bytes; also renders frames and checks pixels.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pyglet

pyglet.options["headless"] = True

import pytest  # noqa: E402
from PIL import Image  # noqa: E402
from pyglet.window import key, mouse  # noqa: E402

from editor.controller import EditorController  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.layout import PALETTE_CHARS  # noqa: E402
from editor.view import TEXT  # noqa: E402
from editor.window import EditorWindow  # noqa: E402

BOARD = b"5 3\nT    \n     \n    Z\n"


@pytest.fixture
def window(tmp_path: Path) -> EditorWindow:
    path = tmp_path / "board.dat"
    path.write_bytes(BOARD)
    controller = EditorController(Document.open(path), size=(1100, 760), autosave_folder=tmp_path / "state")
    win = EditorWindow(controller, visible=False)
    yield win
    win.close()


def _send(win: EditorWindow, event: str, *args: object) -> None:
    win.dispatch_event(event, *args)
    win.dispatch_events()


def _pyglet_xy(win: EditorWindow, px: float, py: float) -> tuple[int, int]:
    """Top-left screen coordinates (the editor's) to pyglet's bottom-left ones."""
    return round(px), round(win.height - py)


def _tile_center(win: EditorWindow, x: int, y: int) -> tuple[int, int]:
    left, top, size, _ = win.ctl.mapping.tile_rect(x, y)
    return _pyglet_xy(win, left + size / 2, top + size / 2)


def _key(win: EditorWindow, symbol: int, modifiers: int = 0) -> None:
    _send(win, "on_key_press", symbol, modifiers)
    _send(win, "on_key_release", symbol, modifiers)


def _pixel(image: Image.Image, win: EditorWindow, x: int, y: int) -> tuple[int, ...]:
    left, top, size, _ = win.ctl.mapping.tile_rect(x, y)
    return tuple(image.getpixel((int(left + size / 2), int(top + size / 2))))


def test_drag_drop_wall_undo_redo_save(window: EditorWindow, tmp_path: Path) -> None:
    win = window
    path = tmp_path / "board.dat"
    before_png = tmp_path / "before.png"
    win.save_png(before_png)

    # 1. drag the hole tile from the palette onto board tile (2, 1)
    left, top, size, _ = win.ctl.layout.palette_cell(PALETTE_CHARS.index("H"))
    sx, sy = _pyglet_xy(win, left + size / 2, top + size / 2)
    tx, ty = _tile_center(win, 2, 1)
    _send(win, "on_mouse_press", sx, sy, mouse.LEFT, 0)
    _send(win, "on_mouse_drag", (sx + tx) // 2, (sy + ty) // 2, (tx - sx) // 2, (ty - sy) // 2, mouse.LEFT, 0)
    _send(win, "on_mouse_drag", tx, ty, tx - (sx + tx) // 2, ty - (sy + ty) // 2, mouse.LEFT, 0)
    win.save_png(tmp_path / "dragging.png")
    _send(win, "on_mouse_release", tx, ty, mouse.LEFT, 0)
    assert win.ctl.document.board.tile(2, 1).char == "H"
    assert win.shown_title.startswith("*board.dat")

    # 2. wall tool, click close to the top edge of tile (1, 1)
    _key(win, key.W)
    left, top, size, _ = win.ctl.mapping.tile_rect(1, 1)
    ex, ey = _pyglet_xy(win, left + size / 2, top + 3)
    _send(win, "on_mouse_motion", ex, ey, 0, 0)
    _send(win, "on_mouse_press", ex, ey, mouse.LEFT, 0)
    _send(win, "on_mouse_release", ex, ey, mouse.LEFT, 0)
    assert win.ctl.document.board.tile(1, 1).char == "e"  # wall up = 4 -> e
    edited = "5 3\nT    \n eH  \n    Z\n"
    assert win.ctl.document.text == edited

    # 3. undo both, redo both
    _key(win, key.Z, key.MOD_CTRL)
    assert win.ctl.document.board.tile(1, 1).char == " "
    _key(win, key.Z, key.MOD_CTRL)
    assert win.ctl.document.text.encode() == BOARD
    assert not win.shown_title.startswith("*")
    _key(win, key.Y, key.MOD_CTRL)
    _key(win, key.Y, key.MOD_CTRL)
    assert win.ctl.document.text == edited

    # 4. save and check the bytes on disk
    _key(win, key.S, key.MOD_CTRL)
    assert path.read_bytes() == edited.encode()
    assert win.shown_title.startswith("board.dat")

    # 5. the rendered frame shows the change: the hole's centre is dark, before it was floor
    after_png = tmp_path / "after.png"
    win.save_png(after_png)
    before, after = Image.open(before_png).convert("RGB"), Image.open(after_png).convert("RGB")
    assert sum(_pixel(before, win, 2, 1)) > 300  # light floor
    assert sum(_pixel(after, win, 2, 1)) < 200  # dark hole
    assert _pixel(before, win, 0, 2) == _pixel(after, win, 0, 2)  # untouched tile unchanged


def test_close_with_unsaved_changes_asks_first(window: EditorWindow, tmp_path: Path) -> None:
    win = window
    tx, ty = _tile_center(win, 1, 0)
    _send(win, "on_mouse_press", tx, ty, mouse.LEFT, 0)
    _send(win, "on_mouse_release", tx, ty, mouse.LEFT, 0)
    assert win.ctl.document.dirty
    _send(win, "on_close")
    assert win.ctl.prompt is not None and "unsaved" in win.ctl.prompt.label and not win.ctl.closed
    _key(win, key.ESCAPE)
    assert win.ctl.prompt is None and not win.ctl.closed
    _send(win, "on_close")
    _send(win, "on_text", "y")  # save, then close
    assert win.ctl.closed
    assert (tmp_path / "board.dat").read_bytes() == b"5 3\nT>   \n     \n    Z\n"


def test_help_overlay_and_theme_switch_render(window: EditorWindow, tmp_path: Path) -> None:
    win = window
    _key(win, key.F1)
    assert win.ctl.help_visible
    win.save_png(tmp_path / "help.png")
    image = Image.open(tmp_path / "help.png").convert("RGB")
    # the overlay darkens the board: a floor tile's centre is much darker than without it
    assert sum(_pixel(image, win, 1, 1)) < 250
    _key(win, key.ESCAPE)
    first = win.ctl.theme
    _key(win, key.F2)
    assert win.ctl.theme != first or len(win.ctl.themes) == 1
    win.save_png(tmp_path / "theme.png")
    assert win.editor_view.theme_loaded == win.ctl.theme


def _status_labels(win: EditorWindow) -> list[pyglet.text.Label]:
    part = win.editor_view._parts["status"]
    return [item for item in part.keep if isinstance(item, pyglet.text.Label)]


@pytest.mark.parametrize(
    "message",
    [
        "test game: 317 rounds, strong 3, simple 0; opening the viewer on /tmp/robots-edit-play-8qzk86m0/arena-game.json",
        "W" * 70,
        "cannot save " + "/a-rather-long-folder-name" * 30 + "/board.dat: Permission denied",
        "short",
    ],
)
def test_status_message_never_runs_into_the_tile_readout(window: EditorWindow, tmp_path: Path, message: str) -> None:
    """Measured, not guessed from the length: a message with a path once ran over the readout."""
    win = window
    _send(win, "on_mouse_motion", *_tile_center(win, 1, 1), 0, 0)
    win.ctl.say(message)
    win.save_png(tmp_path / "status.png")
    readout = [label for label in _status_labels(win) if label.text == win.ctl.hover_info]
    shown = [label for label in _status_labels(win) if tuple(label.color) == TEXT]
    assert len(readout) == 1 and len(shown) == 1
    status = shown[0]
    right = status.x + (status.width if status.multiline else status.content_width)
    assert right <= readout[0].x
    assert readout[0].x + readout[0].content_width <= win.width
    assert status.content_height <= 48  # the status bar's height: at most two lines
    if "…" not in status.text:
        assert status.text == message
    else:  # elided in the middle: the start and the end (the file) are kept
        assert message.startswith(status.text.split("…")[0]) and message.endswith(status.text.split("…")[1])


def test_tron_default_starts_are_drawn_faded(tmp_path: Path) -> None:
    """An arena without start lines shows where the engine will start its two bots."""
    from editor.games import game_named

    tron = game_named("tron")
    path = tmp_path / "arena.txt"
    path.write_text(tron.write(tron.blank(20, 10)))
    controller = EditorController(Document.open(path), size=(1100, 760), autosave_folder=tmp_path / "state")
    win = EditorWindow(controller, visible=False)
    try:
        implied = tron.implied_cells(controller.document.board)
        assert len(implied) == 2
        win.save_png(tmp_path / "arena.png")
        image = Image.open(tmp_path / "arena.png").convert("RGB")
        free = _pixel(image, win, 0, 0)
        for x, y in implied:
            assert sum(abs(a - b) for a, b in zip(_pixel(image, win, x, y), free, strict=True)) > 60
        _key(win, key._1)  # bot 1's start as the brush; a click puts a start line there
        _send(win, "on_mouse_press", *_tile_center(win, 0, 0), mouse.LEFT, 0)
        _send(win, "on_mouse_release", *_tile_center(win, 0, 0), mouse.LEFT, 0)
        assert tron.implied_cells(controller.document.board) == {}
        win.save_png(tmp_path / "placed.png")
        image = Image.open(tmp_path / "placed.png").convert("RGB")
        for x, y in implied:  # the defaults are gone from the picture too
            assert _pixel(image, win, x, y) == free
    finally:
        win.close()


@pytest.mark.parametrize("size", [(1280, 800), (1024, 640), (640, 480)])
def test_side_panel_lines_follow_their_wrapped_height(tmp_path: Path, size: tuple[int, int]) -> None:
    """A line guessed to wrap (by its length) left a blank line under it, and one guessed not to
    wrap ran into the next: each line now moves on by its height as laid out."""
    path = tmp_path / "wall-garden.dat"
    path.write_text((Path(__file__).resolve().parents[2] / "gameboards" / "wall-garden-12x12.dat").read_text())
    controller = EditorController(Document.open(path), size=size, autosave_folder=tmp_path / "state")
    controller.finish_validation(60)
    win = EditorWindow(controller, visible=False)
    try:
        win.save_png(tmp_path / "side.png")
        labels = [item for item in win.editor_view._parts["side"].keep if isinstance(item, pyglet.text.Label)]
    finally:
        win.close()
    column = sorted((label for label in labels if label.x == labels[0].x), key=lambda label: -label.y)
    for upper, lower in itertools.pairwise(column):
        assert lower.y <= upper.y - upper.content_height, (upper.text, lower.text)  # never overlapping
    ticks = [label for label in column if label.text.startswith("✓ ")]
    assert len(ticks) == 3
    for upper, lower in itertools.pairwise(ticks):
        assert upper.y - upper.content_height - lower.y == 6, (upper.text, lower.text)  # no blank line


@pytest.mark.parametrize("filter_text", ["", "resize"])
def test_command_palette_text_stays_inside_its_panel_at_640x480(tmp_path: Path, filter_text: str) -> None:
    """At 640x480 the palette's heading ran over the right panel and its lines were cut by a
    guess of 7 pixels a character: every line is now measured and cut with … to the panel."""
    path = tmp_path / "board.dat"
    path.write_bytes(BOARD)
    controller = EditorController(Document.open(path), size=(640, 480), autosave_folder=tmp_path / "state")
    win = EditorWindow(controller, visible=False)
    try:
        _key(win, key.P, key.MOD_CTRL | key.MOD_SHIFT)
        assert controller.prompt is not None and controller.prompt.menu is not None
        controller.text(filter_text)
        win.save_png(tmp_path / "palette.png")
        labels = [item for item in win.editor_view._parts["browser"].keep if isinstance(item, pyglet.text.Label)]
    finally:
        win.close()
    left, _, width, _ = controller.layout.browser
    assert len(labels) >= 2
    for label in labels:
        assert left <= label.x and label.x + label.content_width <= left + width, label.text
    # Cut, not left to run over (the filtered lines fit since the panel takes the side panel's room).
    assert any("…" in label.text for label in labels) or filter_text
    assert any(label.text.startswith("resize") for label in labels) or filter_text != "resize"


def test_a_long_path_prompt_stays_inside_a_640x480_window(tmp_path: Path) -> None:
    """The prompt line was cut at 160 characters and its hint not at all: at 640x480 both ran
    out of the window. They are measured now; the typed path keeps its end (file and cursor)."""
    folder = tmp_path / ("a-rather-long-folder-name/" * 6)
    folder.mkdir(parents=True)
    path = folder / "board.dat"
    path.write_bytes(BOARD)
    controller = EditorController(Document.open(path), size=(640, 480), autosave_folder=tmp_path / "state")
    win = EditorWindow(controller, visible=False)
    try:
        _key(win, key.S, key.MOD_CTRL | key.MOD_SHIFT)
        assert controller.prompt is not None and controller.prompt.text == str(path)
        win.save_png(tmp_path / "prompt.png")
        labels = _status_labels(win)
    finally:
        win.close()
    assert len(labels) == 2
    for label in labels:
        assert label.x >= 0 and label.x + label.content_width <= 640, label.text
    line = next(label.text for label in labels if label.text.startswith("save as:  …"))
    assert line.endswith("board.dat▏")


@pytest.mark.parametrize("game", ["robots", "tron"])
@pytest.mark.parametrize("size", [(1100, 760), (640, 480), (1280, 800), (800, 600)])
def test_help_columns_never_overlap(tmp_path: Path, size: tuple[int, int], game: str) -> None:
    """F1 at 640x480: each column's texts ran over the next column's keys and out of the box; at
    1280x800 a Tron arena's help cut a line ("make the arena point-sy…ric"): drawn with the real
    font, no line is cut and none runs into the next column."""
    from editor.games import game_named

    path = tmp_path / "board.dat"
    path.write_bytes(BOARD if game == "robots" else game_named("tron").write(game_named("tron").blank(40, 30)).encode())
    controller = EditorController(Document.open(path), size=size, autosave_folder=tmp_path / "state")
    win = EditorWindow(controller, visible=False)
    try:
        _key(win, key.F1)
        assert controller.help_visible
        win.save_png(tmp_path / "help.png")
        labels = [item for item in win.editor_view._parts["help"].keep if isinstance(item, pyglet.text.Label)]
    finally:
        win.close()
    assert not [label.text for label in labels if "…" in label.text]
    rows: dict[float, list[pyglet.text.Label]] = {}
    for label in labels:
        rows.setdefault(label.y, []).append(label)
    assert sum(len(row) == 4 for row in rows.values()) >= 15  # two columns of key + text
    for row in rows.values():
        row.sort(key=lambda label: label.x)
        for left, right in itertools.pairwise(row):
            assert left.x + left.content_width <= right.x, (left.text, right.text)
        assert row[-1].x + row[-1].content_width <= size[0] - 20, row[-1].text


def test_activating_the_window_checks_the_file_on_disk(window: EditorWindow, tmp_path: Path) -> None:
    (tmp_path / "board.dat").write_bytes(BOARD.replace(b"T", b"H"))  # another program saved it
    _send(window, "on_activate")
    assert window.ctl.prompt is not None and "reload" in window.ctl.prompt.label
    _send(window, "on_text", "y")
    assert window.ctl.document.board.tile(0, 0).char == "H"
