"""The start screen's Tron tab without GL, and its headless window: choose the game, an arena and
bots, play a live game through the engine's server, open Tron game files and arenas (browser,
recent list, drag-and-drop), and the command line taking what was chosen."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

import os  # noqa: E402
import shutil  # noqa: E402
import stat  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from pyglet.window import key  # noqa: E402

from engine.tron.arena import load_arena  # noqa: E402
from engine.tron.record import load_game  # noqa: E402
from gameboards import board_names, board_path, tron_arena_path  # noqa: E402
from tests.viewer_app.startclicks import click, click_entry  # noqa: E402
from viewer3d.cli import build_parser, choose_on_start_screen, show_other_game, tron_tab  # noqa: E402
from viewer3d.games.tron.live import LiveTronGame  # noqa: E402
from viewer3d.games.tron.thumbnail import BLOCKED, FREE, arena_thumbnail  # noqa: E402
from viewer3d.games.tron.timeline import COLOURS  # noqa: E402
from viewer3d.recent import Recent, RecentGames  # noqa: E402
from viewer3d.start import StartScreen  # noqa: E402
from viewer3d.start_open import Opened  # noqa: E402
from viewer3d.start_tron import TronChoice, TronPanel  # noqa: E402
from viewer3d.start_window import StartWindow  # noqa: E402

SIZE = (1024, 768)
SMALL = "open-10x10.txt"


def screen_with_tron(**kwargs: object) -> StartScreen:
    return StartScreen(board_names(), ["default", "pen"], tron=tron_tab(), **kwargs)  # type: ignore[arg-type]


def press(screen: StartScreen, action: str) -> None:
    box = next(b for b in screen.layout(SIZE) if b.action == action)
    screen.click(SIZE, box.left + box.width / 2, box.top + box.height / 2)


def arena_action(screen: StartScreen, name: str) -> str:
    assert screen.tron is not None
    return f"arena:{next(i for i, a in enumerate(screen.tron.arenas) if a.name == name)}"


def window_for(screen: StartScreen) -> StartWindow:
    window = StartWindow(screen, *SIZE, visible=False)
    window._enable_event_queue = False
    window.dispatch_event("on_draw")
    return window


@pytest.fixture(scope="module")
def tron_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished Tron game file (the simple bot against itself on the 10x10 arena)."""
    live = LiveTronGame(tron_arena_path(SMALL), ["simple", "simple"], tmp_path_factory.mktemp("games")).start()
    assert live.wait(120) and live.path is not None, live.error
    return live.path


def test_tabs_switch_the_game_and_the_robot_tab_is_unchanged() -> None:
    plain = StartScreen(board_names(), ["default", "pen"])
    screen = screen_with_tron()
    robot_boxes = [b for b in screen.layout(SIZE) if not b.action.startswith("game:")]
    assert robot_boxes == plain.layout(SIZE)  # the robot tab lays out exactly as without tabs
    assert not [b for b in plain.layout(SIZE) if b.action.startswith("game:")]  # no tabs without Tron
    press(screen, "game:tron")
    actions = {b.action for b in screen.layout(SIZE)}
    assert screen.on_tron and "bot:1:strong" in actions and "board:chop.dat" not in actions
    press(screen, "game:robots")
    assert not screen.on_tron and "board:chop.dat" in {b.action for b in screen.layout(SIZE)}


def test_choose_an_arena_and_bots_with_the_mouse() -> None:
    played: list[TronChoice] = []

    class Never:
        """A live game that never finishes (nothing is played by this test)."""

        arena_path = Path(SMALL)
        round = 0

        def cancel(self) -> None:
            played.append(TronChoice("cancelled", ()))

    def play(choice: TronChoice) -> Never:
        played.append(choice)
        return Never()

    screen = screen_with_tron(play_tron=play)
    window = window_for(screen)
    try:
        click(window, "game:tron")
        click(window, arena_action(screen, SMALL))
        click(window, "bot:1:random")
        click(window, "bot:2:strong")
        click(window, "bots:+1")  # the arena has two start places: refused, said in a line
        assert screen.tron is not None and "start places for 2 bots" in screen.shown_message()
        click(window, "bots:-1")
        click(window, "bots:+1")
        click(window, "theme")
        assert screen.theme == "pen" and "theme" in screen.tooltip(
            next(b for b in screen.layout(SIZE) if b.action == "theme")
        )
        click(window, "start")
        assert played == [TronChoice(str(tron_arena_path(SMALL)), ("random", "simple"))]
        assert "round 1" in screen.shown_message() and not screen.done
        window.dispatch_event("on_key_press", key.ESCAPE, 0)  # Esc while it plays cancels the game
        assert played[-1].arena == "cancelled"
    finally:
        window.close()


