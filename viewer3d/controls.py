"""Clickable controls along the bottom of the window (no GL): play/pause, step, speed, views.

Each button names the key it stands for, so a click does exactly what the key does
(``ViewerApp.key``) and the help, the keys and the buttons can never disagree. ``layout`` places
them right-aligned in the strip above the seek bar; ``hit`` finds the one under the pointer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BUTTON_H = 26.0
BUTTON_GAP = 3.0
ROW_BOTTOM = 44.0  # above the seek bar, like the card panel
ABOVE_PANEL = 96.0  # the card panel's height (viewer3d.cards.PANEL_HEIGHT): a narrow window stacks


@dataclass(frozen=True)
class Button:
    """A button: its id, text, the key it presses and its tooltip."""

    name: str
    text: str
    key: str
    tooltip: str
    width: float = 26.0


BUTTONS = (
    Button("restart", "|<", "R", "restart (R)"),
    Button("back", "<", "LEFT", "one card back (Left)"),
    Button("play", "Pause", "SPACE", "play / pause (Space)", 48.0),
    Button("forward", ">", "RIGHT", "one card forward (Right)"),
    Button("round", ">>", "PAGEDOWN", "next round (PgDn)"),
    Button("slower", "-", "MINUS", "slower (-)"),
    Button("faster", "+", "PLUS", "faster (+)"),
    Button("iso1", "1", "_1", "isometric view 1 (1)"),
    Button("iso2", "2", "_2", "isometric view 2 (2)"),
    Button("iso3", "3", "_3", "isometric view 3 (3)"),
    Button("iso4", "4", "_4", "isometric view 4 (4)"),
    Button("top", "Top", "T", "top-down view (T)", 34.0),
    Button("fit", "Fit", "HOME", "whole board (Home)", 30.0),
    Button("follow", "Follow", "F", "follow the robot (F)", 48.0),
    Button("hud", "HUD", "TAB", "hide the HUD to watch (Tab); its corner button brings it back", 36.0),
    Button("help", "?", "H", "keys and mouse (H)"),
    Button("open", "Open", "O", "start screen: another board or game (O)", 52.0),
)


@dataclass(frozen=True)
class ButtonBox:
    left: float
    top: float
    width: float
    height: float
    button: Button

    def contains(self, px: float, py: float) -> bool:
        return self.left <= px <= self.left + self.width and self.top <= py <= self.top + self.height


def row_width() -> float:
    return sum(b.width for b in BUTTONS) + BUTTON_GAP * (len(BUTTONS) - 1)


def layout(viewport: tuple[int, int], beside: float = 0.0) -> list[ButtonBox]:
    """The buttons in one row above the seek bar (top-left pixel origin): right-aligned next to
    the card panel (``beside`` pixels wide at the left), or above it when the window is narrow;
    in a window narrower than the row, in as many rows as it takes (first row on top), so no
    button falls off the window's right edge."""
    width, height = viewport
    top = height - ROW_BOTTOM - BUTTON_H
    left = width - 16.0 - row_width()
    if left >= beside + 8.0:
        return _row(BUTTONS, left, top)
    rows: list[list[Button]] = [[]]
    room = max(width - 24.0, max(b.width for b in BUTTONS))
    for button in BUTTONS:
        used = sum(b.width + BUTTON_GAP for b in rows[-1])
        if rows[-1] and used + button.width > room:
            rows.append([])
        rows[-1].append(button)
    bottom_top = height - ROW_BOTTOM - ABOVE_PANEL - BUTTON_H - 6.0
    boxes: list[ButtonBox] = []
    for index, row in enumerate(rows):
        boxes += _row(row, 12.0, bottom_top - (len(rows) - 1 - index) * (BUTTON_H + BUTTON_GAP))
    return boxes


def _row(buttons: Sequence[Button], left: float, top: float) -> list[ButtonBox]:
    boxes = []
    for button in buttons:
        boxes.append(ButtonBox(left, top, button.width, BUTTON_H, button))
        left += button.width + BUTTON_GAP
    return boxes


def hit(viewport: tuple[int, int], px: float, py: float, beside: float = 0.0) -> Button | None:
    """The button under screen pixel (px, py), if any."""
    return next((box.button for box in layout(viewport, beside) if box.contains(px, py)), None)


def tooltip_for(button: Button, step_noun: str, follow_noun: str) -> str:
    """A button's tooltip in a game's words: its steps ("one round forward") and what F follows."""
    text = button.tooltip.replace("one card", f"one {step_noun}")
    if follow_noun != "the robot":
        text = text.replace(
            "follow the robot", f"follow {follow_noun}" if follow_noun else "follow (nothing to follow)"
        )
    return text


#: While the HUD is hidden (Tab), the one control left: a small button in the bottom right corner
#: that shows it again, so a mouse-only user is never stuck without the HUD.
SHOW_HUD = Button("show_hud", "HUD", "TAB", "show the HUD again (Tab)", 36.0)
CORNER_MARGIN = 8.0


def corner_box(viewport: tuple[int, int]) -> ButtonBox:
    """Where ``SHOW_HUD`` is (top-left pixel origin): the bottom right corner, clear of the help
    (top left) and of the hidden HUD's message panel (bottom left)."""
    width, height = viewport
    return ButtonBox(
        width - CORNER_MARGIN - SHOW_HUD.width, height - CORNER_MARGIN - BUTTON_H, SHOW_HUD.width, BUTTON_H, SHOW_HUD
    )
