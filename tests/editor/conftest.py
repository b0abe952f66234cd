"""Shared fixtures of the editor tests: a virtual X display, with or without a window manager."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest


@pytest.fixture
def xvfb() -> Iterator[dict[str, str]]:
    """The environment of a fresh Xvfb display (``-displayfd``: Xvfb picks a free number and
    writes it once it is ready, so nothing waits on a timer)."""
    assert shutil.which("Xvfb"), "Xvfb is missing: run ./run setup"
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        number = server.stdout.readline().strip()
        assert number.isdigit() and server.poll() is None, "Xvfb did not start"
        yield {**os.environ, "DISPLAY": f":{number}"}
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture
def desktop(xvfb: dict[str, str]) -> Iterator[dict[str, str]]:
    """Xvfb plus openbox: a display with a real window manager (and xdotool to drive it)."""
    for tool in ("openbox", "xdotool"):
        assert shutil.which(tool), f"{tool} is missing: run ./run setup"
    wm = subprocess.Popen(["openbox", "--sm-disable"], env=xvfb, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_window_manager(xvfb, wm)
        yield xvfb
    finally:
        wm.terminate()
        wm.wait(10)


def _wait_for_window_manager(env: dict[str, str], wm: subprocess.Popen[bytes]) -> None:
    """Until openbox manages the display: it then answers EWMH questions (``xdotool
    get_num_desktops`` fails before). A test that moved or resized its window before that got
    no window manager's answer on a slow machine. The deadline only catches a hang."""
    deadline = time.monotonic() + 120
    while True:
        assert wm.poll() is None, "openbox exited"
        asked = subprocess.run(["xdotool", "get_num_desktops"], env=env, capture_output=True, check=False)
        if asked.returncode == 0:
            return
        assert time.monotonic() < deadline, "openbox did not take over the display"
        time.sleep(0.05)  # a poll of a condition, not a wait for time to pass