def test_a_live_game_is_played_saved_and_opened(tmp_path: Path) -> None:
    screen = screen_with_tron()
    press(screen, "game:tron")
    press(screen, arena_action(screen, SMALL))
    press(screen, "bot:1:simple")
    press(screen, "bot:2:random")
    press(screen, "start")
    live = screen.live
    assert live is not None and not screen.done
    assert live.wait(120), "the live game did not finish"
    assert screen.poll() and screen.done and screen.opened is not None
    record = load_game(screen.opened.path)  # re-simulated against the rules on reading
    assert [b.name for b in record.bots] == ["simple", "random"] and len(record.rounds) >= 1
    assert Path(screen.opened.path).parent == Path(os.environ["XDG_STATE_HOME"]) / "robots-view" / "tron-games"
    assert screen.played_arena == str(tron_arena_path(SMALL))


def test_a_cancelled_live_game_says_so(tmp_path: Path) -> None:
    live = LiveTronGame(tron_arena_path("open-200x200.txt"), ["simple", "simple"], tmp_path)
    live.cancel()  # before the first round: the server stops after it
    live.start()
    assert live.wait(60) and live.path is None and live.error is not None and "cancelled" in live.error
    assert not list(tmp_path.iterdir())


def test_a_bot_program_is_chosen_in_the_file_browser(tmp_path: Path) -> None:
    bot = tmp_path / "mybot.sh"
    bot.write_text("#!/bin/sh\nwhile read line; do case $line in ROUND*) echo AHEAD;; END) exit 0;; esac; done\n")
    bot.chmod(bot.stat().st_mode | stat.S_IXUSR)
    screen = screen_with_tron()
    window = window_for(screen)
    try:
        click(window, "game:tron")
        click(window, "program:2")
        assert screen.browser is not None and "bot 2" in screen.browser.label  # type: ignore[attr-defined]
        screen.browser.prompt.set_text(str(tmp_path) + "/")  # type: ignore[union-attr]
        window.dispatch_event("on_draw")
        click_entry(window, "mybot.sh")
        press_key(window, key.ENTER)
    finally:
        window.close()
    assert screen.browser is None and screen.tron is not None
    assert screen.tron.choice().bots == ("strong", str(bot))
    assert next(b for b in screen.layout(SIZE) if b.action == "program:2").text == "mybot.sh"


def press_key(window: StartWindow, symbol: int) -> None:
    window.dispatch_event("on_key_press", symbol, 0)
    if not window.start.done:
        window.dispatch_event("on_draw")


def test_the_browser_opens_tron_games_and_takes_arenas(tmp_path: Path, tron_game: Path) -> None:
    shutil.copy(tron_game, tmp_path / "game.json")
    (tmp_path / "mine.txt").write_text("GAMEBOARDSTART 6,5\n" + "......\n" * 5 + "GAMEBOARDEND\n")
    shutil.copy(board_path("chop.dat"), tmp_path / "chop.dat")
    screen = screen_with_tron()
    window = window_for(screen)
    try:
        click(window, "game:tron")
        press_key(window, key.O)
        assert screen.browser is not None
        screen.browser.prompt.set_text(str(tmp_path) + "/")  # type: ignore[union-attr]
        click_entry(window, "chop.dat")
        press_key(window, key.ENTER)  # a robot board is refused in one line, the browser stays
        assert screen.browser is not None and "not a Tron game file or arena" in screen.browser.hint()
        screen.browser.prompt.set_text(str(tmp_path / "mine.txt"))  # type: ignore[union-attr]
        press_key(window, key.ENTER)  # an arena becomes the new game's arena, shown in the grid
        assert screen.browser is None and screen.tron is not None
        assert screen.tron.arena == str(tmp_path / "mine.txt") and not screen.done
        assert screen.tron.arenas[-1].name == "mine.txt" and not screen.tron.arenas[-1].shipped
        click(window, "open")
        screen.browser.prompt.set_text(str(tmp_path / "game.json"))  # type: ignore[union-attr]
        press_key(window, key.ENTER)  # a game file opens
    finally:
        window.close()
    assert screen.opened == Opened(str(tmp_path / "game.json"))


