"""The start screen opens files: the in-window browser (keyboard and mouse) and recent games."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from pyglet.window import key  # noqa: E402

from engine.boardfile import load_board  # noqa: E402
from engine.conformance import reference_chooser  # noqa: E402
from engine.deck import generate_deck  # noqa: E402
from engine.game import play_game  # noqa: E402
from engine.gamedir import write_game_dir  # noqa: E402
from engine.model import Level  # noqa: E402
from engine.outputs import format_globalseq  # noqa: E402
from gameboards import board_names  # noqa: E402
from tests.viewer_app.conftest import CHOP  # noqa: E402
from tests.viewer_app.startclicks import click, click_entry  # noqa: E402
from viewer3d.recent import RECENT_MAX, Recent, RecentGames  # noqa: E402
from viewer3d.start import StartScreen  # noqa: E402
from viewer3d.start_open import Opened  # noqa: E402
from viewer3d.start_window import StartWindow  # noqa: E402

SIZE = (1024, 768)


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """A folder with a game folder, a loose board and a loose sequence of a game on that board."""
    game = play_game(load_board(CHOP), Level.NORMAL, generate_deck(16), reference_chooser)
    write_game_dir(tmp_path / "game", game, ai="reference", deck=None, seed=16)
    shutil.copy(CHOP, tmp_path / "chop.dat")
    (tmp_path / "loose").mkdir()
    (tmp_path / "loose" / "moves.txt").write_text(format_globalseq(game), encoding="utf-8")
    return tmp_path


def window_for(screen: StartScreen) -> StartWindow:
    window = StartWindow(screen, *SIZE, visible=False)
    window._enable_event_queue = False
    return window


def press(window: StartWindow, symbol: int, modifiers: int = 0) -> None:
    window.dispatch_event("on_key_press", symbol, modifiers)
    if not window.start.done:
        window.dispatch_event("on_draw")


def type_text(window: StartWindow, text: str) -> None:
    window.dispatch_event("on_text", text)
    window.dispatch_event("on_draw")


def test_a_game_folder_is_opened_with_the_keyboard(files: Path) -> None:
    window = window_for(StartScreen(board_names()))
    try:
        press(window, key.O)
        assert window.start.browser is not None
        type_text(window, f"{files}/ga")
        press(window, key.TAB)  # completes to the game folder
        assert window.start.browser.prompt is not None
        assert window.start.browser.prompt.text == f"{files}/game/"
        press(window, key.RETURN)  # no entry selected: the typed folder, a game folder, opens
    finally:
        window.close()
    assert window.start.opened == Opened(f"{files}/game")


def test_a_board_is_chosen_from_the_listing_with_arrows(files: Path) -> None:
    window = window_for(StartScreen(board_names()))
    try:
        press(window, key.O)
        type_text(window, f"{files}/")
        listing = window.start.browser.prompt.listing  # type: ignore[union-attr]
        assert listing is not None
        down = [e.label for e in listing.entries].index("chop.dat") + 1
        for _ in range(down):
            press(window, key.DOWN)
        press(window, key.RETURN)
    finally:
        window.close()
    assert window.start.opened == Opened(str(files / "chop.dat"))


def test_a_board_and_a_sequence_are_opened_with_the_mouse_alone(files: Path, monkeypatch) -> None:
    monkeypatch.chdir(files)
    window = window_for(StartScreen(board_names()))
    try:
        window.dispatch_event("on_draw")
        click(window, "open")
        click_entry(window, "loose/")  # a folder: entered
        click_entry(window, "moves.txt")  # a sequence outside a game folder: its board is asked for
        assert window.start.browser is not None and window.start.browser.sequence == files / "loose" / "moves.txt"
        click(window, "browse:up")
        click_entry(window, "chop.dat")
    finally:
        window.close()
    assert window.start.opened == Opened(str(files / "chop.dat"), str(files / "loose" / "moves.txt"))


def test_the_browser_says_what_is_wrong_and_esc_returns_to_the_start_screen(files: Path) -> None:
    window = window_for(StartScreen(board_names()))
    try:
        press(window, key.O)
        type_text(window, f"{files}/nothing-here")
        press(window, key.RETURN)
        browser = window.start.browser
        assert browser is not None and browser.hint().endswith("nothing-here: no such file or folder")
        os.mkfifo(files / "pipe.dat")  # listed, so not "no such file": what it is, and never opened
        for _ in "nothing-here":
            press(window, key.BACKSPACE)
        type_text(window, "pipe.dat")
        press(window, key.RETURN)
        assert browser.hint().endswith("pipe.dat: is a FIFO (named pipe), not a regular file")
        type_text(window, "x")
        press(window, key.RETURN)  # a missing file never closes the browser
        press(window, key.ESCAPE)  # the browser closes, the start screen stays
        assert window.start.browser is None and not window.start.done
        click(window, "open")
        click(window, "browse:cancel")
        assert window.start.browser is None and not window.start.done
    finally:
        window.close()


def test_recent_games_are_kept_newest_first(files: Path, private_state: Path) -> None:
    recent = RecentGames()
    recent.add(files / "game")
    recent.add(files / "chop.dat", files / "loose" / "moves.txt")
    recent.add(files / "chop.dat")
    recent.add(files / "game")  # again: moves to the top, once
    assert recent.load() == [
        Recent(str(files / "game")),
        Recent(str(files / "chop.dat")),
        Recent(str(files / "chop.dat"), str(files / "loose" / "moves.txt")),
    ]
    stored = json.loads((private_state / "robots-view" / "recent.json").read_text(encoding="utf-8"))
    assert stored[0] == {"path": str(files / "game"), "sequence": None}
    for number in range(RECENT_MAX + 3):
        (files / f"b{number}.dat").write_text("x", encoding="utf-8")
        recent.add(files / f"b{number}.dat")
    assert len(recent.load()) == RECENT_MAX and recent.load()[0].label == f"b{RECENT_MAX + 2}.dat"
    (files / f"b{RECENT_MAX + 2}.dat").unlink()  # a file that is gone is not offered
    assert recent.load()[0].label == f"b{RECENT_MAX + 1}.dat"


def test_a_broken_or_unwritable_recent_file_is_no_error(private_state: Path, files: Path) -> None:
    folder = private_state / "robots-view"
    folder.mkdir()
    (folder / "recent.json").write_text('[{"path": 3}, "x", {"path": "/nowhere"}', encoding="utf-8")
    assert RecentGames().load() == []
    (folder / "recent.json").write_text('[{"path": 3}, "x", {"path": "/nowhere"}]', encoding="utf-8")
    assert RecentGames().load() == []
    # A name too long for the system (OSError from exists()), a NUL, a sequence too long: left out.
    entries = [{"path": "x" * 5000}, {"path": "a\u0000b"}, {"path": str(files / "game"), "sequence": "y" * 5000}]
    (folder / "recent.json").write_text(json.dumps(entries), encoding="utf-8")
    assert RecentGames().load() == []
    if os.geteuid() != 0:  # root writes anywhere
        folder.chmod(0o500)
        try:
            RecentGames().add(files / "game")
        finally:
            folder.chmod(0o700)


def test_a_fifo_as_the_recent_file_is_no_list_and_is_never_waited_on(private_state: Path) -> None:
    """A FIFO as ``recent.json`` held the start screen for ever (it is read before it shows)."""
    from tests.fifo_guard import never_stuck_on

    (private_state / "robots-view").mkdir()
    fifo = private_state / "robots-view" / "recent.json"
    os.mkfifo(fifo)
    with never_stuck_on(fifo) as knocked:
        assert RecentGames().load() == []
    assert not knocked, "the FIFO was opened for reading"


def test_a_recent_game_is_opened_with_one_click(files: Path) -> None:
    recent = RecentGames()
    recent.add(files / "chop.dat", files / "loose" / "moves.txt")
    recent.add(files / "game")
    window = window_for(StartScreen(board_names(), recent=recent.load()))
    try:
        window.dispatch_event("on_draw")
        click(window, "recent:1")
    finally:
        window.close()
    assert window.start.opened == Opened(str(files / "chop.dat"), str(files / "loose" / "moves.txt"))


def test_what_was_opened_is_remembered_and_reopens_from_the_start_screen(files: Path, monkeypatch) -> None:
    """robots-view on a game folder remembers it; its recent entry on the start screen opens it again."""
    import viewer3d.start_window
    from viewer3d import cli

    shown: list[str] = []

    def fake_window(app: object, **options: object) -> None:
        shown.append(getattr(app, "title", ""))

    monkeypatch.setattr("viewer3d.window.run_window", fake_window)
    monkeypatch.setenv("DISPLAY", ":99")
    assert cli.main([str(files / "game")]) == 0
    assert cli.main(["--board", str(files / "chop.dat"), "--sequence", str(files / "loose" / "moves.txt")]) == 0
    assert RecentGames().load()[1] == Recent(str(files / "game"))

    def choose(screen: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
        assert [r.label for r in screen.recent] == ["chop.dat + moves.txt", "game/"]
        box = next(b for b in screen.layout(SIZE) if b.action == "recent:0")
        screen.click(SIZE, box.left + 1, box.top + 1)
        return screen

    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", choose)
    assert cli.main([]) == 0
    assert shown[-1].startswith("chop.dat + moves.txt")


def test_a_file_that_cannot_be_opened_brings_the_start_screen_back_with_the_error(
    files: Path, monkeypatch, capsys
) -> None:
    """A broken board chosen in the window: the start screen comes back saying why, in one line."""
    import viewer3d.start_window
    from viewer3d import cli

    broken = files / "broken.dat"
    broken.write_text("this is no board\n", encoding="utf-8")
    screens: list[StartScreen] = []

    def start_screen(screen: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
        screens.append(screen)
        if len(screens) == 1:
            screen.opened = Opened(str(broken))
        return screen  # the second time: closed

    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", start_screen)
    monkeypatch.setenv("DISPLAY", ":99")
    assert cli.main([]) == 0
    assert len(screens) == 2 and screens[0].message == ""
    assert "broken.dat" in screens[1].message and "\n" not in screens[1].message
    assert "Traceback" not in capsys.readouterr().err
    window = window_for(screens[1])
    try:
        window.save_screenshot(files / "shot.png")  # the message is drawn with the screen
    finally:
        window.close()


def test_the_o_that_opens_the_browser_is_not_typed_into_it(files: Path) -> None:
    """A window sends a key press and then its text: the O that opened the browser types nothing."""
    recent = RecentGames()
    recent.add(files / "chop.dat")
    window = window_for(StartScreen(board_names(), recent=recent.load()))
    try:
        press(window, key.O)
        type_text(window, "o")
        prompt = window.start.browser.prompt  # type: ignore[union-attr]
        assert prompt is not None and prompt.text == f"{files}/" and prompt.all_selected
        type_text(window, "o")  # a second o is typed: it replaces the suggested folder
        assert prompt.text == "o"
    finally:
        window.close()
