"""The editor as a user meets it: a real window under Xvfb with a window manager (openbox),
driven from outside with xdotool (real X input, real ConfigureNotify events).

The window is moved and resized while editing (pyglet's X11 code stores the window's
position in ``_x``/``_y``: this once crashed the editor), a wall is dragged along a
6-tile edge with the real pointer (exactly 6 wall bits change), a board is opened
through the file browser and saved as over an existing file (it asks first).

The script inside the editor process runs one step at a time: each step starts when the
previous step's effect is visible in the editor's state (no sleeps decide anything).
``./run setup`` installs Xvfb, openbox and xdotool.
"""

from __future__ import annotations

from pathlib import Path

from tests.editor.xdrive import STEP_RUNNER, run_script

#: What every script here starts with: the editor on ``open.dat`` in a real window, its X id, a log.
OPEN_EDITOR = (
    STEP_RUNNER
    + r"""
import json, subprocess, sys
from pathlib import Path
import pyglet
from editor.controller import EditorController
from editor.document import Document
from editor.window import EditorWindow

work = Path(sys.argv[1])
ctl = EditorController(Document.open(work / "open.dat"), size=(1024, 640), autosave_folder=work / "state")
win = EditorWindow(ctl)
wid = str(win._window)
log = []
"""
)

SCRIPT = (
    OPEN_EDITOR
    + r"""

def to_window(px, py):
    return str(int(px)), str(int(py))

def tile_point(x, y, fx=0.5, fy=0.5):
    left, top, size, _ = ctl.mapping.tile_rect(x, y)
    return left + size * fx, top + size * fy

def bits():
    return sum(bin(t.walls).count("1") for row in ctl.document.board.rows for t in row)

def step_move():
    xdo("windowmove", "--sync", wid, "40", "30")
def step_resize():
    xdo("windowsize", "--sync", wid, "1100", "700")
def step_paint():
    x, y = tile_point(0, 0)
    xdo("mousemove", "--window", wid, *to_window(x, y), "click", "1")
def step_walls():
    ctl.fit()
    xdo("key", "w")
def step_drag():
    # The top edge of row 3, from column 1 to 6, a few pixels above/below the line.
    left, top, size, _ = ctl.mapping.tile_rect(1, 3)
    xdo("mousemove", "--window", wid, *to_window(left + size / 2, top - 2), "mousedown", "1")
    for i in range(1, 31):
        x = left + size / 2 + i * size * 5 / 30
        xdo("mousemove", "--window", wid, *to_window(x, top + (2 if i % 2 else -2)))
    xdo("mouseup", "1")
def step_move_again():
    xdo("windowmove", "--sync", wid, "120", "90")
    xdo("windowsize", "--sync", wid, "1024", "640")
def step_open():
    ctl.document.history.mark_clean()  # keep this test about the dialog, not the unsaved question
    xdo("key", "ctrl+o")
def step_type_path():
    xdo("key", "ctrl+a")
    xdo("type", "--delay", "5", str(work / "oth"))
    xdo("key", "Tab")
def step_enter():
    xdo("key", "Return")
def step_save_as():
    xdo("key", "ctrl+shift+s")
def step_type_target():
    xdo("key", "ctrl+a")
    xdo("type", "--delay", "5", str(work / "existing.dat"))
    xdo("key", "Return")
def step_confirm():
    xdo("type", "y")

steps = [
    ("move", step_move, lambda: (win._x, win._y) != start_position),
    ("resize", step_resize, lambda: ctl.layout.width == 1100),
    ("paint", step_paint, lambda: ctl.document.board.tile(0, 0).char == ">"),
    ("walls", step_walls, lambda: ctl.tool.name == "walls"),
    ("drag", step_drag, lambda: len(ctl.document.history) == 2 and not ctl.document.in_stroke),
    ("move again", step_move_again, lambda: ctl.layout.width == 1024),
    ("open", step_open, lambda: ctl.prompt is not None and ctl.prompt.listing is not None),
    ("type path", step_type_path, lambda: ctl.prompt is not None and ctl.prompt.text.endswith("other.dat")),
    ("enter", step_enter, lambda: ctl.document.path == work / "other.dat"),
    ("save as", step_save_as, lambda: ctl.prompt is not None and ctl.prompt.paths),
    ("type target", step_type_target, lambda: ctl.prompt is not None and "replace it?" in ctl.prompt.label),
    ("confirm", step_confirm, lambda: ctl.document.path == work / "existing.dat" and not ctl.document.modified),
]
state = {"bits_after_drag": None}

def on_done(name):
    if name == "drag":
        state["bits_after_drag"] = bits()

xdo("windowactivate", "--sync", wid)
start_position = (win._x, win._y)
state["caption"] = run_steps(steps, win, ctl, log, on_done)
print(json.dumps({"moved": [start_position, (win._x, win._y)], "log": log, "errors": win.errors, "bits": state["bits_after_drag"], "status": ctl.status,
                  "caption": state["caption"]}))
"""
)


