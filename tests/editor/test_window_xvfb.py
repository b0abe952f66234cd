"""A real (non-headless) editor window under Xvfb, driven through pyglet's own event loop.

Runs in a subprocess (pyglet picks headless or X11 once per process): the script opens
the window with ``pyglet.app.run``, injects a paint click, Ctrl+S, then closes the window
through ``on_close``; the test checks the saved bytes and that the title carried the mark.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import sys
from pathlib import Path
import pyglet
from pyglet.window import key, mouse
from editor.controller import EditorController
from editor.document import Document
from editor.window import EditorWindow

path = Path(sys.argv[1])
ctl = EditorController(Document.open(path), size=(900, 600), autosave_folder=path.parent / "state")
win = EditorWindow(ctl)
titles = []

def script(dt):
    left, top, size, _ = ctl.mapping.tile_rect(1, 0)
    x, y = int(left + size / 2), int(win.height - top - size / 2)
    win.dispatch_event("on_mouse_press", x, y, mouse.LEFT, 0)
    win.dispatch_event("on_mouse_release", x, y, mouse.LEFT, 0)
    titles.append(win.caption)
    win.dispatch_event("on_key_press", key.S, key.MOD_CTRL)
    titles.append(win.caption)
    win.dispatch_event("on_close")

pyglet.clock.schedule_once(script, 0.3)
pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), 20)
pyglet.app.run()
print("\n".join(titles))
"""


def test_real_window_under_xvfb(tmp_path: Path, xvfb: dict[str, str]) -> None:
    board = tmp_path / "b.dat"
    board.write_bytes(b"3 2\nT  \n  Z\n")
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(board)],
        capture_output=True,
        text=True,
        timeout=120,
        env=xvfb,
        cwd=Path.cwd(),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["*b.dat — robots-edit", "b.dat — robots-edit"]
    assert board.read_bytes() == b"3 2\nT> \n  Z\n"


IDLE_SCRIPT = r"""
from pathlib import Path
import sys
import pyglet
from editor.controller import EditorController
from editor.document import Document
from editor.window import EditorWindow

ctl = EditorController(Document.open(sys.argv[1]), autosave_folder=Path(sys.argv[2]))
win = EditorWindow(ctl)
frames = []
draw = win.on_draw
win.on_draw = lambda: (frames.append(1), draw())
marks = {}

def settle(dt):
    ctl.finish_validation(60)
    marks["settled"] = len(frames)

def idle(dt):
    marks["idle"] = len(frames)
    win.dispatch_event("on_mouse_motion", 400, 400, 1, 1)

def moved(dt):
    marks["moved"] = len(frames)
    pyglet.app.exit()

pyglet.clock.schedule_once(settle, 0.5)
pyglet.clock.schedule_once(idle, 2.0)
pyglet.clock.schedule_once(moved, 2.5)
pyglet.app.run(interval=None)
print(marks["settled"], marks["idle"], marks["moved"])
"""


def test_an_idle_window_draws_nothing_and_input_draws_a_frame(tmp_path: Path, xvfb: dict[str, str]) -> None:
    """An idle editor must not keep the CPU busy redrawing the same picture 60 times a second."""
    result = subprocess.run(
        [sys.executable, "-c", IDLE_SCRIPT, "gameboards/chop.dat", str(tmp_path / "state")],
        capture_output=True, text=True, timeout=120, env=xvfb, cwd=Path.cwd(),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    settled, idle, moved = (int(v) for v in result.stdout.split())
    assert settled >= 1  # the first frame was drawn
    assert idle - settled <= 1  # then, with nothing happening, at most the validation's last update
    assert moved > idle  # the pointer moved: a new frame
