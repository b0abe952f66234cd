"""The window's and the offscreen renderer's OpenGL context: 4.3 where the driver has it (one-call
culled box draws), 3.3 where it has not, and the boxes culled either way."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

from engine.replay import Replay  # noqa: E402
from viewer3d import window as window_module  # noqa: E402
from viewer3d.app import ViewerApp  # noqa: E402
from viewer3d.render import offscreen  # noqa: E402
from viewer3d.sources import timeline_from_replay  # noqa: E402
from viewer3d.window import ViewerWindow  # noqa: E402

UNKNOWN_VERSION = 990  # no driver has OpenGL 9.9: asking for it fails as 4.3 fails on an old driver


@pytest.fixture
def open_window(replay: Replay) -> Iterator[list[ViewerWindow]]:
    opened: list[ViewerWindow] = []
    yield opened
    for win in opened:
        win.close()


def make_window(replay: Replay, opened: list[ViewerWindow]) -> ViewerWindow:
    app = ViewerApp(replay.board, timeline_from_replay(replay), "context test", (320, 240))
    win = ViewerWindow(app, 320, 240, visible=False)
    opened.append(win)
    return win


def test_window_gets_opengl_43_and_draws_by_indirect_commands(replay: Replay, open_window) -> None:
    win = make_window(replay, open_window)
    assert win.ctx.version_code >= 430
    assert win.scene.indirect


def test_window_falls_back_to_33_when_the_driver_refuses_the_newer_version(
    replay: Replay, open_window, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(window_module, "GL_VERSIONS", (UNKNOWN_VERSION, 330))
    win = make_window(replay, open_window)  # the 9.9 context fails for real in the driver
    assert win.ctx.version_code >= 330
    assert (win.config.major_version, win.config.minor_version) == (3, 3)


def test_window_reports_the_driver_refusal_when_nothing_works(
    replay: Replay, open_window, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(window_module, "GL_VERSIONS", (UNKNOWN_VERSION,))
    with pytest.raises(pyglet.gl.ContextException):
        make_window(replay, open_window)


def test_headless_context_asks_for_43_first_then_33(monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = offscreen.create_headless_context()
    try:
        assert ctx.version_code >= 430
    finally:
        ctx.release()
    monkeypatch.setattr(offscreen, "GL_VERSIONS", (UNKNOWN_VERSION, 330))
    ctx = offscreen.create_headless_context()
    try:
        assert ctx.version_code >= 330
    finally:
        ctx.release()
    monkeypatch.setattr(offscreen, "GL_VERSIONS", (UNKNOWN_VERSION,))
    with pytest.raises(offscreen.HeadlessContextError, match="cannot create an offscreen OpenGL context"):
        offscreen.create_headless_context()
