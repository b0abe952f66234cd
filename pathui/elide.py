"""Cutting a text to the room it has, with an ellipsis: the front ends measure, this decides.

No GL here: each front end passes its own ``fits`` (a label's measured width or height), so
the editor's status bar and the viewer's start screen cut texts the same way, by what is drawn,
not by a guess of pixels per character.
"""

from __future__ import annotations

from collections.abc import Callable

ELLIPSIS = "…"


def elide_middle(text: str, keep: int) -> str:
    """``keep`` characters of ``text``, its start and its end (a path's file name) around ``…``."""
    if keep >= len(text):
        return text
    head = (keep + 1) // 2
    return text[:head] + ELLIPSIS + text[len(text) - (keep - head) :]


def elide_start(text: str, keep: int) -> str:
    """The last ``keep`` characters of ``text`` after ``…`` (a path whose end matters)."""
    if keep >= len(text):
        return text
    return ELLIPSIS + text[len(text) - keep :]


def fitted(text: str, fits: Callable[[str], bool], elide: Callable[[str, int], str] = elide_middle) -> str:
    """``text`` if it fits, else the longest ``elide(text, keep)`` that does (``…`` alone at worst).

    A binary search over ``keep``: a dozen measurements for a long text, one for a short one.
    """
    if fits(text):
        return text
    low, high = 0, len(text)  # elide(text, low) fits (or low is 0), elide(text, high) does not
    while high - low > 1:
        keep = (low + high) // 2
        if fits(elide(text, keep)):
            low = keep
        else:
            high = keep
    return elide(text, low)