def test_move_resize_drag_walls_open_and_save_as_under_a_window_manager(
    tmp_path: Path, desktop: dict[str, str]
) -> None:
    (tmp_path / "open.dat").write_text("8 5\n" + "        \n" * 5)
    (tmp_path / "other.dat").write_bytes(Path("gameboards/chop.dat").read_bytes())
    (tmp_path / "existing.dat").write_text("1 1\nZ\n")
    report = run_script(SCRIPT, tmp_path, desktop)
    assert report["log"][-1] == "confirm", report
    assert report["bits"] == 6, report  # the drag along a 6-tile edge: exactly 6 wall bits
    assert (tmp_path / "existing.dat").read_bytes() == Path("gameboards/chop.dat").read_bytes()
    assert report["caption"].startswith("existing.dat")


BUTTONS_SCRIPT = (
    OPEN_EDITOR
    + r"""

def at(x, y):
    left, top, size, _ = ctl.mapping.tile_rect(x, y)
    return ["mousemove", "--window", wid, str(int(left + size / 2)), str(int(top + size / 2))]

def char(x, y):
    return ctl.document.board.tile(x, y).char

def step_thumb():
    # The back and forward buttons (X buttons 8 and 9) on tile (0, 0), then a left click on (1, 0).
    xdo(*at(0, 0), "click", "8", "click", "9", *at(1, 0), "click", "1")
def step_chord():
    # A left stroke along row 2; halfway the right button and the forward button are clicked.
    xdo(*at(0, 2), "mousedown", "1", *at(1, 2), *at(2, 2), "click", "3", "click", "9")
    xdo(*at(3, 2), *at(4, 2), *at(5, 2), "mouseup", "1")
    xdo(*at(7, 4), "click", "1")  # the step is over when this last click shows

def step_leave():
    # Over the belt at (1, 0), then out of the window to the screen corner farthest from it, then R.
    x, y = win.get_location()
    corner = ("0" if x + win.width / 2 > 640 else "1279", "0" if y + win.height / 2 > 450 else "899")
    xdo(*at(1, 0))
    xdo("mousemove", *corner)
    xdo("key", "r")

steps = [
    ("thumb", step_thumb, lambda: char(1, 0) == ">"),
    ("chord", step_chord, lambda: char(7, 4) == ">" and not ctl.document.in_stroke),
    ("leave", step_leave, lambda: ctl.ctx.brush.char != ">" or char(1, 0) != ">"),
]
xdo("windowactivate", "--sync", wid)
run_steps(steps, win, ctl, log)
rows = ["".join(char(x, y) for x in range(8)) for y in range(5)]
print(json.dumps({"log": log, "errors": win.errors, "rows": rows, "steps": len(ctl.document.history),
                  "brush": ctl.ctx.brush.char, "hover": ctl.hover}))
"""
)


def test_other_mouse_buttons_neither_paint_nor_cut_a_stroke_short(tmp_path: Path, desktop: dict[str, str]) -> None:
    """A mouse's back/forward buttons once painted like the left one, and a right click (or a
    back/forward click) in the middle of a left stroke ended the stroke there. And ``R`` with the
    pointer outside the window turned the tile it had last been over (still shown as hovered)."""
    (tmp_path / "open.dat").write_text("8 5\n" + "        \n" * 5)
    report = run_script(BUTTONS_SCRIPT, tmp_path, desktop)
    assert report["log"] == ["thumb", "chord", "leave"], report
    assert report["rows"] == [" >      ", "        ", ">>>>>>  ", "        ", "       >"], report
    assert report["steps"] == 3, report  # the click, the whole stroke, the last click
    assert report["brush"] == "v" and report["hover"] is None, report  # R turned the brush
