"""Tab hides the HUD for watching: nothing of it is drawn or clickable, the board is framed in the
whole window (as an export's ``--no-hud``), and the help overlay (F1), the one text still drawn,
says the HUD is hidden and how to get it back. The app without GL, then a headless window (EGL)."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from pyglet.window import key, mouse  # noqa: E402

from engine.replay import Replay  # noqa: E402
from viewer3d import cards, controls  # noqa: E402
from viewer3d.app import ViewerApp  # noqa: E402
from viewer3d.hud import HELP_LINES, TimelineBar, game_help_lines  # noqa: E402
from viewer3d.sources import timeline_from_replay  # noqa: E402
from viewer3d.window import ViewerWindow  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SIZE = (640, 480)


def board_box(app: ViewerApp) -> tuple[float, float, float, float]:
    """The board's outline on screen (left, top, right, bottom), the camera settled."""
    for _ in range(240):
        app.update(1 / 120)
    width, height = app.camera.board_size
    points = [app.camera.project((x, 0.0, z)) for x in (0, width) for z in (0, height)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def test_tab_frames_the_board_in_the_whole_window_and_back(replay: Replay) -> None:
    app = ViewerApp(replay.board, timeline_from_replay(replay), "chop", SIZE)
    app.key("T")  # top view: the board's square as tall as the room the HUD leaves
    shown = board_box(app)
    assert app.camera.insets[0] > 0 and app.camera.insets[2] > 0
    assert app.key("TAB") and not app.show_hud
    assert app.camera.insets == (0.0, 0.0, 0.0, 0.0)
    hidden = board_box(app)
    assert hidden[3] - hidden[1] > 1.2 * (shown[3] - shown[1])  # bigger: the strips are the board's now
    assert hidden[1] < shown[1] and hidden[3] > shown[3]
    assert hidden[3] - hidden[1] > 0.9 * SIZE[1]
    app.key("_2")  # another view while hidden keeps the whole window
    assert app.camera.insets == (0.0, 0.0, 0.0, 0.0)
    app.key("T")
    app.key("TAB")
    assert app.show_hud and np.allclose(board_box(app), shown)


def test_a_hidden_hud_has_no_buttons_tooltips_or_seek_bar(replay: Replay) -> None:
    app = ViewerApp(replay.board, timeline_from_replay(replay), "chop", SIZE)
    app.key("SPACE")
    play = next(b for b in controls.layout(SIZE, cards.panel_width()) if b.button.name == "play")
    x, y = play.left + play.width / 2, play.top + play.height / 2
    app.mouse_move(x, y)
    assert app.tooltip
    app.key("TAB")
    assert app.tooltip == ""  # the tooltip of a button no longer drawn goes with it
    app.mouse_move(x, y)
    app.mouse_press(x, y, "left")
    app.mouse_release()
    assert not app.player.playing and app.tooltip == ""
    bar = TimelineBar.for_viewport(SIZE)
    app.mouse_press(bar.left + bar.width / 2, bar.top + bar.height / 2, "left")
    app.mouse_release()
    assert app.player.time == 0.0


def test_the_help_lists_tab_and_says_when_the_hud_is_hidden(replay: Replay) -> None:
    app = ViewerApp(replay.board, timeline_from_replay(replay), "chop", SIZE)
    assert dict(app.help_pairs())["Tab"] == dict(HELP_LINES)["Tab"]
    assert "hidden now" not in dict(app.help_pairs())["Tab"]
    app.key("TAB")
    assert "hidden now, Tab shows it" in dict(app.help_pairs())["Tab"]
    assert "Tab" in dict(game_help_lines("round", ""))  # every game has the key: it is the shared app's
    rows = (ROOT / "docs" / "viewer.md").read_text(encoding="utf-8").splitlines()
    assert any(row.startswith("| Tab |") and "HUD" in row for row in rows)  # the docs' key table


def test_the_window_draws_no_hud_but_the_help_when_hidden(replay: Replay, tmp_path: Path) -> None:
    app = ViewerApp(replay.board, timeline_from_replay(replay), "chop", SIZE, screenshot_dir=tmp_path)
    win = ViewerWindow(app, *SIZE, visible=False)
    win._enable_event_queue = False
    try:
        win.dispatch_event("on_key_press", key.SPACE, 0)
        win.dispatch_event("on_key_press", key.G, 0)  # no trail: its green is not the bar's
        app.player.seek(app.timeline.duration / 2)
        bar = TimelineBar.for_viewport(SIZE)
        row = int(bar.top + bar.height / 2)
        played = slice(int(bar.left), int(bar.left + bar.width / 2) - 4)

        def bar_green() -> float:
            win.draw_frame()
            pixels = win.read_pixels().astype(int)[row, played]
            return float((np.abs(pixels - np.array((90, 200, 120))).sum(axis=1) < 40).mean())

        assert bar_green() > 0.8  # the seek bar's played half
        win.dispatch_event("on_key_press", key.TAB, 0)
        assert bar_green() < 0.05
        win.dispatch_event("on_mouse_press", SIZE[0] / 2, 12, mouse.LEFT, 0)  # where the bar was: no seek
        win.dispatch_event("on_mouse_release", SIZE[0] / 2, 12, mouse.LEFT, 0)
        assert app.player.time == app.timeline.duration / 2
        win.dispatch_event("on_key_press", key.F1, 0)
        win.draw_frame()
        assert win.hud._help_panel.visible and "hidden now, Tab shows it" in win.hud._help_text.text
        panel = win.hud._help_panel  # drawn from the window's top: nothing else is there now
        assert panel.y + panel.height == SIZE[1] - 4
        win.dispatch_event("on_key_press", key.F1, 0)
        win.dispatch_event("on_key_press", key.TAB, 0)
        assert bar_green() > 0.8
    finally:
        win.close()


def test_messages_and_a_typed_round_still_show_with_the_hud_hidden(replay: Replay, tmp_path: Path) -> None:
    """With the HUD hidden, J's round number was typed blind and "screenshot saved" never appeared."""
    app = ViewerApp(replay.board, timeline_from_replay(replay), "chop", SIZE, screenshot_dir=tmp_path)
    win = ViewerWindow(app, *SIZE, visible=False)
    win._enable_event_queue = False
    try:

        def yellow_bottom_left() -> float:
            win.draw_frame()
            pixels = win.read_pixels().astype(int)[SIZE[1] - 60 :, :300]
            return float((np.abs(pixels - np.array((255, 235, 140))).sum(axis=2) < 60).mean())

        win.dispatch_event("on_key_press", key.TAB, 0)
        assert yellow_bottom_left() == 0.0
        win.dispatch_event("on_key_press", key.J, 0)
        win.dispatch_event("on_key_press", key._4, 0)
        assert yellow_bottom_left() > 0.002
        assert win.hud._note.text == "jump to round: 4_"
        win.dispatch_event("on_key_press", key.ESCAPE, 0)
        assert yellow_bottom_left() == 0.0
        win.dispatch_event("on_key_press", key.S, 0)
        win.dispatch_event("on_draw")  # the screenshot is taken from a drawn frame
        assert app.message.startswith("screenshot saved")
        assert yellow_bottom_left() > 0.002  # the next frame says so
        assert win.hud._note.text == app.message
    finally:
        win.close()


def test_a_mouse_only_user_hides_the_hud_and_gets_it_back(replay: Replay) -> None:
    """Tab hid the HUD, but a mouse had no way to hide it nor, once hidden, to get it back."""
    app = ViewerApp(replay.board, timeline_from_replay(replay), "chop", SIZE)
    hide = next(b for b in controls.layout(SIZE, cards.panel_width()) if b.button.name == "hud")
    app.mouse_move(hide.left + 2, hide.top + 2)
    assert "hide the HUD" in app.tooltip
    app.mouse_press(hide.left + 2, hide.top + 2, "left")
    app.mouse_release()
    assert not app.show_hud
    corner = controls.corner_box(SIZE)
    app.mouse_move(corner.left + 2, corner.top + 2)
    assert app.mouse_in and app.tooltip == "show the HUD again (Tab)"
    app.mouse_press(corner.left + 2, corner.top + 2, "left")
    app.mouse_release()
    assert app.show_hud
    app.mouse_move(corner.left + 2, corner.top + 2)  # shown: the corner is the board's again
    assert app.hover is None or app.hover.name != "show_hud"


@pytest.mark.parametrize("size", [(640, 480), (800, 600)])
@pytest.mark.parametrize("hud", [True, False])
def test_the_help_fits_small_windows_with_the_hud_shown_or_hidden(
    replay: Replay, tmp_path: Path, size: tuple[int, int], hud: bool
) -> None:
    """At 640x480 the help ran off the window's bottom, over the cards and buttons."""
    width, height = size
    app = ViewerApp(replay.board, timeline_from_replay(replay), "chop.dat test", size, screenshot_dir=tmp_path)
    win = ViewerWindow(app, width, height, visible=False)
    win._enable_event_queue = False
    try:
        win.dispatch_event("on_key_press", key.PAGEDOWN, 0)  # a round under way: its cards are shown
        if not hud:
            win.dispatch_event("on_key_press", key.TAB, 0)
        win.dispatch_event("on_key_press", key.F1, 0)
        win.dispatch_event("on_draw")
        panel = win.hud._help_panel
        if hud:
            buttons = controls.layout(size, app.panel_width)
            floor = max(cards.PANEL_BOTTOM + cards.PANEL_HEIGHT, height - buttons[0].top)
        else:
            floor = height - controls.corner_box(size).top  # clear of the corner button
        assert panel.visible and panel.y >= floor, (panel.y, floor)
        assert panel.x >= 0 and panel.x + panel.width <= width and panel.y + panel.height <= height
    finally:
        win.close()
