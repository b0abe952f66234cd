"""Frames lay out only the text that changed: labels are counted (a spy on pyglet's Label), never timed.

A text layout is the dearest thing in a frame; before, any change in a panel (the pointer's tile
readout, a status message, "(modified)") laid out every label of that panel again, and the status
bar measured its texts with throwaway labels on every such frame.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyglet

pyglet.options["headless"] = True

import pytest  # noqa: E402

from editor.commands import blank_board  # noqa: E402
from editor.controller import EditorController  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.games import game_named  # noqa: E402
from editor.window import EditorWindow  # noqa: E402


class LabelSpy:
    """Counts the pyglet labels built (drawn or measured), with the text of each."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: list[str] = []
        init = pyglet.text.Label.__init__

        def counting(label: pyglet.text.Label, text: str = "", *args: object, **kwargs: object) -> None:
            self.texts.append(text)
            init(label, text, *args, **kwargs)

        monkeypatch.setattr(pyglet.text.Label, "__init__", counting)

    def since(self, mark: int) -> list[str]:
        return self.texts[mark:]


@pytest.fixture(params=["robots", "tron"])
def window(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EditorWindow]:
    board = blank_board(12, 12) if request.param == "robots" else game_named("tron").blank(40, 30)
    ctl = EditorController(Document(board), size=(1280, 800), autosave_folder=tmp_path / "state")
    win = EditorWindow(ctl, visible=False)
    win.switch_to()
    ctl.finish_validation(timeout=60)
    win.on_draw()
    yield win
    ctl.close()
    win.close()


def _tile_middle(win: EditorWindow, x: int, y: int) -> tuple[float, float]:
    left, top, size, _ = win.ctl.mapping.tile_rect(x, y)
    return left + size / 2, top + size / 2


def test_a_frame_with_nothing_changed_builds_no_label(window: EditorWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    spy = LabelSpy(monkeypatch)
    window.on_draw()
    window.on_draw()
    assert spy.texts == []


def test_the_pointer_on_another_tile_lays_out_only_the_new_readout(
    window: EditorWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctl = window.ctl
    ctl.mouse_motion(*_tile_middle(window, 1, 1))
    window.on_draw()
    spy = LabelSpy(monkeypatch)
    ctl.mouse_motion(*_tile_middle(window, 2, 1))
    window.on_draw()
    built = spy.since(0)
    assert ctl.hover_info in built  # the readout changed: laid out (and measured once)
    assert set(built) == {ctl.hover_info}, built  # the message and the shortcut line were moved, not rebuilt
    mark = len(spy.texts)
    ctl.mouse_motion(*_tile_middle(window, 1, 1))  # back to a tile shown before: measured before too
    window.on_draw()
    assert spy.since(mark) == [ctl.hover_info]


def test_a_new_status_message_keeps_the_other_labels(window: EditorWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    ctl = window.ctl
    spy = LabelSpy(monkeypatch)
    ctl.say("a message nobody has seen yet")
    window.on_draw()
    assert set(spy.texts) == {"a message nobody has seen yet"}, spy.texts


def test_an_edit_lays_out_only_the_lines_it_changed(window: EditorWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    ctl = window.ctl
    ctl.say("")
    window.on_draw()
    spy = LabelSpy(monkeypatch)
    x, y = _tile_middle(window, 3, 3)
    ctl.mouse_press(x, y, "left")
    ctl.mouse_release(x, y, "left")
    window.on_draw()
    assert any("(modified)" in text for text in spy.texts)
    theme_line = f"theme: {window.editor_view.theme_loaded}   (F2 next)"
    assert theme_line not in spy.texts and "F1: all shortcuts" not in spy.texts, spy.texts
    assert len(spy.texts) <= 6, spy.texts  # the panel has ~16 lines: only the changed ones


def test_labels_show_where_their_panel_puts_them_after_a_window_resize(window: EditorWindow) -> None:
    """A label taken back from an older build is moved to where this build puts it (the panel's
    heading, 10 px from the top, sits lower in pyglet's bottom-up coordinates of a shorter window)."""
    heading = window.ctl.game.noun.upper()
    for height in (700, 800):
        window.on_resize(1100, height)
        window.on_draw()
        side = window.editor_view._parts["side"]
        (label,) = [label for look, group in side.labels.items() if look[0] == heading for label in group]
        assert label.y == height - 10


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("size", [7, 9, 10, 11, 12, 15])
def test_a_measured_width_is_the_width_a_label_lays_out(window: EditorWindow, size: int, bold: bool) -> None:
    """Texts are measured by their glyphs' advances, not by a throwaway label: the same figure."""
    from editor.view import _text_width

    for text in ["(7, 4)  conveyor running right  '>'", "make the arena point-symmetric", "héllo ★ — ↑/↓ …", "W" * 40]:
        label = pyglet.text.Label(text, font_size=size, weight="bold" if bold else "normal")
        assert _text_width(text, size, bold) == label.content_width
        label.delete()


def test_f1_lays_out_only_the_labels_it_shows(window: EditorWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Laying the help out measures every line at several sizes (and every word of a wrapped one):
    with throwaway labels that was ~900 text layouts at 640x480; now only the labels drawn."""
    window.on_resize(640, 480)
    window.on_draw()
    spy = LabelSpy(monkeypatch)
    window.ctl.key_press("F1")
    window.on_draw()
    shown = [label.text for label in window.editor_view._parts["help"].keep if isinstance(label, pyglet.text.Label)]
    assert sorted(spy.texts) == sorted(shown)
