"""A real pyglet window (headless, EGL) driven by injected key and mouse events, rendering for real."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

from collections.abc import Iterator  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402
from pyglet.window import key, mouse  # noqa: E402

from engine.replay import Replay  # noqa: E402
from viewer3d import coords  # noqa: E402
from viewer3d.app import ViewerApp  # noqa: E402
from viewer3d.camera import ISO_YAWS  # noqa: E402
from viewer3d.hud import TimelineBar  # noqa: E402
from viewer3d.render.state import FrameState  # noqa: E402
from viewer3d.sources import timeline_from_replay  # noqa: E402
from viewer3d.window import ViewerWindow  # noqa: E402

WIDTH, HEIGHT = 640, 480


@pytest.fixture
def window(replay: Replay, tmp_path: Path) -> Iterator[ViewerWindow]:
    app = ViewerApp(
        replay.board, timeline_from_replay(replay), "chop.dat test", (WIDTH, HEIGHT), screenshot_dir=tmp_path
    )
    win = ViewerWindow(app, WIDTH, HEIGHT, visible=False)
    # pyglet's event loop does this on start: dispatch events at once instead of queueing them.
    win._enable_event_queue = False
    yield win
    win.close()


def press(win: ViewerWindow, symbol: int, modifiers: int = 0) -> None:
    win.dispatch_event("on_key_press", symbol, modifiers)


def settle(win: ViewerWindow, seconds: float = 2.0) -> None:
    win.app.update(seconds)


def test_keys_drive_playback(window: ViewerWindow) -> None:
    player = window.app.player
    assert player.playing
    press(window, key.SPACE)
    assert not player.playing
    press(window, key.PLUS)
    assert player.speed == 2.0
    press(window, key.NUM_ADD)
    assert player.speed == 4.0
    press(window, key.MINUS)
    press(window, key.NUM_SUBTRACT)
    press(window, key.MINUS)
    assert player.speed == 0.5
    press(window, key.RIGHT)
    press(window, key.RIGHT)
    assert player.time == player.timeline.card_ends[1]
    press(window, key.LEFT)
    assert player.time == player.timeline.card_ends[0]
    press(window, key.PAGEDOWN)
    assert player.current_round() == 2
    for symbol in (key.J, key._4, key.ENTER):
        press(window, symbol)
    assert player.current_round() == 4 and window.app.round_entry is None
    press(window, key.L)
    assert player.loop
    press(window, key.R)
    assert player.time == 0.0 and player.playing
    press(window, key.G)
    assert window.app.frame().trail is None
    press(window, key.H)
    assert window.app.show_help


def test_iso_keys_drag_and_wheel_drive_the_camera(window: ViewerWindow) -> None:
    camera = window.app.camera
    for number, symbol in enumerate((key._1, key._2, key._3, key._4), start=1):
        press(window, symbol)
        settle(window)
        assert camera.pose.yaw == ISO_YAWS[number - 1] and camera.pose.orthographic
    press(window, key.P)
    assert not camera.pose.orthographic
    press(window, key.T)
    settle(window)
    assert camera.pose.pitch == 90.0
    press(window, key._1)
    settle(window)
    # Left drag orbits.
    yaw = camera.pose.yaw
    window.dispatch_event("on_mouse_press", 300, 300, mouse.LEFT, 0)
    window.dispatch_event("on_mouse_drag", 320, 300, 20, 0, mouse.LEFT, 0)
    window.dispatch_event("on_mouse_release", 320, 300, mouse.LEFT, 0)
    assert camera.pose.yaw == pytest.approx((yaw - 8.0) % 360)
    # The wheel zooms towards the cursor: the floor point under it stays put.
    x, y = 250, 300
    screen = (x, coords.from_pyglet_y(y, HEIGHT))
    before = camera.pick_floor(*screen)
    distance = camera.pose.distance
    window.dispatch_event("on_mouse_scroll", x, y, 0, 2)
    assert camera.pose.distance < distance
    after = camera.pick_floor(*screen)
    assert before is not None and after is not None
    assert after == (pytest.approx(before[0], abs=1e-6), pytest.approx(before[1], abs=1e-6))
    # Right drag pans.
    target = camera.pose.target
    window.dispatch_event("on_mouse_drag", 300, 300, 15, 5, mouse.RIGHT, 0)
    assert camera.pose.target != target
    press(window, key.F)
    assert camera.following


def test_timeline_bar_seeks(window: ViewerWindow) -> None:
    bar = TimelineBar.for_viewport((WIDTH, HEIGHT))
    middle_y = HEIGHT - (bar.top + bar.height / 2)  # pyglet y from the bottom
    window.dispatch_event("on_mouse_press", bar.left + bar.width / 2, middle_y, mouse.LEFT, 0)
    player = window.app.player
    assert player.time == pytest.approx(player.timeline.duration / 2)
    window.dispatch_event("on_mouse_drag", bar.left + bar.width, middle_y, 100, 0, mouse.LEFT, 0)
    assert player.time == pytest.approx(player.timeline.duration)


def test_renders_the_board_and_hud_and_saves_a_screenshot(window: ViewerWindow, tmp_path: Path) -> None:
    window.draw_frame()
    pixels = window.read_pixels().astype(int)
    assert pixels.shape == (HEIGHT, WIDTH, 3)
    camera = window.app.camera
    board = window.app.board
    # The background is a vertical gradient: each row's own background is its pixel at x = 2.
    differs = np.abs(pixels - pixels[:, 2:3, :]).sum(axis=2) > 30
    # The board centre and every tile centre of the middle row are drawn (not background).
    for x in range(board.width):
        px, py, _ = camera.project(coords.tile_center(x, board.height // 2))
        assert differs[int(py), int(px)], f"tile ({x}, {board.height // 2}) not drawn"
    # The board covers a good part of the image, not all of it.
    assert 0.25 < differs.mean() < 0.95
    # The HUD text is drawn in the top-left corner: bright pixels there.
    assert (pixels[5:60, 10:200].max(axis=2) > 200).any()
    press(window, key.S)
    window.dispatch_event("on_draw")
    shot = window.last_screenshot
    assert shot is not None and shot.parent == tmp_path and shot.exists()
    with Image.open(shot) as image:
        assert image.size == (WIDTH, HEIGHT)
        saved = np.asarray(image.convert("RGB")).astype(int)
    assert np.abs(saved - pixels).mean() < 8  # the same picture (only the HUD message differs)
    assert "screenshot saved" in window.app.message


def test_a_screenshot_that_cannot_be_written_is_said_not_a_crash(window: ViewerWindow, tmp_path: Path) -> None:
    """S in a folder the picture cannot go to (here a dangling link as the next name; a read-only
    folder or a full disk alike) raised out of on_draw and closed the viewer with a traceback."""
    (tmp_path / "robots-view-001.png").symlink_to(tmp_path / "no-such-folder" / "x.png")
    press(window, key.S)
    window.dispatch_event("on_draw")
    assert window.app.message == "screenshot not saved: robots-view-001.png: No such file or directory"
    assert window.last_screenshot is None and not window.has_exit
    press(window, key.S)  # the viewer goes on, and the next screenshot is taken again
    window.dispatch_event("on_draw")
    assert window.app.message.startswith("screenshot not saved")


def test_robot_drawn_where_the_projection_says(window: ViewerWindow) -> None:
    app = window.app
    app.player.seek(app.timeline.card_ends[3])
    frame = app.frame()
    assert frame.robot is not None
    size = window.get_framebuffer_size()

    def draw(state: FrameState) -> np.ndarray:
        window.switch_to()
        window.ctx.screen.use()
        window.ctx.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)
        window.scene.render(app.camera.matrices(), state, size)
        return window.read_pixels().astype(int)

    with_robot = draw(frame)
    without_robot = draw(replace(frame, robot=None))
    changed = np.abs(with_robot - without_robot).sum(axis=2) > 40
    px, py, _ = app.camera.project(coords.tile_center(frame.robot.bx, frame.robot.by, 0.3))
    assert changed[int(py) - 4 : int(py) + 4, int(px) - 4 : int(px) + 4].mean() > 0.8
    # Nothing changes far from the robot (the robot covers about one tile).
    ys, xs = np.nonzero(changed)
    tile_px = abs(app.camera.project(coords.tile_center(0, 0))[0] - app.camera.project(coords.tile_center(1, 0))[0])
    assert np.hypot(xs - px, ys - py).max() < 3 * tile_px


def test_live_game_is_shown_while_it_is_computed(tmp_path: Path) -> None:
    import threading

    from engine.boardfile import load_board
    from engine.cards import Card
    from engine.deck import generate_deck
    from engine.model import Level
    from gameboards import DEMO_BOARD, board_path
    from viewer3d.hud import status_lines
    from viewer3d.sources import play_live

    gate = threading.Event()

    def slow_ai(board: object, level: object, pose: object, hand: tuple[Card, ...]) -> tuple[Card, ...]:
        gate.wait(30)  # the first round waits until the window has drawn
        return hand[:5]

    source = play_live(load_board(board_path(DEMO_BOARD)), Level.NORMAL, generate_deck(16), slow_ai, "live")
    app = ViewerApp(source.board, source.timeline, "live", (WIDTH, HEIGHT), screenshot_dir=tmp_path)
    win = ViewerWindow(app, WIDTH, HEIGHT, visible=False)
    try:
        win.draw_frame()  # nothing computed yet: the robot waits on its start tile
        assert any("computing" in line for line in status_lines(app.player))
        assert app.frame().robot is not None
        gate.set()
        source.worker.join(60)  # type: ignore[union-attr]
        assert source.timeline.complete
        app.update(1e4)
        win.draw_frame()
        assert app.player.at_end
        assert any(line.startswith("outcome:") for line in status_lines(app.player))
    finally:
        gate.set()
        win.close()


def test_idle_window_does_not_redraw_and_input_wakes_it(window: ViewerWindow) -> None:
    """Paused with nothing moving, ticks draw nothing and the clock drops to a slow poll; a key
    press wakes it and the changed picture is drawn once."""
    app = window.app
    press(window, key.SPACE)  # pause
    for _ in range(200):  # let the camera and the HUD message settle
        window._tick(1 / 60)
    assert not app.busy and window.sleeping
    drawn = window.frames_drawn
    for step in range(100):
        window._tick(0.25)
        assert not window.redraw_if_needed(now=1e6 + step)
    assert window.frames_drawn == drawn
    press(window, key.RIGHT)  # one card forward: the picture changes
    assert not window.sleeping
    assert window.redraw_if_needed(now=2e6)
    assert window.frames_drawn == drawn + 1
    assert not window.redraw_if_needed(now=3e6)  # ... once


def test_playing_window_redraws_at_most_max_fps(window: ViewerWindow) -> None:
    from viewer3d.window import MAX_FPS

    assert window.app.player.playing
    drawn = window.frames_drawn
    for step in range(120):  # one second of 120 Hz ticks
        window.app.update(1 / 120)
        window.redraw_if_needed(now=10.0 + step / 120)
    assert window.frames_drawn - drawn <= MAX_FPS + 1
    assert window.frames_drawn - drawn >= MAX_FPS / 2


def test_cards_and_buttons_are_drawn_and_clickable(window: ViewerWindow) -> None:
    from viewer3d import cards, controls
    from viewer3d.hud_cards import CARD_FACE

    app = window.app
    app.timeline.set_deck(__import__("engine.deck", fromlist=["generate_deck"]).generate_deck(16))
    press(window, key.RIGHT)
    window.draw_frame()
    pixels = window.read_pixels().astype(int)
    hand = cards.round_hand(app.player)
    assert hand is not None and len(hand.cards) == 8
    box = cards.panel_layout(hand, (WIDTH, HEIGHT))[1]  # a played card, not the current one
    face = pixels[int(box.top + box.height - 8), int(box.left + 6)]
    assert np.abs(face - np.array(CARD_FACE[:3]) * 0.78).max() < 40 or np.abs(face - np.array(CARD_FACE[:3])).max() < 40
    play = next(b for b in controls.layout((WIDTH, HEIGHT), cards.panel_width()) if b.button.name == "play")
    x, y = play.left + play.width / 2, HEIGHT - (play.top + play.height / 2)  # pyglet y from the bottom
    window.dispatch_event("on_mouse_press", x, y, mouse.LEFT, 0)
    window.dispatch_event("on_mouse_release", x, y, mouse.LEFT, 0)
    assert app.player.playing  # Right had paused; the button plays again
    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
    assert app.tooltip.startswith("play / pause")


def test_a_window_manager_resizing_the_window_as_it_maps_it_finds_it_built(
    replay: Replay, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """openbox resizes a window while mapping it: on_resize must never see a half-built viewer."""
    shown = pyglet.window.Window.set_visible

    def set_visible_like_a_window_manager(self: pyglet.window.Window, visible: bool = True) -> None:
        shown(self, visible)
        if visible:
            self.on_resize(self.width, self.height)  # as xlib does while mapping, not queued

    monkeypatch.setattr(pyglet.window.Window, "set_visible", set_visible_like_a_window_manager)
    app = ViewerApp(replay.board, timeline_from_replay(replay), "wm", (WIDTH, HEIGHT), screenshot_dir=tmp_path)
    win = ViewerWindow(app, WIDTH, HEIGHT, visible=True)
    try:
        assert app.camera.viewport == win.get_framebuffer_size()
    finally:
        win.close()


@pytest.mark.parametrize("size", [(800, 600), (1024, 700), (1280, 800), (1920, 1080)])
def test_the_help_stays_clear_of_the_cards_and_buttons(replay: Replay, tmp_path: Path, size: tuple[int, int]) -> None:
    """In a 1024x700 window the help's last lines (F2, S/F12, H/F1, O, Esc) lay under the card
    strip and the buttons; it goes beside the status panel where under it does not fit."""
    from viewer3d import cards, controls

    width, height = size
    app = ViewerApp(replay.board, timeline_from_replay(replay), "chop.dat test", size, screenshot_dir=tmp_path)
    win = ViewerWindow(app, width, height, visible=False)
    win._enable_event_queue = False
    try:
        press(win, key.SPACE)
        press(win, key.PAGEDOWN)  # a round under way: its cards are shown
        press(win, key.H)
        win.dispatch_event("on_draw")
        panel = win.hud._help_panel
        buttons = controls.layout((width, height), app.panel_width)
        panel_top = cards.PANEL_BOTTOM + cards.PANEL_HEIGHT if app.panel_width else 0.0
        strip = max(panel_top, height - buttons[0].top)
        assert panel.visible
        assert panel.y >= strip, (panel.y, strip)
        assert panel.x >= 0 and panel.x + panel.width <= width and panel.y + panel.height <= height
    finally:
        win.close()


def test_the_status_panel_never_covers_the_fitted_board(tmp_path: Path) -> None:
    """An analysed game folder in the default 1024x768 window: its status panel has 7 lines (title,
    round, event, speed, count, AI time, best choice), 153 px, but the camera kept only 96 px free,
    so in the top view the board's far row, the robot's start on chop.dat, lay under the panel."""
    from engine.cli import main as engine_main
    from viewer3d.sources import from_game_dir

    game = tmp_path / "g"
    assert engine_main(["play", "chop.dat", "--seed", "1", "--level", "normal", "--out", str(game)]) == 0
    assert engine_main(["analyse", str(game)]) == 0
    source = from_game_dir(game)
    assert source.analysis, "the game has an analysis: the panel's 'best' line"
    size = (1024, 768)
    app = ViewerApp(source.board, source.timeline, source.title, size, screenshot_dir=tmp_path)
    app.rounds, app.analysis = source.rounds, source.analysis  # as the command line does
    win = ViewerWindow(app, *size, visible=False)
    win._enable_event_queue = False
    try:
        win.dispatch_event("on_resize", *size)  # as the window system does when it maps the window
        for symbol in (key.SPACE, key.RIGHT, key._5):  # paused on round 1's first card, top view
            press(win, symbol)
        settle(win)
        win.dispatch_event("on_draw")
        panel = win.hud._status_panel
        assert len(app.status_lines()) >= 7
        panel_bottom = size[1] - panel.y  # pixels from the top
        board_w, board_h = app.board.width, app.board.height
        corners = [(x, 0.0, z) for x in (0.0, float(board_w)) for z in (0.0, float(board_h))]
        board_top = min(app.camera.project(corner)[1] for corner in corners)
        assert board_top >= panel_bottom, (board_top, panel_bottom)
    finally:
        win.close()


def test_a_live_games_first_fit_leaves_room_for_its_seconds_and_time_lines(tmp_path: Path) -> None:
    """Before its first round a live game's panel has 5 lines; once rounds come in, 7 (round,
    event, the AI's seconds, its time): the first fit keeps room for the 7, so the board stays put."""
    import threading

    from engine.boardfile import load_board
    from engine.cards import Card
    from engine.deck import generate_deck
    from engine.model import Level
    from gameboards import DEMO_BOARD, board_path
    from viewer3d.gameapp import hud_insets_for
    from viewer3d.sources import play_live

    gate = threading.Event()

    def slow_ai(board: object, level: object, pose: object, hand: tuple[Card, ...]) -> tuple[Card, ...]:
        gate.wait(30)
        return hand[:5]

    source = play_live(load_board(board_path(DEMO_BOARD)), Level.NORMAL, generate_deck(16), slow_ai, "live")
    try:
        app = ViewerApp(source.board, source.timeline, "live", (1024, 768), screenshot_dir=tmp_path)
        app.rounds, app.live_ai = source.rounds, True
        assert len(app.status_lines()) < 7
        assert app.status_rows() == 7
        app.resize(1024, 768)
        assert app.camera.insets == hud_insets_for((1024, 768), True, 7)
    finally:
        gate.set()
        source.worker.join(60)  # type: ignore[union-attr]
