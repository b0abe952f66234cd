"""The start screen: a game chosen and started with the mouse alone (a real headless window)."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

import itertools  # noqa: E402
from pathlib import Path  # noqa: E402

from engine.model import Level  # noqa: E402
from gameboards import board_names, board_path  # noqa: E402
from viewer3d.start import Choice, StartScreen, board_thumbnail  # noqa: E402
from viewer3d.start_open import Box  # noqa: E402
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

    def choose(screen: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
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


def test_board_names_and_row_labels_stay_inside_their_boxes(tmp_path: Path) -> None:
    """Names longer than a thumbnail's box (``pusher-works-12x12.dat``) once ran into the next
    box, and "theme, window" into its first button: nothing may be drawn in the gaps."""
    from PIL import Image

    names = [*board_names(), "a-board-with-a-really-long-name-for-its-box-16x10.dat"]
    screen = StartScreen(names, ["default"])
    window = StartWindow(screen, *SIZE, visible=False)
    try:
        window.save_screenshot(tmp_path / "start.png")
    finally:
        window.close()
    image = Image.open(tmp_path / "start.png").convert("RGB")
    height = image.height
    boxes = screen.layout(SIZE)
    background = image.getpixel((2, height - 2))
    boards = [b for b in boxes if b.action.startswith("board:")]
    by_row: dict[float, list[Box]] = {}
    for box in boards:
        by_row.setdefault(box.top, []).append(box)
    gaps = 0
    for row in by_row.values():
        row.sort(key=lambda b: b.left)
        for left_box, right_box in itertools.pairwise(row):
            bottom = int(left_box.top + left_box.height)
            for x in range(int(left_box.left + left_box.width) + 1, int(right_box.left)):
                for y in range(bottom - 22, bottom):  # the name's line, at the box's foot
                    assert image.getpixel((x, y)) == background, (left_box.action, x, y)
                    gaps += 1
    assert gaps > 0
    first_button = min((b for b in boxes if b.action == "theme"), key=lambda b: b.left)
    for x in range(int(first_button.left) - 6, int(first_button.left)):  # the label column ends before it
        for y in range(int(first_button.top), int(first_button.top + first_button.height)):
            assert image.getpixel((x, y)) == background, (x, y)


def test_a_cut_label_keeps_what_matters_and_fits() -> None:
    from pathui.elide import elide_middle
    from viewer3d.start_window import _label

    name = "a-board-with-a-really-long-name-for-its-box-16x10.dat"
    label = _label(name, 0, 0, 9, None, 112, elide_middle)
    assert label.content_width <= 112 and "…" in label.text
    head, tail = label.text.split("…")
    assert name.startswith(head) and name.endswith(tail) and tail.endswith(".dat")
    short = _label("chop.dat", 0, 0, 9, None, 112, elide_middle)
    assert short.text == "chop.dat"


def test_a_board_tooltip_names_the_whole_file() -> None:
    screen = StartScreen(board_names(), ["default"])
    box = next(b for b in screen.layout(SIZE) if b.action == "board:pusher-works-12x12.dat")
    assert screen.tooltip(box) == "pusher-works-12x12.dat: play a new game on this board"


def test_an_idle_start_screen_draws_nothing(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The start screen ran pyglet's event loop with its default 60 Hz redraw: an idle start screen
    rebuilt every label 60 times a second, a whole core. It now draws a frame after an event only."""
    import time

    from viewer3d import start_window

    screen = StartScreen(board_names(), ["default"])
    window = StartWindow(screen, *SIZE, visible=False)
    window._enable_event_queue = False  # as pyglet's event loop does
    try:

        def tick_until_drawn(more_than: int) -> None:
            """Tick the clock until a frame is drawn (a frame is due at the next tick; the deadline
            is only a guard against hanging, never what the test waits for)."""
            deadline = time.monotonic() + 60
            while window.frames_drawn <= more_than and time.monotonic() < deadline:
                pyglet.clock.tick()

        tick_until_drawn(0)
        first = window.frames_drawn
        assert first >= 1  # the first picture
        for _ in range(20):  # a second or more passes (more on a loaded machine): a 60 Hz redraw would show
            time.sleep(0.05)
            pyglet.clock.tick()
        assert window.frames_drawn == first  # nothing happened: nothing drawn
        window.dispatch_event("on_mouse_motion", 100, 100, 1, 1)
        window.dispatch_event("on_mouse_motion", 101, 100, 1, 0)  # together: one frame
        tick_until_drawn(first)
        for _ in range(5):
            pyglet.clock.tick()
        assert window.frames_drawn == first + 1
    finally:
        window.close()
    runs: list[object] = []
    monkeypatch.setattr(pyglet.app, "run", lambda *args, **kwargs: runs.append(args[0] if args else "default"))
    monkeypatch.setattr(start_window, "StartWindow", lambda screen: None)
    start_window.run_start_screen(StartScreen(board_names(), ["default"]))
    assert runs == [None]  # no redraw timer
