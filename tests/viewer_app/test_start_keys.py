"""The start screen from the keyboard alone: key sequences -> focus, choices and Start, in the pure
model (no GL), then one real headless window started from keys only."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from engine.model import Level
from viewer3d.start import Choice, StartScreen
from viewer3d.start_tron import TronChoice, TronPanel

BOARDS = [f"b{n}.dat" for n in range(7)]  # a grid of 5 + 2 thumbnails
SIZE = (1024, 768)


def press(screen: StartScreen, keys: list[str]) -> None:
    """``C-`` is Ctrl, ``S-`` Shift; a key's text follows it, as a window sends both."""
    for key in keys:
        name = key.removeprefix("C-").removeprefix("S-")
        screen.key(name, ctrl=key.startswith("C-"), shift=key.startswith("S-"), viewport=SIZE)
        screen.type({"SPACE": " ", "O": "o"}.get(name, ""))


def robots() -> StartScreen:
    return StartScreen(list(BOARDS), ["default", "pen"], board="b2.dat")


@pytest.mark.parametrize(
    ("keys", "focus", "expected"),
    [
        ([], None, {}),
        (["TAB"], "board:b2.dat", {}),  # the grid is one stop: it lands on the chosen board
        (["TAB", "TAB"], "ai:reference", {}),
        (["TAB", "TAB", "S-TAB"], "board:b2.dat", {}),
        (["S-TAB"], "open", {}),  # from no focus Shift+Tab takes the last stop
        (["TAB"] * 15, "open", {}),
        (["TAB"] * 16, "board:b2.dat", {}),  # round again
        (["RIGHT"], "board:b2.dat", {}),  # the first arrow shows the focus on the chosen board
        (["RIGHT", "RIGHT"], "board:b3.dat", {"board": "b2.dat"}),  # moving is not choosing
        (["RIGHT", "RIGHT", "ENTER"], "board:b3.dat", {"board": "b3.dat", "chosen": None}),
        (["LEFT", "LEFT", "LEFT", "LEFT"], "board:b0.dat", {}),  # the edge holds it
        (["DOWN", "DOWN"], "board:b6.dat", {}),  # below column 2: the nearest of the next row
        (["DOWN", "DOWN", "DOWN"], "ai:reference", {}),  # out of the grid to the options
        (["DOWN", "DOWN", "DOWN", "RIGHT", "SPACE"], "ai:planner", {"ai": "planner"}),
        (["DOWN", "DOWN", "DOWN", "DOWN", "RIGHT", "RIGHT", "ENTER"], "level:hard", {"level": Level.HARD}),
        (["DOWN", "DOWN", "DOWN", "DOWN", "SPACE"], "level:easy", {"level": Level.EASY}),
        (["TAB"] * 9 + ["SPACE", "ENTER"], "seed:+1", {"seed": 3, "deck": "seed"}),
        (["TAB"] * 11 + ["SPACE"], "deck:random", {"deck": "random"}),
        (["TAB"] * 12 + ["SPACE"], "theme", {"theme": "pen"}),
        (["TAB"] * 13 + ["SPACE"], "window", {"fullscreen": True}),
        (["ENTER"], None, {"chosen": Choice("b2.dat", "reference", Level.HARD, 1, "default", False)}),
        (
            ["RIGHT", "RIGHT", "ENTER", "C-ENTER"],
            "board:b3.dat",
            {"chosen": Choice("b3.dat", "reference", Level.HARD, 1, "default", False)},
        ),
        (["TAB"] * 14 + ["SPACE"], "start", {"chosen": Choice("b2.dat", "reference", Level.HARD, 1, "default", False)}),
        (
            ["TAB", "TAB", "RIGHT", "SPACE", "C-RETURN"],
            "ai:planner",
            {"chosen": Choice("b2.dat", "planner", Level.HARD, 1, "default", False)},
        ),
    ],
)
def test_keys_move_the_focus_choose_and_start(keys: list[str], focus: str | None, expected: dict[str, Any]) -> None:
    screen = robots()
    press(screen, keys)
    assert screen.focus == focus
    for name, value in expected.items():
        assert getattr(screen, name) == value, name
    if "chosen" not in expected:
        assert screen.chosen is None


