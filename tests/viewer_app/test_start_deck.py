"""The start screen's deck choices: a seed, a deck file chosen in the in-window browser, or a
random seed that the game's title shows (a real headless window, clicks only)."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

import random  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from engine.deck import generate_deck, save_deck  # noqa: E402
from engine.model import Level  # noqa: E402
from gameboards import board_names  # noqa: E402
from tests.viewer_app.startclicks import click, click_entry  # noqa: E402
from viewer3d import sources  # noqa: E402
from viewer3d.sources import GameSource, wait_complete  # noqa: E402
from viewer3d.start import RANDOM_SEEDS, StartScreen  # noqa: E402
from viewer3d.start_window import StartWindow  # noqa: E402

SIZE = (1024, 768)


@pytest.fixture
def decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder (the working directory) with a good deck file and two bad ones in ``decks/``."""
    folder = tmp_path / "decks"
    folder.mkdir()
    save_deck(generate_deck(777), folder / "mine.txt")
    (folder / "typo.txt").write_text("MF 1\nMF 2\nFLY\n", encoding="utf-8")
    (folder / "short.txt").write_text("MF 1\nMF 2\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder


def window_for(screen: StartScreen) -> StartWindow:
    window = StartWindow(screen, *SIZE, visible=False)
    window._enable_event_queue = False
    window.dispatch_event("on_draw")
    return window


def choose_deck_file(window: StartWindow, name: str) -> None:
    click(window, "deck:file")
    assert window.start.browser is not None and window.start.browser.deck
    click_entry(window, "decks/")
    click_entry(window, name)


def start_through_cli(monkeypatch: pytest.MonkeyPatch, actions: list[str], screen: StartScreen) -> GameSource:
    """robots-view with no arguments, the start screen clicked through ``actions`` in a real
    window; returns the live game it started (computed to the end)."""
    import viewer3d.start_window
    from viewer3d import cli

    started: list[GameSource] = []
    real_from_ai = sources.from_ai

    def from_ai(*args: object, **kwargs: object) -> GameSource:
        started.append(real_from_ai(*args, **kwargs))  # type: ignore[arg-type]
        return started[-1]

    def run_start_screen(given: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
        given.__dict__.update({k: v for k, v in screen.__dict__.items() if k not in ("recent", "themes", "message")})
        window = window_for(given)
        try:
            for action in actions:
                if action.startswith("entry "):
                    click_entry(window, action[6:])
                else:
                    click(window, action)
        finally:
            window.close()
        return given

    monkeypatch.setattr(sources, "from_ai", from_ai)
    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", run_start_screen)
    monkeypatch.setattr("viewer3d.window.run_window", lambda app, **options: None)
    monkeypatch.setenv("DISPLAY", ":99")
    assert cli.main([]) == 0
    assert len(started) == 1
    wait_complete(started[0])
    return started[0]


def test_a_deck_file_chosen_with_the_mouse_deals_the_game(decks: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = generate_deck(777)
    assert deck[:40] != generate_deck(1)[:40]  # not the default seed's deck
    actions = ["board:chop.dat", "level:normal", "deck:file", "entry decks/", "entry mine.txt", "start"]
    source = start_through_cli(monkeypatch, actions, StartScreen(board_names()))
    timeline = source.timeline
    assert "deck mine.txt" in source.title
    assert timeline.deck == tuple(deck) and timeline.hand(1) == tuple(deck[:8])
    rounds = sorted({step.round_number for step in timeline.steps})
    assert rounds and rounds[0] == 1
    for number in rounds:  # every card played was dealt from the file's cards, 8 a round in order
        played = Counter(card for step in timeline.steps if step.round_number == number for card in step.candidates)
        dealt = Counter(deck[8 * (number - 1) : 8 * number])
        assert played and not played - dealt


def test_the_chosen_deck_file_is_shown_and_used_for_start(decks: Path) -> None:
    screen = StartScreen(board_names())
    window = window_for(screen)
    try:
        choose_deck_file(window, "mine.txt")
        assert screen.browser is None and screen.deck == "file" and screen.message == ""
        box = next(b for b in screen.layout(SIZE) if b.action == "deck:file")
        assert box.text == "mine.txt" and screen.selected(box)
        click(window, "deck:seed")  # back to the seed: the file is kept for later
        assert screen.deck == "seed" and screen.choice().deck is None and screen.choice().seed == 1
        click(window, "deck:file")  # the browser opens in the last deck file's folder
        assert window.start.browser is not None and window.start.browser.prompt is not None
        assert window.start.browser.prompt.text == f"{decks}/"
        click_entry(window, "mine.txt")
        click(window, "start")
    finally:
        window.close()
    assert screen.chosen is not None and screen.chosen.deck == str(decks / "mine.txt") and screen.chosen.seed is None


@pytest.mark.parametrize(
    ("name", "says"), [("typo.txt", "typo.txt:3:1"), ("short.txt", "not a valid deck: has 2 cards, a deck has 5600")]
)
def test_a_bad_deck_file_is_reported_on_the_start_screen(decks: Path, name: str, says: str) -> None:
    screen = StartScreen(board_names())
    window = window_for(screen)
    try:
        choose_deck_file(window, name)
        assert screen.browser is None and not screen.done
        assert says in screen.message and name in screen.message and "\n" not in screen.message
        assert screen.deck == "seed" and screen.deck_file is None  # the deck in use is unchanged
        window.save_screenshot(decks.parent / "shot.png")  # drawn under the title
        click(window, "deck:file")
        click(window, "browse:cancel")  # cancelling keeps the seed
        assert screen.deck == "seed" and screen.browser is None
    finally:
        window.close()


def test_a_deck_file_that_went_bad_after_it_was_chosen_brings_the_start_screen_back(
    decks: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import viewer3d.start_window
    from viewer3d import cli

    screens: list[StartScreen] = []

    def run_start_screen(screen: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
        screens.append(screen)
        if len(screens) == 1:
            screen.deck, screen.deck_file = "file", str(decks / "mine.txt")
            screen.board, screen.level = "tiny-2x1.dat", Level.EASY
            screen.chosen = screen.choice()
            (decks / "mine.txt").write_text("MF 1\nJUMP\n", encoding="utf-8")  # changed meanwhile
        return screen

    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", run_start_screen)
    monkeypatch.setenv("DISPLAY", ":99")
    assert cli.main([]) == 0
    assert len(screens) == 2 and "mine.txt:2:1" in screens[1].message and "\n" not in screens[1].message
    assert (screens[1].board, screens[1].level) == ("tiny-2x1.dat", Level.EASY)  # the choices are kept
    assert screens[1].deck_file == str(decks / "mine.txt")


def test_a_random_deck_draws_a_fresh_seed_that_the_title_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = StartScreen(board_names(), rng=random.Random(5))
    first, second = screen.rng.randrange(RANDOM_SEEDS), screen.rng.randrange(RANDOM_SEEDS)
    screen.rng = random.Random(5)
    window = window_for(screen)
    try:
        click(window, "deck:random")
        assert screen.deck == "random" and screen.selected(
            next(b for b in screen.layout(SIZE) if b.action == "deck:random")
        )
        assert screen.choice().seed == first and screen.choice().seed == second  # fresh at every Start
    finally:
        window.close()
    screen.rng = random.Random(5)
    source = start_through_cli(monkeypatch, ["board:crossing-5x3.dat", "deck:random", "start"], screen)
    assert source.title.endswith(f"seed {first}")  # the HUD's title: the game can be played again
    assert source.timeline.deck == tuple(generate_deck(first))


def test_every_choice_has_a_tooltip_shown_under_the_mouse(decks: Path) -> None:
    screen = StartScreen(board_names())
    window = window_for(screen)
    try:
        boxes = screen.layout(SIZE)
        assert all(screen.tooltip(box) for box in boxes)
        box = next(b for b in boxes if b.action == "deck:random")
        x, y = box.left + 4, SIZE[1] - box.top - 4
        window.dispatch_event("on_mouse_motion", x, y, 0, 0)
        assert window.hover is not None and "seed" in screen.tooltip(window.hover)
        window.save_screenshot(decks.parent / "tip.png")
    finally:
        window.close()
