"""``python -m viewer3d`` under the test desktop (Xvfb + openbox), driven with xdotool: how every
viewer window test starts the viewer, gives up on a hang with the viewer's stderr in the failure,
and checks it ended cleanly (so the give-up path is written once)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Bound on any one wait: only a hang reaches it (every wait is on an event).
WAIT = 120.0


def xdo(env: dict[str, str], *args: str) -> str:
    return subprocess.run(["xdotool", *args], env=env, check=True, timeout=WAIT, capture_output=True, text=True).stdout


def close_window(env: dict[str, str], window: str) -> None:
    """Ask the window manager to close ``window``, as its title bar's close button does
    (``_NET_CLOSE_WINDOW``; openbox then sends the client WM_DELETE_WINDOW).

    Not alt+F4: an XTEST alt+F4 right after the window got the focus was lost by the window
    manager in about 1 run in 10 (a second one closed the window), while this request is queued
    and handled in order.
    """
    import ctypes

    from pyglet.libs.x11 import xlib

    display = xlib.XOpenDisplay(env["DISPLAY"].encode())
    assert display, f"cannot open display {env['DISPLAY']}"
    try:
        event = xlib.XEvent()
        message = event.xclient
        message.type = xlib.ClientMessage
        message.window = int(window)
        message.message_type = xlib.XInternAtom(display, b"_NET_CLOSE_WINDOW", False)
        message.format = 32
        message.data.l[0] = 0  # CurrentTime
        message.data.l[1] = 2  # the request comes from a pager or a user tool
        mask = xlib.SubstructureRedirectMask | xlib.SubstructureNotifyMask
        sent = xlib.XSendEvent(display, xlib.XDefaultRootWindow(display), False, mask, ctypes.byref(event))
        assert sent, "XSendEvent failed"
        xlib.XFlush(display)
    finally:
        xlib.XCloseDisplay(display)


def viewer_env(desktop: dict[str, str], state: Path) -> dict[str, str]:
    """The desktop's environment with the viewer's state (recent lists, games) in ``state``."""
    env = {**desktop, "XDG_STATE_HOME": str(state), "PYTHONPATH": str(ROOT)}
    env.pop("WAYLAND_DISPLAY", None)
    return env


@contextmanager
def running_viewer(args: Sequence[str], env: dict[str, str], cwd: Path) -> Iterator[subprocess.Popen[str]]:
    """The viewer process for the ``with`` body; a timeout, failed xdotool call or assertion in it
    fails the test with the viewer's stderr, and the process never outlives the test."""
    viewer = subprocess.Popen(
        [sys.executable, "-m", "viewer3d", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        yield viewer
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError, AssertionError) as exc:
        viewer.kill()
        try:
            err = viewer.communicate(timeout=10)[1]
        except ValueError:  # its output was read already
            err = ""
        pytest.fail(f"robots-view did not get there ({exc}): {err[-3000:]}")
    finally:
        if viewer.poll() is None:
            viewer.kill()
            viewer.wait(10)


def ended(viewer: subprocess.Popen[str], timeout: float = WAIT) -> str:
    """Wait for the viewer to exit (inside the ``with``); its stderr."""
    return viewer.communicate(timeout=timeout)[1]


def assert_clean_exit(viewer: subprocess.Popen[str], err: str) -> None:
    assert viewer.returncode == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
