"""Driving the real editor from outside under Xvfb, shared by the robot and Tron window tests.

``STEP_RUNNER`` is Python source for the script that runs inside the editor's process: each step
starts when the previous step's effect is visible in the editor's state (no sleeps decide
anything). ``open_editor``/``click_and_kill`` start ``python -m editor FILE``, click a tile with
xdotool and kill the process with SIGKILL once the edit is in the crash copy on disk (that the copy
is written within 2 s of an edit is checked with a given clock in test_autosave.py, never here:
a wall-clock wait failed whenever the loaded machine kept the editor from its tick for a second).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from editor.autosave import crash_copies
from editor.controller import EditorController
from editor.document import Document

STEP_RUNNER = r'''
def xdo(*args):
    """Real X input from outside the editor."""
    import subprocess
    subprocess.run(["xdotool", *args], check=True, timeout=20)


def run_steps(steps, win, ctl, log, on_done=lambda name: None, limit_s=120):
    """Run ``steps`` ((name, action, done) triples) in the pyglet loop; returns the last caption."""
    import pyglet
    state = {"index": -1, "caption": ""}

    def advance(dt):
        index = state["index"]
        if index >= 0:
            name, _, done = steps[index]
            if not done():
                return
            log.append(name)
            on_done(name)
        if index + 1 == len(steps):
            state["caption"] = win.caption
            pyglet.app.exit()
            return
        state["index"] = index + 1
        steps[index + 1][1]()

    def give_up(dt):
        log.append("timeout at step " + steps[state["index"]][0] + ": " + ctl.status)
        pyglet.app.exit()

    pyglet.clock.schedule_interval(advance, 0.05)
    pyglet.clock.schedule_once(give_up, limit_s)
    pyglet.app.run()
    return state["caption"]
'''


def run_script(script: str, work: Path, env: dict[str, str]) -> dict[str, Any]:
    """Run an editor script (``STEP_RUNNER`` + steps) on ``work``; its last line is a JSON report.
    The run must end cleanly: exit 0, no error inside an event handler, no traceback."""
    result = subprocess.run(
        [sys.executable, "-c", script, str(work)],
        capture_output=True, text=True, timeout=300, env={**env, "XDG_STATE_HOME": str(work / "xdg")},
        cwd=Path.cwd(),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    report: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["errors"] == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    return report


def xdotool(env: dict[str, str], *args: str) -> str:
    return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=30).stdout.strip()


def click_and_kill(env: dict[str, str], path: Path, tile: tuple[int, int], title: str) -> None:
    """Open ``path`` in ``python -m editor`` (1024x640), click ``tile`` with the paint tool, wait for
    the title's ``*``, then for a crash copy that differs from the file, and kill -9 the editor."""
    editor = subprocess.Popen(
        [sys.executable, "-m", "editor", str(path), "--size", "1024x640"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        window = ""
        for _ in range(600):  # wait for the window to be mapped (an event, polled)
            window = xdotool(env, "search", "--onlyvisible", "--name", title)
            if window or editor.poll() is not None:
                break
            time.sleep(0.1)
        assert window, "the editor window did not appear"
        window = window.splitlines()[0]
        # Where the tile is: the same layout the editor computes for its window size.
        probe = EditorController(Document.open(path), size=(1024, 640), background_validation=False)
        probe.autosaver.discard()
        left, top, size, _ = probe.mapping.tile_rect(*tile)
        x, y = str(int(left + size / 2)), str(int(top + size / 2))
        xdotool(env, "mousemove", "--window", window, x, y, "click", "1")
        for _ in range(600):  # the edit happened when the title gets its '*'
            if xdotool(env, "getwindowname", window).startswith("*"):
                break
            time.sleep(0.05)
        assert xdotool(env, "getwindowname", window).startswith("*" + title)
        original = path.read_bytes()
        folder = Path(env["XDG_STATE_HOME"]) / "robots-edit"
        deadline = time.monotonic() + 120  # against a hang only
        while not any(_holds_other_than(copy, original) for copy in crash_copies(path, folder, path.suffix)):
            assert editor.poll() is None and time.monotonic() < deadline, "the edit never reached a crash copy"
            time.sleep(0.05)
        editor.send_signal(signal.SIGKILL)
        editor.wait(10)
    finally:
        if editor.poll() is None:
            editor.kill()
            editor.wait(10)


def _holds_other_than(copy: Path, original: bytes) -> bool:
    """Whether the crash copy ``copy`` holds something else than ``original`` (False once it is gone)."""
    try:
        return copy.read_bytes() != original
    except OSError:
        return False
