"""The start screen: a game chosen and started with the mouse alone (a real headless window)."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

from pathlib import Path  # noqa: E402

from engine.model import Level  # noqa: E402
from gameboards import board_names, board_path  # noqa: E402
from viewer3d.start import Choice, StartScreen, board_thumbnail  # noqa: E402
from viewer3d.start_window import StartWindow  # noqa: E402

SIZE = (1024, 768)


def click(window: StartWindow, action: str) -> None:
    box = next(b for b in window.start.layout(window.get_framebuffer_size()) if b.action == action)
    x, y = box.left + box.width / 2, box.top + box.height / 2
    window.dispatch_event("on_mouse_press", x, window.get_framebuffer_size()[1] - y, pyglet.window.mouse.LEFT, 0)


def test_choose_and_start_a_game_with_the_mouse() -> None:
    screen = StartScreen(board_names(), ["default", "pen"])
    window = StartWindow(screen, *SIZE, visible=False)
    window._enable_event_queue = False
    try:
        window.dispatch_event("on_draw")  # draws boards with thumbnails and the options
        click(window, "board:wall-garden-12x12.dat")
        click(window, "ai:reference")
        click(window, "level:easy")
        click(window, "seed:+1")
        click(window, "seed:+1")
        click(window, "theme")
        assert screen.chosen is None
        click(window, "start")
    finally:
        window.close()
    assert screen.chosen == Choice("wall-garden-12x12.dat", "reference", Level.EASY, 3, "pen", False)


def test_the_chosen_game_plays() -> None:
    from viewer3d.sources import from_ai, wait_complete

    source = from_ai(board_path("crossing-5x3.dat"), "reference", Level.NORMAL, seed=2)
    wait_complete(source)
    assert source.timeline.complete and source.board.width == 5


def test_thumbnails_show_the_board() -> None:
    from engine.boardfile import load_board

    picture = board_thumbnail(load_board(board_path("chop.dat")))
    assert picture.shape[2] == 3 and 60 <= picture.shape[0] <= 72
    assert len({tuple(p) for p in picture.reshape(-1, 3)}) >= 5  # floor, walls, belts, holes, goal


def test_o_and_a_dropped_file_close_the_game_for_what_comes_next(tmp_path) -> None:
    """O (or the Open button) asks for the start screen, a dropped game folder or board file for
    that file: the window closes and robots-view's CLI opens it (viewer3d.cli.reopen)."""
    from engine.boardfile import load_board
    from viewer3d import cards, controls
    from viewer3d.app import ViewerApp
    from viewer3d.playback import Timeline

    board = load_board(board_path("chop.dat"))
    app = ViewerApp(board, Timeline(board.start, (12, 12)), "t", SIZE)
    box = next(b for b in controls.layout(SIZE, cards.panel_width()) if b.button.name == "open")
    app.mouse_press(box.left + 2, box.top + 2, "left")
    assert app.reopen == "start" and app.quit_requested
    other = ViewerApp(board, Timeline(board.start, (12, 12)), "t", SIZE)
    other.drop(str(board_path("tiny-2x1.dat")))
    assert other.reopen == str(board_path("tiny-2x1.dat")) and other.quit_requested


def test_a_file_dropped_on_the_start_screen_is_opened() -> None:
    screen = StartScreen(board_names())
    window = StartWindow(screen, *SIZE, visible=False)
    window._enable_event_queue = False
    try:
        window.dispatch_event("on_file_drop", 10, 10, [str(board_path("chop.dat"))])
    finally:
        window.close()
    assert screen.dropped == str(board_path("chop.dat")) and screen.chosen is None


def test_the_start_screens_choice_becomes_the_command_line(monkeypatch) -> None:
    """What Start chose reaches robots-view's arguments: board, AI, level, seed, theme, fullscreen."""
    import viewer3d.start_window
    from viewer3d.cli import build_parser, start_screen

    def choose(screen: StartScreen, screenshot: object = None) -> StartScreen:
        for action in ("board:tiny-2x1.dat", "level:normal", "window", "start"):
            box = next(b for b in screen.layout(SIZE) if b.action == action)
            screen.click(SIZE, box.left + 1, box.top + 1)
        return screen

    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", choose)
    args = build_parser().parse_args([])
    assert start_screen(args)
    assert Path(args.board).name == "tiny-2x1.dat" and args.ai == "reference" and args.level == "normal"
    assert args.seed == 1 and args.fullscreen


def test_a_live_game_shows_its_progress_in_rounds() -> None:
    from viewer3d.hud import status_lines
    from viewer3d.playback import Player
    from viewer3d.sources import from_ai, wait_complete

    source = from_ai(board_path("chop.dat"), "reference", Level.NORMAL, seed=16)
    wait_complete(source)
    timeline = source.timeline
    timeline.complete = False  # as while the game is still computed
    line = next(line for line in status_lines(Player(timeline)) if line.startswith("computing"))
    assert line == f"computing... {max(timeline.round_starts)} rounds, {len(timeline.steps)} cards so far"
