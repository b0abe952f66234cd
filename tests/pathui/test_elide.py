"""Cutting texts to their room (``pathui.elide``): table-driven, and with any measure."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pathui.elide import ELLIPSIS, elide_middle, elide_start, fitted


@pytest.mark.parametrize(
    ("text", "keep", "middle", "start"),
    [
        ("abcdefgh", 8, "abcdefgh", "abcdefgh"),
        ("abcdefgh", 20, "abcdefgh", "abcdefgh"),
        ("abcdefgh", 4, "ab…gh", "…efgh"),
        ("abcdefgh", 5, "abc…gh", "…defgh"),
        ("abcdefgh", 1, "a…", "…h"),
        ("abcdefgh", 0, "…", "…"),
    ],
)
def test_elisions(text: str, keep: int, middle: str, start: str) -> None:
    assert elide_middle(text, keep) == middle
    assert elide_start(text, keep) == start


@given(st.text(max_size=200), st.integers(min_value=0, max_value=60))
def test_fitted_is_the_longest_cut_that_fits(text: str, room: int) -> None:
    """With "one unit per character" as the measure, the result is exactly as long as the room
    allows, and keeps the start and the end of the text."""
    shown = fitted(text, lambda candidate: len(candidate) <= room)
    if len(text) <= room:
        assert shown == text
        return
    assert len(shown) == max(room, 1)  # the ellipsis alone when nothing else fits
    head, _, tail = shown.partition(ELLIPSIS)
    assert text.startswith(head) and text.endswith(tail)
