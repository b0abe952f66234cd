"""Shared fixtures of the editor tests: a virtual X display, with or without a window manager."""

from __future__ import annotations

import os
import shutil
import subprocess
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
        yield xvfb
    finally:
        wm.terminate()
        wm.wait(10)
