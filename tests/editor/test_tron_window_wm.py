"""A Tron arena drawn in the real editor window under Xvfb with a window manager (openbox), driven
from outside with xdotool, saved through the save-as browser, then played with ``robots-tron play``:
an arena made in the editor plays. And kill -9 after an edit: the arena's crash copy has the edit.

Each step of the script inside the editor starts when the previous one's effect is visible in the
editor's state (no sleeps decide anything). ``./run setup`` installs Xvfb, openbox and xdotool.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from editor.autosave import pending_autosave
from editor.controller import EditorController
from editor.document import Document
from editor.games import TRON, game_named
from engine.tron.arena import Heading, load_arena
from engine.tron.record import load_game
from tests.editor.xdrive import STEP_RUNNER, click_and_kill, run_script

SCRIPT = (
    STEP_RUNNER
    + r"""
import json, subprocess, sys
from pathlib import Path
import pyglet
from editor.controller import EditorController
from editor.document import Document
from editor.games import TRON, game_named
from editor.window import EditorWindow

work = Path(sys.argv[1])
game = game_named(TRON)
ctl = EditorController(Document(game.blank(12, 8)), size=(1024, 640), autosave_folder=work / "state")
win = EditorWindow(ctl)
wid = str(win._window)
log = []

def at(x, y):
    left, top, size, _ = ctl.mapping.tile_rect(x, y)
    return str(int(left + size / 2)), str(int(top + size / 2))

def cell(x, y):
    return ctl.document.board.tile(x, y).char

def step_resize():
    xdo("windowsize", "--sync", wid, "1100", "700")
def step_wall():
    xdo("mousemove", "--window", wid, *at(5, 1), "mousedown", "1")
    for y in range(2, 7):
        xdo("mousemove", "--window", wid, *at(5, y))
    xdo("mouseup", "1")
def step_bot1():
    xdo("key", "1")
def step_place1():
    xdo("mousemove", "--window", wid, *at(1, 3), "click", "1")
def step_bot2():
    xdo("key", "2")
def step_place2():
    xdo("mousemove", "--window", wid, *at(10, 4), "click", "1")
def step_turn():
    xdo("key", "r")
def step_save_as():
    xdo("key", "ctrl+shift+s")
def step_type_target():
    xdo("key", "ctrl+a")
    xdo("type", "--delay", "5", str(work / "drawn.txt"))
    xdo("key", "Return")

steps = [
    ("resize", step_resize, lambda: ctl.layout.width == 1100),
    ("wall", step_wall, lambda: all(cell(5, y) == "#" for y in range(1, 7)) and not ctl.document.in_stroke),
    ("bot 1", step_bot1, lambda: ctl.ctx.brush.char == "1E"),
    ("place 1", step_place1, lambda: cell(1, 3) == "1E"),
    ("bot 2", step_bot2, lambda: ctl.ctx.brush.char == "2W"),
    ("place 2", step_place2, lambda: cell(10, 4) == "2W"),
    ("turn", step_turn, lambda: cell(10, 4) == "2N"),
    ("save as", step_save_as, lambda: ctl.prompt is not None and ctl.prompt.paths),
    ("type target", step_type_target, lambda: ctl.document.path == work / "drawn.txt" and not ctl.document.modified),
]
xdo("windowactivate", "--sync", wid)
caption = run_steps(steps, win, ctl, log)
print(json.dumps({"log": log, "errors": win.errors, "status": ctl.status, "caption": caption,
                  "history": len(ctl.document.history)}))
"""
)


def test_an_arena_drawn_in_the_window_is_saved_and_plays(tmp_path: Path, desktop: dict[str, str]) -> None:
    report = run_script(SCRIPT, tmp_path, desktop)
    assert report["log"][-1] == "type target", report
    assert report["history"] == 4, report  # the drag is one step; two starts; one turn
    assert report["caption"].startswith("drawn.txt")
    arena = load_arena(tmp_path / "drawn.txt")
    assert [(s.x, s.y, s.heading) for s in arena.starts] == [(2, 4, Heading.EAST), (11, 5, Heading.NORTH)]
    assert all(arena.is_blocked(6, y) for y in range(2, 8)) and sum(arena.blocked) == 6
    tron = Path(sys.executable).with_name("robots-tron")
    out = tmp_path / "game"
    played = subprocess.run(
        [str(tron), "play", str(tmp_path / "drawn.txt"), "strong", "simple", "--out", str(out)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr[-2000:]
    record = load_game(out / "tron-game.json")
    assert record.arena == arena and record.final.over and len(record.rounds) > 1


def test_kill_9_after_an_edit_keeps_the_arena_edit(tmp_path: Path, xvfb: dict[str, str]) -> None:
    assert shutil.which("xdotool"), "xdotool is missing: run ./run setup"
    arena = tmp_path / "a.txt"
    shutil.copy("gameboards/tron/open-10x10.txt", arena)
    click_and_kill({**xvfb, "XDG_STATE_HOME": str(tmp_path / "xdg")}, arena, (4, 0), "a.txt")
    state = tmp_path / "xdg" / "robots-edit"
    game = game_named(TRON)
    offer = pending_autosave(arena, state, game)
    assert offer is not None, "no crash copy after kill -9"
    assert offer[1].tile(4, 0).char == "#"  # the default brush blocked that field
    ctl = EditorController(Document.open(arena), autosave_folder=state)
    assert ctl.prompt is not None and "restore" in ctl.prompt.label
    ctl.text("y")
    assert ctl.document.board.tile(4, 0).char == "#" and ctl.document.modified
    ctl.close()
