"""kill -9 after an edit: the edit is in the copy the next start offers.

The real ``python -m editor BOARD`` runs under Xvfb; xdotool clicks a tile (the paint
tool puts the brush there), then the process is killed with SIGKILL as soon as the crash
copy holds the edit (that this happens within 2 s of the edit is checked with a given clock
in test_autosave.py: a wall-clock wait here depended on the machine's load). A new editor
on the same file offers the copy, and restoring it shows the edit. Also: an error inside an event handler writes the
emergency copy before anything else and the window keeps running.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from editor.autosave import pending_autosave
from editor.controller import EditorController
from editor.document import Document
from tests.editor.xdrive import click_and_kill


def test_kill_9_after_an_edit_keeps_the_edit(tmp_path: Path, xvfb: dict[str, str]) -> None:
    assert shutil.which("xdotool"), "xdotool is missing: run ./run setup"
    display = xvfb
    board = tmp_path / "b.dat"
    shutil.copy("gameboards/chop.dat", board)
    env = {**display, "XDG_STATE_HOME": str(tmp_path / "xdg")}
    click_and_kill(env, board, (1, 0), "b.dat")
    offer = pending_autosave(board, tmp_path / "xdg" / "robots-edit")
    assert offer is not None, "no crash copy after kill -9"
    assert offer[1].tile(1, 0).char == ">"  # the default brush painted there
    ctl = EditorController(Document.open(board), autosave_folder=tmp_path / "xdg" / "robots-edit")
    assert ctl.prompt is not None and "restore" in ctl.prompt.label
    ctl.text("y")
    assert ctl.document.board.tile(1, 0).char == ">"
    ctl.close()


def test_an_error_in_a_handler_writes_the_emergency_copy_and_is_reported(tmp_path: Path) -> None:
    board = tmp_path / "b.dat"
    shutil.copy("gameboards/chop.dat", board)
    script = r"""
import sys
from pathlib import Path
import pyglet
pyglet.options["headless"] = True
from editor.commands import SetTiles
from editor.controller import EditorController
from editor.document import Document
from editor.window import EditorWindow
from engine.model import Tile

path = Path(sys.argv[1])
ctl = EditorController(Document.open(path), autosave_folder=path.parent / "state", autosave_delay_s=3600)
win = EditorWindow(ctl, visible=False)
ctl.document.push(SetTiles({(2, 2): Tile.from_char("H")}))

def broken(*args, **kwargs):
    raise RuntimeError("boom")

ctl.mouse_motion = broken
win.dispatch_event("on_mouse_motion", 10, 10, 0, 0)  # raises inside the handler
win.dispatch_events()
win.dispatch_event("on_draw")
win.dispatch_events()
print(win.errors, ctl.status)
"""
    result = subprocess.run([sys.executable, "-c", script, str(board)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("1 internal error in on_mouse_motion: RuntimeError: boom")
    assert "your board was copied to" in result.stdout
    copy = pending_autosave(board, tmp_path / "state")
    assert copy is not None and copy[1].tile(2, 2).char == "H"
