"""Clicks on a headless start screen window, by the action of the box clicked (shared by the
start screen's tests)."""

from __future__ import annotations

import pyglet

from viewer3d.start_window import StartWindow


def click(window: StartWindow, action: str) -> None:
    """A left click in the middle of the box doing ``action``; the window is drawn after it."""
    box = next(b for b in window.start.layout(window.get_framebuffer_size()) if b.action == action)
    x, y = box.left + box.width / 2, box.top + box.height / 2
    window.dispatch_event("on_mouse_press", x, window.get_framebuffer_size()[1] - y, pyglet.window.mouse.LEFT, 0)
    if not window.start.done:
        window.dispatch_event("on_draw")


def click_entry(window: StartWindow, label: str) -> None:
    """A click on the file browser's listing row showing ``label``."""
    browser = window.start.browser
    assert browser is not None and browser.prompt is not None and browser.prompt.listing is not None
    index = next(i for i, e in enumerate(browser.prompt.listing.entries) if e.label == label)
    click(window, f"entry:{index}")
