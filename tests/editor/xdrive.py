"""Driving the real editor from outside under Xvfb, shared by the robot and Tron window tests.

``STEP_RUNNER`` is Python source for the script that runs inside the editor's process: each step
starts when the previous step's effect is visible in the editor's state (no sleeps decide
anything). ``open_editor``/``click_and_kill`` start ``python -m editor FILE``, click a tile with
xdotool and kill the process with SIGKILL two seconds after the edit shows (the crash-copy promise).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
    the title's ``*``, and kill -9 the editor two seconds later."""
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
        time.sleep(2.0)  # the promise under test: every edit reaches the crash copy within 2 s
        editor.send_signal(signal.SIGKILL)
        editor.wait(10)
    finally:
        if editor.poll() is None:
            editor.kill()
            editor.wait(10)
