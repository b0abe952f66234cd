"""F1's help in pure code: at every window size from 640x480 up, no line is cut, none leaves its
column, the columns stay apart and everything stays inside the box (at 1280x800 a Tron arena's
"make the arena point-symmetric (fair for two bots)" was cut to "make the arena point-sy…ric")."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from editor.commands import blank_board
from editor.controller import EditorController
from editor.document import Document
from editor.games import game_named
from editor.helplayout import SIZES, HelpLayout, help_rows, layout_help, line_height, wrap

WINDOWS = [(640, 480), (800, 600), (1024, 768), (1100, 760), (1280, 800), (1600, 1000), (1920, 1080), (3000, 2000)]


def stand_in(text: str, size: int, bold: bool) -> float:
    """A font without GL: wide glyphs, bold wider (about DejaVu Sans's widths, rounded up)."""
    return len(text) * size * (0.72 if bold else 0.64)


def rows_of(game: str, tmp_path: Path) -> list[tuple[str, str]]:
    board = blank_board(12, 12) if game == "robots" else game_named("tron").blank(40, 30)
    ctl = EditorController(Document(board), size=(1280, 800), autosave_folder=tmp_path / "state")
    try:
        return help_rows(ctl)
    finally:
        ctl.close()


def check(layout: HelpLayout, rows: list[tuple[str, str]], measure: object) -> None:
    assert callable(measure)
    bx, by, box_w, box_h = layout.box
    assert layout.fits
    # Every text is there whole, in order: its lines joined give it back (nothing cut, no "…").
    texts, keys = [], []
    for line in layout.lines:
        if line.keys:
            keys.append(line.keys)
            texts.append(line.text)
        else:
            texts[-1] += " " + line.text
    assert keys == [k for k, _ in rows]
    assert texts == [" ".join(t.split()) for _, t in rows]
    for line in layout.lines:
        assert measure(line.text, layout.size, False) <= line.room
        assert line.keys_left + measure(line.keys, layout.size, True) <= line.text_left
        assert bx <= line.keys_left and line.text_left + line.room <= bx + box_w
        assert by < line.top and line.top + line_height(layout.size) <= by + box_h - 30  # above the footer
    # The two columns never overlap: a line of the left column ends before the right one starts.
    lefts = sorted({line.keys_left for line in layout.lines})
    assert len(lefts) == 2
    for a, b in itertools.product(layout.lines, layout.lines):
        if a.keys_left == lefts[0] and b.keys_left == lefts[1]:
            assert a.text_left + a.room <= b.keys_left


@pytest.mark.parametrize("game", ["robots", "tron"])
@pytest.mark.parametrize("window", WINDOWS)
def test_no_help_line_is_cut_at_any_window_size(game: str, window: tuple[int, int], tmp_path: Path) -> None:
    rows = rows_of(game, tmp_path)
    check(layout_help(rows, *window, stand_in), rows, stand_in)


def test_a_long_text_wraps_instead_of_being_cut(tmp_path: Path) -> None:
    rows = rows_of("tron", tmp_path)
    layout = layout_help(rows, 1280, 800, stand_in)
    start = next(index for index, line in enumerate(layout.lines) if line.keys == "Y")
    end = next((index for index in range(start + 1, len(layout.lines)) if layout.lines[index].keys), len(layout.lines))
    # The whole sentence is shown, over as many lines as its column needs.
    shown = " ".join(line.text for line in layout.lines[start:end])
    assert shown == "make the arena point-symmetric (fair for two bots)"


def test_a_big_window_keeps_the_largest_type_and_a_small_one_gets_smaller(tmp_path: Path) -> None:
    rows = rows_of("robots", tmp_path)
    assert layout_help(rows, 1920, 1080, stand_in).size == SIZES[0]
    assert layout_help(rows, 640, 480, stand_in).size < SIZES[0]


def test_wrap_breaks_between_words_only() -> None:
    assert wrap("aa bb cc", 10, stand_in("aa bb", 10, False), stand_in) == ["aa bb", "cc"]
    assert wrap("aaaaaaaa", 10, stand_in("aaa", 10, False), stand_in) is None
