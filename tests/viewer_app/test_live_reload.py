"""Live reload in a real (headless) viewer window: a PNG changed while the viewer runs shows in
its next screenshot; a picture that breaks keeps its last good version and the HUD says why."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

import shutil  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from engine.replay import Replay  # noqa: E402
from themes import clear_cache, load_theme  # noqa: E402
from themes.loader import BUILTIN_DIR  # noqa: E402
from viewer3d.app import ViewerApp  # noqa: E402
from viewer3d.sources import timeline_from_replay  # noqa: E402
from viewer3d.window import THEME_POLL, ViewerWindow  # noqa: E402

WIDTH, HEIGHT = 640, 480  # wide enough for one row of buttons: the floor stays in view
PINK = (255, 60, 200)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    clear_cache()
    target = tmp_path / "live"
    shutil.copytree(BUILTIN_DIR / "default", target)
    return target


@pytest.fixture
def window(replay: Replay, folder: Path, tmp_path: Path) -> Iterator[ViewerWindow]:
    app = ViewerApp(replay.board, timeline_from_replay(replay), "live", (WIDTH, HEIGHT), screenshot_dir=tmp_path)
    app.player.playing = False
    win = ViewerWindow(app, WIDTH, HEIGHT, theme=load_theme(folder), visible=False)
    win._enable_event_queue = False
    yield win
    win.close()


def wait_for_reload(win: ViewerWindow, before: int) -> None:
    """Run the window's clock until it has applied a reload (the event), at most a long while."""
    give_up = time.monotonic() + 30.0
    while win.theme_reloads == before:
        assert time.monotonic() < give_up, "the change was never picked up"
        pyglet.clock.tick()
        win._tick(1 / 120)


def pinkness(win: ViewerWindow) -> int:
    pixels = win.read_pixels().astype(int)
    return int((np.abs(pixels - np.array(PINK) * 0.97).sum(axis=2) < 30).sum())


def test_a_changed_png_shows_in_the_next_screenshot(window: ViewerWindow, folder: Path) -> None:
    assert THEME_POLL <= 0.25  # a change is seen within a quarter second of the next tick
    window.dispatch_event("on_draw")
    assert pinkness(window) == 0
    before = window.theme_reloads
    Image.new("RGB", (64, 64), PINK).save(folder / "floor.png")
    wait_for_reload(window, before)
    assert window.app.message == "theme reloaded"
    window.app.screenshot_requested = True  # what F12 does: the next frame is saved
    window.dispatch_event("on_draw")
    assert window.last_screenshot is not None
    with Image.open(window.last_screenshot) as shot:
        pixels = np.asarray(shot.convert("RGB"), dtype=int)
    assert int((np.abs(pixels - np.array(PINK) * 0.97).sum(axis=2) < 30).sum()) > 2000
    assert window.frames_drawn >= 2


def test_a_picture_that_breaks_keeps_the_last_good_one_and_says_why(window: ViewerWindow, folder: Path) -> None:
    before = window.theme_reloads
    Image.new("RGB", (64, 64), PINK).save(folder / "floor.png")
    wait_for_reload(window, before)
    (folder / "floor.png").write_bytes(b"\x89PNG\r\n\x1a\n half")
    wait_for_reload(window, before + 1)
    window.dispatch_event("on_draw")
    assert pinkness(window) > 2000  # still the last good floor
    assert window.app.message.startswith("theme default: floor.png: keeping the last good picture")


def test_a_long_hud_message_wraps_inside_the_window(window: ViewerWindow) -> None:
    window.app.say("theme x: " + "a long warning about a picture of the theme " * 4 + "THE END")
    window.dispatch_event("on_draw")
    label = window.hud._message
    assert label.multiline and label.content_width <= WIDTH - 32 and label.content_height > 20
