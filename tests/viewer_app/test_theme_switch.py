"""F2 cycles the viewer's theme: app logic (no GL) and a real headless pyglet window whose pixels change."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from pyglet.window import key  # noqa: E402

from engine.replay import Replay  # noqa: E402
from themes import ThemeError, list_themes, load_theme  # noqa: E402
from viewer3d import coords  # noqa: E402
from viewer3d.app import ViewerApp  # noqa: E402
from viewer3d.hud import help_lines  # noqa: E402
from viewer3d.sources import timeline_from_replay  # noqa: E402
from viewer3d.window import ViewerWindow  # noqa: E402

WIDTH, HEIGHT = 480, 360


def make_app(replay: Replay, **kwargs: object) -> ViewerApp:
    return ViewerApp(replay.board, timeline_from_replay(replay), "theme test", (WIDTH, HEIGHT), **kwargs)  # type: ignore[arg-type]


def test_f2_cycles_through_every_discovered_theme_and_wraps(replay: Replay) -> None:
    keys = list(dict.fromkeys(info.key for info in list_themes()))
    assert {"default", "pen"} <= set(keys)
    app = make_app(replay)
    assert app.theme == "default" and app.theme_keys == keys
    start = keys.index("default")
    seen = []
    for step in range(1, len(keys) + 1):
        assert app.key("F2")
        expected = keys[(start + step) % len(keys)]
        assert app.theme == expected and app.message == f"theme: {expected}"
        pending = app.take_pending_theme()
        assert pending is load_theme(expected)
        assert app.take_pending_theme() is None  # taken once
        seen.append(app.theme)
    assert seen[-1] == "default" and sorted(seen) == sorted(keys)  # a full cycle, back at the start


def test_starts_with_the_cli_theme(replay: Replay) -> None:
    app = make_app(replay, theme="pen", theme_keys=["default", "pen", "x"], theme_loader=lambda k: k)
    app.key("F2")
    assert app.theme == "x"
    app.key("F2")
    assert app.theme == "default"


def test_a_damaged_theme_is_used_and_its_problems_said_in_one_line(replay: Replay, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "floor.png").write_bytes(b"not a png")

    def loader(name: str) -> object:
        return load_theme(broken if name == "broken" else name)

    app = make_app(replay, theme_keys=["default", "broken", "pen"], theme_loader=loader)
    app.key("F2")
    assert app.theme == "broken" and app.take_pending_theme() is load_theme(broken)
    assert app.message.startswith("theme broken: floor.png: not a readable PNG") and "\n" not in app.message
    assert app.message.endswith("(+1 more)")  # and the line about pictures taken from default
    app.key("F2")
    assert app.theme == "pen" and app.message == "theme: pen" and app.take_pending_theme() is load_theme("pen")


def test_an_unreadable_theme_is_reported_in_one_line_and_the_current_theme_stays(
    replay: Replay, tmp_path: Path
) -> None:
    def loader(name: str) -> object:
        return load_theme(tmp_path / "gone" if name == "gone" else name)

    app = make_app(replay, theme_keys=["default", "gone", "pen"], theme_loader=loader)
    with pytest.raises(ThemeError):
        load_theme(tmp_path / "gone")
    app.key("F2")
    assert app.theme == "default" and app.take_pending_theme() is None
    assert app.message.startswith("theme gone: ") and "does not exist" in app.message
    app.key("F2")  # the next F2 moves past the unreadable theme instead of failing on it forever
    assert app.theme == "pen" and app.message == "theme: pen"


def test_a_loader_that_raises_anything_never_crashes(replay: Replay) -> None:
    def loader(name: str) -> object:
        raise OSError(f"disk gone reading {name}")

    app = make_app(replay, theme_keys=["default", "pen"], theme_loader=loader)
    app.key("F2")
    assert app.theme == "default" and app.message == "theme pen: disk gone reading pen"


def test_no_themes_found(replay: Replay) -> None:
    app = make_app(replay, theme_keys=[])
    app.key("F2")
    assert app.theme == "default" and app.message == "no themes found"


def test_f2_is_in_the_help() -> None:
    assert any(line.startswith("F2 ") and "theme" in line for line in help_lines())


@pytest.fixture
def window(replay: Replay, tmp_path: Path) -> Iterator[ViewerWindow]:
    app = make_app(replay, screenshot_dir=tmp_path)
    app.player.toggle_play()  # a still frame: only the theme changes between the two reads
    win = ViewerWindow(app, WIDTH, HEIGHT, visible=False)
    win._enable_event_queue = False
    yield win
    win.close()


def test_pressing_f2_in_the_window_changes_the_rendered_board(window: ViewerWindow) -> None:
    app, camera, board = window.app, window.app.camera, window.app.board
    window.draw_frame()
    before = window.read_pixels().astype(int)
    window.dispatch_event("on_key_press", key.F2, 0)
    assert app.theme == "pen" and app.pending_theme is not None
    window.draw_frame()
    assert app.pending_theme is None  # applied by the window before this draw
    after = window.read_pixels().astype(int)
    # Compare the board only (the HUD message changes too): every tile centre's neighbourhood.
    changed = 0
    for y in range(board.height):
        for x in range(board.width):
            px, py, _ = camera.project(coords.tile_center(x, y))
            if py < 80:  # the HUD's top lines
                continue
            patch = (slice(int(py) - 3, int(py) + 4), slice(int(px) - 3, int(px) + 4))
            changed += np.abs(after[patch] - before[patch]).sum() > 7 * 7 * 3 * 8
    assert changed > board.width * board.height // 2, f"only {changed} tiles look different"
    # Back to the default theme: the same image as at first.
    while app.theme != "default":
        window.dispatch_event("on_key_press", key.F2, 0)
        window.draw_frame()
    app.message = ""  # the HUD's 'theme: default' line sits above the cards, over the board's rows
    window.draw_frame()
    again = window.read_pixels().astype(int)
    board_rows = slice(80, HEIGHT - 40)
    assert np.abs(again[board_rows] - before[board_rows]).mean() < 1.0
