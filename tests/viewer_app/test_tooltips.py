"""Tooltips never cover a control (no GL): the placement itself, and every tooltip of both start
screen tabs and of the viewer's buttons in the window sizes people use."""

from __future__ import annotations

import pytest

from gameboards import board_names
from viewer3d import cards, controls, tooltips
from viewer3d.cli import tron_tab
from viewer3d.start import StartScreen
from viewer3d.start_open import Box

SIZES = [(800, 600), (1024, 768), (1600, 1000), (1920, 1080)]
#: A tip's size for its text: wider than the 10 pt text drawn (about 6.3 px a letter) and its margins.
CHAR_PX, TIP_H = 7.0, 22.0


def rect(box: Box) -> tooltips.Rect:
    return (box.left, box.top, box.width, box.height)


def test_under_the_control_when_that_is_free_else_beside_or_above() -> None:
    anchor = (100.0, 100.0, 80.0, 30.0)
    size = (120.0, 22.0)
    assert tooltips.place(anchor, size, (800, 600), []) == (100.0, 134.0, 120.0, 22.0)
    below = (100.0, 140.0, 80.0, 30.0)  # a button right under it: beside it instead
    assert tooltips.place(anchor, size, (800, 600), [below]) == (184.0, 104.0, 120.0, 22.0)
    right = (184.0, 100.0, 80.0, 30.0)  # and one on its right (no room on its left): above it
    assert tooltips.place(anchor, size, (800, 600), [below, right]) == (100.0, 74.0, 120.0, 22.0)
    # at the window's right edge the tip moves inside the window, never over the control itself
    corner = (740.0, 4.0, 56.0, 30.0)
    spot = tooltips.place(corner, size, (800, 600), [])
    assert spot[0] + spot[2] <= 800 and tooltips.overlap(spot, corner) == 0


def test_the_tron_tabs_tooltip_no_longer_covers_the_open_button() -> None:
    """Under the Tron tab, 26 px down, lay the Tron tab's Open button: the tip covered its words."""
    screen = StartScreen(board_names(), tron=tron_tab())
    screen.game = "tron"
    boxes = screen.layout((1024, 768))
    tab = next(b for b in boxes if b.action == "game:tron")
    tip = screen.tooltip(tab)
    under = (tab.left, tab.top + tab.height + 4, len(tip) * CHAR_PX + 16, TIP_H)  # where it was drawn
    assert any(tooltips.overlap(under, rect(b)) for b in boxes if b.action.startswith("open"))
    spot = tooltips.place(rect(tab), (len(tip) * CHAR_PX + 16, TIP_H), (1024, 768), [rect(b) for b in boxes])
    assert not any(tooltips.overlap(spot, rect(b)) for b in boxes)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["robots", "tron"])
def test_no_start_screen_tooltip_covers_a_control(size: tuple[int, int], game: str) -> None:
    screen = StartScreen(board_names(), tron=tron_tab())
    screen.game = game
    boxes = screen.layout(size)
    rects = [rect(b) for b in boxes]
    for box in boxes:
        tip = screen.tooltip(box)
        spot = tooltips.place(rect(box), (len(tip) * CHAR_PX + 16, TIP_H), size, rects)
        covered = [b.action for b in boxes if tooltips.overlap(spot, rect(b))]
        assert covered == [], (box.action, tip, spot)


@pytest.mark.parametrize("size", [*SIZES, (480, 600)])
def test_no_button_tooltip_covers_a_button(size: tuple[int, int]) -> None:
    """In a narrow window the buttons wrap into rows: a tip above its row covered the row above."""
    boxes = controls.layout(size, cards.panel_width())
    rects = [(b.left, b.top, b.width, b.height) for b in boxes]
    for box in boxes:
        tip = controls.tooltip_for(box.button, "card", "the robot")
        spot = tooltips.place(rects[boxes.index(box)], (len(tip) * CHAR_PX + 12, TIP_H), size, rects)
        assert not any(tooltips.overlap(spot, r) for r in rects), (box.button.name, spot)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["robots", "tron"])
def test_every_start_screen_control_is_inside_the_window(size: tuple[int, int], game: str) -> None:
    """In an 800x600 window the Tron tab and the Open button (and recent games) ran off the right edge."""
    screen = StartScreen(board_names(), tron=tron_tab())
    screen.game = game
    for box in screen.layout(size):
        assert box.left >= 0 and box.left + box.width <= size[0], (box.action, box.left, box.width)
        assert box.top >= 0 and box.top + box.height <= size[1], (box.action, box.top, box.height)