def test_recent_tron_games_and_arenas_are_offered_and_kept_apart(
    tmp_path: Path, tron_game: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    arena = tmp_path / "ring.txt"
    arena.write_text("GAMEBOARDSTART 5,5\n.....\n.###.\n.#.#.\n.###.\n.....\nGAMEBOARDEND\nPOS 1 1,1 E\nPOS 2 5,5 W\n")
    args = build_parser().parse_args([str(tron_game)])
    for path in (arena, tron_game):  # what robots-view shows in a window is remembered for its game
        show_other_game_remembered(path, args, monkeypatch)
    assert RecentGames().load() == []  # the robot tab's list is untouched
    tron = RecentGames(name="recent-tron.json").load()
    assert [Path(r.path) for r in tron] == [tron_game, arena]
    screen = screen_with_tron()
    press(screen, "game:tron")
    assert screen.tron is not None and screen.tron.arenas[-1] == type(screen.tron.arenas[-1])(
        "ring.txt", str(arena), False
    )
    press(screen, "recent:0")
    assert screen.opened == Opened(str(tron_game))


def show_other_game_remembered(path: Path, args: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """``show_other_game`` with a display but without opening a window (the show is replaced)."""
    import viewer3d.cli as cli
    import viewer3d.games as games

    tron = games.by_name("tron")
    replaced = games.Game(tron.name, tron.title, lambda p, o: 0, check=tron.check, recent_file=tron.recent_file)
    monkeypatch.setattr(games, "sniff", lambda p: replaced)
    monkeypatch.setattr(cli, "has_display", lambda: True)
    assert show_other_game(path, args, None) == 0  # type: ignore[arg-type]


def test_the_start_screen_opens_on_the_tab_of_the_last_game(monkeypatch: pytest.MonkeyPatch, tron_game: Path) -> None:
    import viewer3d.start_window
    from viewer3d.cli import start_screen

    tabs: list[str] = []

    def look(screen: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
        tabs.append(screen.game)
        return screen  # closed without a choice

    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", look)
    args = build_parser().parse_args([])
    assert start_screen(args) is None  # nothing opened yet: the robot game's tab
    RecentGames(name="recent-tron.json").add(tron_game)
    assert start_screen(args) is None  # a Tron game was opened last
    os.utime(RecentGames(name="recent-tron.json").file, ns=(1, 1))
    RecentGames().add(board_path("chop.dat"))
    assert start_screen(args) is None  # then a robot board
    assert tabs == ["robots", "tron", "robots"]


def test_a_broken_recent_arena_says_why_at_start(tmp_path: Path) -> None:
    arena = tmp_path / "broken.txt"
    arena.write_text("GAMEBOARDSTART 3,2\n...\n..\nGAMEBOARDEND\n")
    screen = screen_with_tron()  # the real live game: its arena is read before anything starts
    assert screen.tron is not None
    screen.tron.recent = [Recent(str(arena))]
    press(screen, "game:tron")
    press(screen, arena_action(screen, "broken.txt"))
    press(screen, "start")  # the one-line error under the title, no game, the screen stays
    message = screen.shown_message()
    assert "broken.txt:3:" in message and "row is 2 fields long" in message
    assert screen.live is None and not screen.done
    window = window_for(screen)  # drawn without its thumbnail (the arena cannot be read)
    window.close()


def test_the_command_line_opens_what_the_tron_tab_chose(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, tron_game: Path
) -> None:
    """A dropped Tron file, a recent game, and a broken file (the screen comes back saying why)."""
    import viewer3d.start_window

    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "robots-tron-game", "version": 1, "arena": ["GAMEBOARDSTART 2,2"]}\n')
    shown: list[str] = []
    script = iter([str(broken), str(tron_game)])

    def choose(screen: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
        shown.append(screen.message)
        screen.game = "tron"
        screen.dropped = next(script)
        return screen

    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", choose)
    args = build_parser().parse_args([])
    chosen = choose_on_start_screen(args)
    assert chosen == tron_game
    assert shown[0] == "" and "broken.json" in shown[1]  # the error, on the screen that came back


def test_arena_thumbnails_show_fields_and_starts() -> None:
    arena = load_arena(tron_arena_path("pillars-30x30.txt"))
    picture = arena_thumbnail(arena)
    assert picture.shape == (90, 90, 3)  # 3 pixels a field: at least 72 on the long side
    colours = {tuple(p) for p in picture.reshape(-1, 3)}
    assert FREE in colours and BLOCKED in colours
    assert tuple(int(255 * c) for c in COLOURS[0]) in colours  # bot 1's start, in its colour
    assert tuple(int(255 * c) for c in COLOURS[1]) in colours
    big = arena_thumbnail(load_arena(tron_arena_path("open-200x200.txt")))
    assert big.shape == (200, 200, 3) and np.count_nonzero((big != FREE).any(axis=2)) > 16  # starts visible


def test_the_tron_tab_draws_thumbnails(tmp_path: Path) -> None:
    screen = screen_with_tron()
    window = window_for(screen)
    try:
        click(window, "game:tron")
        shot = tmp_path / "tron.png"
        window.save_screenshot(shot)
    finally:
        window.close()
    from PIL import Image

    with Image.open(shot) as image:
        pixels = np.asarray(image.convert("RGB")).astype(int)
    box = next(b for b in screen.layout(SIZE) if b.action == arena_action(screen, "maze-21x21.txt"))
    inside = pixels[int(box.top) + 10 : int(box.top) + 70, int(box.left) + 20 : int(box.left) + 90]
    assert (np.abs(inside - np.array(BLOCKED)).sum(axis=2) < 30).mean() > 0.2  # the maze's walls
    assert (np.abs(inside - np.array(FREE)).sum(axis=2) < 30).mean() > 0.2  # and its free fields


def test_the_robot_tabs_browser_opens_a_tron_game_file(tron_game: Path) -> None:
    """A Tron game file chosen on the robot tab opens as what it is (not as a robot sequence)."""
    screen = screen_with_tron()
    window = window_for(screen)
    try:
        press_key(window, key.O)
        assert screen.browser is not None and not screen.on_tron
        screen.browser.prompt.set_text(str(tron_game))  # type: ignore[union-attr]
        press_key(window, key.ENTER)
    finally:
        window.close()
    assert screen.opened == Opened(str(tron_game))


def test_the_tron_tabs_theme_and_window_reach_the_viewer(monkeypatch: pytest.MonkeyPatch, tron_game: Path) -> None:
    import viewer3d.start_window
    from viewer3d.cli import start_screen

    RecentGames(name="recent-tron.json").add(tron_game)

    def choose(screen: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
        assert screen.on_tron  # the last game opened was a Tron game
        for action in ("theme", "window", "recent:0"):
            press(screen, action)
        return screen

    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", choose)
    args = build_parser().parse_args([])
    assert start_screen(args) is not None
    assert (args.gamedir, args.theme, args.fullscreen) == (str(tron_game), "pen", True)
    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", lambda screen, shot=None, size=None: screen)
    robot = build_parser().parse_args([])  # on the robot tab nothing changes: no choice, no theme
    RecentGames().add(board_path("chop.dat"))
    assert start_screen(robot) is None and robot.theme is None


def test_closing_the_start_screen_ends_a_live_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The window closed while a Tron game plays for it: the game stops and no game file is kept."""
    import viewer3d.start_window
    from viewer3d.cli import start_screen

    started: list[LiveTronGame] = []

    def close_while_playing(screen: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
        screen.game = "tron"
        press(screen, arena_action(screen, "open-200x200.txt"))
        press(screen, "start")
        assert screen.live is not None
        started.append(screen.live)
        return screen  # the window was closed

    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", close_while_playing)
    assert start_screen(build_parser().parse_args([])) is None
    live = started[0]
    assert live.finished.is_set() and live.path is None and live.error is not None and "cancelled" in live.error


def test_recent_games_of_the_same_name_say_their_folder(tmp_path: Path, tron_game: Path) -> None:
    """``robots-tron play --out DIR`` always writes DIR/tron-game.json: the recent list named two such
    games ``tron-game.json`` twice, and the user could not tell which was which."""
    games = []
    for folder in ("rings", "open"):
        (tmp_path / folder).mkdir()
        games.append(Recent(str(shutil.copy(tron_game, tmp_path / folder / "tron-game.json"))))
    other = Recent(str(shutil.copy(tron_game, tmp_path / "mine.json")))
    panel = TronPanel([], recent=[*games, other])
    labels = [box.text for box in panel.layout(SIZE) if box.action.startswith("recent:")]
    assert labels == ["rings/tron-game.json", "open/tron-game.json", "mine.json"]