@pytest.mark.parametrize("keys", [["O"], ["S-TAB", "SPACE"], ["S-TAB", "ENTER"]])
def test_o_or_the_focused_open_button_shows_the_browser_and_its_key_is_not_typed(keys: list[str]) -> None:
    screen = robots()
    press(screen, keys)
    assert screen.browser is not None and screen.browser.prompt is not None
    assert screen.browser.prompt.text == ""


def test_a_deck_file_chosen_from_the_keyboard_opens_the_deck_browser() -> None:
    screen = robots()
    press(screen, ["TAB"] * 10 + ["SPACE"])
    assert screen.focus == "deck:file" and screen.browser is not None and screen.browser.deck


def test_a_click_clears_the_focus_and_enter_starts_again() -> None:
    screen = robots()
    press(screen, ["RIGHT", "RIGHT"])
    box = next(b for b in screen.layout(SIZE) if b.action == "ai:planner")
    screen.click(SIZE, box.left + 4, box.top + 4)
    assert screen.focus is None and screen.ai == "planner"
    press(screen, ["ENTER"])
    assert screen.chosen is not None and screen.chosen.ai == "planner"


def test_a_focus_no_longer_shown_starts_over() -> None:
    screen = robots()
    screen.focus = "recent:3"  # gone (its file was removed)
    press(screen, ["TAB"])
    assert screen.focus == "board:b2.dat"


def tron_screen(started: list[TronChoice]) -> StartScreen:
    arenas = [Path(f"/nowhere/a{n}.txt") for n in range(6)]  # 5 + 1; unreadable: two bots
    panel = TronPanel(arenas, arena=str(arenas[0]))

    def play(choice: TronChoice) -> Any:
        started.append(choice)
        return SimpleNamespace(arena_path=Path(choice.arena), round=0, cancel=lambda: None)

    return StartScreen(list(BOARDS), board="b2.dat", tron=panel, play_tron=play)


@pytest.mark.parametrize(
    ("keys", "focus", "arena", "bots"),
    [
        (["S-TAB"], "game:tron", "a0", ("strong", "simple")),  # the tabs are the last stops
        (["S-TAB", "ENTER", "TAB"], "arena:0", "a0", ("strong", "simple")),
        (["S-TAB", "ENTER", "TAB", "RIGHT", "RIGHT", "SPACE"], "arena:2", "a2", ("strong", "simple")),
        (["S-TAB", "ENTER", "TAB", "DOWN", "DOWN"], "bot:1:simple", "a0", ("strong", "simple")),
        (["S-TAB", "ENTER", "TAB", "DOWN", "DOWN", "RIGHT", "ENTER"], "bot:1:random", "a0", ("random", "simple")),
        (["S-TAB", "ENTER", "TAB", "DOWN", "DOWN", "DOWN", "DOWN", "SPACE"], "bots:-1", "a0", ("strong",)),
        (["S-TAB", "ENTER", *["TAB"] * 13], "window", "a0", ("strong", "simple")),
    ],
)
def test_the_tron_tab_from_the_keyboard(keys: list[str], focus: str, arena: str, bots: tuple[str, ...]) -> None:
    started: list[TronChoice] = []
    screen = tron_screen(started)
    press(screen, keys)
    assert screen.focus == focus
    assert screen.tron is not None and Path(screen.tron.arena).stem == arena and tuple(screen.tron.bots) == bots
    assert not started


@pytest.mark.parametrize(
    "keys", [["S-TAB", "ENTER", "C-ENTER"], ["S-TAB", "ENTER", "S-TAB", "S-TAB", "S-TAB", "ENTER"]]
)
def test_the_tron_tab_starts_from_the_keyboard(keys: list[str]) -> None:
    started: list[TronChoice] = []
    screen = tron_screen(started)
    press(screen, keys)
    assert started == [TronChoice("/nowhere/a0.txt", ("strong", "simple"))]
